// @ts-check
// The analysis board's panels: the move list, the decision at the step shown (the move
// played beside the best ones, or the cube equities), the luck of its roll, and the
// players' summary.

import { MARK_SIGN, equity, percent, stepText } from "./format.js";

/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./types.js").StepInfo} StepInfo */
/** @typedef {import("./types.js").Decision} Decision */
/** @typedef {import("./types.js").Analysis} Analysis */
/** @typedef {(key: string) => string} Say */

/**
 * An element with attributes and children (strings become text).
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null>} [attrs]
 * @param {...(Node | string | null)} children
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null) node.append(c);
  return node;
}

/**
 * The move list: one button per step, in a list per game.
 * @param {HTMLElement} list
 * @param {Step[]} steps
 * @param {StepInfo[]} infos
 * @param {string[]} players
 * @param {Say} say
 * @param {(n: number) => void} go
 */
export function renderMoves(list, steps, infos, players, say, go) {
  list.replaceChildren(
    ...steps.map((step, n) => {
      const who = step.kind === "start" || step.p === null ? "" : `${players[step.p]} `;
      const mark = infos[n].mark;
      const button = h(
        "button",
        { type: "button", class: `step k-${step.kind}${step.p === null ? "" : ` s${step.p}`}`, "data-step": n, "data-mark": mark },
        `${who}${stepText(step, say)}`,
        mark === "none" ? null : h("span", { class: `sign mk-${mark}`, title: say(`mark.${mark}`) }, ` ${MARK_SIGN[mark]}`),
      );
      button.addEventListener("click", () => go(n));
      return h("li", { class: step.kind === "start" ? "game-start" : null }, button);
    }),
  );
}

/**
 * Mark the move list's current step and scroll it into view.
 * @param {HTMLElement} list
 * @param {number} n
 */
export function showCurrent(list, n) {
  for (const b of list.querySelectorAll("button[aria-current]")) b.removeAttribute("aria-current");
  const button = list.querySelector(`button[data-step="${n}"]`);
  if (!button) return;
  button.setAttribute("aria-current", "step");
  button.scrollIntoView({ block: "nearest" });
}

/**
 * @param {Decision} d
 * @param {Say} say
 */
function checkerTable(d, say) {
  const best = d.candidates.length ? d.candidates[0].equity : d.equity_best;
  return h(
    "table",
    { class: "cands", "data-testid": "candidates" },
    h("tr", {}, h("th", {}, "#"), h("th", {}, say("Move")), h("th", {}, say("Equity")), h("th", {}, say("Win")), h("th", {}, say("Equity lost"))),
    ...d.candidates.map((c, k) =>
      h(
        "tr",
        { class: c.move === d.played ? "played" : null },
        h("td", { class: "num" }, String(k + 1)),
        h("td", {}, c.move, c.move === d.played ? h("span", { class: "tag" }, ` ${say("Played")}`) : null),
        h("td", { class: "num" }, equity(c.equity)),
        h("td", { class: "num" }, percent(c.win)),
        h("td", { class: "num" }, k === 0 ? "" : equity(c.equity - best)),
      ),
    ),
  );
}

/**
 * @param {Decision} d
 * @param {Say} say
 */
function cubeTable(d, say) {
  const cube = d.cube;
  if (!cube) return null;
  /** @type {[string, number | null][]} */
  const rows = [
    ["No double", cube.no_double],
    ["Double, take", cube.double_take],
    ["Double, pass", cube.double_pass],
    ["Double, beaver", cube.double_beaver],
  ];
  return h(
    "div",
    {},
    h(
      "table",
      { class: "cands", "data-testid": "cube-equities" },
      ...rows.filter(([, v]) => v !== null).map(([label, v]) => h("tr", {}, h("th", {}, say(label)), h("td", { class: "num" }, equity(/** @type {number} */ (v))))),
    ),
    h("p", {}, `${say("Right action")}: ${say(`cube.${cube.action}`)} · ${say("Win")} ${percent(cube.win)}`),
  );
}

