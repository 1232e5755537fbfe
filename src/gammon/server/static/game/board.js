// @ts-check
// The SVG backgammon board. It draws what it is given and reports clicks and drags; it knows
// no rules (the server sends the legal steps).
//
// Points are given in the numbering of the seat at the bottom (the viewer): its home board is
// bottom right (points 1..6), it moves 24 -> 1. The seat at the top has its point q drawn at
// the viewer's other[q] (the variant's mapping, `variant.other_point` in the state): 25 - q
// when the two sides go round in opposite directions (backgammon), q - 12 / q + 12 when they
// go the same way (fevga, long nardy, jacquet). Index 0 of a board is "borne off", 25 the bar,
// as in the protocol.

/**
 * What the board draws (in the viewer's numbering for points; boards per seat, each in its
 * own numbering, 26 counts: 0 off, 1..24, 25 the bar).
 * @typedef {object} Model
 * @property {number} bottom the seat drawn at the bottom
 * @property {number[][]} board
 * @property {number[][]} [pinned] per seat, its pinned checkers' points (own numbering)
 * @property {number[]} [waiting] per seat, checkers still to enter
 * @property {number[]} [other] `variant.other_point`
 * @property {{waiting: string, pinned: string, point?: string, bar?: string, tray?: string}} [labels] words on the board; `point` has `{n}`
 * @property {{seat: number, values: number[], used: boolean[]} | null} dice
 * @property {{enabled: boolean, disabled: boolean, disabledText: string, value: number, owner: number | null, offer: {value: number, by: number} | null} | null} cube
 * @property {Set<number>} sources points a checker may leave
 * @property {Set<number>} dests where the selected checker may go
 * @property {number | null} selected
 * @property {boolean} interactive
 * @property {string | null} [confirm] the label of a click on the dice that confirms the move
 * @property {{progress: number, ms: number, label: string} | null} [sending] a complete move about to be
 *   sent by itself: how far its grace has run (0..1), the grace in ms, and the words shown
 */
/**
 * @typedef {object} Handlers
 * @property {(point: number) => void} onPoint a click or tap on a point
 * @property {(point: number) => void} onSelect a tap that selects a point
 * @property {(from: number, to: number) => void} onDrag a checker dragged from a point to another
 * @property {() => void} [onDice] a click on the dice while they confirm the move
 */

const NS = "http://www.w3.org/2000/svg";

export const W = 940;
export const H = 640;
const P = 60; // point width
const R = 27; // checker radius
const STEP = 2 * R; // stack spacing
const TOP = 18; // top of the top points
const BOTTOM = H - 18; // bottom of the bottom points
const AREA = 270; // height of a point's area
const TRI = 250; // triangle height
const MID = H / 2;
const LEFT_Q = 60; // x of the left quadrant
const BAR_X = LEFT_Q + 6 * P; // 420
const BAR_W = 60;
const RIGHT_Q = BAR_X + BAR_W; // 480
const RIGHT_END = RIGHT_Q + 6 * P; // 840
const TRAY_X = 852;
const TRAY_W = 76;
const CUBE_X = 30;

// 25 - q: the opposite-direction mapping, when the model brings none
export const OPPOSITE = Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));

/**
 * An SVG element with these attributes (null ones left out), appended to `parent` if given.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {Element | null} [parent]
 */
function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.append(node);
  return node;
}

// Centre x of a point (viewer numbering 1..24) and whether it is on the top row.
/** @param {number} p */
export function pointX(p) {
  if (p <= 6) return RIGHT_END - (p - 0.5) * P;
  if (p <= 12) return BAR_X - (p - 6.5) * P;
  if (p <= 18) return LEFT_Q + (p - 12.5) * P;
  return RIGHT_Q + (p - 18.5) * P;
}

/** @param {number} p */
export function isTop(p) {
  return p >= 13;
}

// Centres of a stack of n checkers on one point, from the rim towards the middle.
/**
 * @param {number} n
 * @param {boolean} top
 * @param {number} [maxHeight]
 */
function stackCentres(n, top, maxHeight = AREA) {
  const step = n > 1 ? Math.min(STEP, (maxHeight - 2 * R) / (n - 1)) : STEP;
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(top ? TOP + R + i * step : BOTTOM - R - i * step);
  }
  return out;
}

