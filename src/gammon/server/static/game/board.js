// @ts-check
import { LAYOUTS, barCentres, chooseLayout, cubeAt, isTop, pointU, rectAt, stackCentres, trayAt, viewBox, xy } from "./geometry.js";
import { drawCube, drawDie, svg } from "./svgparts.js";

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
 * @property {(point: number, pointer?: string) => void} onPoint a click or tap on a point (the pointer's type: "touch" taps are never a double-click)
 * @property {(point: number) => void} onSelect a tap that selects a point
 * @property {(from: number, to: number) => void} onDrag a checker dragged from a point to another
 * @property {() => void} [onDice] a click on the dice while they confirm the move
 */

// the desktop board's extent (the classic layout; see geometry.js for the others)
export const W = LAYOUTS.classic.W;
export const H = LAYOUTS.classic.H;

// 25 - q: the opposite-direction mapping, when the model brings none
export const OPPOSITE = Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));

export class BoardView {
  // handlers: onPoint(point) for a click or tap on a point (viewer numbering, 0 = off tray,
  // 25 = own bar); onSelect(point) when a drag starts from a point; onDrag(from, to) for a
  // checker dragged from one point to another. options.adaptive: the layout follows the
  // container and the screen (geometry.js: classic, wide or portrait), switching live when
  // the screen turns; otherwise the board is always the classic one.
  /**
   * @param {HTMLElement} container
   * @param {Handlers} handlers
   * @param {{adaptive?: boolean}} [options]
   */
  constructor(container, handlers, options = {}) {
    this.handlers = handlers;
    this.container = container;
    /** @type {import("./geometry.js").Geometry} */
    this.geo = LAYOUTS.classic;
    this.root = svg("svg", {
      viewBox: viewBox(this.geo),
      class: "board classic",
      role: "group",
      "data-testid": "board",
      "data-layout": "classic",
    });
    this.title = svg("title", {}, this.root);
    this.layer = svg("g", {}, this.root);
    /** @type {Element | null} the checker following a drag */
    this.ghost = null;
    /** @type {{point: number, x: number, y: number, moved: boolean, id: number} | null} */
    this.drag = null;
    /** @type {Model | null} */
    this.model = null;
    /** @type {{seat: number, pinned: boolean}[][] | undefined} the stacks drawn last */
    this.stacksCache = undefined;
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
    if (options.adaptive) {
      this.relayout();
      window.addEventListener("resize", () => this.relayout());
      if (typeof ResizeObserver === "function") new ResizeObserver(() => this.relayout()).observe(container);
    }
  }

