// The game page's store (static/game/store.js): what the page knows of its table, read by the
// page's parts through their narrow interfaces; no DOM.
import assert from "node:assert/strict";
import { test } from "node:test";

import { TableStore, decisionKey, displayName } from "../../src/gammon/server/static/game/store.js";

const cfg = { table: "T1", ws: "/ws/table/T1", protocol: 1, csrf: "", user: "ann" };

const state = (over = {}) => ({
  version: 5,
  you: { seat: 1, allowed: ["roll", "double"] },
  table: { status: "playing", seats: [{ name: "bob", kind: "user" }, { name: "ann", kind: "user", online: true }] },
  match: { game: { number: 1, phase: "turn", turn: 1, dice: null, position_id: "4HPwATDgc/ABMA", plies: 3 } },
  ...over,
});

test("before any state: a spectator with nothing to do", () => {
  const store = new TableStore(cfg);
  assert.equal(store.mySeat, null);
  assert.equal(store.bottomSeat, 0);
  assert.equal(store.match, null);
  assert.equal(store.allowed("roll"), false);
  assert.equal(store.myTurn(), false);
  assert.deepEqual(store.names(), ["—", "—"]);
});

test("the viewer's seat, actions and turn come from the state", () => {
  const store = new TableStore(cfg);
  store.state = state();
  assert.equal(store.mySeat, 1);
  assert.equal(store.bottomSeat, 1);
  assert.ok(store.allowed("double"));
  assert.ok(!store.allowed("take"));
  assert.ok(store.myTurn());
  assert.deepEqual(store.names(), ["bob", "ann"]);
  store.state = state({ you: { seat: 1, allowed: ["resign", "abandon"] } });
  assert.ok(!store.myTurn(), "resigning or abandoning is not a turn");
});

test("a state's chat lines are merged; those the table dropped go", () => {
  const store = new TableStore(cfg);
  store.mergeChat([{ version: 3, text: "a" }, { version: 4, text: "b" }, { version: 5, text: "removed" }]);
  store.chat.set(2, { version: 2, text: "older" });
  // the table holds lines 4 and 6 now: 5 was removed; 2 and 3 are older than what it sends
  store.mergeChat([{ version: 4, text: "b" }, { version: 6, text: "c" }]);
  assert.deepEqual([...store.chat.keys()].sort(), [2, 3, 4, 6]);
});

test("presence updates the seats' online flags and the spectators", () => {
  const store = new TableStore(cfg);
  assert.equal(store.presence({ online: [false, true] }), false, "no state yet");
  store.state = state();
  assert.ok(store.presence({ online: [false, true], spectators: 2 }));
  assert.equal(store.state.table.seats[0].online, false);
  assert.equal(store.state.spectators, 2);
});

test("the decision key changes with the position, dice or turn, not the version", () => {
  const a = state();
  assert.equal(decisionKey(null), "");
  assert.equal(decisionKey({ ...a, version: 6 }), decisionKey(a));
  assert.notEqual(decisionKey({ ...a, match: { game: { ...a.match.game, dice: [3, 1] } } }), decisionKey(a));
});

test("a bot's name is shown as a person's; an empty seat has none", () => {
  assert.equal(displayName(null), null);
  assert.equal(displayName({ name: "bob", kind: "user" }), "bob");
});
