// The first click on a checker (firstclick.js, issue #33): the die leading to the better move,
// the larger die on a tie or where a single die can move the checker; and the clicked point's
// share of that move, played by the one click.

import assert from "node:assert/strict";
import { test } from "node:test";
import { clickPlays, plainScore, preferredStep } from "../../src/gammon/server/static/game/firstclick.js";
import { MoveBuilder } from "../../src/gammon/server/static/game/movebuilder.js";

const start = () => {
  const b = Array(26).fill(0);
  b[24] = 2;
  b[13] = 5;
  b[8] = 3;
  b[6] = 5;
  return b;
};
const other = Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));

/** An opening 6-1 with a few of its legal moves listed. */
function opening61() {
  return new MoveBuilder({
    dice: [6, 1],
    mine: start(),
    theirs: start(),
    other,
    moves: [
      { move: "13/7 8/7", steps: [[13, 7, 6, false], [8, 7, 1, false]] },
      { move: "8/2 6/5", steps: [[8, 2, 6, false], [6, 5, 1, false]] },
      { move: "8/2 2/1", steps: [[8, 2, 6, false], [2, 1, 1, false]] },
    ],
  });
}

test("a click on the 8 point with 6-1 plays the 1 (towards the bar point), not the larger 6", () => {
  const builder = opening61();
  const opts = builder.options([]);
  assert.ok(opts);
  const from8 = opts.steps.filter((s) => s[0] === 8);
  assert.deepEqual(from8.map((s) => s[2]).sort(), [1, 6]);
  const step = preferredStep(builder, [], from8, other);
  assert.deepEqual(step && step.slice(0, 3), [8, 7, 1]);
});

test("a single die from the checker, or no builder: the larger die as before", () => {
  const builder = opening61();
  const opts = builder.options([]);
  assert.ok(opts);
  const from13 = opts.steps.filter((s) => s[0] === 13);
  assert.equal(preferredStep(builder, [], from13, other)?.[2], 6);
  const from8 = opts.steps.filter((s) => s[0] === 8);
  assert.equal(preferredStep(null, [], from8, other)?.[2], 6);
  assert.equal(preferredStep(builder, [], [], other), null);
});

test("the plain score: a made point beats a blot in reach", () => {
  const made = start();
  made[13] -= 1;
  made[8] -= 1;
  made[7] = 2;
  const blots = start();
  blots[8] -= 1;
  blots[2] = 1;
  blots[6] -= 1;
  blots[5] = 1;
  const theirs = start();
  assert.ok(plainScore({ mine: made, theirs, pins: [], waiting: 0 }, other) > plainScore({ mine: blots, theirs, pins: [], waiting: 0 }, other));
});

/** @param {number[]} dice @param {{move: string, steps: any[]}[]} moves */
const opening = (dice, moves) => new MoveBuilder({ dice, mine: start(), theirs: start(), other, moves });
/** @param {any[]} steps */
const plain = (steps) => steps.map((s) => s.slice(0, 3));

test("6-5 where the best move from the 24 point is 24/13: one click plays both steps", () => {
  const builder = opening([6, 5], [
    { move: "24/13", steps: [[24, 18, 6, false], [18, 13, 5, false]] },
    { move: "24/18 13/8", steps: [[24, 18, 6, false], [13, 8, 5, false]] },
  ]);
  const opts = builder.options([]);
  assert.ok(opts);
  assert.deepEqual(plain(clickPlays(builder, [], 24, opts.steps, other)), [[24, 18, 6], [18, 13, 5]]);
  // from the 13 point the only move is 24/18 13/8: the click plays the 13's share, the 5
  assert.deepEqual(plain(clickPlays(builder, [], 13, opts.steps, other)), [[13, 8, 5]]);
});

test("3-3 making the 5 and 3 points: a click on the 8 moves both checkers of the 8, no others", () => {
  const builder = opening([3, 3], [
    { move: "8/5(2) 6/3(2)", steps: [[8, 5, 3, false], [8, 5, 3, false], [6, 3, 3, false], [6, 3, 3, false]] },
    { move: "24/21(2) 13/10(2)", steps: [[24, 21, 3, false], [24, 21, 3, false], [13, 10, 3, false], [13, 10, 3, false]] },
    { move: "13/7(2)", steps: [[13, 10, 3, false], [10, 7, 3, false], [13, 10, 3, false], [10, 7, 3, false]] },
  ]);
  const opts = builder.options([]);
  assert.ok(opts);
  const part = clickPlays(builder, [], 8, opts.steps, other);
  assert.deepEqual(plain(part), [[8, 5, 3], [8, 5, 3]]);
  // then a click on the 6 plays the rest
  const after = builder.options(part);
  assert.ok(after);
  assert.deepEqual(plain(clickPlays(builder, part, 6, after.steps, other)), [[6, 3, 3], [6, 3, 3]]);
  assert.equal(builder.options([...part, [6, 3, 3], [6, 3, 3]])?.move, "8/5(2) 6/3(2)");
});

test("6-1 from the 8: the click plays 8/7 and leaves 13/7 to another click", () => {
  const builder = opening61();
  const opts = builder.options([]);
  assert.ok(opts);
  assert.deepEqual(plain(clickPlays(builder, [], 8, opts.steps, other)), [[8, 7, 1]]);
  assert.deepEqual(clickPlays(null, [], 8, opts.steps, other).map((s) => s[2]), [6]);
  assert.deepEqual(clickPlays(builder, [], 5, opts.steps, other), []);
});
