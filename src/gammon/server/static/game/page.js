// @ts-check
// The game page: one table, one WebSocket (docs/protocol.md). The server sends the state with
// everything the player may do (allowed actions, legal moves, legal first steps); this page
// keeps it (store.js), draws it, lets the player build a move step by step (moving.js,
// movebuilder.js), and sends the player's decisions.
//
// This module is the composition root: it makes the page's parts and hands each a small typed
// object of exactly what it uses (its `…Host` typedef: the store, a few elements, send, act,
// toast...), so that no part knows this page's type. The parts: the elements (layout.js), the
// top bar (header.js), the players, board and status line (tableview.js), the buttons and
// settings (controls.js), hints (hint.js), the side panels (panels.js), the end of the match
// and the rematch (over.js), the chat (chat.js), the fair dice (fair.js), the toasts
// (toasts.js), the table's events (events.js) and the keys (keys.js).

import { BoardView } from "./board.js";
import { Chat } from "./chat.js";
import { renderControls, renderSettings, sit } from "./controls.js";
import { RollGrace } from "./cubegrace.js";
import { takeEvent } from "./events.js";
import { FairDice } from "./fair.js";
import { fatalText, refreshBalance, renderHeader } from "./header.js";
import { Hints } from "./hint.js";
import { hasKey, onLangChange, t } from "./i18n.js";
import { installKeys } from "./keys.js";
import { buildLayout } from "./layout.js";
import { withKeptMoves } from "./movebuilder.js";
import { MoveInput } from "./moving.js";
import { Connection, PROTOCOL } from "./net.js";
import { MatchOver } from "./over.js";
import { MovesPanel, renderInfo, renderSpectators } from "./panels.js";
import { sound } from "./sound.js";
import { TableStore, decisionKey } from "./store.js";
import { renderBoard, renderPlayers, renderStatus, statusText, tickClocks } from "./tableview.js";
import { announce, toast } from "./toasts.js";

/** @typedef {import("./store.js").Message} Message */
/** @typedef {import("./controls.js").ControlsHost} ControlsHost */

// server error codes that are part of normal play (a race with the other seat, a double click;
// a moderator's mute: the player is told, nothing is broken)
const BENIGN_ERRORS = new Set(["stale", "rate_limited", "seeds_locked", "conflict", "muted"]);

