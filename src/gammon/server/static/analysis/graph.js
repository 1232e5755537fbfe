// @ts-check
// The equity graph: player 0's winning chance (left axis, %) and equity (right axis) after
// every move, across the whole match (one x per replay step), with the game boundaries,
// the marked decisions and a cursor on the step shown. The scaling is pure (tested in
// tests/js); drawGraph builds the SVG.

/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").StepInfo} StepInfo */
/** @typedef {(key: string) => string} Say */

export const WIDTH = 1000;
export const HEIGHT = 240;
export const MARGIN = { left: 52, right: 58, top: 12, bottom: 34 };
/** The equity axis shows -EQUITY_RANGE..+EQUITY_RANGE (beyond, the line is clipped). */
export const EQUITY_RANGE = 1;

/**
 * The graph's scales for `count` steps.
 * @param {number} count
 */
export function graphScale(count, width = WIDTH, height = HEIGHT) {
  const left = MARGIN.left;
  const right = width - MARGIN.right;
  const top = MARGIN.top;
  const bottom = height - MARGIN.bottom;
  const span = Math.max(1, count - 1);
  return {
    left,
    right,
    top,
    bottom,
    /** @param {number} n a step index */
    x: (n) => left + ((right - left) * n) / span,
    /** @param {number} win a chance 0..1 */
    winY: (win) => bottom - (bottom - top) * Math.max(0, Math.min(1, win)),
    /** @param {number} eq an equity */
    equityY: (eq) => {
      const e = Math.max(-EQUITY_RANGE, Math.min(EQUITY_RANGE, eq));
      return bottom - ((bottom - top) * (e + EQUITY_RANGE)) / (2 * EQUITY_RANGE);
    },
    /** The step nearest to an x (in the graph's units). @param {number} x */
    stepAt: (x) => Math.max(0, Math.min(count - 1, Math.round(((x - left) / (right - left)) * span))),
  };
}

/**
 * The lines, game boundaries and markers of the graph.
 * @param {Step[]} steps
 * @param {StepInfo[]} infos
 * @param {ReturnType<typeof graphScale>} scale
 */
export function graphShapes(steps, infos, scale) {
  let win = "";
  let equity = "";
  let pen = "M";
  let lastY = scale.winY(0.5);
  /** @type {{x: number, game: number}[]} */
  const games = [];
  /** @type {{n: number, x: number, y: number, mark: string, cube: boolean}[]} */
  const markers = [];
  steps.forEach((step, n) => {
    const x = scale.x(n);
    if (step.kind === "start") {
      games.push({ x, game: step.g });
      pen = "M";
    }
    const point = infos[n].point;
    if (point) {
      lastY = scale.winY(point.win);
      win += `${pen}${x.toFixed(1)},${lastY.toFixed(1)}`;
      equity += `${pen}${x.toFixed(1)},${scale.equityY(point.equity).toFixed(1)}`;
      pen = "L";
    }
    if (infos[n].mark !== "none") markers.push({ n, x, y: lastY, mark: infos[n].mark, cube: infos[n].cubeError });
  });
  return { win, equity, games, markers };
}

const NS = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {Element} parent
 * @param {string} [text]
 */
function el(tag, attrs, parent, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  parent.append(node);
  return node;
}

/**
 * The graph's size for a container `width` px wide (drawn at its real size: the texts stay
 * readable on a phone).
 * @param {number} width
 */
export function graphSize(width) {
  const w = Math.max(300, Math.round(width || WIDTH));
  return { width: w, height: w < 600 ? 200 : HEIGHT };
}

/**
 * Draw the graph into `svg` (emptied first) at `size`; returns its scale (for clicks) and
 * the cursor line, to move with the step.
 * @param {SVGSVGElement} svg
 * @param {{width: number, height: number}} size
 * @param {Step[]} steps
 * @param {StepInfo[]} infos
 * @param {string} player0 the name whose chances are drawn
 * @param {Say} say
 */
export function drawGraph(svg, size, steps, infos, player0, say) {
  const { width, height } = size;
  const scale = graphScale(steps.length, width, height);
  const shapes = graphShapes(steps, infos, scale);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  const axes = el("g", { class: "axes" }, svg);
  el("rect", { x: scale.left, y: scale.top, width: scale.right - scale.left, height: scale.bottom - scale.top, class: "frame" }, axes);
  for (const w of [0, 0.25, 0.5, 0.75, 1]) {
    const y = scale.winY(w);
    el("line", { x1: scale.left, x2: scale.right, y1: y, y2: y, class: w === 0.5 ? "mid" : "grid" }, axes);
    el("text", { x: scale.left - 6, y: y + 4, "text-anchor": "end", class: "tick" }, axes, `${100 * w}%`);
    const eq = (2 * w - 1) * EQUITY_RANGE;
    el("text", { x: scale.right + 6, y: y + 4, class: "tick" }, axes, eq === 0 ? "0" : (eq > 0 ? "+" : "\u2212") + Math.abs(eq).toFixed(1));
  }
  const midY = (scale.top + scale.bottom) / 2;
  el("text", { class: "axis-title", transform: `translate(12 ${midY}) rotate(-90)`, "text-anchor": "middle" }, axes, `${say("Winning chances")}: ${player0}`);
  el("text", { class: "axis-title", transform: `translate(${width - 8} ${midY}) rotate(-90)`, "text-anchor": "middle" }, axes, say("Equity"));
  shapes.games.forEach((g, k) => {
    if (g.x > scale.left) el("line", { x1: g.x, x2: g.x, y1: scale.top, y2: scale.bottom, class: "game-line" }, axes);
    const room = (k + 1 < shapes.games.length ? shapes.games[k + 1].x : scale.right) - g.x;
    const label = room > 70 ? `${say("Game")} ${g.game}` : room > 12 ? String(g.game) : "";
    el("text", { x: g.x + 3, y: scale.bottom + 14, class: "tick game-label" }, axes, label);
  });
  el("path", { d: shapes.equity, class: "equity-line" }, svg);
  el("path", { d: shapes.win, class: "win-line", "data-testid": "win-line" }, svg);
  const marks = el("g", { class: "markers" }, svg);
  for (const m of shapes.markers) {
    const attrs = { class: `marker mk-${m.mark}${m.cube ? " mk-cube" : ""}`, "data-step": m.n, "data-mark": m.mark };
    const node = m.cube
      ? el("rect", { ...attrs, x: m.x - 5, y: m.y - 5, width: 10, height: 10 }, marks)
      : el("circle", { ...attrs, cx: m.x, cy: m.y, r: 5 }, marks);
    el("title", {}, node, `${say(m.cube ? "Cube error" : `mark.${m.mark}`)}`);
  }
  const cursor = /** @type {SVGLineElement} */ (el("line", { x1: scale.left, x2: scale.left, y1: scale.top, y2: scale.bottom, class: "cursor" }, svg));
  return { scale, cursor };
}

/**
 * Put the cursor on step `n`.
 * @param {{scale: ReturnType<typeof graphScale>, cursor: SVGLineElement}} drawn
 * @param {number} n
 */
export function moveCursor(drawn, n) {
  const { scale, cursor } = drawn;
  const x = scale.x(n);
  cursor.setAttribute("x1", String(x));
  cursor.setAttribute("x2", String(x));
}
