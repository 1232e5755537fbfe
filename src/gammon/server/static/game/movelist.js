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

export class MoveList {
  constructor() {
    /** @type {Game[]} */
    this.games = [];
  }

  reset() {
    this.games = [];
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
   * @param {string[]} names
   * @param {string[] | null} [rotation] a rotation table's variants in turn (tavli): each
   *   game is headed with its own
   */
  render(names, rotation = null) {
    if (!this.games.length) return [h("p", { class: "muted" }, t("moves.empty"))];
    const out = [];
    for (const g of this.games) {
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
      const headRow = h("tr", {}, h("th", {}, ""), h("th", {}, names[0] ?? ""), h("th", {}, names[1] ?? ""));
      table.append(h("thead", {}, headRow));
      const body = h("tbody");
      g.rows.forEach((/** @type {(Cell | null)[]} */ row, /** @type {number} */ i) => {
        body.append(h("tr", {}, h("td", { class: "n" }, `${i + 1}`), cellNode(row[0]), cellNode(row[1])));
      });
      table.append(body);
      const parts = [head, ...notes, table];
      if (g.result) parts.push(h("div", { class: "result" }, resultText(g.result, names)));
      out.push(h("section", { class: "game-moves", dataset: { game: g.number } }, parts));
    }
    return out;
  }
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
