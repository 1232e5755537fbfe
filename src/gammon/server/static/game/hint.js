// @ts-check
// The Hint button and its answer (issue #18): the bot's best moves with their equities, or
// its cube decision, as the terminal's `hint`; in every variant (off the backgammon board the
// variant's trained net gives equities, or the hand-made bot its own score: `measure`). Offered where the server gives hints: no stake,
// not rated, and a bot at the table or a casual game (gammon.server.hints decides; a refusal
// comes back as `hint_refused`).

import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./page.js").GamePage} GamePage */
/** @typedef {Record<string, any>} Message */

/**
 * Whether the page offers a hint now: the seated player's own decision at a table where the
 * server gives them.
 * @param {GamePage} page
 */
export function canHint(page) {
  const st = page.state;
  const m = page.match;
  if (!st || !m || !m.game || page.mySeat === null || st.table.status !== "playing") return false;
  const options = st.table.options || {};
  if (options.stake || options.rated) return false;
  const bot = (st.table.seats || []).some((/** @type {Message | null} */ s) => s && s.kind === "bot");
  if (!bot && options.rated !== false) return false;
  return page.allowed("move") || page.allowed("double") || page.allowed("take");
}

/** @param {GamePage} page */
export function askHint(page) {
  page.hint = { version: page.state.version, waiting: true, answer: null };
  page.send({ type: "hint" });
  renderHint(page);
}

/**
 * The server's `hint` answer.
 * @param {GamePage} page
 * @param {Message} msg
 */
export function onHint(page, msg) {
  if (!page.hint || msg.version !== page.state.version) return;
  page.hint = { version: msg.version, waiting: false, answer: msg };
  renderHint(page);
}

/**
 * A hinted move's number: an equity, or the hand-made bot's score (not an equity).
 * @param {string | undefined} measure
 * @param {number} v
 */
function value(measure, v) {
  const text = (v >= 0 ? "+" : "") + Number(v).toFixed(3);
  return measure === "score" ? t("hint.score", { score: text }) : t("hint.equity", { equity: text });
}

/** @param {GamePage} page */
export function renderHint(page) {
  const e = page.el;
  const hint = page.hint;
  const show = Boolean(hint && page.state && hint.version === page.state.version);
  e.hint.hidden = !show;
  if (!show || !hint) return;
  const body = [h("h2", {}, t("hint.title"))];
  const a = hint.answer;
  if (!a) body.push(h("p", { class: "muted" }, t("hint.thinking")));
  else if (a.kind === "cube") body.push(h("p", { "data-testid": "hint-cube" }, t("hint.cube", { action: a.action })));
  else {
    body.push(h("ol", { class: "hint-moves", "data-testid": "hint-moves" },
      ...(a.moves || []).map((/** @type {Message} */ m) =>
        h("li", {}, h("span", { class: "hint-move" }, m.move), " ", h("span", { class: "muted" }, value(a.measure, m.equity))))));
    if (a.engine === "net") body.push(h("p", { class: "muted", "data-testid": "hint-engine" }, t("hint.net")));
    else if (a.measure === "score") body.push(h("p", { class: "muted", "data-testid": "hint-engine" }, t("hint.scoreNote")));
  }
  replaceChildren(e.hint, body);
}
