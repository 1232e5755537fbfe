// @ts-check
// The board's SVG pieces: elements, dice and the cube (board.js places them).

const NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element with these attributes (null ones left out), appended to `parent` if given.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {Element | null} [parent]
 */
export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.append(node);
  return node;
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
export function drawDie(parent, cx, cy, size, value, cls) {
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
export function drawCube(parent, cx, cy, value, cls) {
  const size = 46;
  const g = svg("g", { class: `cube ${cls}`, "data-cube": value }, parent);
  svg("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: 7 }, g);
  const text = svg("text", { x: cx, y: cy + 1, "text-anchor": "middle", "dominant-baseline": "central" }, g);
  text.textContent = String(value);
  if (value >= 10) text.setAttribute("font-size", "20");
  return g;
}
