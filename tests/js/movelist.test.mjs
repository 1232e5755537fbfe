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

// A table's entries as the server pages them: game 2 begins in the entry that ends game 1.
const ENDS_1 = {
  kind: "action", version: 9, data: { events: [
    { kind: "moved", player: 0, data: { move: "6/off(2)", dice: [6, 6] } },
    { kind: "game_over", player: 0, data: { game: 1, points: 1, result: 1, reason: "bear_off" } },
    { kind: "game_started", player: null, data: { game: 2 } },
    { kind: "opening_roll", player: null, data: { dice: [4, 1] } },
    { kind: "starts", player: 0, data: { dice: [4, 1] } },
  ] },
};
const MOVES_2 = {
  kind: "action", version: 10, data: { events: [
    { kind: "moved", player: 0, data: { move: "24/23 13/9", dice: [4, 1] } },
  ] },
};

test("a snapshot's history keeps its own game, not the scraps of the one before", () => {
  const list = new MoveList();
  list.setHistory([ENDS_1, MOVES_2], 2);
  assert.equal(list.firstGame, 2);
  assert.deepEqual(list.games.map((g) => g.number), [2]);
  assert.deepEqual(list.games[0].rows[0][0], { kind: "roll", dice: [4, 1], move: "24/23 13/9" });
});

test("an earlier game is asked for once, kept, and read from its page", () => {
  const list = new MoveList();
  list.setHistory([ENDS_1, MOVES_2], 2);
  assert.equal(list.toggleEarlier(1), true); // opened: ask
  assert.equal(list.toggleEarlier(1), false); // closed
  assert.equal(list.toggleEarlier(1), false); // opened again: asked already
  const page1 = [
    { kind: "start", version: 3, data: {} },
    { kind: "action", version: 4, data: { events: [
      { kind: "game_started", player: null, data: { game: 1 } },
      { kind: "starts", player: 0, data: { dice: [6, 6] } },
    ] } },
    ENDS_1,
  ];
  list.setEarlier(1, page1);
  const g = list.earlier.get(1);
  assert.ok(g);
  assert.equal(g.number, 1);
  assert.deepEqual(g.rows[0][0], { kind: "roll", dice: [6, 6], move: "6/off(2)" });
  assert.equal(g.result.winner, 0);
  assert.equal(list.loading.size, 0);
  assert.equal(list.toggleEarlier(1), false); // kept: never asked again
  assert.equal(list.toggleEarlier(1), false);
  list.forget();
  assert.equal(list.earlier.size, 0);
});

test("the signature changes with everything the list draws, and only then", () => {
  const list = new MoveList();
  const names = ["alice", "bob"];
  const seen = new Set();
  const sign = () => list.signature(names, null, "en");
  const changed = () => {
    const s = sign();
    const fresh = !seen.has(s);
    seen.add(s);
    return fresh;
  };
  assert.ok(changed());
  assert.ok(!changed(), "nothing happened: the same signature");
  list.addEngineEvent({ kind: "rolled", player: 0, data: { dice: [3, 1] } });
  assert.ok(changed());
  // a cell completed in place (the move of a roll already listed)
  list.addEngineEvent({ kind: "moved", player: 0, data: { move: "8/5 6/5", dice: [3, 1] } });
  assert.ok(changed());
  assert.notEqual(list.signature(names, null, "fr"), sign(), "the language");
  assert.notEqual(list.signature(["alice", "carol"], null, "en"), sign(), "a name");
  assert.notEqual(list.signature(names, ["tavla", "plakoto"], "en"), sign(), "the rotation");
  list.firstGame = 3;
  assert.ok(changed());
  list.earlierShown = true;
  assert.ok(changed());
  assert.ok(list.toggleEarlier(1));
  assert.ok(changed(), "opened and loading");
  list.setEarlier(1, []);
  assert.ok(changed(), "answered");
  assert.ok(!changed());
});
