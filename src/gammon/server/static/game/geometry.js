// @ts-check
// Where each part of the board lies, in three layouts (board.js draws with one of them).
//
// Every layout is described in the same two board axes: u runs along the points (the
// viewer's 12..7 | bar | 6..1 on the near side), v runs across the board, from the far
// side's rim (v = TOP, the points 13..24) to the near side's rim (v = BOTTOM, the points
// 1..12). "classic" and "wide" draw u left to right and v top to bottom: the board lies on
// its side. "portrait" is transposed: u runs down the screen and v across it, so the
// points are rows stacked along a phone's tall axis (the viewer's 1..12 in the right
// column, 1 at the bottom; the other side's in the left column; the trays at the bottom).
// Text, dice and checkers are never rotated: only their centres move.
//
// - classic: the desktop board (940×640), with the cube in a column of its own at the left;
// - wide: a phone held sideways (882×480): shallower points, the cube on the bar, so a
//   point is a little wider on the screen;
// - portrait: a phone held upright (640×1010): the points 70 units long on the tall axis
//   (over 40 CSS px on a 390-px phone), the numbers at the outer rims, the cube on the bar.

/**
 * @typedef {object} Geometry
 * @property {"classic" | "wide" | "portrait"} name
 * @property {boolean} transposed whether u is the screen's y (portrait)
 * @property {number} W the extent along u
 * @property {number} H the extent along v
 * @property {number} P a point's width along u
 * @property {number} R a checker's radius
 * @property {number} TOP the far rim (v) where the far points start
 * @property {number} BOTTOM the near rim (v)
 * @property {number} AREA the length of a point's area along v
 * @property {number} TRI a triangle's length along v
 * @property {number} MID the middle of the board along v
 * @property {number} LEFT_Q the start (u) of the left quadrants
 * @property {number} BAR_X the start (u) of the bar
 * @property {number} BAR_W the bar's width along u
 * @property {number} RIGHT_Q the start (u) of the right quadrants
 * @property {number} RIGHT_END the end (u) of the right quadrants
 * @property {number} TRAY_X the start (u) of the trays
 * @property {number} TRAY_W the trays' width along u
 * @property {number | null} CUBE_U the cube's column (u); null: the cube lies on the bar
 * @property {{top: number, bottom: number, central: boolean}} label where the point numbers sit (v)
 */

/**
 * A layout from its few free numbers.
 * @param {{name: Geometry["name"], transposed: boolean, P: number, R: number, H: number, rim: number, gap: number, margin: number, barW: number, trayW: number, cubeColumn: number, label: Geometry["label"]}} o
 * @returns {Geometry}
 */
function make(o) {
  const TOP = o.rim;
  const BOTTOM = o.H - o.rim;
  const MID = o.H / 2;
  const AREA = MID - TOP - o.gap / 2;
  const LEFT_Q = o.margin + o.cubeColumn;
  const BAR_X = LEFT_Q + 6 * o.P;
  const RIGHT_Q = BAR_X + o.barW;
  const RIGHT_END = RIGHT_Q + 6 * o.P;
  const TRAY_X = RIGHT_END + 12;
  return {
    name: o.name,
    transposed: o.transposed,
    W: TRAY_X + o.trayW + 12,
    H: o.H,
    P: o.P,
    R: o.R,
    TOP,
    BOTTOM,
    AREA,
    TRI: AREA - 20,
    MID,
    LEFT_Q,
    BAR_X,
    BAR_W: o.barW,
    RIGHT_Q,
    RIGHT_END,
    TRAY_X,
    TRAY_W: o.trayW,
    CUBE_U: o.cubeColumn ? o.cubeColumn / 2 : null,
    label: o.label,
  };
}

/** @type {Record<Geometry["name"], Geometry>} */
export const LAYOUTS = {
  classic: make({ name: "classic", transposed: false, P: 60, R: 27, H: 640, rim: 18, gap: 64, margin: 0, barW: 60, trayW: 76, cubeColumn: 60, label: { top: 13, bottom: 636, central: false } }),
  wide: make({ name: "wide", transposed: false, P: 60, R: 27, H: 480, rim: 26, gap: 56, margin: 10, barW: 60, trayW: 76, cubeColumn: 0, label: { top: 13, bottom: 467, central: true } }),
  portrait: make({ name: "portrait", transposed: true, P: 70, R: 30, H: 640, rim: 36, gap: 68, margin: 10, barW: 70, trayW: 74, cubeColumn: 0, label: { top: 18, bottom: 622, central: true } }),
};

