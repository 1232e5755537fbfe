// @ts-check
// The game page: one table, one WebSocket (docs/protocol.md). The server sends the state with
// everything the player may do (allowed actions, legal moves, legal first steps); this page
// draws it, lets the player build a move step by step (moving.js, movebuilder.js), and sends
// the player's decisions. The side panels are in panels.js, the board, players and status in
// tableview.js, the buttons, prompts and settings in controls.js.

import { BoardView } from "./board.js";
import { renderControls, renderSettings } from "./controls.js";
import { fmtDice, h, storage } from "./dom.js";
import { hasKey, onLangChange, points, setHeaderBalance, t } from "./i18n.js";
import { onHint, renderHint } from "./hint.js";
import { installKeys } from "./keys.js";
import { withKeptMoves } from "./movebuilder.js";
import { MoveList } from "./movelist.js";
import { MoveInput } from "./moving.js";
import { Connection, PROTOCOL } from "./net.js";
import { renderChat, renderFairDice, renderInfo, renderMoves, renderOver, renderSpectators, sendChat } from "./panels.js";
import { sound } from "./sound.js";
import { displayName, renderBoard, renderPlayers, renderStatus, tickClocks } from "./tableview.js";

/**
 * The tab's icon: a plain dot, green with a ring when it is the player's turn.
 * @param {boolean} mine
 */
function setFavicon(mine) {
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel=icon]"));
  if (!link) {
    link = /** @type {HTMLLinkElement} */ (h("link", { rel: "icon" }));
    document.head.append(link);
  }
  const fill = mine ? "%231f9d55" : "%23806a4f";
  const ring = mine ? "<circle cx='16' cy='16' r='14' fill='none' stroke='%23ffd640' stroke-width='4'/>" : "";
  const href = `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><circle cx='16' cy='16' r='11' fill='${fill}'/>${ring}</svg>`;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.dataset.turn = mine ? "1" : "0";
}

/** @typedef {Record<string, any>} Message a protocol message or a part of one (JSON, docs/protocol.md) */

// server error codes that are part of normal play (a race with the other seat, a double click)
const BENIGN_ERRORS = new Set(["stale", "rate_limited", "seeds_locked", "conflict"]);

