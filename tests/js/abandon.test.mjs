// What abandoning costs now (controls.js abandonLevel), as the engine's abandon_result scores it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { abandonLevel } from "../../src/gammon/server/static/game/controls.js";

const board = (/** @type {Record<number, number>} */ points) => Array.from({ length: 26 }, (_, i) => points[i] || 0);

test("a backgammon at the start, a gammon once out, a single game once one is off", () => {
  assert.equal(abandonLevel(board({ 24: 2, 13: 5, 8: 3, 6: 5 }), 0), 3);
  assert.equal(abandonLevel(board({ 25: 1, 6: 14 }), 0), 3);
  assert.equal(abandonLevel(board({ 18: 2, 13: 5, 8: 3, 6: 5 }), 0), 2);
  assert.equal(abandonLevel(board({ 0: 1, 24: 1, 6: 13 }), 0), 1);
  assert.equal(abandonLevel(board({ 6: 1 }), 14), 3);
});
