// @ts-check
// Click-to-move on the game page: the steps the player makes this turn (`played`), the checker
// selected, one click / double-click / drag, undo, confirm, forced moves. What may follow the
// steps made so far comes from the state's legal moves (movebuilder.js), without asking the
// server; only when the state leaves the moves out (`moves_omitted`, an acey-deucey 1-2) are
// the server's `steps` answers asked for, as docs/protocol.md describes.

import { clickPlays, preferredStep } from "./firstclick.js";
import { MoveBuilder, playOn, turnFromState } from "./movebuilder.js";
import { sound } from "./sound.js";
import { storage } from "./dom.js";

/** How long a complete move waits before it is sent by itself (ms): Undo or a click on a checker takes it back meanwhile. */
export const GRACE_MS = 1000;

/**
 * What the move input needs of the page.
 * @typedef {object} MoveHost
 * @property {import("./store.js").TableStore} store the table (its state, moves, the viewer)
 * @property {() => boolean} busy whether an action awaits its answer
 * @property {() => boolean} online whether the table's socket is open
 * @property {() => void} render the whole page again
 * @property {() => void} renderBoard the board alone again
 * @property {(msg: Record<string, any>) => string | number | null} send
 * @property {(type: string, extra?: Record<string, any>) => void} act send an action (the page is busy until its answer)
 */
/** @typedef {import("./movebuilder.js").Step} Step */
/** @typedef {import("./movebuilder.js").StepAnswer} StepAnswer */
/**
 * The board shown: the state's, with the steps played so far applied.
 * @typedef {{board: number[][], pips: number[], pinned: number[][], waiting: number[]}} Shown
 */

export class MoveInput {
  /** @param {MoveHost} host */
  constructor(host) {
    this.host = host;
    /** @type {Step[]} the steps made this turn */
    this.played = [];
    /** @type {number | null} the point whose checker is selected */
    this.selected = null;
    /** @type {Map<string, StepAnswer>} `${version}|${played}` -> the server's answer (moves left out) */
    this.stepsCache = new Map();
    /** @type {Map<string | number, string>} request id -> cache key */
    this.stepsWaiting = new Map();
    /** @type {{state: any, moves: any, builder: MoveBuilder | null} | null} the builder of the current state and moves */
    this.built = null;
    this.autoSent = null; // version at which a forced move was auto-played
    this.autoForced = storage("gammon.autoForced") !== "0"; // forced moves play by themselves (default)
    this.quickMove = storage("gammon.quickMove") !== "0"; // one click moves by a die (default)
    // a complete move is sent by itself after a short grace (the default); "0" stored: the
    // player confirms each move (a click on the dice, the Confirm button, Enter)
    this.autoConfirm = storage("gammon.autoConfirm") !== "0";
    // the player's roll is made for them after a short grace when the cube is live (the
    // default): Double stays offered meanwhile (controls.js, cubegrace.js)
    this.autoRoll = storage("gammon.autoRoll") !== "0";
    this.graceMs = GRACE_MS;
    /** @type {{played: Step[], timer: number, since: number} | null} a complete move about to be sent */
    this.sending = null;
    /** @type {{from: number, to: number, at: number, count: number} | null} the last one-click step (for a double-click) */
    this.lastQuick = null;
    /** @type {{point: number, count: number} | null} a double-click waiting for the next step options */
    this.continueFrom = null;
  }

  // A new decision: whatever was being built belonged to the old one.
  reset() {
    this.cancelSending();
    this.played = [];
    this.selected = null;
  }

  // A new version of the state: the server's answers were for the old one.
  newVersion() {
    this.stepsCache.clear();
    this.stepsWaiting.clear();
  }

  // After each state (a new version, or the same one after a reconnection): the steps made so
  // far are checked against the state's moves, or (moves left out) the server is asked again.
  resume() {
    if (!this.played.length) return;
    const builder = this.builder();
    if (!builder) this.requestSteps();
    else if (!builder.options(this.played)) this.reset(); // should not happen: the same decision
  }

  canMove() {
    const { store, busy, online } = this.host;
    const m = store.match;
    return Boolean(
      m && m.game && m.game.phase === "moving" && ((Array.isArray(m.moves) && m.moves.length) || m.moves_omitted) &&
        store.allowed("move") &&
        !busy() && online(),
    );
  }

  // The move builder of the current state (null when its moves are left out).
  builder() {
    const state = this.host.store.state;
    const moves = state && state.match && state.match.moves;
    if (!this.built || this.built.state !== state || this.built.moves !== moves) {
      const turn = turnFromState(state, this.host.store.mySeat);
      this.built = { state, moves, builder: turn ? new MoveBuilder(turn) : null };
    }
    return this.built.builder;
  }

