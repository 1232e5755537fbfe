// @ts-check
// What the game page knows of its table: the shell's settings, the newest state the server
// sent (docs/protocol.md) and its version, the chat lines, the move list, and what follows
// from them (the viewer's seat, what they may do, the players' names). The page's modules
// read it; only the page (page.js) writes it, as messages arrive. No DOM.

import { personName } from "./i18n.js";
import { MoveList } from "./movelist.js";

/** @typedef {Record<string, any>} Message a protocol message or a part of one (JSON, docs/protocol.md) */

/**
 * The shell's settings (`<main id="game">`'s data attributes); `csrf` and `user` change when
 * a visitor becomes a guest.
 * @typedef {{table: string, ws: string, protocol: number, csrf: string, user: string}} Config
 */

/**
 * A seat's name as shown: the server names its bots "gammon-bot (LEVEL)", in English; the
 * level is shown in the page's language.
 * @param {{name?: string, kind?: string, level?: string | null} | null} seat the `table.seats` entry
 * @example displayName({name: "alice", kind: "user"}) // "alice"
 */
export function displayName(seat) {
  if (!seat || !seat.name) return null;
  return seat.kind === "bot" ? personName(seat.name) : seat.name;
}

/**
 * What a half-built move depends on: the same key means the same position, dice and turn.
 * @param {Message | null} st a state
 * @example decisionKey(null) // ""
 */
export function decisionKey(st) {
  const g = st && st.match && st.match.game;
  if (!g) return st ? `${st.table && st.table.status}` : "";
  return JSON.stringify([st.table && st.table.status, g.number, g.phase, g.turn, g.dice, g.position_id, g.plies]);
}

/**
 * The table as the page knows it.
 * @example
 * const store = new TableStore({table: "T", ws: "/ws/table/T", protocol: 1, csrf: "", user: "alice"});
 * store.state = {you: {seat: 1, allowed: ["roll"]}, table: {status: "playing", seats: [null, null]}};
 * store.mySeat; // 1
 * store.allowed("roll"); // true
 */
export class TableStore {
  /** @param {Config} cfg */
  constructor(cfg) {
    this.cfg = cfg;
    /** @type {any} the newest state (a Message), null before the first: typed loosely, as the page always did */
    this.state = null;
    this.version = 0; // newest version applied; 0 asks for the whole history on the first hello
    this.synced = false; // false while history is being replayed after a hello
    this.everSynced = false;
    this.moves = new MoveList();
    /** @type {Map<number, Message>} version -> chat line */
    this.chat = new Map();
    this.clockOffset = 0; // the server's clock minus ours (ms)
  }

  /** @returns {Message} what the viewer may do (`state.you`) */
  get you() {
    return (this.state && this.state.you) || { seat: null, allowed: [], can_sit: [false, false] };
  }

  /** @returns {0 | 1 | null} the viewer's seat, null for a spectator */
  get mySeat() {
    const seat = this.you.seat;
    return seat === 0 || seat === 1 ? seat : null;
  }

  /** The seat drawn at the bottom: the viewer's, else the first. */
  get bottomSeat() {
    return this.mySeat ?? 0;
  }

  /** @returns {any} the match (a Message), once it started; else null */
  get match() {
    return (this.state && this.state.match) || null;
  }

  /** @param {string} type an action: whether the viewer may take it now */
  allowed(type) {
    return (this.you.allowed || []).includes(type);
  }

  /** @returns {string[]} the two seats' names as shown ("—" for an empty one) */
  names() {
    const seats = (this.state && this.state.table && this.state.table.seats) || [null, null];
    return [0, 1].map((s) => displayName(seats[s]) || (this.match && this.match.players ? this.match.players[s] : null) || "—");
  }

  /** Whether the seated player has something to do now (the tab's title and icon say so). */
  myTurn() {
    return this.mySeat !== null && (this.you.allowed || []).some((/** @type {string} */ a) => a !== "abandon" && a !== "resign") &&
      Boolean(this.state && this.state.table && this.state.table.status === "playing");
  }

  /**
   * Keep the chat lines a state carries; drop those the table no longer holds (removed by a
   * moderator, or blocked) from its oldest line on.
   * @param {Message[]} lines
   */
  mergeChat(lines) {
    if (lines.length) {
      const first = Math.min(...lines.map((c) => (c && typeof c.version === "number" ? c.version : Infinity)));
      const kept = new Set(lines.map((c) => c && c.version));
      for (const v of [...this.chat.keys()]) if (v >= first && !kept.has(v)) this.chat.delete(v);
    }
    for (const c of lines) {
      if (c && typeof c.version === "number" && !this.chat.has(c.version)) this.chat.set(c.version, c);
    }
  }

  /**
   * Who is online and who watches changed (no new version): whether the state changed.
   * @param {Message} msg a `presence` message
   */
  presence(msg) {
    const st = this.state;
    if (!st || !st.table) return false;
    const seats = (st.table.seats || []).map((/** @type {Message | null} */ s, /** @type {number} */ i) =>
      s && Array.isArray(msg.online) ? { ...s, online: Boolean(msg.online[i]) } : s);
    this.state = { ...st, spectators: msg.spectators, table: { ...st.table, seats } };
    return true;
  }
}
