// The rest of a move (MoveBuilder.rest, "one click moves"): after the steps made, when a
// single listed move is left to reach, its remaining steps; checked against the server's own
// answers in tests/js/fixtures (every order of every listed move, written by make_fixtures.py).

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { MoveBuilder, turnFromState } from "../../src/gammon/server/static/game/movebuilder.js";

const dir = new URL("./fixtures/", import.meta.url);
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), "utf-8")))
  .filter((f) => f.state); // the move builder's (make_fixtures.py), not the other tests' fixtures

/**
 * The moves the server's answers reach from `played`, or null when an answer on the way is
 * not in the fixture (it holds the orders of the listed moves' own steps only).
 * @param {Record<string, any>} answers
 * @param {number[][]} played
 * @returns {Set<string> | null}
 */
function finals(answers, played) {
  const answer = answers[JSON.stringify(played)];
  if (!answer) return null;
  const out = new Set();
  if (answer.complete && answer.move) out.add(answer.move);
  for (const s of answer.steps) {
    const next = finals(answers, [...played, s.slice(0, 3)]);
    if (next === null) return null;
    for (const m of next) out.add(m);
  }
  return out;
}

let unique = 0;
let open = 0;
for (const fx of fixtures.filter((f) => f.exact)) {
  test(`${fx.name}: the rest of a move is played only when one move is left`, () => {
    const builder = new MoveBuilder(/** @type {any} */ (turnFromState(fx.state, 0)));
    // the keys as JSON.stringify writes them (the fixtures are written by Python)
    const answers = Object.fromEntries(Object.entries(fx.answers).map(([k, v]) => [JSON.stringify(JSON.parse(k)), v]));
    for (const [key, server] of Object.entries(answers)) {
      if (!server || server.complete) continue;
      const played = JSON.parse(key);
      const rest = builder.rest(played);
      const left = finals(answers, played);
      if (left === null) continue;
      if (left.size === 1) {
        unique += 1;
        assert.ok(rest.length > 0, `${fx.name} ${key}: one move left (${[...left]})`);
        const done = builder.options([...played, ...rest]);
        assert.ok(done && done.complete, `${fx.name} ${key}: the rest completes it`);
        assert.equal(done.move, [...left][0], `${fx.name} ${key}: the move left`);
      } else {
        open += 1;
        assert.deepEqual(rest, [], `${fx.name} ${key}: a choice is left (${[...left]})`);
      }
    }
  });
}

test("both cases were seen", () => {
  assert.ok(unique > 0 && open > 0, `unique ${unique}, open ${open}`);
});
