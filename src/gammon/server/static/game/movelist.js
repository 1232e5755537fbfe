// @ts-check
// The move list, built from the table's events (the engine events inside `action` events).
// It keeps structured entries, not text, so a language switch re-renders it.
//
// Each game is a table of rows with one cell per seat, like gnubg's: a seat's entries go in
// its column, and a new row starts whenever an entry cannot go in the current row without
// coming before something that happened earlier.

import { fmtDice, h } from "./dom.js";
import { points, t } from "./i18n.js";

/** @typedef {Record<string, any>} Cell a roll and its move, or a cube action */
/** @typedef {{number: number, crawford: boolean, rows: (Cell | null)[][], notes: Record<string, any>[], result: Record<string, any> | null}} Game */

/**
 * One game of the match, as the server's `history` answer gives it (its entries, from the one
 * that began it through the one that ended it), or null when they hold no such game.
 * @param {Record<string, any>[]} entries
 * @param {number} number
 * @returns {Game | null}
 */
export function gameFromEntries(entries, number) {
  const list = new MoveList();
  for (const ev of entries) list.addTableEvent(ev);
  return list.games.find((g) => g.number === number) || null;
}

export class MoveList {
  constructor() {
    /** @type {Game[]} */
    this.games = [];
    // A snapshot carries the current game only (docs/protocol.md): games 1..firstGame-1 come
    // on request (`history`), one request per game, kept here once answered.
    this.firstGame = 1;
    /** @type {Map<number, Game | null>} earlier games answered (null: the server had none) */
    this.earlier = new Map();
    /** @type {Set<number>} earlier games asked for, not answered yet */
    this.loading = new Set();
    /** @type {Set<number>} earlier games the reader opened */
    this.opened = new Set();
    this.earlierShown = false; // whether the list of earlier games is unfolded
  }

  reset() {
    this.games = [];
    this.firstGame = 1;
  }

  // The table started again from scratch (a resync): what was kept of it is forgotten too.
  forget() {
    this.reset();
    this.earlier.clear();
    this.loading.clear();
    this.opened.clear();
    this.earlierShown = false;
  }

  /**
   * A snapshot's history: the entries of game `first` (its first entry also ends the game
   * before, whose scraps are dropped: that game comes whole on request).
   * @param {Record<string, any>[]} entries
   * @param {number} first
   */
  setHistory(entries, first) {
    this.reset();
    this.firstGame = Math.max(1, first || 1);
    for (const ev of entries) this.addTableEvent(ev);
    this.games = this.games.filter((g) => g.number >= this.firstGame);
  }

  /**
   * The server's answer to a `history` question: one earlier game.
   * @param {number} number
   * @param {Record<string, any>[]} entries
   */
  setEarlier(number, entries) {
    this.loading.delete(number);
    this.earlier.set(number, gameFromEntries(entries || [], number));
  }

  /**
   * Open or close an earlier game; returns whether it must be asked for (opened, and
   * neither kept nor asked already).
   * @param {number} number
   */
  toggleEarlier(number) {
    if (this.opened.has(number)) {
      this.opened.delete(number);
      return false;
    }
    this.opened.add(number);
    if (this.earlier.has(number) || this.loading.has(number)) return false;
    this.loading.add(number);
    return true;
  }

  /** @param {number | null} [number] */
  game(number = null) {
    let g = this.games[this.games.length - 1];
    if (!g || (number !== null && g.number !== number)) {
      g = { number: number ?? (g ? g.number + 1 : 1), crawford: false, rows: [], notes: [], result: null };
      this.games.push(g);
    }
    return g;
  }

  /**
   * @param {number} seat
   * @param {Cell} entry
   */
  cell(seat, entry) {
    const g = this.game();
    let row = g.rows[g.rows.length - 1];
    const fits = row && !row[seat] && (seat === 1 || !row[1]);
    if (!fits) {
      row = [null, null];
      g.rows.push(row);
    }
    row[seat] = entry;
    return entry;
  }

  // the seat's latest roll entry still waiting for its move
  /** @param {number} seat */
  pending(seat) {
    const g = this.game();
    for (let i = g.rows.length - 1; i >= 0; i--) {
      const c = g.rows[i][seat];
      if (c && c.kind === "roll") return c.move === null ? c : null;
    }
    return null;
  }

