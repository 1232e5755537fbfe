// @ts-check
// Tiny DOM helpers. Text always goes in as text nodes (never as HTML), so user text is safe.

/** @typedef {Node | string | number | null | undefined | false | any[]} Child a child, or an array of them */

/**
 * An element with attributes (`class`, `dataset`, `on…` listeners, true for a bare attribute;
 * null, undefined and false left out) and children (text as text nodes; arrays flattened).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {any} the element (typed loosely: inputs, forms and buttons alike)
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  append(node, children);
  return node;
}

/**
 * @param {Element} node
 * @param {Child[]} children
 */
function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.append(child);
    else node.append(document.createTextNode(String(child)));
  }
}

/**
 * @param {Element} node
 * @param {...Child} children
 */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/** @param {number[] | null | undefined} dice */
export function fmtDice(dice) {
  if (!dice || dice.length < 2) return "";
  return `${dice[0]}${dice[1]}`;
}

/** @param {number} seconds */
export function fmtClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

// localStorage, read (no value) or written; nothing is remembered where storage is disabled.
/**
 * @param {string} key
 * @param {string} [value]
 */
export function storage(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch {
    // storage disabled: nothing is remembered
  }
  return null;
}

/**
 * Submit a hidden POST form (with the CSRF token): the browser goes where the server sends it.
 * @param {string} csrf the page's CSRF token
 * @param {string} action the form's URL
 * @param {Record<string, string>} fields
 * @example postForm(csrf, "/tables/Ab3dE5fG7hJ9/sit", { seat: "1" })
 */
export function postForm(csrf, action, fields) {
  const form = h("form", { method: "post", action, hidden: true });
  form.append(h("input", { type: "hidden", name: "csrf_token", value: csrf }));
  for (const [k, v] of Object.entries(fields)) form.append(h("input", { type: "hidden", name: k, value: v }));
  document.body.append(form);
  form.submit();
}

/**
 * Keeps a scrolled list (the moves, the chat) at its newest line while the reader has not
 * scrolled up, without reading the layout while the page draws.  The page draws itself
 * after every click and message; a read of `scrollTop` there made the browser lay the whole
 * page out at once, and again for each list (three layouts a draw, 80% of the page's layout
 * time in a game).  Where the reader is comes from the list's own scroll events, and the
 * move to the bottom waits for the next frame, whose layout the browser does anyway.
 * @example
 * const stick = new StickToBottom(list);
 * replaceChildren(list, lines);
 * stick.changed(); // the newest line shows at the next frame, if the reader was there
 */
export class StickToBottom {
  /** @param {HTMLElement} box */
  constructor(box) {
    this.box = box;
    this.pinned = true; // a new list starts at its end
    this.queued = false;
    /** @type {number | null} where our own move to the end left the list */
    this.movedTo = null;
    box.addEventListener("scroll", () => {
      // the event of our own move comes a frame later, when lines may have been added
      // below: it says nothing of the reader
      if (this.movedTo !== null && Math.abs(box.scrollTop - this.movedTo) <= 1) return;
      this.movedTo = null;
      this.pinned = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
    }, { passive: true });
  }

  /** The list's lines changed: show the newest at the next frame if the reader was there. */
  changed() {
    if (!this.pinned || this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      if (!this.pinned) return;
      this.box.scrollTop = this.box.scrollHeight;
      this.movedTo = this.box.scrollTop;
    });
  }
}