  // The layout the container and the screen ask for; the board is drawn again when it changes.
  relayout() {
    const name = chooseLayout(this.container.clientWidth, window.innerWidth, window.innerHeight);
    if (name === this.geo.name) return;
    this.geo = LAYOUTS[name];
    this.cancelDrag();
    this.root.setAttribute("viewBox", viewBox(this.geo));
    this.root.setAttribute("data-layout", name);
    for (const n of Object.keys(LAYOUTS)) this.root.classList.toggle(n, n === name);
    this.stacksCache = undefined; // no slide from the other layout's places
    if (this.model) this.render(this.model);
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

  // --- drawing in board coordinates (u along the points, v across: geometry.js) ---

  /**
   * A rectangle from its extent along u and v.
   * @param {Element} g
   * @param {number} u
   * @param {number} v
   * @param {number} du
   * @param {number} dv
   * @param {Record<string, unknown>} [attrs]
   */
  rect(g, u, v, du, dv, attrs = {}) {
    return svg("rect", { ...rectAt(this.geo, u, v, du, dv), ...attrs }, g);
  }

  /**
   * Something centred at (u, v), given its screen attribute names for the centre.
   * @param {number} u
   * @param {number} v
   * @param {string} [ax]
   * @param {string} [ay]
   */
  at(u, v, ax = "x", ay = "y") {
    const p = xy(this.geo, u, v);
    return { [ax]: p.x, [ay]: p.y };
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
    const geo = this.geo;
    const top = (/** @type {{seat: number}[][]} */ stacks, /** @type {number} */ p) => {
      const vs = stackCentres(geo, stacks[p].length, isTop(p));
      return xy(geo, pointU(geo, p), vs[vs.length - 1]);
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
    const o = this.geo;
    this.rect(g, 0, 0, o.W, o.H, { class: "frame", rx: 10 });
    this.rect(g, o.LEFT_Q, o.TOP, 6 * o.P, o.BOTTOM - o.TOP, { class: "felt" });
    this.rect(g, o.RIGHT_Q, o.TOP, 6 * o.P, o.BOTTOM - o.TOP, { class: "felt" });
    this.rect(g, o.BAR_X, 0, o.BAR_W, o.H, { class: "bar" });
    for (const near of [false, true]) {
      const t = trayAt(o, near);
      this.rect(g, t.u, t.v, t.du, t.dv, { class: "tray", rx: 4 });
    }
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawPoints(g, model) {
    const o = this.geo;
    for (let p = 1; p <= 24; p++) {
      const u = pointU(o, p);
      const top = isTop(p);
      const base = top ? o.TOP : o.BOTTOM;
      const tip = top ? o.TOP + o.TRI : o.BOTTOM - o.TRI;
      const cls = `point ${(p % 2 === 0) !== top ? "pa" : "pb"}`;
      const corners = [xy(o, u - o.P / 2, base), xy(o, u + o.P / 2, base), xy(o, u, tip)];
      svg("polygon", { points: corners.map((c) => `${c.x},${c.y}`).join(" "), class: cls }, g);
      const label = svg("text", {
        ...this.at(u, top ? o.label.top : o.label.bottom),
        class: "point-label",
        "text-anchor": "middle",
        "dominant-baseline": o.label.central ? "central" : null,
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
    const o = this.geo;
    const bottom = model.bottom;
    const stacks = this.stacks(model);
    for (let p = 1; p <= 24; p++) {
      const stack = stacks[p];
      const n = stack.length;
      if (!n) continue;
      const u = pointU(o, p);
      const vs = stackCentres(o, n, isTop(p));
      const topSeat = stack[n - 1].seat;
      const movable = topSeat === bottom && model.interactive && model.sources && model.sources.has(p);
      const topCount = stack.filter((e) => e.seat === topSeat).length;
      vs.forEach((v, i) => {
        const e = stack[i];
        const c = this.checker(g, u, v, e.seat, i === n - 1 && n > 5 ? topCount : null, movable && i === n - 1);
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
        const vs = barCentres(o, onBar, own);
        const movable = own && model.interactive && model.sources && model.sources.has(25);
        vs.forEach((v, i) =>
          this.checker(g, o.BAR_X + o.BAR_W / 2, v, seat, i === onBar - 1 && onBar > 4 ? onBar : null, movable && i === onBar - 1),
        );
      }
    }
  }

  // movable: the top checker of a point the player may move from (marked with a ring)
  /**
   * @param {Element} g
   * @param {number} u
   * @param {number} v
   * @param {number} seat
   * @param {number | null} label
   * @param {boolean} [movable]
   */
  checker(g, u, v, seat, label, movable = false) {
    const R = this.geo.R;
    const { x, y } = xy(this.geo, u, v);
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
    const o = this.geo;
    for (const seat of [0, 1]) {
      const n = model.board[seat][0];
      const own = seat === model.bottom;
      const t = trayAt(o, own);
      // the slabs of a full tray (15) fit it, from the rim
      const pitch = Math.min(16, (t.dv - 8) / 15);
      for (let i = 0; i < n; i++) {
        const v = own ? o.BOTTOM - 4 - (i + 1) * pitch : o.TOP + 4 + i * pitch;
        this.rect(g, t.u + 8, v, t.du - 16, pitch - 1, { rx: Math.min(3, pitch / 3), class: `slab s${seat}` });
      }
      if (n) {
        // at the tray's inner end; over the slabs, outlined, where the tray lies on the bar
        const text = svg("text", {
          ...this.at(t.u + t.du / 2, o.TRAY_LEN ? t.v + t.dv / 2 : own ? o.MID + 30 : o.MID - 22),
          "text-anchor": "middle",
          "dominant-baseline": o.TRAY_LEN ? "central" : null,
          class: `tray-count${o.TRAY_LEN ? " over" : ""}`,
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
    const o = this.geo;
    const own = seat === model.bottom;
    const t = trayAt(o, own);
    const group = svg("g", { class: `waiting s${seat}`, "data-waiting": n, "data-seat": seat }, g);
    const r = 11;
    const space = o.TRAY_LEN ? t.dv - 12 : t.dv - 50;
    const step = Math.min(2 * r + 2, (space - 2 * r) / Math.max(1, Math.ceil(n / 2) - 1 || 1));
    const centre = t.u + t.du / 2;
    for (let i = 0; i < n; i++) {
      const col = i % 2;
      const row = Math.floor(i / 2);
      const cu = centre + (col ? r + 2 : -(r + 2));
      const cv = own ? o.BOTTOM - 6 - r - row * step : o.TOP + 6 + r + row * step;
      const c = svg("g", { class: `checker small s${seat}` }, group);
      svg("circle", { ...this.at(cu, cv, "cx", "cy"), r }, c);
    }
    // the count over its caption at the tray's inner end; where the tray lies on the bar,
    // over the checkers in its middle, the two side by side along u
    const onBar = Boolean(o.TRAY_LEN);
    const line = (/** @type {number} */ i) => ({
      u: centre + (onBar ? (i ? 14 : -14) : 0),
      v: onBar ? t.v + t.dv / 2 : own ? o.MID + 30 + 16 * i : o.MID - 22 - 16 * i,
    });
    const label = svg("text", {
      ...this.at(line(0).u, line(0).v),
      "text-anchor": "middle",
      "dominant-baseline": onBar ? "central" : null,
      class: `tray-count waiting-count${onBar ? " over" : ""}`,
    }, group);
    label.textContent = String(n);
    const caption = svg("text", {
      ...this.at(line(1).u, line(1).v),
      "text-anchor": "middle",
      "dominant-baseline": onBar ? "central" : null,
      class: `tray-label${onBar ? " over" : ""}`,
    }, group);
    caption.textContent = (model.labels && model.labels.waiting) || "to enter";
    svg("title", {}, group).textContent = `${n} ${caption.textContent}`;
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawCube(g, model) {
    const o = this.geo;
    const cube = model.cube;
    if (!cube || !cube.enabled) return;
    if (cube.offer) {
      const right = cube.offer.by === model.bottom;
      const c = xy(o, right ? (o.RIGHT_Q + o.RIGHT_END) / 2 : (o.LEFT_Q + o.BAR_X) / 2, o.MID);
      drawCube(g, c.x, c.y, cube.offer.value, "offered");
      return;
    }
    const owned = cube.owner !== null && cube.owner !== undefined;
    const at = cubeAt(o, owned ? cube.owner === model.bottom : null);
    const c = xy(o, at.u, at.v);
    // in the Crawford game (or a last roll) nobody may double: the cube is shown greyed out
    const node = drawCube(g, c.x, c.y, cube.value === 1 && cube.owner == null ? 64 : cube.value, cube.disabled ? "disabled" : "");
    if (cube.disabled) {
      node.setAttribute("data-disabled", "true");
      if (cube.disabledText) svg("title", {}, node).textContent = cube.disabledText;
    }
  }

  /**
   * @param {Element} g
   * @param {Model} model
   */
  drawDice(g, model) {
    const o = this.geo;
    const dice = model.dice;
    if (!dice || !dice.values || !dice.values.length) return;
    const right = dice.seat === model.bottom;
    const cu = right ? (o.RIGHT_Q + o.RIGHT_END) / 2 : (o.LEFT_Q + o.BAR_X) / 2;
    const n = dice.values.length;
    const size = n > 4 ? 36 : n > 2 ? 42 : 48;
    const gap = size + 10;
    dice.values.forEach((/** @type {number} */ value, /** @type {number} */ i) => {
      const c = xy(o, cu + (i - (n - 1) / 2) * gap, o.MID);
      drawDie(g, c.x, c.y, size, value, `s${dice.seat}${dice.used && dice.used[i] ? " used" : ""}`);
    });
    const width = (n - 1) * gap + size + 16;
    const sending = model.sending;
    if (sending) {
      // the move goes by itself in a moment: a ring round the dice runs out, with the words
      const ring = this.rect(g, cu - width / 2 - 6, o.MID - size / 2 - 14, width + 12, size + 28, {
        rx: 14, class: "dice-countdown", pathLength: 100, "data-testid": "sending",
      });
      ring.style.animationDuration = `${sending.ms}ms`;
      ring.style.animationDelay = `${-Math.round(sending.progress * sending.ms)}ms`;
      // below the dice on the wide board; past the end of their column on the upright one
      const at = o.transposed ? xy(o, cu + width / 2 + 22, o.MID) : xy(o, cu, o.MID + size / 2 + 36);
      const words = svg("text", { x: at.x, y: at.y, class: "dice-sending", "text-anchor": "middle" }, g);
      words.textContent = sending.label;
    }
    const onDice = this.handlers.onDice;
    if (!model.confirm || !onDice) return;
    // the move is complete: a click (or Enter) on the dice confirms it (at once)
    const hit = this.rect(g, cu - width / 2, o.MID - size / 2 - 8, width, size + 16, {
      rx: 10, class: "dice-confirm", role: "button", tabindex: 0, "aria-label": model.confirm, "data-action": "confirm-dice",
    });
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
    const o = this.geo;
    const sources = model.sources || new Set();
    const dests = model.dests || new Set();
    const interactive = Boolean(model.interactive);
    /**
     * @param {number} point
     * @param {number} u
     * @param {number} v
     * @param {number} du
     * @param {number} dv
     */
    const add = (point, u, v, du, dv) => {
      const classes = ["hit"];
      if (interactive && sources.has(point)) classes.push("src");
      if (interactive && dests.has(point)) classes.push("dest");
      if (model.selected === point) classes.push("selected");
      /** @type {Record<string, string | number>} */
      const attrs = { class: classes.join(" "), "data-point": point };
      if (classes.length > 1 && interactive) {
        attrs.tabindex = 0;
        attrs.role = "button";
        const labels = model.labels;
        const name = point === 25 ? labels && labels.bar : point === 0 ? labels && labels.tray : labels && labels.point && labels.point.replace("{n}", String(point));
        attrs["aria-label"] = name || String(point);
      }
      this.rect(g, u, v, du, dv, attrs);
      if (interactive && dests.has(point)) {
        // a marker where the checker would land
        let mu;
        let mv;
        if (point === 0) {
          const t = trayAt(o, true);
          mu = t.u + t.du / 2;
          mv = o.TRAY_LEN ? t.v + t.dv / 2 : o.BOTTOM - 40;
        } else {
          mu = pointU(o, point);
          const n = (this.stacksCache ? this.stacksCache[point].length : model.board[model.bottom][point]) + 1;
          const vs = stackCentres(o, Math.max(n, 1), isTop(point));
          mv = vs[vs.length - 1];
        }
        svg("circle", { ...this.at(mu, mv, "cx", "cy"), r: o.R - 4, class: "dest-mark" }, g);
      }
    };
    for (let p = 1; p <= 24; p++) {
      const top = isTop(p);
      add(p, pointU(o, p) - o.P / 2, top ? o.TOP : o.BOTTOM - o.AREA, o.P, o.AREA);
    }
    // the own half of the bar (up to the tray where the tray lies on the bar)
    add(25, o.BAR_X, o.MID, o.BAR_W, o.BOTTOM - o.MID - o.TRAY_LEN);
    // while checkers wait to enter (acey-deucey) the own tray is where they enter from
    const entering = model.waiting && model.waiting[model.bottom] > 0;
    const t = trayAt(o, true);
    add(entering ? 25 : 0, t.u, t.v, t.du, t.dv);
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
      svg("circle", { cx: 0, cy: 0, r: this.geo.R - 1 }, this.ghost);
      svg("circle", { cx: 0, cy: 0, r: this.geo.R - 9, class: "ring" }, this.ghost);
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
      this.handlers.onPoint(d.point, e.pointerType);
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
