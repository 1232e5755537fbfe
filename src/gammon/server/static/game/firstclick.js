// @ts-check
// What a single click on a checker most likely means (issue #33: "a smarter first click").
// When the checker can move by either die, the click plays the die that leads to the better
// move: each die's best complete move is scored by a plain rule any player sees on the board
// (points made, the home board and the points in front of it, checkers hit or borne off, blots
// left where a checker of the other side can still reach them). No engine is asked, so it
// gives no advice a rated game would refuse; a tie keeps the larger die. Pure: no DOM.
//
// A click plays the clicked point's share of that move: every step it makes with the checkers
// leaving the point, each as far as the move takes it (`clickPlays`): 24/13 with 6-5 is one
// click, and so is 8/5(2) with 3-3; the steps it makes elsewhere are left to further clicks.

import { boardKey } from "./movebuilder.js";

/** @typedef {import("./movebuilder.js").Step} Step */
/** @typedef {import("./movebuilder.js").Board} Board */

/**
 * A plain score of the mover's board after a move (higher is better).
 * @param {Board} b
 * @param {number[]} other `variant.other_point`: the other seat's number of a point
 */
export function plainScore(b, other) {
  let score = 3 * (b.theirs[25] || 0) + (b.mine[0] || 0);
  // theirs move up the mover's numbering (their bar enters below the mover's 1): a blot of
  // the mover's at p is in reach while a checker of theirs lies below p
  let low = b.theirs[25] ? 0 : 25;
  for (let q = 1; q <= 24; q++) if (b.theirs[q] > 0) low = Math.min(low, other[q] || 25);
  for (let p = 1; p <= 24; p++) {
    const n = b.mine[p];
    if (n >= 2) score += p <= 6 ? 2 : p <= 9 ? 1.5 : 1;
    else if (n === 1 && low < p) score -= p <= 6 ? 1.5 : 1;
  }
  return score;
}

/**
 * The step a single click on `from` plays: the die leading to the best-scored move (the
 * larger die on a tie, or when the builder cannot tell: moves left out of the state).
 * @param {import("./movebuilder.js").MoveBuilder | null} builder
 * @param {Step[]} played the steps made so far
 * @param {Step[]} steps the steps that may follow, from `from`
 * @param {number[]} other
 * @returns {Step | null}
 */
export function preferredStep(builder, played, steps, other) {
  if (!steps.length) return null;
  const byDie = [...steps].sort((a, b) => b[2] - a[2]);
  if (!builder || byDie.length === 1) return byDie[0];
  let best = byDie[0];
  let bestScore = -Infinity;
  for (const step of byDie) {
    const ends = builder.ends([...played, step]);
    const score = Math.max(-Infinity, ...ends.map((b) => plainScore(b, other)));
    if (score > bestScore + 1e-9) {
      best = step;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The steps a single click on `from` plays: the part of the best-scored move (as
 * `preferredStep` chooses its first step) made by the checkers that leave `from`, each as far
 * as that move takes it. With 6-5 from the 24 point where the best move is 24/13 the click
 * plays both steps; with 3-3 where it is 8/5(2) 6/3(2) a click on the 8 moves both checkers
 * from the 8. A step that the move makes elsewhere is left for another click.
 * @param {import("./movebuilder.js").MoveBuilder | null} builder
 * @param {Step[]} played the steps made so far
 * @param {number} from
 * @param {Step[]} steps the steps that may follow (from any point)
 * @param {number[]} other
 * @returns {Step[]}
 */
export function clickPlays(builder, played, from, steps, other) {
  const first = preferredStep(builder, played, steps.filter((s) => s[0] === from), other);
  if (!first) return [];
  if (!builder) return [first];
  let best = null;
  let bestScore = -Infinity;
  for (const end of builder.ends([...played, first])) {
    const score = plainScore(end, other);
    if (score > bestScore + 1e-9) {
      best = end;
      bestScore = score;
    }
  }
  if (!best) return [first];
  const goal = boardKey(best);
  /** @type {Step[]} */
  const part = [first];
  const points = new Set([from, first[1]]);
  for (;;) {
    const now = [...played, ...part];
    const opts = builder.options(now);
    if (!opts) break;
    const next = opts.steps.find(
      (s) => points.has(s[0]) && builder.ends([...now, s]).some((b) => boardKey(b) === goal),
    );
    if (!next) break;
    part.push(next);
    points.add(next[1]);
  }
  return part;
}