/** @param {string} path */
function wsUrl(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

export class GamePage {
  /** @param {HTMLElement} root `<main id="game">` with the shell's data attributes */
  constructor(root) {
    this.root = root;
    const d = root.dataset;
    const cfg = {
      table: d.table || "",
      ws: d.ws || `/ws/table/${d.table}`,
      protocol: Number(d.protocol || PROTOCOL),
      csrf: d.csrf || "",
      user: d.user || "",
    };
    if (cfg.protocol !== PROTOCOL) {
      console.error(`gammon: the page speaks protocol ${PROTOCOL}, the shell says ${cfg.protocol}`);
    }
    this.store = new TableStore(cfg);
    const store = this.store;
    /** @type {string | number | null} id of the action request awaiting its answer */
    this.busy = null;
    /** @type {number | undefined} */
    this.busyTimer = undefined;
    this.connStatus = "connecting";
    /** @type {number | undefined} */
    this.connCode = undefined;
    /** @type {number | undefined} */
    this.connDelay = undefined;
    /** @type {{key: string, code: string, message: string, version: number} | null} the server's last refusal, shown under the status */
    this.notice = null;
    this.wasMyTurn = false;
    this.overShown = false; // whether the end-of-match panel was shown (scrolled to once)
    this.overSince = 0; // performance.now() when it was

    const send = (/** @type {Message} */ msg) => this.send(msg);
    const say = (/** @type {string} */ text, /** @type {string | undefined} */ kind) => this.toast(text, kind);
    const online = () => this.connStatus === "online";
    this.input = new MoveInput({
      store,
      busy: () => Boolean(this.busy),
      online,
      render: () => this.render(),
      renderBoard: () => this.renderBoard(),
      send,
      act: (type, extra) => this.act(type, extra),
    });
    this.el = buildLayout(root, {
      mute: () => {
        sound.setMuted(!sound.muted);
        this.renderConn();
      },
      move: (text) => {
        if (!this.input.canMove()) return false;
        this.act("move", { move: text });
        return true;
      },
      chat: () => this.chat.send(),
      seed: (seed) => this.fair.set(seed),
    });
    const el = this.el;
    this.board = new BoardView(el.boardWrap, {
      onPoint: (/** @type {number} */ p, /** @type {string | undefined} */ pointer) => this.input.onPoint(p, pointer),
      onSelect: (/** @type {number} */ p) => this.input.selectPoint(p),
      onDrag: (/** @type {number} */ from, /** @type {number} */ to) => this.input.onDrag(from, to),
      onDice: () => this.input.confirmMove(),
    }, { adaptive: true });
    this.hints = new Hints({ store, el, send });
    /** @type {ControlsHost} the buttons' view of the page; its prompt and resignMenu are theirs */
    this.controls = {
      store,
      input: this.input,
      hints: this.hints,
      el,
      blocked: () => Boolean(this.busy) || !online(),
      act: (type, extra) => this.act(type, extra),
      send: (msg, options) => this.send(msg, options),
      prompt: null,
      resignMenu: false,
      rollGrace: new RollGrace(),
    };
    this.table = {
      store,
      input: this.input,
      board: this.board,
      root,
      el,
      notice: () => this.notice,
      online,
      toast: say,
      sit: (/** @type {number} */ seat) => sit(this.controls, seat),
    };
    this.header = {
      table: cfg.table,
      myTurn: () => store.myTurn(),
      conn: () => ({ status: this.connStatus, code: this.connCode, delay: this.connDelay }),
      el,
    };
    this.movesPanel = new MovesPanel({ store, el, send });
    this.over = new MatchOver({ store, el, statusText: () => statusText(this.table), toast: say });
    this.chat = new Chat({ store, el, send, toast: say, reconnect: () => this.conn.reconnectNow() });
    this.fair = new FairDice({ store, el, send, toast: say });
    this.events = { store, toast: say, gameOver: refreshBalance };
    this.conn = new Connection(wsUrl(cfg.ws), () => store.version, {
      onMessage: (/** @type {Message} */ m) => this.onMessage(m),
      onStatus: (/** @type {string} */ s, /** @type {number | undefined} */ code, /** @type {number | undefined} */ delay) => this.onStatus(s, code, delay),
      onOpen: () => {
        store.synced = false;
        this.fair.sent = false;
        this.input.stepsWaiting.clear(); // answers to the old socket's questions will not come
      },
    });
    onLangChange(() => this.render());
    window.addEventListener("online", () => this.conn.nudge());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.conn.nudge();
    });
    installKeys({
      root,
      moveInput: el.moveInput,
      dropSelection: () => {
        if (this.input.selected === null) return false;
        this.input.selected = null;
        this.renderBoard();
        return true;
      },
    });
    setInterval(() => tickClocks(this.table), 250);
    // the end-of-match panel grows a moment after it comes (the rematch's buttons) and what is
    // above it changes (the buttons under the board go): for a few seconds it is kept in view
    if (typeof ResizeObserver === "function") {
      const watch = new ResizeObserver(() => this.keepOverInView());
      watch.observe(el.over);
      watch.observe(root);
    }
    this.render();
    this.conn.start();
  }

  // ------------------------------------------------------------------ the store, for the browser tests

  get version() {
    return this.store.version;
  }

  get synced() {
    return this.store.synced;
  }

  get state() {
    return this.store.state;
  }

  get mySeat() {
    return this.store.mySeat;
  }

  get bottomSeat() {
    return this.store.bottomSeat;
  }

  get match() {
    return this.store.match;
  }

  get moves() {
    return this.store.moves;
  }

  names() {
    return this.store.names();
  }

  /**
   * The toasts of a table action's events.
   * @param {Message} data
   * @param {string[]} names
   */
  announce(data, names) {
    announce(data, names, this.store.mySeat, (text, kind) => this.toast(text, kind));
  }

  // ------------------------------------------------------------------ connection

  /**
   * @param {string} status
   * @param {number} [code]
   * @param {number} [delay]
   */
  onStatus(status, code, delay) {
    const was = this.connStatus;
    this.connStatus = status;
    if (status !== "online" && this.busy) this.clearBusy();
    this.connCode = code;
    this.connDelay = delay;
    if (status === "fatal") {
      this.toast(fatalText(code), "error");
      console.error(`gammon: the server closed the table socket for good (code ${code})`);
    }
    if ((was === "online") !== (status === "online")) this.render();
    else this.renderConn();
  }

  /** @param {Message} msg */
  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        if (msg.protocol !== PROTOCOL) {
          console.error(`gammon: server protocol ${msg.protocol}, page protocol ${PROTOCOL}`);
        }
        if (typeof msg.now === "number") this.store.clockOffset = msg.now - Date.now();
        if (this.store.everSynced) this.toast(t("toast.reconnected"));
        break;
      case "event":
        this.onEvent(msg);
        break;
      case "state":
        this.onState(msg);
        break;
      case "presence":
        if (this.store.presence(msg)) this.render();
        break;
      case "steps":
        this.input.onSteps(msg);
        break;
      case "hint":
        this.hints.answer(msg);
        break;
      case "history":
        this.store.moves.setEarlier(msg.game, msg.history);
        this.movesPanel.render(false);
        break;
      case "ack":
        if (msg.id === this.busy) this.clearBusy();
        this.chat.acked(msg.id);
        break;
      case "error":
        this.onError(msg);
        break;
      default:
        break; // pong; the protocol may add message types: ignore them
    }
  }

  /** @param {Message} ev */
  onEvent(ev) {
    const store = this.store;
    if (typeof ev.version !== "number" || ev.version <= store.version) return; // seen already
    if (ev.version > store.version + 1 && store.version > 0) {
      console.warn(`gammon: events ${store.version + 1}..${ev.version - 1} are missing; resuming`);
      this.conn.reconnectNow();
      return;
    }
    const live = store.synced;
    store.version = ev.version;
    takeEvent(this.events, ev, live);
    if (ev.state) {
      this.applyState(ev.state, ev.version);
    } else {
      // a chat line comes without a state: it changes nothing else but the version
      if ((ev.kind === "chat" || ev.kind === "chat_removed") && store.state) store.state = { ...store.state, version: ev.version };
      if (live) this.render();
    }
  }

  /** @param {Message} msg */
  onState(msg) {
    const store = this.store;
    if (msg.resync) {
      // our version was ahead of the table's: start again from what the server has
      store.moves.forget();
      store.chat.clear();
      store.version = msg.version;
    } else if (typeof msg.version === "number" && msg.version < store.version) {
      return;
    }
    store.version = Math.max(store.version, msg.version || 0);
    if (Array.isArray(msg.history)) {
      // a snapshot for a page starting afresh: the current game, for the move list (the
      // earlier ones, before `history_game`, come on request: see MovesPanel)
      store.moves.setHistory(msg.history, msg.history_game || 1);
    }
    this.applyState(msg, msg.version);
  }

  /**
   * @param {Message} st
   * @param {number} version
   */
  applyState(st, version) {
    const store = this.store;
    const previous = store.state;
    const oldVersion = previous ? previous.version : null;
    st = withKeptMoves(previous, st); // an event that left the legal moves as they were
    store.state = { ...st, version: st.version ?? version };
    if (typeof st.now === "number") store.clockOffset = st.now - Date.now();
    store.mergeChat(Array.isArray(st.chat) ? st.chat : []);
    if (store.state.version !== oldVersion) {
      // a new version; if it is a new decision (not a chat line, a seat's presence, the
      // server's resume...), whatever was being built belonged to the old one
      const decided = decisionKey(previous) !== decisionKey(store.state);
      if (decided) this.input.reset();
      this.input.newVersion();
      // a question about an action stays only while the action is still allowed
      const c = this.controls;
      const a = c.prompt && c.prompt.action;
      if (c.prompt && !(a === "leave" ? store.you.can_leave : a && store.allowed(a))) c.prompt = null;
      if (c.resignMenu && !store.allowed("resign")) c.resignMenu = false;
      if (this.notice && decided) this.notice = null;
    }
    const myTurn = store.mySeat !== null && (store.you.allowed || []).length > 0 && store.state.table && store.state.table.status === "playing";
    if (myTurn && !this.wasMyTurn && store.everSynced) sound.play("turn");
    this.wasMyTurn = myTurn;
    if (!store.everSynced || (previous && previous.table && store.state.table && previous.table.status !== store.state.table.status)) refreshBalance();
    store.synced = true;
    store.everSynced = true;
    this.clearBusy();
    this.input.resume();
    this.fair.maybeSend();
    this.render();
    this.input.maybeAutoPlay();
    // the end of the match: its panel (and Rematch) comes into view, on a phone too
    const over = !this.el.over.hidden;
    if (over && !this.overShown && store.everSynced) {
      // at once on a phone: a smooth scroll's end would not follow the page changing meanwhile
      const smooth = innerWidth > 600 && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      this.overSince = performance.now();
      this.el.over.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
      for (const ms of [300, 1000, 2500]) window.setTimeout(() => this.keepOverInView(), ms);
    }
    this.overShown = over;
    this.keepOverInView();
  }

  // On a phone, the end-of-match panel shown a moment ago: at the bottom of the screen, whole,
  // below the toasts (at the top of the screen then: phone.css).
  keepOverInView() {
    const over = this.el.over;
    if (innerWidth > 600 || over.hidden || !this.overShown || performance.now() - this.overSince > 4000) return;
    const r = over.getBoundingClientRect();
    const free = 100; // the toasts' band at the top
    if (r.top < free || r.bottom > innerHeight) over.scrollIntoView({ block: r.height > innerHeight - free ? "start" : "end" });
  }

  /** @param {Message} msg */
  onError(msg) {
    const code = msg.code || "internal";
    const text = `gammon: server error ${code}: ${msg.message || ""}`;
    if (BENIGN_ERRORS.has(code)) console.warn(text);
    else console.error(text);
    this.input.refused(msg.id);
    if (msg.id === this.busy) this.clearBusy();
    // "stale": someone else acted first, the fresh state is on its way
    const key = `error.${code}`;
    const shown = hasKey(key) ? t(key) : t("error.generic", { message: msg.message || code });
    if (!BENIGN_ERRORS.has(code)) {
      // the server's reason stays in the page (under the status) until the table moves on
      this.notice = { key, code, message: msg.message || "", version: this.store.state ? this.store.state.version : 0 };
    }
    this.toast(shown, "error");
    this.render();
  }

  /**
   * Send a message; an action makes the page busy until its answer.
   * @param {Message} msg
   * @param {{action?: boolean}} [options]
   */
  send(msg, { action = false } = {}) {
    const id = this.conn.send(msg);
    if (id === null) return null;
    if (action) {
      this.busy = id;
      clearTimeout(this.busyTimer);
      this.busyTimer = window.setTimeout(() => this.clearBusy(true), 10000);
      this.renderControls();
    }
    return id;
  }

  clearBusy(render = false) {
    this.busy = null;
    clearTimeout(this.busyTimer);
    if (render) this.render();
  }

  /**
   * Send an action (the page's questions go).
   * @param {string} type
   * @param {Message} [extra]
   */
  act(type, extra = {}) {
    const st = this.store.state;
    if (!st) return;
    this.notice = null;
    this.controls.prompt = null;
    this.controls.resignMenu = false;
    this.send({ type, ...extra, version: st.version }, { action: true });
  }

  // ------------------------------------------------------------------ rendering

  render() {
    const store = this.store;
    this.renderConn();
    renderPlayers(this.table);
    this.renderBoard();
    renderStatus(this.table);
    this.renderControls();
    renderInfo(store, this.el.info);
    renderSettings(this.controls);
    this.hints.render();
    this.over.render();
    this.movesPanel.render();
    this.chat.render();
    renderSpectators(store, this.el.spect);
    this.fair.render();
  }

  renderBoard() {
    renderBoard(this.table);
  }

  renderControls() {
    renderControls(this.controls);
  }

  renderConn() {
    renderHeader(this.header);
  }

  /**
   * @param {string} text
   * @param {string} [kind] info, good, warn or error
   */
  toast(text, kind = "info") {
    toast(this.el.toasts, text, kind);
  }
}
