// The analysis board's pure modules: stepping (keys, marked steps), the analysis joined to
// the replay steps by action index, the graph's scales and shapes, the move texts.

import assert from "node:assert/strict";
import { test } from "node:test";
import { clampStep, joinAnalysis, markedSteps, nextMarked, stepForKey } from "../../src/gammon/server/static/analysis/nav.js";
import { EQUITY_RANGE, HEIGHT, MARGIN, graphScale, graphShapes, graphSize } from "../../src/gammon/server/static/analysis/graph.js";
import { equity, percent, stepText } from "../../src/gammon/server/static/analysis/format.js";

const board = [Array(26).fill(0), Array(26).fill(0)];
const cube = { value: 1, owner: null, offer: null };
/** @param {Record<string, any>} more */
const step = (more) => ({ kind: "move", i: 0, r: null, g: 1, p: 0, text: "", board, pinned: null, waiting: null, dice: null, cube, score: [0, 0], crawford: false, ...more });

// a game: start, 31 played, a roll that could not be played, a double and a take, a move, the end
const steps = [
  step({ kind: "start", i: -1, p: null }),
  step({ kind: "move", i: 1, r: 0, p: 0, text: "8/5 6/5", dice: { seat: 0, values: [3, 1] } }),
  step({ kind: "dance", i: 2, p: 1, text: "66", dice: { seat: 1, values: [6, 6] } }),
  step({ kind: "double", i: 3, p: 0, cube: { value: 1, owner: null, offer: { value: 2, by: 0 } } }),
  step({ kind: "take", i: 4, p: 1 }),
  step({ kind: "move", i: 6, r: 5, p: 0, text: "13/7", dice: { seat: 0, values: [4, 2] } }),
  step({ kind: "end", i: 6, p: 0, points: 2, score: [2, 0] }),
];
/** @param {Record<string, any>} more */
const decision = (more) => ({ game: 1, ply: 0, player: 0, kind: "checker", dice: "31", played: "", best: "", equity_played: 0, equity_best: 0, error: 0, mark: "none", candidates: [], cube: null, xgid: "", ...more });
const analysis = {
  players: ["Ann", "Bob"],
  match_length: 3,
  level: "expert",
  plies: 1,
  totals: [],
  luck_adjusted: [],
  games: [
    {
      number: 1,
      decisions: [
        decision({ action_index: 1, played: "8/5 6/5", best: "8/5 6/5" }),
        decision({ action_index: 3, kind: "cube", played: "double", best: "no double", error: 0.1, mark: "error" }),
        decision({ action_index: 4, kind: "response", player: 1, played: "take", best: "take" }),
        // the no-double before the last move (at its roll, action 5) was a blunder
        decision({ action_index: 5, kind: "cube", played: "no double", best: "double", error: 0.2, mark: "blunder" }),
        decision({ action_index: 6, played: "13/7", best: "13/9 6/4", error: 0.05, mark: "doubtful" }),
      ],
      luck: [
        { action_index: 0, player: 0, dice: "31", equity: 0.2, average: 0, luck: 0.2, points: 0.1 },
        { action_index: 2, player: 1, dice: "66", equity: -0.5, average: 0, luck: -0.5, points: -0.2 },
      ],
      graph: [
        { game: 1, action_index: 1, player: 0, win: 0.55, equity: 0.1 },
        { game: 1, action_index: 2, player: 1, win: 0.6, equity: 0.2 },
        { game: 1, action_index: 6, player: 0, win: 0.9, equity: 3 },
      ],
    },
  ],
};

test("keys step, jump to the ends and to the marked steps", () => {
  const marked = [3, 5];
  assert.equal(stepForKey("ArrowRight", 2, 7, marked), 3);
  assert.equal(stepForKey("ArrowRight", 6, 7, marked), 6);
  assert.equal(stepForKey("ArrowLeft", 0, 7, marked), 0);
  assert.equal(stepForKey("Home", 4, 7, marked), 0);
  assert.equal(stepForKey("End", 0, 7, marked), 6);
  assert.equal(stepForKey("ArrowDown", 0, 7, marked), 3);
  assert.equal(stepForKey("ArrowDown", 3, 7, marked), 5);
  assert.equal(stepForKey("ArrowDown", 5, 7, marked), null);
  assert.equal(stepForKey("ArrowUp", 5, 7, marked), 3);
  assert.equal(stepForKey("ArrowUp", 3, 7, marked), null);
  assert.equal(stepForKey("a", 3, 7, marked), null);
  assert.equal(clampStep(-3, 7), 0);
  assert.equal(clampStep(99, 7), 6);
  assert.equal(nextMarked(4, [], 1), null);
});

test("the analysis goes to its steps by action index, a no-double to the move after its roll", () => {
  const infos = joinAnalysis(steps, analysis);
  assert.deepEqual(infos.map((i) => i.decisions.map((d) => d.action_index)), [[], [1], [], [3], [4], [5, 6], []]);
  assert.deepEqual(infos.map((i) => i.mark), ["none", "none", "none", "error", "none", "blunder", "none"]);
  assert.deepEqual(infos.map((i) => i.cubeError), [false, false, false, true, false, true, false]);
  assert.deepEqual(infos.map((i) => (i.luck ? i.luck.dice : null)), [null, "31", "66", null, null, null, null]);
  assert.deepEqual(infos.map((i) => (i.point ? i.point.win : null)), [null, 0.55, 0.6, null, null, 0.9, null]);
  assert.deepEqual(markedSteps(infos), [3, 5]);
  // before the analysis: nothing, but a place for every step
  assert.deepEqual(joinAnalysis(steps, null).map((i) => i.mark), Array(7).fill("none"));
});

