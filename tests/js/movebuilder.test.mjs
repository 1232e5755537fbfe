// The movebuilder against the server: on real states (tests/js/fixtures, written by
// make_fixtures.py) it must answer as `Position.step_options` does for every order in which a
// listed move's steps can be played, and never offer a step the server would refuse.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { MoveBuilder, turnFromState, withKeptMoves } from "../../src/gammon/server/static/game/movebuilder.js";

const dir = new URL("./fixtures/", import.meta.url);
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), "utf-8")))
  .filter((f) => f.state); // the move builder's (make_fixtures.py), not the other tests' fixtures

/** @param {any[][]} steps */
const ids = (steps) => steps.map((s) => s.slice(0, 4).join(",")).sort();

test("there is a fixture of each kind", () => {
  const names = fixtures.map((f) => f.name);
  for (const name of ["standard-opening", "standard-double", "standard-hit", "standard-bar", "standard-bearoff",
    "caucasian-hit", "fevga", "plakoto-pin", "acey-deucey-enter", "acey-deucey-1-2"]) {
    assert.ok(names.includes(name), name);
  }
});

for (const fx of fixtures) {
  test(`${fx.name}: the first steps are the state's step_options`, () => {
    const builder = new MoveBuilder(/** @type {any} */ (turnFromState(fx.state, 0)));
    const answer = builder.options([]);
    assert.ok(answer);
    assert.deepEqual(ids(answer.steps), ids(fx.state.match.step_options.steps));
    assert.equal(answer.complete, false);
    assert.deepEqual([...answer.dice_left].sort(), [...fx.state.match.step_options.dice_left].sort());
  });

  test(`${fx.name}: every order of every move answers as the server does`, () => {
    const builder = new MoveBuilder(/** @type {any} */ (turnFromState(fx.state, 0)));
    let checked = 0;
    for (const [key, server] of Object.entries(fx.answers)) {
      const played = JSON.parse(key);
      const local = builder.options(played);
      if (server === null) {
        // the server refuses this order: the builder must too
        assert.equal(local, null, `${fx.name} ${key}: refused by the server`);
        continue;
      }
      assert.ok(local, `${fx.name} ${key}: the server accepts it`);
      assert.equal(local.complete, server.complete, `${fx.name} ${key}: complete`);
      assert.equal(local.move, server.move, `${fx.name} ${key}: move`);
      const offered = ids(local.steps);
      if (fx.exact) {
        assert.deepEqual(offered, ids(server.steps), `${fx.name} ${key}: steps`);
      } else {
        // a part of the server's steps, and every step of a listed move's orders
        const allowed = new Set(ids(server.steps));
        for (const id of offered) assert.ok(allowed.has(id), `${fx.name} ${key}: ${id} offered`);
        for (const s of server.steps) {
          const next = JSON.stringify([...played, s.slice(0, 3)]);
          if (fx.answers[next]) assert.ok(offered.includes(s.join(",")), `${fx.name} ${next}: not offered`);
        }
      }
      checked += 1;
    }
    assert.ok(checked >= fx.state.match.moves.length);
  });

  test(`${fx.name}: a complete move is always a listed move`, () => {
    const builder = new MoveBuilder(/** @type {any} */ (turnFromState(fx.state, 0)));
    const listed = new Set(fx.state.match.moves.map((/** @type {any} */ m) => m.move));
    // play every path the builder offers, depth first
    /** @param {number[][]} played */
    const walk = (played) => {
      const answer = builder.options(played);
      assert.ok(answer, JSON.stringify(played));
      if (answer.complete) {
        assert.ok(answer.move !== null && listed.has(answer.move), `${answer.move}`);
        return 1;
      }
      assert.ok(answer.steps.length > 0);
      let n = 0;
      for (const s of answer.steps) n += walk([...played, s]);
      return n;
    };
    assert.ok(walk([]) >= listed.size);
  });
}

test("hits are derived from the board", () => {
  const fx = fixtures.find((f) => f.name === "standard-hit");
  const builder = new MoveBuilder(/** @type {any} */ (turnFromState(fx.state, 0)));
  const hit = fx.state.match.step_options.steps.find((/** @type {any} */ s) => s[3]);
  assert.ok(hit);
  const answer = builder.options([]);
  assert.ok(answer && answer.steps.some((s) => s.join(",") === hit.join(",")));
});

test("a step the rules do not list is refused", () => {
  const fx = fixtures.find((f) => f.name === "standard-opening");
  const builder = new MoveBuilder(/** @type {any} */ (turnFromState(fx.state, 0)));
  assert.equal(builder.options([[24, 23, 1]]), null);
  assert.equal(builder.options([[6, 1, 5]]), null); // the 1-point is theirs
  // both dice on one checker, either way round; then nothing more
  for (const played of [[[24, 18, 6], [18, 13, 5]], [[13, 8, 5], [8, 2, 6]], [[13, 7, 6], [7, 2, 5]]]) {
    const answer = builder.options(played);
    assert.ok(answer && answer.complete, JSON.stringify(played));
    assert.equal(builder.options([...played, [6, 5, 1]]), null);
  }
});

test("a state without the moves has no turn to build", () => {
  const fx = fixtures[0];
  assert.equal(turnFromState({ ...fx.state, match: { ...fx.state.match, moves: null, moves_omitted: true } }, 0), null);
  assert.equal(turnFromState(fx.state, 1), null);
  assert.equal(turnFromState(null, 0), null);
});

test("no legal move: complete at once, nothing to play", () => {
  const fx = fixtures[0];
  const turn = /** @type {any} */ (turnFromState(fx.state, 0));
  const answer = new MoveBuilder({ ...turn, moves: [] }).options([]);
  assert.deepEqual(answer, { steps: [], complete: true, move: null, dice_left: [] });
});

test("an event's state with moves_kept gets the moves the page holds, the same objects", () => {
  const fx = fixtures[0];
  const held = { ...fx.state, version: 7 };
  const kept = { ...fx.state, version: 8, match: { ...fx.state.match, moves: null, step_options: null, forced: false, moves_kept: true } };
  const got = withKeptMoves(held, kept);
  assert.equal(got.version, 8);
  assert.equal(got.match.moves, held.match.moves); // the builder of the decision is kept too
  assert.equal(got.match.step_options, held.match.step_options);
  assert.equal("moves_kept" in got.match, false);
  assert.ok(turnFromState(got, 0));
  // a state that lists its moves, or has none to keep, is left as it is
  assert.equal(withKeptMoves(held, fx.state), fx.state);
  assert.equal(withKeptMoves(null, kept), kept);
  assert.equal(withKeptMoves({ match: { moves: null, moves_omitted: false } }, kept), kept);
});