/**
 * Centres of `n` checkers on the bar: the bottom seat's in the lower half.
 * @param {number} n
 * @param {boolean} bottomSeat whether they are the bottom seat's
 */
function barCentres(n, bottomSeat) {
  const space = MID - TOP - 40; // from 40 px off the middle to the rim
  const step = n > 1 ? Math.min(STEP, (space - 2 * R) / (n - 1)) : STEP;
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(bottomSeat ? MID + 40 + R + i * step : MID - 40 - R - i * step);
  }
  return out;
}

/** @type {Record<number, number[][]>} */
const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/**
 * @param {Element} parent
 * @param {number} cx
 * @param {number} cy
 * @param {number} size
 * @param {number} value
 * @param {string} cls
 */
function drawDie(parent, cx, cy, size, value, cls) {
  const g = svg("g", { class: `die ${cls}`, "data-die": value }, parent);
  svg("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: size / 6 }, g);
  const off = size * 0.26;
  for (const [dx, dy] of PIPS[value] || []) {
    svg("circle", { cx: cx + dx * off, cy: cy + dy * off, r: size * 0.09, class: "pip" }, g);
  }
  return g;
}

/**
 * @param {Element} parent
 * @param {number} cx
 * @param {number} cy
 * @param {number} value
 * @param {string} cls
 */
function drawCube(parent, cx, cy, value, cls) {
  const size = 46;
  const g = svg("g", { class: `cube ${cls}`, "data-cube": value }, parent);
  svg("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: 7 }, g);
  const text = svg("text", { x: cx, y: cy + 1, "text-anchor": "middle", "dominant-baseline": "central" }, g);
  text.textContent = String(value);
  if (value >= 10) text.setAttribute("font-size", "20");
  return g;
}

export class BoardView {
  // handlers: onPoint(point) for a click or tap on a point (viewer numbering, 0 = off tray,
  // 25 = own bar); onSelect(point) when a drag starts from a point; onDrag(from, to) for a
  // checker dragged from one point to another.
  /**
   * @param {HTMLElement} container
   * @param {Handlers} handlers
   */
  constructor(container, handlers) {
    this.handlers = handlers;
    this.root = svg("svg", {
      viewBox: `0 0 ${W} ${H}`,
      class: "board",
      role: "group",
      "data-testid": "board",
    });
    this.title = svg("title", {}, this.root);
    this.layer = svg("g", {}, this.root);
    /** @type {Element | null} the checker following a drag */
    this.ghost = null;
    /** @type {{point: number, x: number, y: number, moved: boolean, id: number} | null} */
    this.drag = null;
    /** @type {Model | null} */
    this.model = null;
    container.append(this.root);
    this.root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.root.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.root.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.root.addEventListener("pointercancel", () => this.cancelDrag());
    this.root.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      const target = e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest("[data-point]")) : null;
      if (!target) return;
      e.preventDefault();
      this.handlers.onPoint(Number(target.dataset.point));
    });
  }

  /** @param {string} text */
  setTitle(text) {
    this.title.textContent = text;
    this.root.setAttribute("aria-label", text);
  }

  // model: {bottom, board: [seat0[26], seat1[26]], other: [26] (the variant's point mapping),
  //   pinned: [seat0 points, seat1 points] | null (plakoto: each seat's pinned checkers, own
  //   numbering), waiting: [n0, n1] | null (acey-deucey: checkers still to enter),
  //   labels: {waiting, pinned}, dice: {seat, values, used} | null,
  //   cube: {enabled, disabled, disabledText, value, owner, offer: {value, by} | null},
  //   sources: Set, dests: Set,
  //   selected: point | null, interactive: bool}
  /** @param {Model} model */
  render(model) {
    this.model = model;
    const layer = svg("g", {});
    this.drawFrame(layer);
    this.drawPoints(layer, model);
    this.drawCheckers(layer, model);
    this.drawTrays(layer, model);
    this.drawCube(layer, model);
    this.drawDice(layer, model);
    const before = this.stacksCache;
    this.stacksCache = this.stacks(model);
    this.drawTargets(layer, model);
    this.layer.replaceWith(layer);
    this.layer = layer;
    if (before) this.animateOther(before, this.stacksCache, 1 - model.bottom);
    this.root.classList.toggle("interactive", Boolean(model.interactive));
  }

  /**
   * The other seat's checkers slide from the points they left to the points they reached (a
   * move of theirs: at most four checkers, each leaving a point and reaching another), unless
   * the system asks for reduced motion.
   * @param {{seat: number}[][]} before the stacks drawn before, point by point
   * @param {{seat: number}[][]} after the stacks drawn now
   * @param {number} seat the other seat
   */
  animateOther(before, after, seat) {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    /** @type {number[]} */
    const left = [];
    /** @type {number[]} */
    const reached = [];
    for (let p = 1; p <= 24; p++) {
      const diff = after[p].filter((e) => e.seat === seat).length - before[p].filter((e) => e.seat === seat).length;
      for (let i = 0; i < Math.abs(diff); i++) (diff < 0 ? left : reached).push(p);
    }
    if (!left.length || left.length !== reached.length || left.length > 4) return;
    // paired in order along the board (a checker that went farther came from farther)
    left.sort((a, b) => a - b);
    reached.sort((a, b) => a - b);
    const top = (/** @type {{seat: number}[][]} */ stacks, /** @type {number} */ p) => {
      const ys = stackCentres(stacks[p].length, isTop(p));
      return { x: pointX(p), y: ys[ys.length - 1] };
    };
    reached.forEach((p, i) => {
      const nodes = this.layer.querySelectorAll(`.checker.s${seat}[data-at="${p}"]`);
      const node = /** @type {SVGElement | undefined} */ (nodes[nodes.length - 1]);
      if (!node || typeof node.animate !== "function") return;
      const from = top(before, left[i]);
      const to = top(after, p);
      node.classList.add("arriving");
      node.animate([{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px)` }, { transform: "translate(0px, 0px)" }], { duration: 450, easing: "ease-out" });
    });
  }

  /** @param {Element} g */
  drawFrame(g) {
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "frame", rx: 10 }, g);
    svg("rect", { x: LEFT_Q, y: TOP, width: 6 * P, height: BOTTOM - TOP, class: "felt" }, g);
    svg("rect", { x: RIGHT_Q, y: TOP, width: 6 * P, height: BOTTOM - TOP, class: "felt" }, g);
    svg("rect", { x: BAR_X, y: 0, width: BAR_W, height: H, class: "bar" }, g);
    svg("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: MID - TOP - 10, class: "tray", rx: 4 }, g);
    svg("rect", { x: TRAY_X, y: MID + 10, width: TRAY_W, height: BOTTOM - MID - 10, class: "tray", rx: 4 }, g);
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawPoints(g, model) {
    for (let p = 1; p <= 24; p++) {
      const x = pointX(p);
      const top = isTop(p);
      const base = top ? TOP : BOTTOM;
      const tip = top ? TOP + TRI : BOTTOM - TRI;
      const cls = `point ${(p % 2 === 0) !== top ? "pa" : "pb"}`;
      svg("polygon", { points: `${x - P / 2},${base} ${x + P / 2},${base} ${x},${tip}`, class: cls }, g);
      const label = svg("text", {
        x,
        y: top ? TOP - 5 : H - 4,
        class: "point-label",
        "text-anchor": "middle",
      }, g);
      label.textContent = String(p);
    }
  }

  // The viewer's point where `seat` has its point q.
  /**
   * @param {Model} model
   * @param {number} seat
   * @param {number} q
   */
  viewPoint(model, seat, q) {
    if (seat === model.bottom) return q;
    return (model.other || OPPOSITE)[q];
  }

  // Each point's stack from the rim up: [{seat, pinned}]. A pinned checker (plakoto) lies at
  // the rim, under the checkers of the seat that pins it.
  /** @param {Model} model */
  stacks(model) {
    /** @type {{seat: number, pinned: boolean}[][]} */
    const out = Array.from({ length: 25 }, () => []);
    for (const seat of [0, 1]) {
      const counts = model.board[seat];
      const pins = new Set((model.pinned && model.pinned[seat]) || []);
      for (let q = 1; q <= 24; q++) {
        const n = counts[q];
        if (!n) continue;
        const p = this.viewPoint(model, seat, q);
        const pinned = pins.has(q);
        for (let i = 0; i < n; i++) {
          const entry = { seat, pinned: pinned && i === 0 };
          if (entry.pinned) out[p].unshift(entry);
          else out[p].push(entry);
        }
      }
    }
    return out;
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawCheckers(g, model) {
    const bottom = model.bottom;
    const stacks = this.stacks(model);
    for (let p = 1; p <= 24; p++) {
      const stack = stacks[p];
      const n = stack.length;
      if (!n) continue;
      const x = pointX(p);
      const ys = stackCentres(n, isTop(p));
      const topSeat = stack[n - 1].seat;
      const movable = topSeat === bottom && model.interactive && model.sources && model.sources.has(p);
      const topCount = stack.filter((e) => e.seat === topSeat).length;
      ys.forEach((y, i) => {
        const e = stack[i];
        const c = this.checker(g, x, y, e.seat, i === n - 1 && n > 5 ? topCount : null, movable && i === n - 1);
        c.setAttribute("data-at", String(p));
        if (e.pinned) {
          c.classList.add("pinned");
          c.setAttribute("data-pinned", "true");
          svg("title", {}, c).textContent = (model.labels && model.labels.pinned) || "pinned";
        }
      });
    }
    for (const seat of [0, 1]) {
      const counts = model.board[seat];
      const own = seat === bottom;
      const onBar = counts[25];
      if (onBar) {
        const ys = barCentres(onBar, own);
        const movable = own && model.interactive && model.sources && model.sources.has(25);
        ys.forEach((y, i) =>
          this.checker(g, BAR_X + BAR_W / 2, y, seat, i === onBar - 1 && onBar > 4 ? onBar : null, movable && i === onBar - 1),
        );
      }
    }
  }

  // movable: the top checker of a point the player may move from (marked with a ring)
  /**
   * @param {Element} g
   * @param {number} x
   * @param {number} y
   * @param {number} seat
   * @param {number | null} label
   * @param {boolean} [movable]
   */
  checker(g, x, y, seat, label, movable = false) {
    const c = svg("g", { class: `checker s${seat}${movable ? " movable" : ""}`, "data-seat": seat }, g);
    svg("circle", { cx: x, cy: y, r: R - 1 }, c);
    svg("circle", { cx: x, cy: y, r: R - 9, class: "ring" }, c);
    if (label) {
      const text = svg("text", { x, y: y + 1, "text-anchor": "middle", "dominant-baseline": "central", class: "count" }, c);
      text.textContent = String(label);
    }
    return c;
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawTrays(g, model) {
    for (const seat of [0, 1]) {
      const n = model.board[seat][0];
      const own = seat === model.bottom;
      const h = 15;
      for (let i = 0; i < n; i++) {
        const y = own ? BOTTOM - 4 - (i + 1) * (h + 1) : TOP + 4 + i * (h + 1);
        svg("rect", { x: TRAY_X + 8, y, width: TRAY_W - 16, height: h, rx: 3, class: `slab s${seat}` }, g);
      }
      if (n) {
        const text = svg("text", {
          x: TRAY_X + TRAY_W / 2,
          y: own ? MID + 30 : MID - 22,
          "text-anchor": "middle",
          class: "tray-count",
        }, g);
        text.textContent = String(n);
      }
      this.drawWaiting(g, model, seat);
    }
  }

  // Acey-deucey: the checkers a seat has still to enter, in its tray (a seat bears off only
  // once all of them are in, so the tray holds one kind or the other).
  /**
   * @param {Element} g
   * @param {Model} model
   * @param {number} seat
   */
  drawWaiting(g, model, seat) {
    const n = model.waiting ? model.waiting[seat] : 0;
    if (!n) return;
    const own = seat === model.bottom;
    const group = svg("g", { class: `waiting s${seat}`, "data-waiting": n, "data-seat": seat }, g);
    const r = 11;
    const space = MID - TOP - 60;
    const step = Math.min(2 * r + 2, (space - 2 * r) / Math.max(1, Math.ceil(n / 2) - 1 || 1));
    for (let i = 0; i < n; i++) {
      const col = i % 2;
      const row = Math.floor(i / 2);
      const cx = TRAY_X + TRAY_W / 2 + (col ? r + 2 : -(r + 2));
      const cy = own ? BOTTOM - 6 - r - row * step : TOP + 6 + r + row * step;
      const c = svg("g", { class: `checker small s${seat}` }, group);
      svg("circle", { cx, cy, r }, c);
    }
    const label = svg("text", {
      x: TRAY_X + TRAY_W / 2,
      y: own ? MID + 30 : MID - 22,
      "text-anchor": "middle",
      class: "tray-count waiting-count",
    }, group);
    label.textContent = String(n);
    const caption = svg("text", {
      x: TRAY_X + TRAY_W / 2,
      y: own ? MID + 46 : MID - 38,
      "text-anchor": "middle",
      class: "tray-label",
    }, group);
    caption.textContent = (model.labels && model.labels.waiting) || "to enter";
    svg("title", {}, group).textContent = `${n} ${caption.textContent}`;
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawCube(g, model) {
    const cube = model.cube;
    if (!cube || !cube.enabled) return;
    if (cube.offer) {
      const right = cube.offer.by === model.bottom;
      const cx = right ? (RIGHT_Q + RIGHT_END) / 2 : (LEFT_Q + BAR_X) / 2;
      drawCube(g, cx, MID, cube.offer.value, "offered");
      return;
    }
    let cy = MID;
    if (cube.owner !== null && cube.owner !== undefined) {
      cy = cube.owner === model.bottom ? BOTTOM - 30 : TOP + 30;
    }
    // in the Crawford game (or a last roll) nobody may double: the cube is shown greyed out
    const c = drawCube(g, CUBE_X, cy, cube.value === 1 && cube.owner == null ? 64 : cube.value, cube.disabled ? "disabled" : "");
    if (cube.disabled) {
      c.setAttribute("data-disabled", "true");
      if (cube.disabledText) svg("title", {}, c).textContent = cube.disabledText;
    }
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawDice(g, model) {
    const dice = model.dice;
    if (!dice || !dice.values || !dice.values.length) return;
    const right = dice.seat === model.bottom;
    const cx = right ? (RIGHT_Q + RIGHT_END) / 2 : (LEFT_Q + BAR_X) / 2;
    const n = dice.values.length;
    const size = n > 4 ? 36 : n > 2 ? 42 : 48;
    const gap = size + 10;
    dice.values.forEach((/** @type {number} */ v, /** @type {number} */ i) => {
      const x = cx + (i - (n - 1) / 2) * gap;
      drawDie(g, x, MID, size, v, `s${dice.seat}${dice.used && dice.used[i] ? " used" : ""}`);
    });
    const width = (n - 1) * gap + size + 16;
    const sending = model.sending;
    if (sending) {
      // the move goes by itself in a moment: a ring round the dice runs out, with the words
      const ring = svg("rect", {
        x: cx - width / 2 - 6, y: MID - size / 2 - 14, width: width + 12, height: size + 28, rx: 14,
        class: "dice-countdown", pathLength: 100, "data-testid": "sending",
      }, g);
      ring.style.animationDuration = `${sending.ms}ms`;
      ring.style.animationDelay = `${-Math.round(sending.progress * sending.ms)}ms`;
      const words = svg("text", { x: cx, y: MID + size / 2 + 36, class: "dice-sending", "text-anchor": "middle" }, g);
      words.textContent = sending.label;
    }
    const onDice = this.handlers.onDice;
    if (!model.confirm || !onDice) return;
    // the move is complete: a click (or Enter) on the dice confirms it (at once)
    const hit = svg("rect", {
      x: cx - width / 2, y: MID - size / 2 - 8, width, height: size + 16, rx: 10,
      class: "dice-confirm", role: "button", tabindex: 0, "aria-label": model.confirm, "data-action": "confirm-dice",
    }, g);
    svg("title", {}, hit).textContent = model.confirm;
    hit.addEventListener("click", () => onDice());
    hit.addEventListener("keydown", (e) => {
      if (/** @type {KeyboardEvent} */ (e).key !== "Enter" && /** @type {KeyboardEvent} */ (e).key !== " ") return;
      e.preventDefault();
      e.stopPropagation();
      onDice();
    });
  }

  // Transparent hit areas over every point, the own bar and the own tray; classes mark the
  // selectable sources, the selection and the destinations.
  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawTargets(g, model) {
    const sources = model.sources || new Set();
    const dests = model.dests || new Set();
    const interactive = Boolean(model.interactive);
    /**
     * @param {number} point
     * @param {number} x
     * @param {number} y
     * @param {number} w
     * @param {number} h
     */
    const add = (point, x, y, w, h) => {
      const classes = ["hit"];
      if (interactive && sources.has(point)) classes.push("src");
      if (interactive && dests.has(point)) classes.push("dest");
      if (model.selected === point) classes.push("selected");
      /** @type {Record<string, string | number>} */
      const attrs = { x, y, width: w, height: h, class: classes.join(" "), "data-point": point };
      if (classes.length > 1 && interactive) {
        attrs.tabindex = 0;
        attrs.role = "button";
        const labels = model.labels;
        const name = point === 25 ? labels && labels.bar : point === 0 ? labels && labels.tray : labels && labels.point && labels.point.replace("{n}", String(point));
        attrs["aria-label"] = name || String(point);
      }
      svg("rect", attrs, g);
      if (interactive && dests.has(point)) {
        // a marker where the checker would land
        let mx;
        let my;
        if (point === 0) {
          mx = TRAY_X + TRAY_W / 2;
          my = BOTTOM - 40;
        } else {
          mx = pointX(point);
          const n = (this.stacksCache ? this.stacksCache[point].length : model.board[model.bottom][point]) + 1;
          const ys = stackCentres(Math.max(n, 1), isTop(point));
          my = ys[ys.length - 1];
        }
        svg("circle", { cx: mx, cy: my, r: R - 4, class: "dest-mark" }, g);
      }
    };
    for (let p = 1; p <= 24; p++) {
      const top = isTop(p);
      add(p, pointX(p) - P / 2, top ? TOP : BOTTOM - AREA, P, AREA);
    }
    add(25, BAR_X, MID, BAR_W, BOTTOM - MID);
    // while checkers wait to enter (acey-deucey) the own tray is where they enter from
    const entering = model.waiting && model.waiting[model.bottom] > 0;
    add(entering ? 25 : 0, TRAY_X, MID + 10, TRAY_W, BOTTOM - MID - 10);
  }

  // --- pointer input: a tap selects; a drag from a source to a destination plays a step ---

  /** @param {PointerEvent} e */
  toSvg(e) {
    const m = /** @type {SVGSVGElement} */ (this.root).getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: pt.x, y: pt.y };
  }

  /** @param {PointerEvent} e */
  pointAt(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const hit = el && el.closest && /** @type {HTMLElement | null} */ (el.closest("[data-point]"));
    return hit && this.root.contains(hit) ? Number(hit.dataset.point) : null;
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    // while a complete move waits to be sent, a click anywhere on the points takes it back
    if (!this.model || !(this.model.interactive || this.model.sending) || e.button > 0) return;
    const target = e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest("[data-point]")) : null;
    if (!target) return;
    const point = Number(target.dataset.point);
    this.drag = { point, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
    if (this.model.sources.has(point)) {
      try {
        this.root.setPointerCapture(e.pointerId);
      } catch {
        // capture is an optimisation only
      }
    }
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
    if (!this.model || !this.model.sources.has(d.point)) return;
    d.moved = true;
    const { x, y } = this.toSvg(e);
    if (!this.ghost) {
      this.ghost = svg("g", { class: `checker ghost s${this.model.bottom}` }, this.root);
      svg("circle", { cx: 0, cy: 0, r: R - 1 }, this.ghost);
      svg("circle", { cx: 0, cy: 0, r: R - 9, class: "ring" }, this.ghost);
      // a drag only selects its checker (a click may play a step at once: see onPoint)
      if (this.model.selected !== d.point) (this.handlers.onSelect || this.handlers.onPoint)(d.point);
    }
    this.ghost.setAttribute("transform", `translate(${x} ${y})`);
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.drag = null;
    try {
      this.root.releasePointerCapture(e.pointerId);
    } catch {
      // not captured
    }
    if (this.ghost) {
      this.ghost.remove();
      this.ghost = null;
    }
    if (!d.moved) {
      this.handlers.onPoint(d.point);
      return;
    }
    const to = this.pointAt(e);
    if (to !== null && to !== d.point) this.handlers.onDrag(d.point, to);
  }

  cancelDrag() {
    this.drag = null;
    if (this.ghost) {
      this.ghost.remove();
      this.ghost = null;
    }
  }
}