test("a game no engine judged (a tavli game) marks its steps as not analysed", () => {
  const two = [...steps, step({ kind: "start", i: 6, p: null, g: 2 }), step({ kind: "move", i: 8, r: 7, p: 1, g: 2, text: "24/18" })];
  const mixed = { ...analysis, engine: "mixed", games: [{ ...analysis.games[0], engine: "bgsage" }, { number: 2, variant: "plakoto", engine: null, decisions: [], luck: [], graph: [] }] };
  const infos = joinAnalysis(two, mixed);
  assert.deepEqual(infos.map((i) => i.notAnalysed), [...Array(7).fill(false), true, true]);
  assert.deepEqual(joinAnalysis(two, analysis).map((i) => i.notAnalysed), Array(9).fill(false));
});

test("the graph's scales: steps across, 0-100% and the equity range up, clicks to the nearest step", () => {
  const s = graphScale(7, 1000, 240);
  assert.equal(s.x(0), MARGIN.left);
  assert.equal(s.x(6), 1000 - MARGIN.right);
  assert.equal(s.winY(1), MARGIN.top);
  assert.equal(s.winY(0), 240 - MARGIN.bottom);
  assert.equal(s.winY(0.5), s.equityY(0));
  assert.equal(s.equityY(EQUITY_RANGE), s.winY(1));
  assert.equal(s.equityY(5 * EQUITY_RANGE), s.winY(1)); // clipped
  assert.equal(s.winY(-1), s.winY(0));
  for (let n = 0; n < 7; n++) assert.equal(s.stepAt(s.x(n) + 3), n);
  assert.equal(s.stepAt(-50), 0);
  assert.equal(s.stepAt(5000), 6);
  assert.equal(graphScale(1).x(0), MARGIN.left); // one step: no division by zero
  // drawn at the container's size: a phone gets a lower graph, never a narrower one than 300
  assert.deepEqual(graphSize(1000), { width: 1000, height: HEIGHT });
  assert.deepEqual(graphSize(358.4), { width: 358, height: 200 });
  assert.deepEqual(graphSize(0), { width: 1000, height: HEIGHT });
  assert.deepEqual(graphSize(120), { width: 300, height: 200 });
});

test("the graph's shapes: a line through the moves, a boundary per game, a marker per mark", () => {
  const s = graphScale(steps.length);
  const shapes = graphShapes(steps, joinAnalysis(steps, analysis), s);
  assert.equal((shapes.win.match(/[ML]/g) || []).join(""), "MLL");
  assert.ok(shapes.win.startsWith(`M${s.x(1).toFixed(1)},${s.winY(0.55).toFixed(1)}`));
  assert.deepEqual(shapes.games, [{ x: s.x(0), game: 1 }]);
  assert.deepEqual(shapes.markers.map((m) => [m.n, m.mark, m.cube]), [[3, "error", true], [5, "blunder", true]]);
  // a marker without a point of its own sits on the line's last height
  assert.equal(shapes.markers[0].y, s.winY(0.6));
  // a second game starts a new line
  const two = [...steps, step({ kind: "start", i: 6, g: 2, p: null }), step({ kind: "move", i: 8, r: 7, g: 2 })];
  const more = { ...analysis, games: [...analysis.games, { number: 2, decisions: [], luck: [], graph: [{ game: 2, action_index: 8, player: 0, win: 0.4, equity: -0.1 }] }] };
  const shapes2 = graphShapes(two, joinAnalysis(two, more), graphScale(two.length));
  assert.equal((shapes2.win.match(/[ML]/g) || []).join(""), "MLLM");
  assert.equal(shapes2.games.length, 2);
});

test("texts: equities with their sign, chances, what each step says", () => {
  assert.equal(equity(0.1234), "+0.123");
  assert.equal(equity(-0.05), "\u22120.050");
  assert.equal(equity(-0.0001), "+0.000");
  assert.equal(percent(0.532), "53.2%");
  const say = (/** @type {string} */ k) => `<${k}>`;
  assert.deepEqual(steps.map((s) => stepText(s, say)), [
    "<Game> 1: 0\u20130",
    "31: 8/5 6/5",
    "66: <cannot move>",
    "<doubles to> 2",
    "<takes>",
    "42: 13/7",
    "<wins> 2 (2\u20130)",
  ]);
  assert.equal(stepText(step({ kind: "resign", level: 2 }), say), "<offers to resign> (<a gammon>)");
  // issue #33: an opening roll-off not played is no "cannot move"; a tie is shown
  const rolloff = step({ kind: "rolloff", p: 0, dice: { seat: 0, values: [5, 1] } });
  assert.equal(stepText(rolloff, say), "<wins the opening roll> 5\u20131");
  const tie = step({ kind: "rolloff", p: null, dice: { seat: 0, values: [3, 3] } });
  assert.equal(stepText(tie, say), "<Opening roll> 3\u20133: <a tie, rolled again>");
});