  /** @param {Step[]} played */
  stepsKey(played) {
    return `${this.host.store.state.version}|${JSON.stringify(played.map((s) => s.slice(0, 3)))}`;
  }

  /**
   * The step options after the steps played so far (undefined while the server is asked,
   * when the state leaves the moves out).
   * @returns {StepAnswer | null | undefined}
   */
  options() {
    if (!this.canMove()) return null;
    const builder = this.builder();
    if (builder) return builder.options(this.played);
    const first = this.played.length ? null : this.host.store.match.step_options;
    if (first) return first;
    const known = this.stepsCache.get(this.stepsKey(this.played));
    if (known === undefined) this.requestSteps(); // asked once (a state without its first steps too)
    return known;
  }

  /** @param {StepAnswer | null | undefined} opts */
  sources(opts) {
    if (!opts || opts.complete) return new Set();
    return new Set(opts.steps.map((s) => s[0]));
  }

  /**
   * @param {StepAnswer | null | undefined} opts
   * @param {number | null} from
   */
  destinations(opts, from) {
    if (!opts || opts.complete || from === null) return new Set();
    return new Set(opts.steps.filter((s) => s[0] === from).map((s) => s[1]));
  }

  /**
   * A click or tap on a point. With "one click moves" (the default) a click on a checker that
   * can move plays at once the point's share of the better move (firstclick.js: by the die
   * making that move, on by the other when the move runs the checker; a second click, the rest);
   * a double-click takes the same checker on by the next die too (so a checker that can bear
   * off with both dice does). Otherwise the click selects it and a click on a highlighted point
   * plays it there (dragging works either way). On a touch screen two quick taps are two
   * clicks (each its own step): a double-click is a mouse's or a key's.
   * @param {number} p
   * @param {string} [pointer] the pointer's type ("mouse", "touch", "pen"; none: a key)
   */
  onPoint(p, pointer = "mouse") {
    const opts = this.options();
    const last = pointer === "touch" ? null : this.lastQuick;
    if (this.quickMove && last && last.from === p && performance.now() - last.at < 400 && last.count === this.played.length) {
      // the second click of a double-click: the checker that just moved goes on
      this.lastQuick = null;
      if (this.sending) return; // the first click finished the move: nothing more to play
      this.continueFrom = { point: last.to, count: this.played.length };
      this.continueQuick();
      return;
    }
    if (this.sending) {
      // a click on the board while the move waits to be sent: it stays, to confirm or undo
      this.cancelSending();
      this.host.render();
      return;
    }
    if (!opts || opts.complete) return;
    if (this.selected !== null && this.destinations(opts, this.selected).has(p)) {
      this.playStep(this.selected, p);
      return;
    }
    if (this.quickMove && this.sources(opts).has(p)) {
      const part = this.quickPart(opts, p);
      if (part.length) {
        this.playSteps(part);
        const to = part[part.length - 1][1];
        this.lastQuick = { from: p, to, at: performance.now(), count: this.played.length };
        return;
      }
    }
    this.selectPoint(p);
  }

  // After a double-click: move the same checker on (off the board if it can), once the step
  // options after the first step are known.
  continueQuick() {
    const c = this.continueFrom;
    if (!c || c.count !== this.played.length) {
      this.continueFrom = null;
      return;
    }
    const opts = this.options();
    if (opts === undefined) return; // asked; onSteps calls again
    this.continueFrom = null;
    if (!opts || opts.complete || c.point === 0) return;
    const off = opts.steps.find((st) => st[0] === c.point && st[1] === 0);
    const step = off || this.quickStep(opts, c.point);
    if (step) this.playStep(step[0], step[1], step[2]);
  }

  /** @param {number} p */
  selectPoint(p) {
    const opts = this.options();
    if (!opts || opts.complete) return;
    this.selected = this.sources(opts).has(p) && this.selected !== p ? p : null;
    this.host.renderBoard();
  }

  /**
   * The step a single click plays from `from`: by the die leading to the better move
   * (firstclick.js; the larger die on a tie).
   * @param {StepAnswer} opts
   * @param {number} from
   */
  quickStep(opts, from) {
    const steps = opts.steps.filter((st) => st[0] === from);
    return preferredStep(this.builder(), this.played, steps, this.otherPoint());
  }

  /**
   * The steps a single click on `from` plays: the share of the best-scored move made by the
   * checkers leaving `from`, each as far as that move takes it (firstclick.js `clickPlays`;
   * one step when the state leaves the moves out).
   * @param {StepAnswer} opts
   * @param {number} from
   * @returns {Step[]}
   */
  quickPart(opts, from) {
    return clickPlays(this.builder(), this.played, from, opts.steps, this.otherPoint());
  }

