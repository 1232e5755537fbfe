// The first click on a checker (firstclick.js, issue #33): the die leading to the better move,
// the larger die on a tie or where a single die can move the checker.

import assert from "node:assert/strict";
import { test } from "node:test";
import { plainScore, preferredStep } from "../../src/gammon/server/static/game/firstclick.js";
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
