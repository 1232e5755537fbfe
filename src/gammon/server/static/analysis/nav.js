// @ts-check
// Stepping through the replay (pure): which step a key goes to, and the analysis joined to
// the steps by the record's action indexes.

/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").Analysis} Analysis */
/** @typedef {import("./types.js").StepInfo} StepInfo */

const RANK = { none: 0, doubtful: 1, error: 2, blunder: 3 };

/**
 * The step index `n` kept inside 0..count-1.
 * @param {number} n
 * @param {number} count
 */
export function clampStep(n, count) {
  return Math.max(0, Math.min(count - 1, n));
}

/**
 * The first marked step after (dir 1) or before (dir -1) `current`, or null.
 * @param {number} current
 * @param {number[]} marked step indexes with a mark, ascending
 * @param {number} dir
 */
export function nextMarked(current, marked, dir) {
  if (dir > 0) return marked.find((n) => n > current) ?? null;
  for (let k = marked.length - 1; k >= 0; k--) if (marked[k] < current) return marked[k];
  return null;
}

/**
 * The step a key goes to from `current`, or null for a key that does not step: arrows one
 * step, Home/End the ends, Up/Down (and PageUp/PageDown) the previous/next marked step.
 * @param {string} key KeyboardEvent.key
 * @param {number} current
 * @param {number} count
 * @param {number[]} marked
 */
export function stepForKey(key, current, count, marked) {
  switch (key) {
    case "ArrowLeft":
      return clampStep(current - 1, count);
    case "ArrowRight":
      return clampStep(current + 1, count);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    case "ArrowUp":
    case "PageUp":
      return nextMarked(current, marked, -1);
    case "ArrowDown":
    case "PageDown":
      return nextMarked(current, marked, 1);
    default:
      return null;
  }
}

/**
 * The analysis of each step: its decisions (a no-double at its roll goes with the move
 * played after it), the luck of its roll, its graph point, its worst mark.
 * @param {Step[]} steps
 * @param {Analysis | null} analysis
 * @returns {StepInfo[]}
 */
export function joinAnalysis(steps, analysis) {
  /** @type {Map<number, number>} action index -> step index */
  const at = new Map();
  steps.forEach((s, n) => {
    if (s.kind === "start" || s.kind === "end") return;
    if (!at.has(s.i)) at.set(s.i, n);
    if (s.r !== null && !at.has(s.r)) at.set(s.r, n);
  });
  /** @type {StepInfo[]} */
  const out = steps.map(() => ({ decisions: [], luck: null, point: null, mark: "none", cubeError: false, notAnalysed: false, xg: [] }));
  if (!analysis) return out;
  for (const x of analysis.xg ? analysis.xg.decisions : []) {
    const n = at.get(x.action_index);
    if (n !== undefined) out[n].xg.push(x);
  }
  for (const g of analysis.games) {
    if (g.engine === null) steps.forEach((s, n) => { if (s.g === g.number) out[n].notAnalysed = true; });
    for (const d of g.decisions) {
      const n = at.get(d.action_index);
      if (n === undefined) continue;
      const info = out[n];
      info.decisions.push(d);
      if (RANK[/** @type {keyof RANK} */ (d.mark)] > RANK[/** @type {keyof RANK} */ (info.mark)]) info.mark = d.mark;
      if (d.kind !== "checker" && d.mark !== "none") info.cubeError = true;
    }
    for (const l of g.luck) {
      const n = at.get(l.action_index);
      if (n !== undefined) out[n].luck = l;
    }
    for (const p of g.graph) {
      const n = at.get(p.action_index);
      if (n !== undefined) out[n].point = p;
    }
  }
  return out;
}

/**
 * The indexes of the steps with a mark (doubtful or worse), ascending.
 * @param {StepInfo[]} infos
 */
export function markedSteps(infos) {
  /** @type {number[]} */
  const out = [];
  infos.forEach((info, n) => {
    if (info.mark !== "none") out.push(n);
  });
  return out;
}