  /**
   * @param {number} from
   * @param {number} to
   */
  onDrag(from, to) {
    if (this.sending) {
      this.cancelSending();
      this.host.render();
      return;
    }
    const opts = this.options();
    if (!opts || opts.complete) return;
    if (this.destinations(opts, from).has(to)) this.playStep(from, to);
    else {
      this.selected = null;
      this.host.renderBoard();
    }
  }

  /**
   * @param {number} from
   * @param {number} to
   * @param {number | null} die
   */
  playStep(from, to, die = null) {
    const opts = this.options();
    if (!opts || opts.complete) return;
    let choices = opts.steps.filter((s) => s[0] === from && s[1] === to);
    if (die !== null && choices.some((s) => s[2] === die)) choices = choices.filter((s) => s[2] === die);
    if (!choices.length) return;
    choices.sort((a, b) => a[2] - b[2]); // the smallest die that makes it (e.g. bearing off)
    this.playSteps([choices[0]]);
  }

  /**
   * Play `steps` in turn (each one the options allow after those before it), then the rest
   * of the move when a single way is left.
   * @param {Step[]} steps
   */
  playSteps(steps) {
    const builder = this.builder();
    /** @type {Step[]} */
    const made = [];
    for (const step of steps) {
      // after the first step only the builder knows (a step list comes from it then)
      const opts = !made.length ? this.options() : builder ? builder.options([...this.played, ...made]) : null;
      if (!opts || opts.complete) break;
      if (!opts.steps.some((s) => s[0] === step[0] && s[1] === step[1] && s[2] === step[2])) break;
      made.push([step[0], step[1], step[2], Boolean(step[3])]);
    }
    if (!made.length) return;
    sound.play("move");
    this.played = [...this.played, ...made];
    this.selected = null;
    // one click moves: when a single way is left to finish the move, it is played too
    if (this.quickMove && builder) this.played = [...this.played, ...builder.rest(this.played)];
    this.requestSteps();
    this.host.render();
    this.maybeAutoConfirm();
  }

  // Only when the state leaves the moves out: ask the server what may follow `played`.
  requestSteps() {
    if (this.builder()) return;
    const m = this.host.store.match;
    if (!this.played.length && (!m || !m.moves_omitted || m.step_options)) return; // the state has them
    const key = this.stepsKey(this.played);
    if (this.stepsCache.has(key)) return;
    for (const k of this.stepsWaiting.values()) if (k === key) return;
    const id = this.host.send({ type: "steps", played: this.played.map((s) => s.slice(0, 3)) });
    if (id !== null) this.stepsWaiting.set(id, key);
  }

  /** @param {any} msg the server's `steps` answer */
  onSteps(msg) {
    const key = `${msg.version}|${JSON.stringify((msg.played || []).map((/** @type {number[]} */ s) => s.slice(0, 3)))}`;
    this.stepsWaiting.delete(msg.id);
    this.stepsCache.set(key, {
      steps: msg.steps || [],
      complete: Boolean(msg.complete),
      move: msg.move,
      dice_left: msg.dice_left || [],
    });
    if (this.host.store.state && this.played.length && key === this.stepsKey(this.played)) {
      this.host.render();
      if (this.continueFrom) this.continueQuick();
      this.maybeAutoConfirm();
    }
  }

  /**
   * A `steps` question the server refused (the steps cannot lead to a legal move: should not
   * happen): start the turn again. Whether `id` was one.
   * @param {string | number} id
   */
  refused(id) {
    if (!this.stepsWaiting.has(id)) return false;
    this.stepsWaiting.delete(id);
    this.reset();
    return true;
  }

  // A complete move is sent by itself after a grace (`graceMs`), unless the player confirms
  // each move (the settings): meanwhile the dice show a countdown, Undo stays live and a
  // click on Undo or on a checker takes the send back (the move then waits to be confirmed).
  maybeAutoConfirm() {
    if (!this.autoConfirm || !this.played.length) {
      if (this.cancelSending()) this.host.render();
      return;
    }
    if (this.sending && this.sending.played === this.played) return;
    this.cancelSending();
    const opts = this.options();
    if (!opts || !opts.complete || !opts.move) return;
    const played = this.played;
    this.sending = { played, since: performance.now(), timer: window.setTimeout(() => this.sendNow(played), this.graceMs) };
    this.host.render();
  }

  /**
   * The grace is over: send the move if it is still the one waiting.
   * @param {Step[]} played
   */
  sendNow(played) {
    const s = this.sending;
    if (!s || s.played !== played || this.played !== played) return;
    if (this.host.busy()) {
      // another request awaits its answer: try again in a moment
      s.timer = window.setTimeout(() => this.sendNow(played), 200);
      return;
    }
    this.sending = null;
    if (this.canMove()) this.confirmMove();
    else this.host.render(); // offline: the move stays, to confirm once back
  }

