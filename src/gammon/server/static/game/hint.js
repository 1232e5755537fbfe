// @ts-check
// The Hint button and its answer (issue #18): the bot's best moves with their equities, or
// its cube decision, as the terminal's `hint`; in every variant (off the backgammon board the
// variant's trained net gives equities, or the hand-made bot its own score: `measure`). Offered where the server gives hints: no stake,
// not rated, and a bot at the table or a casual game (gammon.server.table.hints decides; a refusal
// comes back as `hint_refused`).

import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./store.js").TableStore} TableStore */
/** @typedef {import("./store.js").Message} Message */

/**
 * What the hints need of the page.
 * @typedef {object} HintHost
 * @property {TableStore} store the table (the viewer's decision, the table's options)
 * @property {Pick<import("./layout.js").Elements, "hint">} el
 * @property {(msg: Message) => string | number | null} send
 */

/**
 * A hinted move's number: an equity, or the hand-made bot's score (not an equity).
 * @param {string | undefined} measure
 * @param {number} v
 */
function value(measure, v) {
  const text = (v >= 0 ? "+" : "") + Number(v).toFixed(3);
  return measure === "score" ? t("hint.score", { score: text }) : t("hint.equity", { equity: text });
}

/**
 * The Hint button's question and the answer's panel.
 * @example
 * const hints = new Hints({store, el, send});
 * if (hints.can()) hints.ask(); // the answer comes as a `hint` message: hints.answer(msg)
 */
export class Hints {
  /** @param {HintHost} host */
  constructor(host) {
    this.host = host;
    /** @type {{version: number, waiting: boolean, answer: Message | null} | null} the bot's advice asked for */
    this.asked = null;
  }

  /**
   * Whether the page offers a hint now: the seated player's own decision at a table where
   * the server gives them.
   */
  can() {
    const store = this.host.store;
    const st = store.state;
    const m = store.match;
    if (!st || !m || !m.game || store.mySeat === null || st.table.status !== "playing") return false;
    const options = st.table.options || {};
    if (options.stake || options.rated) return false;
    const bot = (st.table.seats || []).some((/** @type {Message | null} */ s) => s && s.kind === "bot");
    if (!bot && options.rated !== false) return false;
    return store.allowed("move") || store.allowed("double") || store.allowed("take");
  }

  ask() {
    const st = this.host.store.state;
    if (!st) return;
    this.asked = { version: st.version, waiting: true, answer: null };
    this.host.send({ type: "hint" });
    this.render();
  }

  /**
   * The server's `hint` answer.
   * @param {Message} msg
   */
  answer(msg) {
    const st = this.host.store.state;
    if (!this.asked || !st || msg.version !== st.version) return;
    this.asked = { version: msg.version, waiting: false, answer: msg };
    this.render();
  }

  render() {
    const { store, el: e } = this.host;
    const hint = this.asked;
    const show = Boolean(hint && store.state && hint.version === store.state.version);
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
}
