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
// - portrait: a phone held upright (640×898): the points 68 units long on the tall axis
//   (41 CSS px on a 390-px phone), the numbers at the outer rims; no tray column (it
//   would cost the height the page needs): the trays lie at the two ends of the bar, the
//   bar's checkers between them, and the cube in the middle lane, at its owner's end.

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
 * @property {"column" | "bar" | "lane"} cube where the cube lies: its own column (u = CUBE_U),
 *   on the bar, or in the middle lane between the points' tips
 * @property {number | null} CUBE_U the cube's column (u)
 * @property {number} TRAY_LEN the trays' length along v where they lie on the bar (else 0)
 * @property {number} barEnd how far from the rim the bar's checkers stop (v)
 * @property {{top: number, bottom: number, central: boolean}} label where the point numbers sit (v)
 */

/**
 * A layout from its few free numbers.
 * @param {{name: Geometry["name"], transposed: boolean, P: number, R: number, H: number, rim: number, gap: number, margin: number, barW: number, trayW: number, trayLen?: number, cube: Geometry["cube"], cubeColumn: number, label: Geometry["label"]}} o
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
  const onBar = Boolean(o.trayLen);
  const TRAY_X = onBar ? BAR_X : RIGHT_END + 12;
  const TRAY_LEN = o.trayLen || 0;
  return {
    name: o.name,
    transposed: o.transposed,
    W: onBar ? RIGHT_END + o.margin : TRAY_X + o.trayW + 12,
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
    TRAY_W: onBar ? o.barW : o.trayW,
    cube: o.cube,
    CUBE_U: o.cube === "column" ? o.cubeColumn / 2 : null,
    TRAY_LEN,
    barEnd: onBar ? TRAY_LEN + 4 : o.cube === "bar" ? 60 : 0,
    label: o.label,
  };
}

/** @type {Record<Geometry["name"], Geometry>} */
export const LAYOUTS = {
  classic: make({ name: "classic", transposed: false, P: 60, R: 27, H: 640, rim: 18, gap: 64, margin: 0, barW: 60, trayW: 76, cube: "column", cubeColumn: 60, label: { top: 13, bottom: 636, central: false } }),
  wide: make({ name: "wide", transposed: false, P: 60, R: 27, H: 480, rim: 26, gap: 56, margin: 10, barW: 60, trayW: 76, cube: "bar", cubeColumn: 0, label: { top: 13, bottom: 467, central: true } }),
  portrait: make({ name: "portrait", transposed: true, P: 68, R: 30, H: 640, rim: 36, gap: 68, margin: 6, barW: 70, trayW: 70, trayLen: 104, cube: "lane", cubeColumn: 0, label: { top: 18, bottom: 622, central: true } }),
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
 * off the middle towards the rim (10 where the cube is not on the bar), leaving the rim's end
 * to the cube or the tray where they lie on the bar.
 * @param {Geometry} g
 * @param {number} n
 * @param {boolean} near whether they are the near (bottom) seat's
 */
export function barCentres(g, n, near) {
  const from = g.cube === "lane" ? 10 : 40;
  const space = g.MID - g.TOP - from - g.barEnd;
  const step = n > 1 ? Math.min(2 * g.R, (space - 2 * g.R) / (n - 1)) : 2 * g.R;
  const out = [];
  for (let i = 0; i < n; i++) out.push(near ? g.MID + from + g.R + i * step : g.MID - from - g.R - i * step);
  return out;
}

/**
 * A seat's tray (u, v, du, dv): the near seat's or the far one's, in the tray column (from
 * the rim to 10 units off the middle) or at its end of the bar.
 * @param {Geometry} g
 * @param {boolean} near
 */
export function trayAt(g, near) {
  const dv = g.TRAY_LEN || g.MID - 10 - g.TOP;
  return { u: g.TRAY_X, v: near ? g.BOTTOM - dv : g.TOP, du: g.TRAY_W, dv };
}

/**
 * The cube's centre (u, v): in its column or on the bar; in the middle when nobody owns
 * it, at its owner's rim otherwise (`near`: the bottom seat owns it).
 * @param {Geometry} g
 * @param {boolean | null} near null when centred
 */
export function cubeAt(g, near) {
  if (g.cube === "lane") {
    // the middle of the bar, or the owner's end of the middle lane (the owner's side of the
    // screen: the near seat's at the bottom)
    const u = near === null ? g.BAR_X + g.BAR_W / 2 : near ? g.RIGHT_END - 30 : g.LEFT_Q + 30;
    return { u, v: g.MID };
  }
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