function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} path */
function wsUrl(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

// What a half-built move depends on: the same key means the same position, dice and turn.
/** @param {Message | null} st */
function decisionKey(st) {
  const g = st && st.match && st.match.game;
  if (!g) return st ? `${st.table && st.table.status}` : "";
  return JSON.stringify([st.table && st.table.status, g.number, g.phase, g.turn, g.dice, g.position_id, g.plies]);
}

export class GamePage {
  /** @param {HTMLElement} root `<main id="game">` with the shell's data attributes */
  constructor(root) {
    this.root = root;
    /** @type {Record<string, any>} the page's elements, made by build() */
    this.el = {};
    const d = root.dataset;
    this.cfg = {
      table: d.table || "",
      ws: d.ws || `/ws/table/${d.table}`,
      protocol: Number(d.protocol || PROTOCOL),
      csrf: d.csrf || "",
      user: d.user || "",
    };
    if (this.cfg.protocol !== PROTOCOL) {
      console.error(`gammon: the page speaks protocol ${PROTOCOL}, the shell says ${this.cfg.protocol}`);
    }
    this.version = 0; // newest version applied; 0 asks for the whole history on the first hello
    this.state = null;
    this.synced = false; // false while history is being replayed after a hello
    this.everSynced = false;
    this.moves = new MoveList();
    this.chat = new Map(); // version -> chat data
    /** @type {{text: string, onConfirm: () => void, action: string | null} | null} a question awaiting a confirmation */
    this.prompt = null;
    /** @type {number | null} the id of the chat line being sent */
    this.chatId = null;
    this.resignMenu = false;
    this.busy = null; // id of the action request awaiting its answer
    /** @type {number | undefined} */
    this.busyTimer = undefined;
    this.seedSent = false;
    this.connStatus = "connecting";
    this.clockOffset = 0;
    this.notice = null; // {text, version}: the server's last refusal, shown under the status
    this.wasMyTurn = false;
    this.overShown = false; // whether the end-of-match panel was shown (scrolled to once)
    /** @type {{version: number, waiting: boolean, answer: Message | null} | null} the bot's advice asked for */
    this.hint = null;
    const seedKey = `gammon.seed.${this.cfg.table}`;
    this.mySeed = storage(seedKey) || randomSeed();
    storage(seedKey, this.mySeed);

    this.input = new MoveInput(this); // click-to-move
    this.build();
    this.board = new BoardView(this.el.boardWrap, {
      onPoint: (/** @type {number} */ p) => this.input.onPoint(p),
      onSelect: (/** @type {number} */ p) => this.input.selectPoint(p),
      onDrag: (/** @type {number} */ from, /** @type {number} */ to) => this.input.onDrag(from, to),
      onDice: () => this.input.confirmMove(),
    }, { adaptive: true });
    /** @type {ReturnType<typeof setInterval> | undefined} asks whether the other player wants a rematch */
    this.rematchTimer = undefined;
    /** @type {{id: string, offeredBy: string} | null} a rematch the other player asked for */
    this.rematchOffer = null;
    this.conn = new Connection(wsUrl(this.cfg.ws), () => this.version, {
      onMessage: (/** @type {Message} */ m) => this.onMessage(m),
      onStatus: (/** @type {string} */ s, /** @type {number | undefined} */ code, /** @type {number | undefined} */ delay) => this.onStatus(s, code, delay),
      onOpen: () => {
        this.synced = false;
        this.seedSent = false;
        this.input.stepsWaiting.clear(); // answers to the old socket's questions will not come
      },
    });
    onLangChange(() => this.render());
    window.addEventListener("online", () => this.conn.nudge());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.conn.nudge();
    });
    installKeys(this);
    setInterval(() => tickClocks(this), 250);
    this.render();
    this.conn.start();
  }

  // ------------------------------------------------------------------ layout

  build() {
    const root = this.root;
    root.classList.add("game-page");
    const e = this.el;
    e.tableId = h("h1", { class: "table-id" });
    e.conn = h("span", { class: "conn", "data-testid": "conn", role: "status" });
    e.sound = h("button", { type: "button", class: "btn small sound", "data-action": "mute", "data-testid": "mute", onclick: () => {
      sound.setMuted(!sound.muted);
      this.renderConn();
    } });
    const header = h("div", { class: "topbar" }, e.tableId, h("span", { class: "spacer" }), e.sound, e.conn);

    e.top = h("div", { class: "player top", "data-testid": "player-top" });
    e.bottom = h("div", { class: "player bottom", "data-testid": "player-bottom" });
    e.boardWrap = h("div", { class: "board-wrap" });
    // the board in words, for screen readers (describe.js)
    e.desc = h("div", { class: "visually-hidden", id: "board-desc", "data-testid": "board-desc" });
    e.status = h("div", { class: "status", "data-testid": "status", "aria-live": "polite" });
    e.notice = h("p", { class: "notice error", "data-testid": "notice", role: "alert", hidden: true });
    e.controls = h("div", { class: "controls", "data-testid": "controls" });
    e.toasts = h("div", { class: "toasts", "aria-live": "polite", "data-testid": "toasts" });
    const play = h("section", { class: "play" }, e.top, e.boardWrap, e.desc, e.bottom, e.status, e.notice, e.controls);

    e.info = h("section", { class: "panel info", "data-testid": "info" });
    e.settings = h("section", { class: "panel settings", "data-testid": "settings", hidden: true });
    e.hint = h("section", { class: "panel hint", "data-testid": "hint", "aria-live": "polite", hidden: true });
    // the text move box ("13/7 8/7"): the server reads it with the terminal's parser
    e.moveInput = h("input", { type: "text", id: "move-text", name: "move", autocomplete: "off", spellcheck: "false", "data-testid": "move-text" });
    e.moveLabel = h("label", { for: "move-text" });
    e.moveSend = h("button", { type: "submit", class: "btn small", "data-testid": "move-send" });
    e.moveHelp = h("p", { class: "muted small", id: "move-help" });
    e.moveInput.setAttribute("aria-describedby", "move-help");
    e.moveForm = h("form", { class: "move-box", "data-testid": "move-box" }, e.moveLabel, e.moveInput, e.moveSend, e.moveHelp);
    e.moveForm.addEventListener("submit", (/** @type {Event} */ ev) => {
      ev.preventDefault();
      const text = e.moveInput.value.trim();
      if (text && this.input.canMove()) {
        this.act("move", { move: text });
        e.moveInput.value = "";
      }
    });
    e.keysHelp = h("p", { class: "muted small", "data-testid": "keys-help" });
    e.over = h("section", { class: "panel over", "data-testid": "over", hidden: true });
    e.movesTitle = h("h2");
    e.moves = h("div", { class: "moves", "data-testid": "moves", tabindex: 0 }); // scrolls: reachable by keyboard
    const movesPanel = h("section", { class: "panel moves-panel" }, e.movesTitle, e.moves);

    e.chatTitle = h("h2");
    e.chatLog = h("ol", { class: "chat-log", "data-testid": "chat-log" });
    e.chatInput = h("input", { type: "text", name: "chat", maxlength: 500, autocomplete: "off", "data-testid": "chat-input" });
    e.chatSend = h("button", { type: "submit", class: "btn" });
    e.chatForm = h("form", { class: "chat-form" }, e.chatInput, e.chatSend);
    e.chatForm.addEventListener("submit", (/** @type {Event} */ ev) => {
      ev.preventDefault();
      sendChat(this);
    });
    e.chatNote = h("p", { class: "muted" });
    const chatPanel = h("section", { class: "panel chat", "data-testid": "chat" }, e.chatTitle, e.chatLog, e.chatForm, e.chatNote);

    e.spect = h("section", { class: "panel spectators", "data-testid": "spectators", hidden: true });

    e.diceTitle = h("h2");
    e.diceBody = h("div", { class: "fair-body" });
    e.seedInput = h("input", { type: "text", name: "client_seed", maxlength: 128, spellcheck: "false", autocomplete: "off", "data-testid": "seed-input" });
    e.seedButton = h("button", { type: "submit", class: "btn small" });
    e.seedForm = h("form", { class: "seed-form" }, e.seedInput, e.seedButton);
    e.seedForm.addEventListener("submit", (/** @type {Event} */ ev) => {
      ev.preventDefault();
      this.setSeed(e.seedInput.value.trim());
    });
    const dicePanel = h("section", { class: "panel fair", "data-testid": "fair-dice" }, e.diceTitle, e.diceBody);

    const side = h("aside", { class: "side" }, e.over, e.hint, e.info, e.settings, movesPanel, chatPanel, e.spect, dicePanel, e.keysHelp);
    root.replaceChildren(header, h("div", { class: "layout" }, play, side), e.toasts);
  }

  // ------------------------------------------------------------------ accessors

  get you() {
    return (this.state && this.state.you) || { seat: null, allowed: [], can_sit: [false, false] };
  }

  get mySeat() {
    const seat = this.you.seat;
    return seat === 0 || seat === 1 ? seat : null;
  }

  get bottomSeat() {
    return this.mySeat ?? 0;
  }

  get match() {
    return (this.state && this.state.match) || null;
  }

  /** @param {string} type */
  allowed(type) {
    return (this.you.allowed || []).includes(type);
  }

  names() {
    const seats = (this.state && this.state.table && this.state.table.seats) || [null, null];
    return [0, 1].map((s) => displayName(seats[s]) || (this.match && this.match.players ? this.match.players[s] : null) || "—");
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
      const key = code === 4404 ? "conn.not_found" : code === 4403 ? "conn.origin" : "conn.protocol";
      this.toast(t(key, { ours: PROTOCOL, theirs: "?" }), "error");
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
        if (typeof msg.now === "number") this.clockOffset = msg.now - Date.now();
        if (this.everSynced) this.toast(t("toast.reconnected"));
        break;
      case "event":
        this.onEvent(msg);
        break;
      case "state":
        this.onState(msg);
        break;
      case "presence":
        this.onPresence(msg);
        break;
      case "steps":
        this.input.onSteps(msg);
        break;
      case "hint":
        onHint(this, msg);
        break;
      case "history":
        this.moves.setEarlier(msg.game, msg.history);
        renderMoves(this, false);
        break;
      case "ack":
        this.onAck(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      case "pong":
        break;
      default:
        break; // the protocol may add message types: ignore them
    }
  }

  /** @param {Message} ev */
  onEvent(ev) {
    if (typeof ev.version !== "number" || ev.version <= this.version) return; // seen already
    if (ev.version > this.version + 1 && this.version > 0) {
      console.warn(`gammon: events ${this.version + 1}..${ev.version - 1} are missing; resuming`);
      this.conn.reconnectNow();
      return;
    }
    const live = this.synced;
    this.version = ev.version;
    this.applyEvent(ev, live);
    if (ev.state) {
      this.applyState(ev.state, ev.version);
    } else {
      // a chat line comes without a state: it changes nothing else but the version
      if (ev.kind === "chat" && this.state) this.state = { ...this.state, version: ev.version };
      if (live) this.render();
    }
  }

  /** @param {Message} msg */
  onState(msg) {
    if (msg.resync) {
      // our version was ahead of the table's: start again from what the server has
      this.moves.forget();
      this.chat.clear();
      this.version = msg.version;
    } else if (typeof msg.version === "number" && msg.version < this.version) {
      return;
    }
    this.version = Math.max(this.version, msg.version || 0);
    if (Array.isArray(msg.history)) {
      // a snapshot for a page starting afresh: the current game, for the move list (the
      // earlier ones, before `history_game`, come on request: see askEarlier)
      this.moves.setHistory(msg.history, msg.history_game || 1);
    }
    this.applyState(msg, msg.version);
  }

  // who is online and who watches changed (no new version)
  /** @param {Message} msg */
  onPresence(msg) {
    if (!this.state || !this.state.table) return;
    const seats = (this.state.table.seats || []).map((/** @type {Message | null} */ s, /** @type {number} */ i) =>
      s && Array.isArray(msg.online) ? { ...s, online: Boolean(msg.online[i]) } : s);
    this.state = { ...this.state, spectators: msg.spectators, table: { ...this.state.table, seats } };
    this.render();
  }

  /**
   * @param {Message} st
   * @param {number} version
   */
  applyState(st, version) {
    const previous = this.state;
    const oldVersion = previous ? previous.version : null;
    st = withKeptMoves(previous, st); // an event that left the legal moves as they were
    this.state = { ...st, version: st.version ?? version };
    if (typeof st.now === "number") this.clockOffset = st.now - Date.now();
    for (const c of st.chat || []) {
      if (c && typeof c.version === "number" && !this.chat.has(c.version)) this.chat.set(c.version, c);
    }
    if (this.state.version !== oldVersion) {
      // a new version; if it is a new decision (not a chat line, a seat's presence, the
      // server's resume...), whatever was being built belonged to the old one
      if (decisionKey(previous) !== decisionKey(this.state)) this.input.reset();
      this.input.newVersion();
      // a question about an action stays only while the action is still allowed
      const a = this.prompt && this.prompt.action;
      if (this.prompt && !(a === "leave" ? this.you.can_leave : a && this.allowed(a))) this.prompt = null;
      if (this.resignMenu && !this.allowed("resign")) this.resignMenu = false;
      if (this.notice && decisionKey(previous) !== decisionKey(this.state)) this.notice = null;
    }
    const myTurn = this.mySeat !== null && (this.you.allowed || []).length > 0 && this.state.table && this.state.table.status === "playing";
    if (myTurn && !this.wasMyTurn && this.everSynced) sound.play("turn");
    this.wasMyTurn = myTurn;
    if (!this.everSynced || (previous && previous.table && this.state.table && previous.table.status !== this.state.table.status)) this.refreshBalance();
    this.synced = true;
    this.everSynced = true;
    this.clearBusy();
    this.input.resume();
    this.maybeSendSeed();
    this.render();
    this.input.maybeAutoPlay();
    // the end of the match: its panel (and Rematch) comes into view, on a phone too
    const over = !this.el.over.hidden;
    if (over && !this.overShown && this.everSynced) {
      const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      this.el.over.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
    }
    this.overShown = over;
  }

  // The header's balance (`#me-balance`) follows the account's: asked again when a game ends.
  refreshBalance() {
    if (!document.getElementById("me-balance")) return;
    fetch("/api/session", { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        if (body && body.user) setHeaderBalance(body.user.balance);
      })
      .catch((err) => console.warn("gammon: could not refresh the balance", err));
  }

  /**
   * @param {Message} ev
   * @param {boolean} live
   */
  applyEvent(ev, live) {
    const names = this.names();
    const d = ev.data || {};
    switch (ev.kind) {
      case "start":
        this.moves.addTableEvent(ev);
        break;
      case "action":
        this.moves.addTableEvent(ev);
        if (live) {
          this.announce(d, names);
          this.playSounds(d);
        }
        break;
      case "chat":
        this.chat.set(ev.version, { ...d, version: ev.version, at: ev.at });
        break;
      case "sit":
        if (live) this.toast(t("toast.sit", { name: d.name }));
        break;
      case "leave":
        if (live) this.toast(t("toast.leave", { name: d.name }));
        break;
      case "end":
        if (live && d.reason === "match_over" && d.winner !== null && d.winner !== undefined) {
          this.toast(t("toast.match_over", { name: names[d.winner] }), "good");
        }
        break;
      default:
        break;
    }
  }

  /** @param {Message} data */
  playSounds(data) {
    const kinds = new Set((data.events || []).map((/** @type {Message} */ e) => e.kind));
    if (kinds.has("rolled") || kinds.has("starts") || kinds.has("opening_roll")) sound.play("dice");
    if (kinds.has("moved")) sound.play("move");
    if (kinds.has("game_over")) this.refreshBalance();
  }

  // toasts for what just happened at the table
  /**
   * @param {Message} data
   * @param {string[]} names
   */
  announce(data, names) {
    for (const e of data.events || []) {
      const d = e.data || {};
      const name = names[e.player] ?? "";
      switch (e.kind) {
        case "no_move":
          this.toast(
            e.player === this.mySeat
              ? t("move.no_move_you", { dice: fmtDice(d.dice) })
              : t("move.no_move", { name, dice: fmtDice(d.dice) }),
            "warn",
          );
          break;
        case "opening_roll":
          if (d.dice[0] === d.dice[1]) break;
          this.toast(t("toast.opening", { a: names[0], b: names[1], d0: d.dice[0], d1: d.dice[1] }));
          break;
        case "doubled":
          if (e.player !== this.mySeat) this.toast(t("toast.doubled", { name, value: d.cube }));
          break;
        case "took":
          if (e.player !== this.mySeat) this.toast(t("toast.took", { name }));
          break;
        case "dropped":
          if (e.player !== this.mySeat) this.toast(t("toast.dropped", { name }));
          break;
        case "roll_again":
          this.toast(t("toast.roll_again", { name }));
          break;
        case "resign_rejected":
          if (e.player !== this.mySeat) this.toast(t("toast.resign_rejected", { name }));
          break;
        case "game_over":
          if (e.player === null || e.player === undefined) {
            this.toast(t("toast.game_draw", { n: d.game }));
          } else {
            this.toast(t("toast.game_over", { name, n: d.game, points: points(d.points) }), "good");
          }
          break;
        default:
          break;
      }
    }
  }

  /** @param {Message} msg */
  onAck(msg) {
    if (msg.id === this.busy) this.clearBusy();
    if (msg.id === this.chatId) {
      this.el.chatInput.value = "";
      this.chatId = null;
    }
  }

  /** @param {Message} msg */
  onError(msg) {
    const code = msg.code || "internal";
    const text = `gammon: server error ${code}: ${msg.message || ""}`;
    if (BENIGN_ERRORS.has(code)) console.warn(text);
    else console.error(text);
    this.input.refused(msg.id);
    if (msg.id === this.busy) this.clearBusy();
    if (code === "stale") {
      // someone else acted first: the fresh state is on its way
    }
    const key = `error.${code}`;
    const shown = hasKey(key) ? t(key) : t("error.generic", { message: msg.message || code });
    if (!BENIGN_ERRORS.has(code)) {
      // the server's reason stays in the page (under the status) until the table moves on
      this.notice = { key, code, message: msg.message || "", version: this.state ? this.state.version : 0 };
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
   * @param {string} type
   * @param {Message} [extra]
   */
  act(type, extra = {}) {
    if (!this.state) return;
    this.notice = null;
    this.prompt = null;
    this.resignMenu = false;
    this.send({ type, ...extra, version: this.state.version }, { action: true });
  }

  // ------------------------------------------------------------------ earlier games

  // The reader unfolds (or folds) the list of the games the snapshot left out.
  toggleEarlierGames() {
    this.moves.earlierShown = !this.moves.earlierShown;
    renderMoves(this, false);
    this.refocus("[data-action=earlier-games]");
  }

  /** @param {string} selector the control clicked, drawn again: the focus stays on it */
  refocus(selector) {
    const again = /** @type {HTMLElement | null} */ (this.el.moves.querySelector(selector));
    if (again) again.focus();
  }

  /**
   * The reader opens (or closes) an earlier game: asked for once (`history`), then kept.
   * @param {number} n
   */
  toggleEarlierGame(n) {
    if (this.moves.toggleEarlier(n) && this.send({ type: "history", game: n }) === null) {
      this.moves.loading.delete(n); // offline: a later click asks again
      this.moves.opened.delete(n);
    }
    renderMoves(this, false);
    this.refocus(`[data-game="${n}"]`);
  }

  // ------------------------------------------------------------------ fair dice seed

  maybeSendSeed() {
    const st = this.state;
    const seat = this.mySeat;
    if (seat === null || !st.dice || !st.you || !st.you.seed_needed) return;
    const given = st.dice.seeds_given && st.dice.seeds_given[seat];
    if (given) {
      if (typeof st.dice.your_seed === "string") this.mySeed = st.dice.your_seed;
      return;
    }
    if (this.seedSent) return;
    this.seedSent = true;
    this.send({ type: "client_seed", seed: this.mySeed });
  }

  /** @param {string} seed */
  setSeed(seed) {
    if (!/^[\x20-\x7e]{0,128}$/.test(seed) || seed.includes(":")) {
      this.toast(t("error.invalid_seed"), "error");
      return;
    }
    this.mySeed = seed;
    storage(`gammon.seed.${this.cfg.table}`, seed);
    this.send({ type: "client_seed", seed });
  }

  // ------------------------------------------------------------------ rendering

  render() {
    this.renderConn();
    renderPlayers(this);
    this.renderBoard();
    renderStatus(this);
    this.renderControls();
    renderInfo(this);
    renderSettings(this);
    renderHint(this);
    renderOver(this);
    renderMoves(this);
    renderChat(this);
    renderSpectators(this);
    renderFairDice(this);
  }

  renderBoard() {
    renderBoard(this);
  }

  renderControls() {
    renderControls(this);
  }

  renderConn() {
    const e = this.el;
    e.tableId.textContent = t("app.table", { id: this.cfg.table });
    const mine = this.myTurn();
    document.title = `${mine ? `● ${t("title.your_turn")} · ` : ""}${t("app.title")} · ${t("app.table", { id: this.cfg.table })}`;
    setFavicon(mine);
    e.keysHelp.textContent = t("keys.help");
    const s = this.connStatus;
    let text;
    if (s === "online") text = t("conn.online");
    else if (s === "offline") text = t("conn.offline", { s: Math.max(1, Math.round((this.connDelay || 0) / 1000)) });
    else if (s === "reconnecting") text = t("conn.reconnecting");
    else if (s === "fatal") text = t(this.connCode === 4404 ? "conn.not_found" : this.connCode === 4403 ? "conn.origin" : "conn.protocol", { ours: PROTOCOL, theirs: "?" });
    else if (s === "closed") text = t("conn.closed");
    else text = t("conn.connecting");
    e.conn.textContent = text;
    e.conn.dataset.state = s;
    e.sound.textContent = t(sound.muted ? "sound.off" : "sound.on");
    e.sound.setAttribute("aria-pressed", sound.muted ? "true" : "false");
    e.sound.title = t(sound.muted ? "sound.unmute" : "sound.mute");
  }

  // Whether the seated player has something to do now (the tab's title and icon say so).
  myTurn() {
    return this.mySeat !== null && (this.you.allowed || []).some((/** @type {string} */ a) => a !== "abandon" && a !== "resign") &&
      Boolean(this.state && this.state.table && this.state.table.status === "playing");
  }

  /**
   * @param {string} text
   * @param {string} [kind] info, good, warn or error
   */
  toast(text, kind = "info") {
    const node = h("div", { class: `toast ${kind}` }, text);
    this.el.toasts.append(node);
    while (this.el.toasts.children.length > 4) this.el.toasts.firstChild.remove();
    setTimeout(() => node.remove(), kind === "error" ? 7000 : 4500);
  }
}
