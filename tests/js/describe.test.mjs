// The board as text (describe.js) on the opening position, from each side.

import assert from "node:assert/strict";
import { test } from "node:test";
import { describeBoard } from "../../src/gammon/server/static/game/describe.js";

const start = Array(26).fill(0);
start[24] = 2;
start[13] = 5;
start[8] = 3;
start[6] = 5;
const other = Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));
/** @param {string} key @param {Record<string, string | number>} [p] */
const tr = (key, p = {}) => `${key}${JSON.stringify(p)}`;

test("each seat's checkers in the viewer's numbering, then the dice and the cube", () => {
  const mine = start.slice();
  mine[6] = 4;
  mine[0] = 1;
  const lines = describeBoard(
    { bottom: 1, board: [start, mine], other, names: ["ann", "bob"], dice: { seat: 1, values: [3, 1] }, cube: { value: 2, owner: 0 } },
    tr,
  );
  assert.equal(lines.length, 4);
  // the viewer (seat 1) first, in its own numbering, highest point first
  assert.ok(lines[0].startsWith('desc.seat{"name":"bob"'));
  assert.ok(lines[0].includes('desc.point{\\"n\\":24,\\"count\\":2}, desc.point{\\"n\\":13,\\"count\\":5}'));
  assert.ok(lines[0].includes('"off":1'));
  // the other seat's 24-point is the viewer's 1-point
  assert.ok(lines[1].includes('desc.point{\\"n\\":19,\\"count\\":5}'));
  assert.ok(lines[1].endsWith('desc.point{\\"n\\":1,\\"count\\":2}","bar":0,"off":0}'));
  assert.equal(lines[2], 'desc.dice{"name":"bob","dice":"3 1"}');
  assert.equal(lines[3], 'desc.cube_owned{"value":2,"name":"ann"}');
});

test("no cube, no dice, an empty board, checkers to enter", () => {
  const empty = Array(26).fill(0);
  const lines = describeBoard({ bottom: 0, board: [empty, empty], other, names: ["a", "b"], waiting: [15, 0], dice: null, cube: null }, tr);
  assert.equal(lines.length, 2);
  assert.ok(lines[0].includes("desc.none"));
  assert.ok(lines[0].endsWith('desc.waiting{"count":15}'));
});
