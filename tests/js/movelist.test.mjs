// The move list (movelist.js): the opening winner who rolls again (the variants) gets no
// row with dice and no move.

import assert from "node:assert/strict";
import { test } from "node:test";
import { MoveList } from "../../src/gammon/server/static/game/movelist.js";

test("a roll never played gives its place to the next roll", () => {
  const list = new MoveList();
  list.addTableEvent({ kind: "start" });
  for (const e of [
    { kind: "game_started", player: null, data: { game: 1 } },
    { kind: "opening_roll", player: null, data: { dice: [5, 2] } },
    { kind: "starts", player: 1, data: { dice: [5, 2] } },
    { kind: "rolled", player: 1, data: { dice: [6, 4] } },
    { kind: "moved", player: 1, data: { move: "24/18 24/20", dice: [6, 4] } },
    { kind: "rolled", player: 0, data: { dice: [3, 1] } },
    { kind: "moved", player: 0, data: { move: "8/5 6/5", dice: [3, 1] } },
  ]) list.addEngineEvent(e);
  const rows = list.games[0].rows;
  assert.equal(rows.length, 2);
  assert.deepEqual(rows[0][0], null);
  assert.deepEqual(rows[0][1], { kind: "roll", dice: [6, 4], move: "24/18 24/20" });
  assert.deepEqual(rows[1][0], { kind: "roll", dice: [3, 1], move: "8/5 6/5" });
});

test("a played roll is never overwritten", () => {
  const list = new MoveList();
  list.addEngineEvent({ kind: "starts", player: 0, data: { dice: [3, 1] } });
  list.addEngineEvent({ kind: "moved", player: 0, data: { move: "8/5 6/5", dice: [3, 1] } });
  list.addEngineEvent({ kind: "rolled", player: 1, data: { dice: [2, 2] } });
  list.addEngineEvent({ kind: "no_move", player: 1, data: { dice: [2, 2] } });
  list.addEngineEvent({ kind: "rolled", player: 0, data: { dice: [6, 5] } });
  const cells = list.games[0].rows.flat().filter(Boolean);
  assert.equal(cells.length, 3);
  assert.equal(cells[1].move, false);
});
