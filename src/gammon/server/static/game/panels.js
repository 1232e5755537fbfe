// @ts-check
// The game page's side panels: the match (score, options, links), the move list (the earlier
// games of a long session asked for when opened) and the spectators. The end of the match is
// in over.js, the chat in chat.js, the fair dice in fair.js.

import { StickToBottom, h, replaceChildren } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { resultText } from "./movelist.js";

/** @typedef {import("./store.js").TableStore} TableStore */
/** @typedef {import("./store.js").Message} Message */

/**
 * The match's id (its record's URL), else the table's.
 * @param {TableStore} store
 * @example matchId(store) // "Ab3dE5fG7hJ9"
 */
export function matchId(store) {
  const m = store.match;
  return (m && m.match_id) || (store.state && store.state.dice && store.state.dice.match_id) || store.cfg.table;
}

/**
 * The match's links: record, action log, .mat (the backgammon board only), dice verification.
 * @param {TableStore} store
 */
export function matchLinks(store) {
  const id = encodeURIComponent(matchId(store));
  const variant = store.state && store.state.table && store.state.table.variant;
  return h("ul", { class: "links", "data-testid": "match-links" },
    h("li", {}, h("a", { href: `/matches/${id}`, "data-link": "record" }, t("over.record"))),
    h("li", {}, h("a", { href: `/matches/${id}/log`, "data-link": "log" }, t("over.log"))),
    // a .mat file knows only the backgammon board (not plakoto, fevga, acey-deucey...)
    variant && variant.mat === false
      ? null
      : h("li", {}, h("a", { href: `/matches/${id}/mat`, "data-link": "mat" }, t("over.mat"))),
    h("li", {}, h("a", { href: `/matches/${id}/verify`, "data-link": "verify" }, t("over.verify"))),
  );
}

/**
 * The match panel: the score, the games, the table's options, the links.
 * @param {TableStore} store
 * @param {HTMLElement} panel
 */
export function renderInfo(store, panel) {
  const st = store.state;
  if (!st || !st.table) {
    replaceChildren(panel);
    return;
  }
  const o = st.table.options || {};
  const m = store.match;
  const title = o.match_length ? t("score.match", { n: o.match_length }) : t("score.money");
  const rows = [h("h2", {}, title)];
  if (m) {
    const names = store.names();
    const score = m.score || [0, 0];
    const line = h("p", { class: "scoreline", "data-testid": "scoreline" },
      `${names[0]} ${score[0]} – ${score[1]} ${names[1]}`);
    rows.push(line);
    const badges = h("p", { class: "badges" });
    if (m.game) badges.append(h("span", { class: "badge" }, t("score.game", { n: m.game.number })));
    if (m.crawford || (m.game && m.game.crawford)) badges.append(" ", h("span", { class: "badge crawford", "data-testid": "crawford" }, t("score.crawford")));
    else if (m.post_crawford) badges.append(" ", h("span", { class: "badge" }, t("score.post_crawford")));
    rows.push(badges);
    if (m.games && m.games.length) {
      rows.push(h("ol", { class: "games", "data-testid": "games" }, m.games.map((/** @type {any} */ g) =>
        h("li", {}, `${t("score.game", { n: g.number })}: `, resultText(g, names)))));
    }
    if (m.balances) rows.push(h("p", {}, `${t("score.balances")}: ${names[0]} ${m.balances[0]}, ${names[1]} ${m.balances[1]}`));
  }
  const opts = [t(`variant.${o.variant || "standard"}`)];
  if (!o.match_length && o.stake) opts.push(t("score.stake", { stake: o.stake }));
  if (o.cube === false) opts.push(t("opt.cube_off"));
  else if (o.cube_limit) opts.push(t("opt.cube_limit", { n: o.cube_limit }));
  if (o.jacoby) opts.push(t("opt.jacoby"));
  if (o.beaver) opts.push(t("opt.beaver"));
  if (o.raccoon) opts.push(t("opt.raccoon"));
  if (o.automatic_doubles) opts.push(t("opt.auto_doubles", { n: o.automatic_doubles }));
  if (o.end_setting && o.end_setting !== "cox") opts.push(t(`opt.end.${o.end_setting}`));
  if (o.draw_last_roll) opts.push(t("opt.draw_last_roll"));
  if (o.rated) opts.push(t("opt.rated"));
  if (o.spectator_chat === false) opts.push(t("opt.no_spectator_chat"));
  if (o.first_move && o.first_move !== "rolloff") opts.push(t(`opt.first.${o.first_move}`));
  if (o.clock) opts.push(t("opt.clock", { delay: o.clock.delay, base: o.clock.reserve_base, per: o.clock.reserve_per_point }));
  if (st.table.private) opts.push(t("opt.private"));
  rows.push(h("p", { class: "options muted" }, opts.join(" · "), " · ",
    h("a", { href: `/rules/${encodeURIComponent(o.variant || "standard")}`, "data-link": "rules" }, t("info.rules"))));
  if (m) rows.push(matchLinks(store));
  replaceChildren(panel, rows);
}

