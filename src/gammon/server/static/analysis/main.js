// @ts-check
// The analysis board (/matches/{id}/analysis): the match replayed step by step on the game
// page's board, the equity graph, the decision at each step and the players' summary.
// The page comes at once; the replay (from the match record) is asked for at once, and the
// analysis too unless the page holds it (stored), while a progress bar shows how far it is.

import { BoardView } from "../game/board.js";
import { drawGraph, graphSize, moveCursor } from "./graph.js";
import { stepText } from "./format.js";
import { clampStep, joinAnalysis, markedSteps, stepForKey } from "./nav.js";
import { renderDecision, renderMoves, renderSummary, showCurrent } from "./panels.js";
import { Rollouts, setupDeep } from "./deep.js";
import { matchId, setupPositionId, xgid } from "../position/ids.js";
import { xgSections, xgSummary } from "./xg.js";

/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").Analysis} Analysis */
/** @typedef {import("./types.js").StepInfo} StepInfo */

/**
 * @typedef {object} Boot
 * @property {string} table
 * @property {string} level
 * @property {string[]} players
 * @property {number[]} other
 * @property {number[][]} [others] each game's point mapping in turn (a tavli match: portes, plakoto, fevga)
 * @property {boolean} available
 * @property {boolean} cube whether the match is played with a cube
 * @property {string} replay
 * @property {string} api
 * @property {string} progress
 * @property {Record<string, string>} texts
 * @property {import("./deep.js").DeepBoot} deep the grandmaster analysis and rollouts
 * @property {string} [variant] the match's variant (the shown position's IDs)
 * @property {boolean} [xgid] whether an XGID describes its positions
 * @property {number} [match_length]
 * @property {boolean} [jacoby]
 */

/** @param {string} id */
function json(id) {
  const node = document.getElementById(id);
  return node && node.textContent ? JSON.parse(node.textContent) : null;
}

/** @param {string} id */
function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

const boot = /** @type {Boot} */ (json("ab-boot"));
/** @type {Analysis | null} */
let analysis = json("ab-analysis");
/** @type {Promise<Analysis | null> | null} asked for at once, with the replay */
const asked = !analysis && boot.available && boot.level !== boot.deep.level ? askAnalysis() : null;
const steps = /** @type {Step[]} */ (await replayed());

/** The replay (asked again, a moment later, while the site rations it: 429). */
async function replayed() {
  for (let tries = 1; ; tries += 1) {
    const r = await fetch(boot.replay);
    if (r.ok || r.status !== 429 || tries >= 10) return r.json();
    await new Promise((resolve) => setTimeout(resolve, 1000 * tries));
  }
}

/** @param {string} key */
function say(key) {
  return boot.texts[key] ?? key;
}

const noop = () => {};
const board = new BoardView(byId("ab-board"), { onPoint: noop, onSelect: noop, onDrag: noop });
const list = byId("ab-moves");
const box = byId("ab-decision");
const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (byId("ab-graph-svg")));
const root = byId("analysis-board");
let current = 0;
/** @type {StepInfo[]} */
let infos = joinAnalysis(steps, analysis);
let marked = markedSteps(infos);
let graph = draw();
const rollouts = new Rollouts(boot.deep, say, showDecision);
const deepBox = document.getElementById("ab-deep");
if (deepBox) setupDeep(deepBox, boot.deep, boot.level, say);

/** Draw the graph at the width it has on the page. */
function draw() {
  const parent = svg.parentElement;
  return drawGraph(svg, graphSize(parent ? parent.clientWidth : 0), steps, infos, boot.players[0], say);
}

/** @param {Step} step */
function model(step) {
  const offer = step.cube.offer;
  return {
    bottom: 0,
    board: step.board,
    pinned: step.pinned ?? undefined,
    waiting: step.waiting ?? undefined,
    other: boot.others && boot.others.length ? boot.others[(step.g - 1) % boot.others.length] : boot.other,
    dice: step.dice ? { seat: step.dice.seat, values: step.dice.values, used: [false, false] } : null,
    cube: { enabled: boot.cube, disabled: false, disabledText: "", value: step.cube.value, owner: step.cube.owner, offer },
    sources: new Set(),
    dests: new Set(),
    selected: null,
    interactive: false,
  };
}

/** @param {number} n */
function go(n) {
  current = clampStep(n, steps.length);
  const step = steps[current];
  board.render(model(step));
  board.setTitle(`${say("Game")} ${step.g}: ${step.p === null || step.kind === "start" ? "" : `${boot.players[step.p]} `}${stepText(step, say)}`);
  root.dataset.step = String(current);
  showCurrent(list, current);
  showDecision();
  moveCursor(graph, current);
  byId("ab-where").textContent = `${current + 1} / ${steps.length}`;
  showIds(step);
}

/** The shown position's XGID, Position ID and Match ID, the side to act next on roll. */
function showIds(/** @type {Step} */ step) {
  const box = document.getElementById("ab-ids");
  if (!box || !boot.variant) return;
  const next = step.p === null ? (step.dice ? step.dice.seat : 0) : step.kind === "move" || step.kind === "dance" ? 1 - step.p : step.p;
  const setup = {
    variant: boot.variant,
    board: step.board,
    pinned: step.pinned ?? [[], []],
    waiting: step.waiting ?? [0, 0],
    turn: next,
    dice: null,
    cube: { value: step.cube.value, owner: step.cube.owner },
    length: boot.match_length ?? 0,
    score: step.score,
    crawford: step.crawford,
    jacoby: Boolean(boot.jacoby),
  };
  const x = xgid(setup, Boolean(boot.xgid));
  /** @type {HTMLInputElement} */ (byId("ab-xgid")).value = x ?? "";
  byId("ab-xgid-row").hidden = x === null;
  const pos = setupPositionId(setup);
  const match = matchId(setup);
  /** @type {HTMLInputElement} */ (byId("ab-pid")).value = pos;
  /** @type {HTMLInputElement} */ (byId("ab-mid")).value = match;
  /** @type {HTMLAnchorElement} */ (byId("ab-open")).href = `/analysis?${new URLSearchParams({ variant: boot.variant, pos, match })}`;
  box.hidden = false;
}

