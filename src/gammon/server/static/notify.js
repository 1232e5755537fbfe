// @ts-check
// The user socket (/ws/user, docs/protocol.md "The user socket"), on every page of a
// signed-in visitor: the number of challenges waiting for them on the header's badge, a
// notice to accept or decline each one, and, when a challenge of theirs is accepted, the way
// to its table.  The texts are the page's own (the server renders the notice's template in
// the visitor's language); this script only fills in names and numbers.

const RETRY_MAX_MS = 30000;

/**
 * @typedef {{id: string, from: string, to: string, options: {match_length: number, rated?: boolean},
 *   table: string | null}} Challenge
 * @typedef {{type: string, event?: string, challenge?: Challenge, incoming: Challenge[]}} News
 */

function start() {
  const me = document.getElementById("me");
  const badge = document.getElementById("challenge-badge");
  const box = document.getElementById("challenge-notices");
  const template = /** @type {HTMLTemplateElement | null} */ (document.getElementById("challenge-notice"));
  if (!me || !badge || !box || !template) return;
  const name = me.dataset.name;
  let retry = 1000;

  /** @param {number} count */
  const setBadge = (count) => {
    badge.textContent = count ? String(count) : "";
    badge.hidden = !count;
  };

  /** @param {HTMLElement} node @param {string} field @param {string} text */
  const fill = (node, field, text) => {
    const slot = node.querySelector(`[data-field="${field}"]`);
    if (slot) slot.textContent = text;
  };

  /** @param {Challenge[]} incoming */
  const showNotices = (incoming) => {
    const pending = new Set(incoming.map((c) => c.id));
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll("[data-challenge]"))) {
      if (!pending.has(node.dataset.challenge || "")) node.remove();
    }
    for (const c of incoming) {
      if (box.querySelector(`[data-challenge="${CSS.escape(c.id)}"]`)) continue;
      const first = template.content.firstElementChild;
      if (!first) return;
      const node = /** @type {HTMLElement} */ (first.cloneNode(true));
      node.dataset.challenge = c.id;
      fill(node, "from", c.from);
      const length = /** @type {HTMLElement | null} */ (node.querySelector('[data-field="length"]'));
      const n = c.options.match_length;
      if (length) length.textContent = n === 1 ? length.dataset.one || "1 point" : (length.dataset.many || "%d points").replace("%d", String(n));
      const rated = /** @type {HTMLElement | null} */ (node.querySelector('[data-field="rated"]'));
      if (rated) rated.hidden = !c.options.rated;
      for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (node.querySelectorAll("form[data-answer]"))) {
        form.action = `/challenges/${encodeURIComponent(c.id)}/${form.dataset.answer}`;
      }
      box.append(node);
    }
  };

  /** @param {News} msg */
  const handle = (msg) => {
    window.dispatchEvent(new CustomEvent("gammon:user", { detail: msg })); // inbox.js listens
    if (msg.type !== "challenges" && msg.type !== "challenge") return;
    setBadge(msg.incoming.length);
    showNotices(msg.incoming);
    const c = msg.challenge;
    if (msg.event === "accepted" && c && c.table && c.from === name) {
      location.assign(`/table/${encodeURIComponent(c.table)}`);
    }
  };

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/user`);
    ws.addEventListener("open", () => {
      retry = 1000;
    });
    ws.addEventListener("message", (event) => {
      try {
        handle(JSON.parse(event.data));
      } catch (err) {
        console.warn("gammon: a user message could not be read", err);
      }
    });
    ws.addEventListener("close", (event) => {
      if ([4401, 4403, 4429].includes(event.code)) return; // signed out, refused: stop
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, RETRY_MAX_MS);
    });
  };
  connect();
}

start();