/**
 * The decision(s) and the luck of the step shown.
 * @param {HTMLElement} box
 * @param {Step} step
 * @param {StepInfo} info
 * @param {string[]} players
 * @param {boolean} analysed whether the analysis is in
 * @param {Say} say
 */
export function renderDecision(box, step, info, players, analysed, say) {
  const who = step.p === null || step.kind === "start" ? "" : `${players[step.p]}: `;
  const parts = [h("h2", {}, `${say("Game")} ${step.g} · ${who}${stepText(step, say)}`)];
  if (!analysed) parts.push(h("p", { class: "muted" }, say("The analysis is not ready yet.")));
  for (const d of info.decisions) {
    const title = d.kind === "checker" ? say("Decision") : d.kind === "cube" ? say("Cube decision") : say("Answer to the double");
    const played = d.kind === "checker" ? d.played : say(`played.${d.played}`);
    const best = d.kind === "checker" ? d.best : say(`played.${d.best}`);
    parts.push(
      h(
        "section",
        { class: `decision mk-${d.mark}`, "data-kind": d.kind, "data-mark": d.mark },
        h("h3", {}, `${title} (${players[d.player]})`),
        h(
          "p",
          {},
          `${say("Played")}: ${played}`,
          d.error > 0 ? ` · ${say("Best")}: ${best} · ${say("Equity lost")} ${equity(-d.error)}` : "",
          d.mark === "none" ? "" : ` · ${say(`mark.${d.mark}`)} ${MARK_SIGN[d.mark]}`,
        ),
        d.kind === "checker" ? checkerTable(d, say) : cubeTable(d, say),
      ),
    );
  }
  if (info.notAnalysed) parts.push(h("p", { class: "muted", "data-testid": "not-analysed" }, say("This game is not analysed: no engine judges its variant.")));
  else if (analysed && !info.decisions.length) parts.push(h("p", { class: "muted" }, say("No choice here.")));
  if (info.luck) {
    const l = info.luck;
    parts.push(
      h("p", { class: "luck", "data-testid": "luck" }, `${say("Luck of the roll")} ${l.dice} (${players[l.player]}): ${equity(l.luck)} (${equity(l.equity)}, ${say("average")} ${equity(l.average)})`),
    );
  }
  box.replaceChildren(...parts);
}

/**
 * The players' summary: PR, error rate, marks, luck and the luck-adjusted result.
 * @param {HTMLElement} box
 * @param {Analysis} analysis
 * @param {Say} say
 */
export function renderSummary(box, analysis, say) {
  const match = analysis.match_length > 0 && analysis.luck_unit !== "points";
  const engine = analysis.engine || "bgsage";
  const net = engine !== "bgsage";
  const head = ["Player", engine === "mixed" ? "PR by game" : net ? "Net PR" : "PR", "Error rate", "Decisions", "Doubtful", "Errors", "Blunders", "Luck", "Luck-adjusted result"];
  const rows = analysis.totals.map((p) => {
    const adj = analysis.luck_adjusted ? analysis.luck_adjusted[p.player] : null;
    const adjusted = !adj || !adj.games ? "\u2013" : match ? `${(100 * adj.adjusted).toFixed(1)}%` : adj.adjusted.toFixed(2);
    const cells = [p.pr.toFixed(1), p.error_rate.toFixed(1), String(p.decisions), String(p.doubtful), String(p.errors), String(p.blunders), equity(p.luck), adjusted];
    return h("tr", {}, h("td", {}, p.name), ...cells.map((c) => h("td", { class: "num" }, c)));
  });
  const table = h("table", { class: "list", id: "totals" }, h("tr", {}, ...head.map((k) => h("th", {}, k === "PR" ? k : say(k)))), ...rows);
  box.replaceChildren(h("h2", {}, say("Players")), table);
  if (net) box.append(h("p", { class: "note", "data-testid": "net-note" }, say(engine === "mixed" ? "mixed.note" : "net.note")));
}