/**
 * What the move list needs of the page.
 * @typedef {object} MovesHost
 * @property {TableStore} store the table (its move list, names, rotation)
 * @property {Pick<import("./layout.js").Elements, "moves" | "movesTitle">} el
 * @property {(msg: Message) => string | number | null} send asks for an earlier game (`history`)
 */

/**
 * The move list's panel.
 * @example
 * const list = new MovesPanel({store, el, send});
 * list.render(); // keeps the newest move in view
 */
export class MovesPanel {
  /** @param {MovesHost} host */
  constructor(host) {
    this.host = host;
    /** @type {string | null} what the list now on the page was drawn from */
    this.shown = null;
    /** @type {HTMLElement | null} the element it was drawn in */
    this.drawnIn = null;
    /** @type {StickToBottom | null} keeps the newest move in view */
    this.stick = null;
  }

  /**
   * @param {boolean} [follow] keep the newest move in view when it was (not when the reader
   *   opened an earlier game)
   */
  render(follow = true) {
    const { store, el } = this.host;
    const box = el.moves;
    const match = store.state && store.state.match;
    const names = store.names();
    const rotation = match ? match.rotation : null;
    // the page draws itself after every click and message: a list that would come out the
    // same is left alone (not rebuilt, not laid out again)
    const shown = store.moves.signature(names, rotation, getLang());
    if (shown === this.shown && box === this.drawnIn) return;
    if (box !== this.drawnIn || !this.stick) this.stick = new StickToBottom(box);
    this.shown = shown;
    this.drawnIn = box;
    el.movesTitle.textContent = t("moves.title");
    replaceChildren(box, store.moves.render(names, rotation, {
      onEarlier: () => this.toggleEarlierGames(),
      onGame: (n) => this.toggleEarlierGame(n),
    }));
    if (follow) this.stick.changed();
  }

  // The reader unfolds (or folds) the list of the games the snapshot left out.
  toggleEarlierGames() {
    const moves = this.host.store.moves;
    moves.earlierShown = !moves.earlierShown;
    this.render(false);
    this.refocus("[data-action=earlier-games]");
  }

  /** @param {string} selector the control clicked, drawn again: the focus stays on it */
  refocus(selector) {
    const again = /** @type {HTMLElement | null} */ (this.host.el.moves.querySelector(selector));
    if (again) again.focus();
  }

  /**
   * The reader opens (or closes) an earlier game: asked for once (`history`), then kept.
   * @param {number} n
   */
  toggleEarlierGame(n) {
    const moves = this.host.store.moves;
    if (moves.toggleEarlier(n) && this.host.send({ type: "history", game: n }) === null) {
      moves.loading.delete(n); // offline: a later click asks again
      moves.opened.delete(n);
    }
    this.render(false);
    this.refocus(`[data-game="${n}"]`);
  }
}

/**
 * Who watches (names, or a count).
 * @param {TableStore} store
 * @param {HTMLElement} panel
 */
export function renderSpectators(store, panel) {
  const st = store.state;
  const raw = st ? st.spectators ?? (st.table && st.table.spectators) : undefined;
  if (raw === undefined || raw === null) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  let names = [];
  let count = 0;
  if (Array.isArray(raw)) {
    names = raw.map((s) => (typeof s === "string" ? s : s && s.name) || "?");
    count = raw.length;
  } else if (typeof raw === "number") {
    count = raw;
  } else if (typeof raw === "object") {
    names = Array.isArray(raw.names) ? raw.names : [];
    count = typeof raw.count === "number" ? raw.count : names.length;
  }
  const body = [h("h2", {}, t("spect.title"))];
  if (!count) body.push(h("p", { class: "muted" }, t("spect.none")));
  else {
    body.push(h("p", {}, t("spect.count", { n: count })));
    if (names.length) body.push(h("ul", { class: "spect-list" }, names.map((/** @type {string} */ n) => h("li", {}, n))));
  }
  replaceChildren(panel, body);
}