/**
 * The layout for a board whose container is `width` px wide, in a viewport of `vw`×`vh` px:
 * "wide" on a screen held sideways that is at most 500 px high (the page's CSS uses the
 * same test), "portrait" in a narrow container (≤ 600 px) on a single-column page (≤ 900 px)
 * that is clearly taller than wide, "classic" otherwise.
 *
 *     chooseLayout(380, 390, 844)    // "portrait"
 *     chooseLayout(600, 844, 390)    // "wide"
 *     chooseLayout(900, 1280, 800)   // "classic"
 *
 * @param {number} width
 * @param {number} vw
 * @param {number} vh
 * @returns {Geometry["name"]}
 */
export function chooseLayout(width, vw, vh) {
  if (vh <= 500 && vw > vh) return "wide";
  if (vw <= 900 && width > 0 && width <= 600 && vh >= 1.3 * width) return "portrait";
  return "classic";
}

/**
 * The centre (u) of a point (viewer numbering 1..24).
 * @param {Geometry} g
 * @param {number} p
 */
export function pointU(g, p) {
  if (p <= 6) return g.RIGHT_END - (p - 0.5) * g.P;
  if (p <= 12) return g.BAR_X - (p - 6.5) * g.P;
  if (p <= 18) return g.LEFT_Q + (p - 12.5) * g.P;
  return g.RIGHT_Q + (p - 18.5) * g.P;
}

/** Whether a point (viewer numbering) is on the far side. @param {number} p */
export function isTop(p) {
  return p >= 13;
}

/**
 * Centres (v) of a stack of n checkers on one point, from the rim towards the middle,
 * squeezed to the point's area.
 * @param {Geometry} g
 * @param {number} n
 * @param {boolean} top
 */
export function stackCentres(g, n, top) {
  const step = n > 1 ? Math.min(2 * g.R, (g.AREA - 2 * g.R) / (n - 1)) : 2 * g.R;
  const out = [];
  for (let i = 0; i < n; i++) out.push(top ? g.TOP + g.R + i * step : g.BOTTOM - g.R - i * step);
  return out;
}

/**
 * Centres (v) of `n` checkers on the bar: the near seat's in the near half, from 40 units
 * off the middle towards the rim (leaving the rim's end to the cube where it lies on the bar).
 * @param {Geometry} g
 * @param {number} n
 * @param {boolean} near whether they are the near (bottom) seat's
 */
export function barCentres(g, n, near) {
  const space = g.MID - g.TOP - 40 - (g.CUBE_U === null ? 60 : 0);
  const step = n > 1 ? Math.min(2 * g.R, (space - 2 * g.R) / (n - 1)) : 2 * g.R;
  const out = [];
  for (let i = 0; i < n; i++) out.push(near ? g.MID + 40 + g.R + i * step : g.MID - 40 - g.R - i * step);
  return out;
}

/**
 * The cube's centre (u, v): in its column or on the bar; in the middle when nobody owns
 * it, at its owner's rim otherwise (`near`: the bottom seat owns it).
 * @param {Geometry} g
 * @param {boolean | null} near null when centred
 */
export function cubeAt(g, near) {
  const u = g.CUBE_U === null ? g.BAR_X + g.BAR_W / 2 : g.CUBE_U;
  const v = near === null ? g.MID : near ? g.BOTTOM - 30 : g.TOP + 30;
  return { u, v };
}

/**
 * Screen coordinates (x, y) of a board point (u, v).
 * @param {Geometry} g
 * @param {number} u
 * @param {number} v
 */
export function xy(g, u, v) {
  return g.transposed ? { x: v, y: u } : { x: u, y: v };
}

/**
 * A rectangle's screen attributes from its extent along u and v.
 * @param {Geometry} g
 * @param {number} u
 * @param {number} v
 * @param {number} du
 * @param {number} dv
 */
export function rectAt(g, u, v, du, dv) {
  return g.transposed ? { x: v, y: u, width: dv, height: du } : { x: u, y: v, width: du, height: dv };
}

/** The SVG viewBox of a layout. @param {Geometry} g */
export function viewBox(g) {
  return g.transposed ? `0 0 ${g.H} ${g.W}` : `0 0 ${g.W} ${g.H}`;
}