  /** @param {Record<string, any>} ev a table event (docs/protocol.md) */
  addTableEvent(ev) {
    if (ev.kind === "start") this.game(1);
    if (ev.kind === "action") {
      for (const e of ev.data.events || []) this.addEngineEvent(e);
    }
  }

  /** @param {Record<string, any>} e an engine event inside an `action` */
  addEngineEvent(e) {
    const seat = e.player;
    const d = e.data || {};
    switch (e.kind) {
      case "game_started": {
        const g = this.game(d.game);
        g.crawford = Boolean(d.crawford);
        break;
      }
      case "opening_roll":
        this.game().notes.push({ key: "moves.opening", params: { d0: d.dice[0], d1: d.dice[1] } });
        break;
      case "automatic_double":
        this.game().notes.push({ key: "moves.auto_double", params: { value: d.cube } });
        break;
      case "starts":
      case "rolled": {
        // a roll never played (the variants whose opening winner rolls again) gives its
        // place to the new one: no row with dice and no move
        const unplayed = this.pending(seat);
        if (unplayed) unplayed.dice = d.dice;
        else this.cell(seat, { kind: "roll", dice: d.dice, move: null });
        break;
      }
      case "moved": {
        const c = this.pending(seat) || this.cell(seat, { kind: "roll", dice: d.dice, move: null });
        c.move = d.move;
        break;
      }
      case "no_move": {
        const c = this.pending(seat) || this.cell(seat, { kind: "roll", dice: d.dice, move: null });
        c.move = false;
        break;
      }
      case "doubled":
        this.cell(seat, { kind: "text", key: "moves.doubles", params: { value: d.cube } });
        break;
      case "took":
        this.cell(seat, { kind: "text", key: "moves.takes" });
        break;
      case "dropped":
        this.cell(seat, { kind: "text", key: "moves.drops" });
        break;
      case "beavered":
        this.cell(seat, { kind: "text", key: "moves.beavers", params: { value: d.cube } });
        break;
      case "raccooned":
        this.cell(seat, { kind: "text", key: "moves.raccoons", params: { value: d.cube } });
        break;
      case "resign_offered":
        this.cell(seat, { kind: "text", key: "moves.resigns", params: { level: d.level } });
        break;
      case "resign_accepted":
        this.cell(seat, { kind: "text", key: "moves.accepts" });
        break;
      case "resign_rejected":
        this.cell(seat, { kind: "text", key: "moves.rejects" });
        break;
      case "abandon":
        this.cell(seat, { kind: "text", key: "moves.abandons" });
        break;
      case "timeout":
        this.cell(seat, { kind: "text", key: "moves.timeout" });
        break;
      case "last_roll":
        this.game().notes.push({ key: "moves.last_roll", seat });
        break;
      case "draw":
        this.game().result = { draw: true };
        break;
      case "game_over":
        this.game(d.game).result = {
          winner: seat,
          points: d.points,
          result: d.result,
          reason: d.reason,
          draw: seat === null || seat === undefined,
        };
        break;
      default:
        break; // unknown kinds are ignored (the protocol may add some)
    }
  }

  /**
   * All that {@link MoveList#render} draws from, as one string: the same string draws the
   * same list (the panel then leaves the page alone).
   * @param {string[]} names
   * @param {string[] | null} rotation
   * @param {string} lang the page's language
   */
  signature(names, rotation, lang) {
    return JSON.stringify([lang, names, rotation, this.firstGame, this.earlierShown,
      [...this.opened], [...this.loading], [...this.earlier], this.games]);
  }

  /**
   * @param {string[]} names
   * @param {string[] | null} [rotation] a rotation table's variants in turn (tavli): each
   *   game is headed with its own
   * @param {{onEarlier?: () => void, onGame?: (n: number) => void}} [on] the reader unfolds
   *   the earlier games, or opens (closes) one of them
   */
  render(names, rotation = null, on = {}) {
    const out = [];
    if (this.firstGame > 1) out.push(...this.renderEarlier(names, rotation, on));
    if (!this.games.length) {
      out.push(h("p", { class: "muted" }, t("moves.empty")));
      return out;
    }
    for (const g of this.games) out.push(gameNode(g, names, rotation));
    return out;
  }

