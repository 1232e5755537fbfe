// @ts-check
// XG's own analysis beside gammon's (an imported .xg file that carries it: the analysis
// JSON's "xg", gammon.server.analysis.xgbeside): XG's candidates and equities, or its cube
// equities, at each decision XG analysed, and how often XG and gammon agree.

import { equity } from "./format.js";
import { h } from "./panels.js";

/** @typedef {import("./types.js").XgDecision} XgDecision */
/** @typedef {import("./types.js").Analysis} Analysis */
/** @typedef {(key: string) => string} Say */

/**
 * XG's name for an evaluation level ("XG 3-ply", "XG Roller++", "XG rollout").
 * @param {number | null} level
 * @param {Say} say
 */
export function xgLevel(level, say) {
  if (level === null) return "XG";
  if (level >= 0 && level <= 6) return `XG ${level + 1}-ply`;
  if (level >= 1000 && level <= 1002) return `XG Roller${"+".repeat(level - 1000)}`;
  if (level === 100) return `XG ${say("rollout")}`;
  if (level === 998) return `XG ${say("opening book")}`;
  return "XG";
}

/**
 * XG's candidates: each with its XG equity and what it loses to XG's best, the move played marked.
 * @param {XgDecision} x
 * @param {Say} say
 */
function checkerTable(x, say) {
  const best = x.equity_best ?? 0;
  return h(
    "table",
    { class: "cands", "data-testid": "xg-candidates" },
    h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, say("Move")), h("th", { scope: "col" }, say("XG equity")), h("th", { scope: "col" }, say("Equity lost"))),
    ...(x.candidates ?? []).map((c, k) =>
      h(
        "tr",
        { class: c.move === x.played ? "played" : null },
        h("td", { class: "num" }, String(k + 1)),
        h("td", {}, c.move, c.move === x.played ? h("span", { class: "tag" }, ` ${say("Played")}`) : null),
        h("td", { class: "num" }, equity(c.equity)),
        h("td", { class: "num" }, k === 0 ? "" : equity(c.equity - best)),
      ),
    ),
  );
}

/**
 * XG's no double / double, take / double, pass (the doubler's) and its right action.
 * @param {XgDecision} x
 * @param {Say} say
 */
function cubeTable(x, say) {
  /** @type {[string, number | undefined][]} */
  const rows = [
    ["No double", x.no_double],
    ["Double, take", x.double_take],
    ["Double, pass", x.double_pass],
  ];
  return h(
    "div",
    {},
    h(
      "table",
      { class: "cands", "data-testid": "xg-cube" },
      h("tr", {}, h("th", { scope: "col" }, say("Cube action")), h("th", { scope: "col" }, say("XG equity"))),
      ...rows.map(([label, v]) => h("tr", {}, h("th", { scope: "row" }, say(label)), h("td", { class: "num" }, equity(v ?? 0)))),
    ),
    h("p", {}, `${say("Right action")}: ${say(`cube.${x.action}`)}`),
  );
}

/**
 * The sections of XG's analysis at a step: XG's best choice, XG's error of the one played,
 * whether gammon names the same best choice, and XG's candidates or cube equities.
 * @param {XgDecision[]} found
 * @param {string[]} players
 * @param {Say} say
 */
export function xgSections(found, players, say) {
  return found.map((x) => {
    const word = (/** @type {string} */ s) => (x.kind === "checker" ? s : say(`played.${s}`));
    const agree = x.agree === null ? "" : ` · ${say(x.agree ? "Same best choice as gammon" : "Another best choice than gammon")}`;
    return h(
      "section",
      { class: "decision xg", "data-testid": "xg", "data-kind": x.kind, "aria-label": `${xgLevel(x.level, say)} (${players[x.player]})` },
      h("h3", {}, `${xgLevel(x.level, say)} (${players[x.player]})`),
      h(
        "p",
        {},
        `${say("Best")}: ${word(x.best)}`,
        x.played !== null && x.error !== null ? ` · ${say("Played")}: ${word(x.played)} · ${say("XG error")} ${equity(-x.error)}` : "",
        agree,
      ),
      x.kind === "checker" ? checkerTable(x, say) : cubeTable(x, say),
    );
  });
}

/**
 * The summary line: on how many decisions both judged XG and gammon name the same best choice.
 * @param {Analysis} analysis
 * @param {Say} say
 */
export function xgSummary(analysis, say) {
  const xg = analysis.xg;
  if (!xg || !xg.decisions.length) return null;
  const levels = xg.levels.map((l) => xgLevel(l, say)).join(", ");
  return h(
    "p",
    { class: "note", "data-testid": "xg-summary" },
    `${say("XG's analysis in the file")} (${levels}): ${say("XG and gammon agree on the best choice")} ${xg.agree} / ${xg.compared}`,
  );
}