for (const button of document.querySelectorAll("#ab-ids [data-copy]")) {
  button.addEventListener("click", () => {
    const field = /** @type {HTMLInputElement} */ (byId(/** @type {HTMLElement} */ (button).dataset.copy || ""));
    navigator.clipboard.writeText(field.value).catch(() => {
      field.select();
      document.execCommand("copy");
    });
  });
}

/** The decision panel of the step shown, with its rollouts. */
function showDecision() {
  renderDecision(box, steps[current], infos[current], boot.players, analysis !== null, say);
  box.append(...xgSections(infos[current].xg, boot.players, say));
  rollouts.decorate(box, infos[current].decisions);
}

function analysed() {
  infos = joinAnalysis(steps, analysis);
  marked = markedSteps(infos);
  graph = draw();
  renderMoves(list, steps, infos, boot.players, say, go);
  // the names as the page writes them (a bot's level in the page's language)
  if (analysis) renderSummary(byId("ab-summary"), { ...analysis, totals: analysis.totals.map((p) => ({ ...p, name: boot.players[p.player] || p.name })) }, say);
  const agreement = analysis ? xgSummary(analysis, say) : null;
  if (agreement) byId("ab-summary").append(agreement);
  root.dataset.analysed = analysis ? "true" : "false";
  go(current);
}

renderMoves(list, steps, infos, boot.players, say, go);
go(0);

/** @type {Record<string, () => number | null>} */
const BUTTONS = {
  first: () => 0,
  "prev-mark": () => stepForKey("ArrowUp", current, steps.length, marked),
  prev: () => current - 1,
  next: () => current + 1,
  "next-mark": () => stepForKey("ArrowDown", current, steps.length, marked),
  last: () => steps.length - 1,
};
for (const button of document.querySelectorAll("[data-go]")) {
  const to = BUTTONS[/** @type {HTMLElement} */ (button).dataset.go || ""];
  button.addEventListener("click", () => {
    const n = to ? to() : null;
    if (n !== null) go(n);
  });
}
document.addEventListener("keydown", (e) => {
  const target = /** @type {HTMLElement | null} */ (e.target);
  if (e.altKey || e.ctrlKey || e.metaKey || (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  const n = stepForKey(e.key, current, steps.length, marked);
  if (n === null) return;
  e.preventDefault();
  go(n);
});
svg.addEventListener("click", (e) => {
  const m = svg.getScreenCTM();
  if (!m) return;
  const x = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse()).x;
  go(graph.scale.stepAt(x));
});
/** @type {ReturnType<typeof setTimeout> | undefined} */
let resized;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => {
    graph = draw();
    moveCursor(graph, current);
  }, 150);
});

/** Ask for the analysis and show its progress until it is in (null if it failed: said in
 * the progress bar). */
async function askAnalysis() {
  const bar = byId("ab-progress");
  const meter = /** @type {HTMLProgressElement} */ (bar.querySelector("progress"));
  const label = /** @type {HTMLElement} */ (bar.querySelector("span"));
  bar.hidden = false;
  let done = false;
  const poll = async () => {
    while (!done) {
      try {
        const r = await fetch(boot.progress);
        if (r.ok) {
          const p = await r.json();
          meter.value = p.fraction;
          label.textContent = p.status === "running" ? `${say(`stage.${p.stage}`)} ${p.done}/${p.total}` : p.status === "queued" ? say("waiting for another analysis") : "";
        }
      } catch {
        // the next poll tries again
      }
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  };
  poll();
  try {
    for (let tries = 1; ; tries += 1) {
      const r = await fetch(boot.api);
      const body = await r.json();
      if (r.status === 429 && tries < 10) {
        // the site is busy (its analysis queue is full) or rations this visitor: ask again a
        // moment later, as the refusal says, rather than leave the board without its analysis
        label.textContent = say("waiting for another analysis");
        await new Promise((resolve) => setTimeout(resolve, 1000 * tries));
        continue;
      }
      if (!r.ok) throw new Error(refusal(body && body.error, r.status));
      bar.hidden = true;
      return /** @type {Analysis} */ (body);
    }
  } catch (err) {
    label.textContent = `${say("The analysis failed")}: ${err instanceof Error ? err.message : String(err)}`;
    meter.hidden = true;
    return null;
  } finally {
    done = true;
  }
}

/**
 * A refusal of the analysis in the visitor's language (its English message otherwise).
 * @param {{code: string, message: string} | undefined} error
 * @param {number} status
 */
function refusal(error, status) {
  if (!error) return String(status);
  const known = /** @type {Record<string, string>} */ ({
    busy: "You have analyses under way already: wait for one of them to finish.",
    rate_limited: "The site is busy: try again in a moment.",
  })[error.code];
  return known ? say(known) : error.message;
}

if (analysis) analysed();
else if (asked) {
  asked.then((found) => {
    if (!found) return;
    analysis = found;
    analysed();
  });
}
