// The board's layouts (geometry.js): the desktop board keeps its numbers, the phone layouts
// give every target 40 CSS px, and the layout follows the container and the screen.

import assert from "node:assert/strict";
import { test } from "node:test";
import { LAYOUTS, barCentres, chooseLayout, cubeAt, pointU, rectAt, stackCentres, trayAt, viewBox, xy } from "../../src/gammon/server/static/game/geometry.js";

test("the classic layout is the desktop board as it was (940×640)", () => {
  const g = LAYOUTS.classic;
  assert.equal(viewBox(g), "0 0 940 640");
  assert.deepEqual(
    [g.P, g.R, g.TOP, g.BOTTOM, g.AREA, g.TRI, g.MID, g.LEFT_Q, g.BAR_X, g.BAR_W, g.RIGHT_Q, g.RIGHT_END, g.TRAY_X, g.TRAY_W, g.CUBE_U],
    [60, 27, 18, 622, 270, 250, 320, 60, 420, 60, 480, 840, 852, 76, 30],
  );
  assert.equal(pointU(g, 1), 810);
  assert.equal(pointU(g, 12), 90);
  assert.equal(pointU(g, 13), 90);
  assert.equal(pointU(g, 24), 810);
  assert.deepEqual(stackCentres(g, 2, true), [45, 99]);
  assert.deepEqual(xy(g, 10, 20), { x: 10, y: 20 });
  assert.deepEqual(trayAt(g, true), { u: 852, v: 330, du: 76, dv: 292 });
  assert.deepEqual(trayAt(g, false), { u: 852, v: 18, du: 76, dv: 292 });
  assert.deepEqual(cubeAt(g, null), { u: 30, v: 320 });
  assert.deepEqual(cubeAt(g, true), { u: 30, v: 592 });
  assert.deepEqual(barCentres(g, 1, true), [387]);
});

test("portrait is transposed: points are rows, the viewer's 1 at the bottom right", () => {
  const g = LAYOUTS.portrait;
  assert.equal(viewBox(g), `0 0 640 ${g.W}`);
  assert.equal(g.W, 898);
  assert.deepEqual(xy(g, 10, 20), { x: 20, y: 10 });
  assert.deepEqual(rectAt(g, 1, 2, 3, 4), { x: 2, y: 1, width: 4, height: 3 });
  // the 1-point is the lowest row of the right column, the 12-point the highest
  const one = xy(g, pointU(g, 1), g.BOTTOM);
  const twelve = xy(g, pointU(g, 12), g.BOTTOM);
  const thirteen = xy(g, pointU(g, 13), g.TOP);
  assert.ok(one.y > twelve.y && one.x > g.MID && thirteen.x < g.MID && thirteen.y === twelve.y);
  // the cube in the middle of the bar, or in the middle lane at its owner's end (the near
  // seat's at the bottom)
  assert.deepEqual(cubeAt(g, null), { u: g.BAR_X + g.BAR_W / 2, v: g.MID });
  assert.ok(cubeAt(g, true).u > pointU(g, 6) && cubeAt(g, false).u < pointU(g, 7));
  assert.equal(cubeAt(g, true).v, g.MID);
  // the trays at the two ends of the bar, the near one at the right; the bar's checkers
  // between the middle and the trays
  const near = trayAt(g, true);
  const far = trayAt(g, false);
  assert.deepEqual([near.u, near.du, far.u, far.du], [g.BAR_X, g.BAR_W, g.BAR_X, g.BAR_W]);
  assert.deepEqual([far.v, near.v + near.dv], [g.TOP, g.BOTTOM]);
  for (const n of [1, 2, 4]) {
    const bar = barCentres(g, n, true);
    assert.ok(bar[0] - g.R >= g.MID && bar[n - 1] + g.R <= near.v, `${n} on the bar`);
  }
});

test("on a 390-px phone every target is at least 40 CSS px, held either way", () => {
  // portrait: the board is the page's width (390 less 4 px of padding) wide
  const p = LAYOUTS.portrait;
  const scale = 386 / p.H;
  for (const along of [p.P, p.BAR_W, p.TRAY_W, p.TRAY_LEN]) assert.ok(along * scale >= 40, `${along} units: ${along * scale} px`);
  assert.ok(p.AREA * scale >= 40);
  // the own half of the bar, up to the tray
  assert.ok((p.BOTTOM - p.MID - p.TRAY_LEN) * scale >= 40);
  // the whole board: 542 px high, leaving the page 302 px of 844 for the header, the players,
  // the status and the buttons
  assert.ok(p.W * scale <= 542, `${p.W * scale} px`);
  // wide: 332 px high (844×390 less the one-line header), at most 614 px wide
  const w = LAYOUTS.wide;
  const wide = Math.min(332 / w.H, 614 / w.W);
  for (const along of [w.P, w.BAR_W, w.TRAY_W]) assert.ok(along * wide >= 40, `${along} units: ${along * wide} px`);
  // the desktop board on a phone gave a point 24 px
  assert.ok(LAYOUTS.classic.P * (380 / LAYOUTS.classic.W) < 25);
});

test("stacks and the bar stay in their areas in every layout", () => {
  for (const g of Object.values(LAYOUTS)) {
    for (const n of [1, 5, 8, 15]) {
      const far = stackCentres(g, n, true);
      const near = stackCentres(g, n, false);
      assert.ok(far[n - 1] + g.R <= g.TOP + g.AREA + 0.001, `${g.name} ${n}`);
      assert.ok(near[n - 1] - g.R >= g.BOTTOM - g.AREA - 0.001, `${g.name} ${n}`);
      const bar = barCentres(g, n, true);
      const end = g.cube === "bar" ? cubeAt(g, true).v - 23 : g.cube === "lane" ? trayAt(g, true).v : g.BOTTOM;
      assert.ok(bar[n - 1] + g.R <= end + 0.001, `${g.name} bar ${n}`);
    }
    // the quadrants, the bar and the trays follow each other without overlapping
    assert.ok(g.LEFT_Q + 6 * g.P <= g.BAR_X && g.BAR_X + g.BAR_W <= g.RIGHT_Q && g.RIGHT_END <= g.W);
    assert.ok(g.TRAY_LEN ? g.TRAY_X === g.BAR_X : g.RIGHT_END <= g.TRAY_X && g.TRAY_X + g.TRAY_W <= g.W);
  }
});

test("the layout follows the container and the screen", () => {
  assert.equal(chooseLayout(380, 390, 844), "portrait");
  assert.equal(chooseLayout(365, 375, 667), "portrait");
  assert.equal(chooseLayout(600, 844, 390), "wide");
  assert.equal(chooseLayout(614, 844, 390), "wide");
  assert.equal(chooseLayout(900, 1280, 800), "classic");
  // a desktop window: never portrait, whatever its column's width
  assert.equal(chooseLayout(560, 950, 1000), "classic");
  // a tablet upright: the container is wide enough for the classic board
  assert.equal(chooseLayout(758, 768, 1024), "classic");
  // a short, square-ish container stays classic
  assert.equal(chooseLayout(500, 520, 600), "classic");
  assert.equal(chooseLayout(0, 390, 844), "classic");
});
