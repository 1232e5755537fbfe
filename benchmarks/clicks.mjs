// Clicks a move, counted offline on the page's own click logic (benchmarks/clicks.py writes
// the turns): a player who clicks the lowest point that can move, as tests/e2e/test_clicks.py
// does, with the page's defaults (forced moves and a move left a single way play by
// themselves; a complete move goes after its grace). Two rules side by side in one run: one
// click per die (`preferredStep`, the reference) and the clicked point's share of the better
// move (`clickPlays`, what the page does).
//
//   node benchmarks/clicks.mjs TURNS.jsonl

import { readFileSync } from "node:fs";
import { clickPlays, preferredStep } from "../src/gammon/server/static/game/firstclick.js";
import { MoveBuilder } from "../src/gammon/server/static/game/movebuilder.js";

const other = Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));
const turns = readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => JSON.parse(l));

/** @type {Record<string, (b: MoveBuilder, played: any[], from: number, steps: any[]) => any[]>} */
const rules = {
  "one click per die": (b, played, from, steps) => {
    const s = preferredStep(b, played, steps.filter((x) => x[0] === from), other);
    return s ? [s] : [];
  },
  "the point's share": (b, played, from, steps) => clickPlays(b, played, from, steps, other),
};

const results = {};
for (const [name, rule] of Object.entries(rules)) {
  const sum = { all: [0, 0], single: [0, 0], double: [0, 0] };
  for (const t of turns) {
    sum.all[1]++;
    if (t.moves.length <= 1) continue; // forced: played by itself
    const b = new MoveBuilder({ dice: t.dice, mine: t.mine, theirs: t.theirs, other, moves: t.moves });
    let played = [];
    let clicks = 0;
    for (;;) {
      const opts = b.options(played);
      if (!opts || opts.complete) break;
      const from = Math.min(...opts.steps.map((s) => s[0]));
      const part = rule(b, played, from, opts.steps);
      if (!part.length || ++clicks > 8) throw new Error(`stuck at ${JSON.stringify(t.dice)} ${JSON.stringify(played)}`);
      played = [...played, ...part];
      played = [...played, ...b.rest(played)];
    }
    const kind = t.dice[0] === t.dice[1] ? sum.double : sum.single;
    sum.all[0] += clicks;
    kind[0] += clicks;
    kind[1]++;
  }
  results[name] = sum.all[0] / sum.all[1];
  const f = (x) => (x[0] / Math.max(1, x[1])).toFixed(3);
  console.log(`${name.padEnd(18)} ${f(sum.all)} clicks a move (${sum.all[1]} turns; unforced non-doubles ${f(sum.single)}, doubles ${f(sum.double)})`);
}
const [ref, ours] = Object.values(results);
console.log(`ratio (share / one per die): ${(ours / ref).toFixed(3)}`);