  // Take back a move waiting to be sent (it stays built, to confirm or undo).
  cancelSending() {
    if (!this.sending) return false;
    clearTimeout(this.sending.timer);
    this.sending = null;
    return true;
  }

  // The move waiting to be sent: how far its grace has run (0..1), or null.
  sendingProgress() {
    const s = this.sending;
    if (!s || s.played !== this.played) return null;
    return Math.min(1, (performance.now() - s.since) / this.graceMs);
  }

  undo() {
    this.cancelSending();
    this.played = this.played.slice(0, -1);
    this.selected = null;
    this.requestSteps();
    this.host.render();
  }

  undoAll() {
    this.reset();
    this.host.render();
  }

  // Whether the steps made are a complete move to confirm (the Confirm button, a click on the dice).
  canConfirm() {
    const opts = this.options();
    return Boolean(this.played.length && opts && opts.complete && opts.move && !this.host.busy());
  }

  confirmMove() {
    this.cancelSending();
    const opts = this.options();
    if (!opts || !opts.complete || !opts.move) return;
    this.host.act("move", { move: opts.move });
  }

  playForced() {
    const m = this.host.store.match;
    if (!m || !m.forced || !m.moves || !m.moves.length) return;
    this.autoSent = this.host.store.state.version;
    this.host.act("move", { move: m.moves[0].move });
  }

  maybeAutoPlay() {
    const store = this.host.store;
    const m = store.match;
    if (!this.autoForced || !this.canMove() || !m.forced || this.autoSent === store.state.version) return;
    const version = store.state.version;
    setTimeout(() => {
      if (store.state && store.state.version === version && this.canMove() && !this.played.length) this.playForced();
    }, 600);
  }

  /**
   * The board as sent, with one repair: when a match ends on a bear-off, the engine's final
   * position is seen from the loser while `turn` still names the winner, so the two seats'
   * boards (and pips, pins, checkers to enter) come swapped. A winner must have nothing left
   * on the board.
   * @returns {Shown}
   */
  sentBoard() {
    const m = this.host.store.match;
    const g = m.game;
    const board = [g.board[0].slice(), g.board[1].slice()];
    const pips = g.pips ? g.pips.slice() : [0, 0];
    const pinned = g.pinned ? [g.pinned[0].slice(), g.pinned[1].slice()] : [[], []];
    const waiting = g.waiting ? g.waiting.slice() : [0, 0];
    const w = m.winner;
    if (g.phase === "over" && (w === 0 || w === 1)) {
      const left = (/** @type {number[]} */ b) => b.slice(1).some((n) => n > 0);
      if (left(board[w]) && !left(board[1 - w])) {
        board.reverse();
        pips.reverse();
        pinned.reverse();
        waiting.reverse();
      }
    }
    return { board, pips, pinned, waiting };
  }

  /**
   * The variant's point mapping: other[q] is the other seat's number of a seat's point q.
   * @returns {number[]}
   */
  otherPoint() {
    const st = this.host.store.state;
    const v = st && st.table && st.table.variant;
    if (v && Array.isArray(v.other_point) && v.other_point.length === 26) return v.other_point;
    return Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));
  }

  /**
   * The board with the steps played so far applied (display only).
   * @returns {Shown}
   */
  displayState() {
    const sent = this.sentBoard();
    const me = this.host.store.mySeat;
    if (me === null || !this.played.length) return sent;
    const other = this.otherPoint();
    const v = this.host.store.state.table.variant || {};
    const landing = (v.geometry && v.geometry.landing) || "hit";
    let shown = { mine: sent.board[me], theirs: sent.board[1 - me], pins: sent.pinned[1 - me], waiting: sent.waiting[me] };
    for (const [from, to] of this.played) shown = playOn(shown, from, to, other, landing).board;
    const board = [shown.mine, shown.theirs];
    const pinned = [sent.pinned[me], shown.pins];
    const waiting = [shown.waiting, sent.waiting[1 - me]];
    if (me === 1) {
      board.reverse();
      pinned.reverse();
      waiting.reverse();
    }
    return { board, pinned, waiting, pips: sent.pips };
  }

  /**
   * A seat's pip count on the board shown.
   * @param {number} seat
   */
  pips(seat) {
    const m = this.host.store.match;
    if (!m || !m.game) return 0;
    if (!this.played.length) return this.sentBoard().pips[seat];
    const { board, waiting } = this.displayState();
    let sum = 25 * (waiting[seat] || 0);
    for (let i = 1; i <= 25; i++) sum += i * board[seat][i];
    return sum;
  }
}