  /**
   * "Earlier games…": the games the snapshot left out, each loaded when opened.
   * @param {string[]} names
   * @param {string[] | null} rotation
   * @param {{onEarlier?: () => void, onGame?: (n: number) => void}} on
   */
  renderEarlier(names, rotation, on) {
    const last = this.firstGame - 1;
    const toggle = h("button", {
      type: "button", class: "btn small earlier-toggle", "data-action": "earlier-games",
      "aria-expanded": this.earlierShown ? "true" : "false",
      onclick: () => on.onEarlier && on.onEarlier(),
    }, t("moves.earlier"));
    if (!this.earlierShown) return [h("div", { class: "earlier", "data-testid": "earlier-games" }, toggle)];
    const picks = h("div", { class: "earlier-picks", role: "group", "aria-label": t("moves.earlier") });
    for (let n = 1; n <= last; n++) {
      picks.append(h("button", {
        type: "button", class: "btn small", "data-game": n, "aria-pressed": this.opened.has(n) ? "true" : "false",
        onclick: () => on.onGame && on.onGame(n),
      }, String(n)));
    }
    const parts = [toggle, h("p", { class: "muted small" }, t("moves.earlier_hint", { from: 1, to: last })), picks];
    for (const n of [...this.opened].sort((a, b) => a - b)) {
      const g = this.earlier.get(n);
      if (g) parts.push(gameNode(g, names, rotation, true));
      else if (this.loading.has(n)) parts.push(h("p", { class: "muted", "data-loading": n }, t("moves.loading", { n })));
    }
    return [h("div", { class: "earlier", "data-testid": "earlier-games" }, parts)];
  }
}

/**
 * One game's section of the move list.
 * @param {Game} g
 * @param {string[]} names
 * @param {string[] | null} rotation
 * @param {boolean} [earlier] one of the games loaded on request
 */
function gameNode(g, names, rotation, earlier = false) {
  const head = h("div", { class: "game-head" }, t("moves.game", { n: g.number }));
  if (rotation && rotation.length) {
    const variant = rotation[(g.number - 1) % rotation.length];
    head.append(" · ", h("span", { class: "variant", dataset: { variant } }, t(`variant.${variant}`)));
  }
  if (g.crawford) head.append(" ", h("span", { class: "badge" }, t("moves.crawford")));
  const notes = g.notes.map((/** @type {Record<string, any>} */ n) =>
    h("div", { class: "note" }, t(n.key, { ...n.params, name: names[n.seat] ?? "" })),
  );
  const table = h("table", { class: "movetable" });
  const headRow = h("tr", {}, h("th", {}, h("span", { class: "sr-only" }, t("moves.turn"))), h("th", {}, names[0] ?? ""), h("th", {}, names[1] ?? ""));
  table.append(h("thead", {}, headRow));
  const body = h("tbody");
  g.rows.forEach((/** @type {(Cell | null)[]} */ row, /** @type {number} */ i) => {
    body.append(h("tr", {}, h("td", { class: "n" }, `${i + 1}`), cellNode(row[0]), cellNode(row[1])));
  });
  table.append(body);
  const parts = [head, ...notes, table];
  if (g.result) parts.push(h("div", { class: "result" }, resultText(g.result, names)));
  const data = earlier ? { game: g.number, earlier: "1" } : { game: g.number };
  return h("section", { class: "game-moves", dataset: data }, parts);
}

/** @param {Cell | null} c */
function cellNode(c) {
  if (!c) return h("td");
  if (c.kind === "roll") {
    const move = c.move === null ? "" : c.move === false ? t("moves.no_move") : c.move;
    return h("td", {}, h("span", { class: "dice-text" }, `${fmtDice(c.dice)}:`), " ", move);
  }
  const params = { ...(c.params || {}) };
  if (params.level) params.result = t(`result.${params.level}`);
  return h("td", { class: "cube-action" }, t(c.key, params));
}

/**
 * A finished game's result as a line ("ann wins 2 points (gammon)").
 * @param {Record<string, any>} r
 * @param {string[]} names
 */
export function resultText(r, names) {
  if (r.draw || r.winner === null || r.winner === undefined) return t("moves.draw");
  const name = names[r.winner] ?? "?";
  if (r.reason && r.reason !== "bear_off") {
    return t("moves.wins_reason", { name, points: points(r.points), reason: t(`reason.${r.reason}`) });
  }
  return t("moves.wins", { name, points: points(r.points), result: t(`result.${r.result || 1}`) });
}
