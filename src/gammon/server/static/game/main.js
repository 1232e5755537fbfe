// The game page: one table, one WebSocket (docs/protocol.md). The server sends the state with
// everything the player may do (allowed actions, legal moves, legal first steps); this page
// draws it, lets the player build a move step by step, and sends the player's decisions.

import { BoardView } from "./board.js";
import { fmtClock, fmtDice, h, replaceChildren } from "./dom.js";
import { bindSiteHeader, hasKey, onLangChange, pickLang, points, setHeaderBalance, setLang, t } from "./i18n.js";
import { MoveList, resultText } from "./movelist.js";
import { Connection, PROTOCOL } from "./net.js";
import { sound } from "./sound.js";

// server error codes that are part of normal play (a race with the other seat, a double click)
const BENIGN_ERRORS = new Set(["stale", "rate_limited", "seeds_locked", "conflict"]);

function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function storage(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch {
    // storage disabled: nothing is remembered
  }
  return null;
}

function wsUrl(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

// A seat's name as shown: the server names its bots "gammon-bot (LEVEL)", in English; the
// level is shown in the page's language.
function displayName(seat) {
  if (!seat || !seat.name) return null;
  if (seat.kind === "bot" && seat.level && seat.name === `gammon-bot (${seat.level})` && hasKey(`level.${seat.level}`)) {
    return `gammon-bot (${t(`level.${seat.level}`)})`;
  }
  return seat.name;
}

// What a half-built move depends on: the same key means the same position, dice and turn.
function decisionKey(st) {
  const g = st && st.match && st.match.game;
  if (!g) return st ? `${st.table && st.table.status}` : "";
  return JSON.stringify([st.table && st.table.status, g.number, g.phase, g.turn, g.dice, g.position_id, g.plies]);
}

class GamePage {
  constructor(root) {
    this.root = root;
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
    this.played = []; // steps made this turn: [from, to, die, hit]
    this.stepsCache = new Map(); // `${version}|${played}` -> {steps, complete, move, dice_left}
    this.stepsWaiting = new Map(); // request id -> cache key
    this.selected = null;
    this.prompt = null; // {text, onConfirm} awaiting a confirmation
    this.resignMenu = false;
    this.busy = null; // id of the action request awaiting its answer
    this.busyTimer = null;
    this.autoSent = null; // version at which a forced move was auto-played
    this.seedSent = false;
    this.connStatus = "connecting";
    this.clockOffset = 0;
    this.autoForced = storage("gammon.autoForced") === "1";
    this.quickMove = storage("gammon.quickMove") !== "0"; // one click moves by a die (default)
    this.autoConfirm = storage("gammon.autoConfirm") === "1";
    this.notice = null; // {text, version}: the server's last refusal, shown under the status
    this.lastQuick = null; // {from, to, at, count}: the last one-click step (for a double-click)
    this.continueFrom = null; // {point, count}: a double-click waiting for the next step options
    this.wasMyTurn = false;
    const seedKey = `gammon.seed.${this.cfg.table}`;
    this.mySeed = storage(seedKey) || randomSeed();
    storage(seedKey, this.mySeed);

    this.build();
    this.conn = new Connection(wsUrl(this.cfg.ws), () => this.version, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (s, code, delay) => this.onStatus(s, code, delay),
      onOpen: () => {
        this.synced = false;
        this.seedSent = false;
        this.stepsWaiting.clear(); // answers to the old socket's questions will not come
      },
    });
    onLangChange(() => this.render());
    window.addEventListener("online", () => this.conn.nudge());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.conn.nudge();
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.selected !== null) {
        this.selected = null;
        this.renderBoard();
      }
    });
    setInterval(() => this.tickClocks(), 250);
    this.render();
    this.conn.start();
  }

  // ------------------------------------------------------------------ layout

  build() {
    const root = this.root;
    root.classList.add("game-page");
    this.el = {};
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
    this.board = new BoardView(e.boardWrap, {
      onPoint: (p) => this.onPoint(p),
      onSelect: (p) => this.selectPoint(p),
      onDrag: (from, to) => this.onDrag(from, to),
    });
    e.status = h("div", { class: "status", "data-testid": "status", "aria-live": "polite" });
    e.notice = h("p", { class: "notice error", "data-testid": "notice", role: "alert", hidden: true });
    e.controls = h("div", { class: "controls", "data-testid": "controls" });
    e.toasts = h("div", { class: "toasts", "aria-live": "polite", "data-testid": "toasts" });
    const play = h("section", { class: "play" }, e.top, e.boardWrap, e.bottom, e.status, e.notice, e.controls);

    e.info = h("section", { class: "panel info", "data-testid": "info" });
    e.settings = h("section", { class: "panel settings", "data-testid": "settings", hidden: true });
    e.over = h("section", { class: "panel over", "data-testid": "over", hidden: true });
    e.movesTitle = h("h2");
    e.moves = h("div", { class: "moves", "data-testid": "moves" });
    const movesPanel = h("section", { class: "panel moves-panel" }, e.movesTitle, e.moves);

    e.chatTitle = h("h2");
    e.chatLog = h("ol", { class: "chat-log", "data-testid": "chat-log" });
    e.chatInput = h("input", { type: "text", name: "chat", maxlength: 500, autocomplete: "off", "data-testid": "chat-input" });
    e.chatSend = h("button", { type: "submit", class: "btn" });
    e.chatForm = h("form", { class: "chat-form" }, e.chatInput, e.chatSend);
    e.chatForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.sendChat();
    });
    e.chatNote = h("p", { class: "muted" });
    const chatPanel = h("section", { class: "panel chat", "data-testid": "chat" }, e.chatTitle, e.chatLog, e.chatForm, e.chatNote);

    e.spect = h("section", { class: "panel spectators", "data-testid": "spectators", hidden: true });

    e.diceTitle = h("h2");
    e.diceBody = h("div", { class: "fair-body" });
    e.seedInput = h("input", { type: "text", name: "client_seed", maxlength: 128, spellcheck: "false", autocomplete: "off", "data-testid": "seed-input" });
    e.seedButton = h("button", { type: "submit", class: "btn small" });
    e.seedForm = h("form", { class: "seed-form" }, e.seedInput, e.seedButton);
    e.seedForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.setSeed(e.seedInput.value.trim());
    });
    const dicePanel = h("section", { class: "panel fair", "data-testid": "fair-dice" }, e.diceTitle, e.diceBody);

    const side = h("aside", { class: "side" }, e.over, e.info, e.settings, movesPanel, chatPanel, e.spect, dicePanel);
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

  allowed(type) {
    return (this.you.allowed || []).includes(type);
  }

  names() {
    const seats = (this.state && this.state.table && this.state.table.seats) || [null, null];
    return [0, 1].map((s) => displayName(seats[s]) || (this.match && this.match.players ? this.match.players[s] : null) || "—");
  }

  // ------------------------------------------------------------------ connection

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
        this.onSteps(msg);
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

  onState(msg) {
    if (msg.resync) {
      // our version was ahead of the table's: start again from what the server has
      this.moves.reset();
      this.chat.clear();
      this.version = msg.version;
    } else if (typeof msg.version === "number" && msg.version < this.version) {
      return;
    }
    this.version = Math.max(this.version, msg.version || 0);
    if (Array.isArray(msg.history)) {
      // a snapshot for a page starting afresh: the match so far, for the move list
      this.moves.reset();
      for (const ev of msg.history) this.moves.addTableEvent(ev);
    }
    this.applyState(msg, msg.version);
  }

  // who is online and who watches changed (no new version)
  onPresence(msg) {
    if (!this.state || !this.state.table) return;
    const seats = (this.state.table.seats || []).map((s, i) =>
      s && Array.isArray(msg.online) ? { ...s, online: Boolean(msg.online[i]) } : s);
    this.state = { ...this.state, spectators: msg.spectators, table: { ...this.state.table, seats } };
    this.render();
  }

  applyState(st, version) {
    const previous = this.state;
    const oldVersion = previous ? previous.version : null;
    this.state = { ...st, version: st.version ?? version };
    if (typeof st.now === "number") this.clockOffset = st.now - Date.now();
    for (const c of st.chat || []) {
      if (c && typeof c.version === "number" && !this.chat.has(c.version)) this.chat.set(c.version, c);
    }
    if (this.state.version !== oldVersion) {
      // a new version; if it is a new decision (not a chat line, a seat's presence, the
      // server's resume...), whatever was being built belonged to the old one
      if (decisionKey(previous) !== decisionKey(this.state)) {
        this.played = [];
        this.selected = null;
      }
      this.stepsCache.clear();
      this.stepsWaiting.clear();
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
    if (this.played.length) this.requestSteps(); // e.g. after a reconnection
    this.maybeSendSeed();
    this.render();
    this.maybeAutoPlay();
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

  playSounds(data) {
    const kinds = new Set((data.events || []).map((e) => e.kind));
    if (kinds.has("rolled") || kinds.has("starts") || kinds.has("opening_roll")) sound.play("dice");
    if (kinds.has("moved")) sound.play("move");
    if (kinds.has("game_over")) this.refreshBalance();
  }

  // toasts for what just happened at the table
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

  onAck(msg) {
    if (msg.id === this.busy) this.clearBusy();
    if (msg.id === this.chatId) {
      this.el.chatInput.value = "";
      this.chatId = null;
    }
  }

  onError(msg) {
    const code = msg.code || "internal";
    const text = `gammon: server error ${code}: ${msg.message || ""}`;
    if (BENIGN_ERRORS.has(code)) console.warn(text);
    else console.error(text);
    if (this.stepsWaiting.has(msg.id)) {
      // the steps cannot lead to a legal move (should not happen): start the turn again
      this.stepsWaiting.delete(msg.id);
      this.played = [];
      this.selected = null;
    }
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

  send(msg, { action = false } = {}) {
    const id = this.conn.send(msg);
    if (id === null) return null;
    if (action) {
      this.busy = id;
      clearTimeout(this.busyTimer);
      this.busyTimer = setTimeout(() => this.clearBusy(true), 10000);
      this.renderControls();
    }
    return id;
  }

  clearBusy(render = false) {
    this.busy = null;
    clearTimeout(this.busyTimer);
    if (render) this.render();
  }

  act(type, extra = {}) {
    if (!this.state) return;
    this.notice = null;
    this.prompt = null;
    this.resignMenu = false;
    this.send({ type, ...extra, version: this.state.version }, { action: true });
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

  setSeed(seed) {
    if (!/^[\x20-\x7e]{0,128}$/.test(seed) || seed.includes(":")) {
      this.toast(t("error.invalid_seed"), "error");
      return;
    }
    this.mySeed = seed;
    storage(`gammon.seed.${this.cfg.table}`, seed);
    this.send({ type: "client_seed", seed });
  }

  // ------------------------------------------------------------------ click-to-move

  canMove() {
    const m = this.match;
    return Boolean(
      m && m.game && m.game.phase === "moving" && ((Array.isArray(m.moves) && m.moves.length) || m.moves_omitted) &&
        this.allowed("move") &&
        !this.busy && this.connStatus === "online",
    );
  }

  stepsKey(played) {
    return `${this.state.version}|${JSON.stringify(played.map((s) => s.slice(0, 3)))}`;
  }

  // the step options after the steps played so far (undefined while the server is asked)
  options() {
    if (!this.canMove()) return null;
    if (!this.played.length) return this.match.step_options;
    return this.stepsCache.get(this.stepsKey(this.played));
  }

  sources(opts) {
    if (!opts || opts.complete) return new Set();
    return new Set(opts.steps.map((s) => s[0]));
  }

  destinations(opts, from) {
    if (!opts || opts.complete || from === null) return new Set();
    return new Set(opts.steps.filter((s) => s[0] === from).map((s) => s[1]));
  }

  // A click or tap on a point. With "one click moves" (the default) a click on a checker that
  // can move plays it at once by the larger die it can use (a second click, by the other);
  // a double-click takes the same checker on by the next die too (so a checker that can bear
  // off with both dice does). Otherwise the click selects it and a click on a highlighted point
  // plays it there (dragging works either way).
  onPoint(p) {
    const opts = this.options();
    const last = this.lastQuick;
    if (this.quickMove && last && last.from === p && performance.now() - last.at < 400 && last.count === this.played.length) {
      // the second click of a double-click: the checker that just moved goes on
      this.lastQuick = null;
      this.continueFrom = { point: last.to, count: this.played.length };
      this.continueQuick();
      return;
    }
    if (!opts || opts.complete) return;
    if (this.selected !== null && this.destinations(opts, this.selected).has(p)) {
      this.playStep(this.selected, p);
      return;
    }
    if (this.quickMove && this.sources(opts).has(p)) {
      const quick = this.quickStep(opts, p);
      if (quick) {
        this.playStep(quick[0], quick[1], quick[2]);
        this.lastQuick = { from: p, to: quick[1], at: performance.now(), count: this.played.length };
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

  selectPoint(p) {
    const opts = this.options();
    if (!opts || opts.complete) return;
    this.selected = this.sources(opts).has(p) && this.selected !== p ? p : null;
    this.renderBoard();
  }

  // The step a single click plays from `from`: by the larger die it can use.
  quickStep(opts, from) {
    const steps = opts.steps.filter((st) => st[0] === from);
    if (!steps.length) return null;
    steps.sort((a, b) => b[2] - a[2]);
    return steps[0];
  }

  onDrag(from, to) {
    const opts = this.options();
    if (!opts || opts.complete) return;
    if (this.destinations(opts, from).has(to)) this.playStep(from, to);
    else {
      this.selected = null;
      this.renderBoard();
    }
  }

  playStep(from, to, die = null) {
    const opts = this.options();
    if (!opts || opts.complete) return;
    let choices = opts.steps.filter((s) => s[0] === from && s[1] === to);
    if (die !== null && choices.some((s) => s[2] === die)) choices = choices.filter((s) => s[2] === die);
    if (!choices.length) return;
    choices.sort((a, b) => a[2] - b[2]); // the smallest die that makes it (e.g. bearing off)
    const step = choices[0];
    sound.play("move");
    this.played = [...this.played, [step[0], step[1], step[2], Boolean(step[3])]];
    this.selected = null;
    this.requestSteps();
    this.render();
    this.maybeAutoConfirm();
  }

  requestSteps() {
    const key = this.stepsKey(this.played);
    if (this.stepsCache.has(key)) return;
    for (const k of this.stepsWaiting.values()) if (k === key) return;
    const id = this.send({ type: "steps", played: this.played.map((s) => s.slice(0, 3)) });
    if (id !== null) this.stepsWaiting.set(id, key);
  }

  onSteps(msg) {
    const key = `${msg.version}|${JSON.stringify((msg.played || []).map((s) => s.slice(0, 3)))}`;
    this.stepsWaiting.delete(msg.id);
    this.stepsCache.set(key, {
      steps: msg.steps || [],
      complete: Boolean(msg.complete),
      move: msg.move,
      dice_left: msg.dice_left || [],
    });
    if (this.state && this.played.length && key === this.stepsKey(this.played)) {
      this.render();
      if (this.continueFrom) this.continueQuick();
      this.maybeAutoConfirm();
    }
  }

  // "Confirm my moves by themselves": a complete move is sent after a short pause (Undo
  // stays possible meanwhile).
  maybeAutoConfirm() {
    if (!this.autoConfirm || !this.played.length) return;
    const opts = this.options();
    if (!opts || !opts.complete) return;
    const key = this.stepsKey(this.played);
    setTimeout(() => {
      if (this.state && this.played.length && this.stepsKey(this.played) === key && !this.busy) this.confirmMove();
    }, 450);
  }

  undo() {
    this.played = this.played.slice(0, -1);
    this.selected = null;
    this.requestSteps();
    this.render();
  }

  undoAll() {
    this.played = [];
    this.selected = null;
    this.render();
  }

  confirmMove() {
    const opts = this.options();
    if (!opts || !opts.complete || !opts.move) return;
    this.act("move", { move: opts.move });
  }

  playForced() {
    const m = this.match;
    if (!m || !m.forced || !m.moves || !m.moves.length) return;
    this.autoSent = this.state.version;
    this.act("move", { move: m.moves[0].move });
  }

  maybeAutoPlay() {
    const m = this.match;
    if (!this.autoForced || !this.canMove() || !m.forced || this.autoSent === this.state.version) return;
    const version = this.state.version;
    setTimeout(() => {
      if (this.state && this.state.version === version && this.canMove() && !this.played.length) this.playForced();
    }, 600);
  }

  // The board as sent, with one repair: when a match ends on a bear-off, the engine's final
  // position is seen from the loser while `turn` still names the winner, so the two seats'
  // boards (and pips, pins, checkers to enter) come swapped. A winner must have nothing left
  // on the board.
  sentBoard() {
    const m = this.match;
    const g = m.game;
    const board = [g.board[0].slice(), g.board[1].slice()];
    const pips = g.pips ? g.pips.slice() : [0, 0];
    const pinned = g.pinned ? [g.pinned[0].slice(), g.pinned[1].slice()] : [[], []];
    const waiting = g.waiting ? g.waiting.slice() : [0, 0];
    const w = m.winner;
    if (g.phase === "over" && (w === 0 || w === 1)) {
      const left = (b) => b.slice(1).some((n) => n > 0);
      if (left(board[w]) && !left(board[1 - w])) {
        board.reverse();
        pips.reverse();
        pinned.reverse();
        waiting.reverse();
      }
    }
    return { board, pips, pinned, waiting };
  }

  // The variant's point mapping: other[q] is the other seat's number of a seat's point q.
  otherPoint() {
    const v = this.state && this.state.table && this.state.table.variant;
    if (v && Array.isArray(v.other_point) && v.other_point.length === 26) return v.other_point;
    return Array.from({ length: 26 }, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));
  }

  // the board with the steps played so far applied (display only): {board, pinned, waiting}
  displayState() {
    const sent = this.sentBoard();
    const { board, pinned, waiting } = sent;
    const me = this.mySeat;
    if (me === null || !this.played.length) return sent;
    const other = this.otherPoint();
    const v = this.state.table.variant || {};
    const pins = (v.geometry && v.geometry.landing) === "pin";
    for (const [from, to, , hit] of this.played) {
      if (from === 25 && !board[me][25] && waiting[me] > 0) waiting[me] -= 1;
      else board[me][from] -= 1;
      board[me][to] += 1;
      if (pins && from >= 1 && from <= 24 && !board[me][from]) {
        // the checker it pinned, if any, is free again
        pinned[1 - me] = pinned[1 - me].filter((q) => q !== other[from]);
      }
      if (hit && to >= 1 && to <= 24) {
        if (pins) {
          pinned[1 - me].push(other[to]);
        } else {
          board[1 - me][other[to]] -= 1;
          board[1 - me][25] += 1;
        }
      }
    }
    return { board, pinned, waiting, pips: sent.pips };
  }

  // ------------------------------------------------------------------ rendering

  render() {
    this.renderConn();
    this.renderPlayers();
    this.renderBoard();
    this.renderStatus();
    this.renderControls();
    this.renderInfo();
    this.renderSettings();
    this.renderOver();
    this.renderMoves();
    this.renderChat();
    this.renderSpectators();
    this.renderFairDice();
  }

  renderConn() {
    const e = this.el;
    e.tableId.textContent = t("app.table", { id: this.cfg.table });
    document.title = `${t("app.title")} · ${t("app.table", { id: this.cfg.table })}`;
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

  renderPlayers() {
    const bottom = this.bottomSeat;
    this.renderPlayer(this.el.bottom, bottom);
    this.renderPlayer(this.el.top, 1 - bottom);
  }

  renderPlayer(node, seat) {
    const st = this.state;
    const seats = (st && st.table && st.table.seats) || [null, null];
    const info = seats[seat];
    const m = this.match;
    node.dataset.seat = seat;
    const children = [h("span", { class: `swatch s${seat}`, title: t("seat.checkers", { color: t(seat === 0 ? "color.light" : "color.dark") }) })];
    if (!info) {
      children.push(h("span", { class: "name muted" }, t("seat.empty")));
      // a visitor without a session may sit too: the form makes a guest (protocol: page shells)
      const visitor = !this.cfg.user && st && st.table && st.table.status === "waiting" && this.mySeat === null;
      if ((this.you.can_sit && this.you.can_sit[seat]) || visitor) {
        children.push(h("button", { class: "btn small", type: "button", "data-action": `sit-${seat}`, onclick: () => this.sit(seat) }, t("seat.sit")));
      }
      replaceChildren(node, children);
      node.classList.remove("on-turn");
      return;
    }
    const online = info.kind === "bot" || info.online !== false;
    children.push(h("span", { class: `dot ${online ? "on" : "off"}`, title: t(online ? "seat.online" : "seat.offline") }));
    const shown = displayName(info);
    children.push(h("span", { class: "name", "data-testid": `name-${seat}`, title: shown }, shown));
    if (seat === this.mySeat) children.push(h("span", { class: "tag" }, t("seat.you")));
    children.push(h("span", { class: "tag colour", "data-testid": `colour-${seat}` }, t(seat === 0 ? "color.light" : "color.dark")));
    if (info.kind === "bot") {
      const plain = !info.level || shown !== info.name || info.name.includes(info.level);
      children.push(h("span", { class: "tag" }, plain ? t("seat.bot_plain") : t("seat.bot", { level: t(`level.${info.level}`) })));
    } else if (info.kind === "guest") {
      children.push(h("span", { class: "tag" }, t("seat.guest")));
    }
    children.push(h("span", { class: "visually-hidden" }, t(online ? "seat.online" : "seat.offline")));
    children.push(h("span", { class: "spacer" }));
    if (m && m.game) {
      const pips = this.pips(seat);
      children.push(h("span", { class: "pips", "data-testid": `pips-${seat}` }, t("seat.pips", { pips })));
      children.push(h("span", { class: "score", "data-testid": `score-${seat}`, title: t("score.score") }, String(m.score ? m.score[seat] : 0)));
    }
    if (st && st.clock) {
      children.push(h("span", { class: "clock", "data-clock": seat }));
    }
    replaceChildren(node, children);
    const turn = m && m.game && m.game.phase !== "over" && (m.to_act || []).includes(seat);
    node.classList.toggle("on-turn", Boolean(turn));
    this.tickClocks();
  }

  pips(seat) {
    const m = this.match;
    if (!m || !m.game) return 0;
    if (!this.played.length) return this.sentBoard().pips[seat];
    const { board, waiting } = this.displayState();
    let sum = 25 * (waiting[seat] || 0);
    for (let i = 1; i <= 25; i++) sum += i * board[seat][i];
    return sum;
  }

  tickClocks() {
    const st = this.state;
    if (!st || !st.clock) return;
    const c = st.clock;
    const now = Date.now() + this.clockOffset;
    for (const node of this.root.querySelectorAll("[data-clock]")) {
      const seat = Number(node.dataset.clock);
      let reserve = c.reserve ? c.reserve[seat] : 0;
      let delay = null;
      const running = c.running === seat && st.table && st.table.status === "playing";
      if (running && typeof c.since === "number") {
        const elapsed = (now - c.since) / 1000;
        delay = Math.max(0, (c.delay || 0) - elapsed);
        reserve = Math.max(0, reserve - Math.max(0, elapsed - (c.delay || 0)));
      }
      const text = fmtClock(reserve) + (delay !== null && delay > 0 ? ` ${t("clock.delay", { s: Math.ceil(delay) })}` : "");
      if (node.textContent !== text) node.textContent = text;
      node.classList.toggle("running", running);
      node.classList.toggle("low", running && reserve < 30 && !delay);
      node.title = t("clock.reserve");
    }
  }

  renderBoard() {
    const m = this.match;
    const bottom = this.bottomSeat;
    const empty = new Array(26).fill(0);
    if (!m || !m.game) {
      this.board.render({ bottom, board: [empty, empty], dice: null, cube: null, sources: new Set(), dests: new Set(), selected: null, interactive: false });
      this.board.setTitle(t("status.waiting"));
      return;
    }
    const g = m.game;
    const opts = this.options();
    const interactive = Boolean(opts && !opts.complete);
    const sources = interactive ? this.sources(opts) : new Set();
    const dests = interactive ? this.destinations(opts, this.selected) : new Set();
    let dice = null;
    if (g.dice && g.phase === "moving" && g.turn !== null) {
      const [a, b] = g.dice;
      const values = a === b ? [a, a, a, a] : [a, b];
      const used = values.map(() => false);
      for (const [, , die] of this.played) {
        const i = values.findIndex((v, j) => v === die && !used[j]);
        if (i >= 0) {
          used[i] = true;
        } else {
          // acey-deucey: after the 1 and the 2, the double the player chose by its first step
          values.push(die, die, die, die);
          used.push(true, false, false, false);
        }
      }
      dice = { seat: g.turn, values, used };
    }
    const options = (this.state.table && this.state.table.options) || {};
    const variant = (this.state.table && this.state.table.variant) || {};
    const noDouble = Boolean(m.crawford || g.crawford || g.last_roll);
    const cube = {
      enabled: options.cube !== false && variant.cube !== false,
      disabled: noDouble,
      disabledText: noDouble ? t(g.last_roll && !(m.crawford || g.crawford) ? "cube.last_roll" : "cube.crawford") : "",
      value: g.cube.value,
      owner: g.cube.owner,
      offer: null,
    };
    if (["doubled", "beavered", "raccooned"].includes(g.phase)) {
      const value = g.phase === "doubled" ? g.cube.value * 2 : g.cube.value;
      const by = g.phase === "doubled" ? g.doubled_by ?? g.turn : g.phase === "beavered" ? g.cube.owner : g.doubled_by ?? g.turn;
      cube.offer = { value, by };
    }
    const shown = this.displayState();
    this.board.render({
      bottom,
      board: shown.board,
      pinned: shown.pinned,
      waiting: shown.waiting,
      other: this.otherPoint(),
      labels: { waiting: t("board.waiting"), pinned: t("board.pinned") },
      dice,
      cube,
      sources,
      dests,
      selected: interactive ? this.selected : null,
      interactive,
    });
    this.board.setTitle(this.statusText());
  }

  statusText() {
    const st = this.state;
    if (!st) return t("conn.connecting");
    const names = this.names();
    const table = st.table || {};
    if (table.status === "waiting") return t("status.waiting");
    if (table.status === "finished") {
      const r = table.result || {};
      const m = this.match;
      if (r.reason === "match_over" && r.winner !== null && r.winner !== undefined) {
        const score = r.score || (m && m.score) || [0, 0];
        return t("status.over", { name: names[r.winner], s0: score[0], s1: score[1] });
      }
      if (r.reason === "left") {
        const by = r.by === 0 || r.by === 1 ? r.by : r.winner === 0 || r.winner === 1 ? 1 - r.winner : null;
        const leaver = by !== null ? names[by] : "";
        return r.winner === 0 || r.winner === 1
          ? t("status.finished_left", { name: leaver, winner: names[r.winner] })
          : t("status.finished_left_nowinner", { name: leaver || "—" });
      }
      if (r.reason === "idle") {
        const name = r.by === 0 || r.by === 1 ? names[r.by] : "—";
        return r.winner === 0 || r.winner === 1
          ? t("status.finished_idle", { name, winner: names[r.winner] })
          : t("status.finished_idle_nowinner", { name });
      }
      if (r.reason === "balance") return t("status.finished_balance");
      return t("status.finished_closed");
    }
    const m = this.match;
    if (!m || !m.game) return "";
    const g = m.game;
    const me = this.mySeat;
    const toAct = m.to_act || [];
    const mine = me !== null && toAct.includes(me);
    const other = toAct.length === 1 ? names[toAct[0]] : "";
    switch (g.phase) {
      case "opening": {
        const side = me !== null ? ` ${t("status.your_side", { color: t(me === 0 ? "color.light" : "color.dark") })}` : "";
        return (mine && this.allowed("roll") ? t("status.opening_you") : t("status.opening")) + side;
      }
      case "turn":
        if (mine) return this.allowed("double") ? t("status.turn_you_double") : t("status.turn_you");
        return t("status.turn_other", { name: names[g.turn] });
      case "moving": {
        const dice = fmtDice(g.dice);
        if (g.turn === me && this.canMove()) {
          const opts = this.options();
          return opts && opts.complete ? t("status.moving_done") : t("status.moving_you", { dice });
        }
        return t("status.moving_other", { name: names[g.turn], dice });
      }
      case "doubled": {
        const value = g.cube.value * 2;
        const doubler = g.doubled_by ?? g.turn;
        return mine ? t("status.doubled_you", { name: names[doubler], value }) : t("status.doubled_other", { name: other, value });
      }
      case "beavered":
      case "raccooned": {
        const who = g.phase === "beavered" ? g.cube.owner : toAct.length ? 1 - toAct[0] : null;
        const key = `status.${g.phase}_${mine ? "you" : "other"}`;
        return t(key, { name: names[who] ?? "", other, value: g.cube.value });
      }
      case "resigning": {
        const r = g.resign || {};
        const params = { name: names[r.by] ?? "", other, result: t(`result.${r.level || 1}`), points: points((r.level || 1) * g.cube.value) };
        return t(mine ? "status.resigning_you" : "status.resigning_other", params);
      }
      case "over": {
        const w = m.winner;
        return w === 0 || w === 1 ? t("status.over", { name: names[w], s0: m.score[0], s1: m.score[1] }) : t("status.over_draw");
      }
      default:
        return "";
    }
  }

  renderStatus() {
    const e = this.el;
    const parts = [this.statusText()];
    const m = this.match;
    if (m && m.game && m.game.last_roll && m.game.phase !== "over") parts.push(t("status.last_roll"));
    if (this.state && this.mySeat === null && this.state.table && this.state.table.status !== "finished") {
      parts.push(t("status.spectating"));
    }
    const children = [h("span", {}, parts.filter(Boolean).join(" "))];
    if (this.state && this.state.table && this.state.table.status === "waiting") {
      children.push(" ", h("button", { type: "button", class: "btn small", "data-action": "copy-link", onclick: () => this.copyLink() }, t("status.copy_link")));
    }
    replaceChildren(e.status, children);
    const n = this.notice;
    e.notice.hidden = !n;
    if (n) {
      const text = hasKey(n.key) ? t(n.key) : t("error.generic", { message: n.code });
      const detail = n.message ? h("small", { class: "detail", lang: "en" }, ` (${n.message})`) : null;
      replaceChildren(e.notice, [text, detail].filter(Boolean));
    }
  }

  copyLink() {
    const url = new URL(`/table/${this.cfg.table}`, location.href).href;
    const done = () => this.toast(t("status.copied"));
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(done, () => this.toast(url));
    } else {
      this.toast(url);
    }
  }

  button(label, action, onclick, cls = "") {
    return h("button", { type: "button", class: `btn ${cls}`.trim(), "data-action": action, disabled: Boolean(this.busy) || this.connStatus !== "online", onclick }, label);
  }

  renderControls() {
    const e = this.el;
    const m = this.match;
    const out = [];
    if (this.prompt) {
      out.push(
        h("div", { class: "prompt", role: "alertdialog", "data-testid": "prompt" },
          h("span", { class: "prompt-text" }, this.prompt.text),
          this.button(t("btn.confirm"), "confirm", () => this.prompt && this.prompt.onConfirm(), "primary"),
          this.button(t("btn.cancel"), "cancel", () => {
            this.prompt = null;
            this.renderControls();
          }),
        ),
      );
      replaceChildren(e.controls, out);
      return;
    }
    if (this.resignMenu) {
      const value = m ? m.game.cube.value : 1;
      const row = h("div", { class: "prompt", "data-testid": "resign-menu" }, h("span", { class: "prompt-text" }, t("ask.resign")));
      const rejected = this.rejectedLevel();
      for (const level of [1, 2, 3]) {
        const b = this.button(`${t(`result.${level}`)} (${points(level * value)})`, `resign-${level}`, () => {
          this.resignMenu = false;
          this.ask(t("ask.resign_level", { result: t(`result.${level}`), points: points(level * value) }), () => this.act("resign", { level }), "resign");
        });
        if (level <= rejected) {
          // the engine allows only a higher offer after a rejected one (this game)
          b.disabled = true;
          b.title = t("resign.rejected_before");
          b.dataset.rejected = "true";
        }
        row.append(b);
      }
      if (rejected) row.append(h("span", { class: "muted small", "data-testid": "resign-rejected" }, t("resign.rejected_note", { result: t(`result.${rejected}`) })));
      row.append(this.button(t("btn.cancel"), "cancel", () => {
        this.resignMenu = false;
        this.renderControls();
      }));
      replaceChildren(e.controls, row);
      return;
    }
    const main = h("div", { class: "actions" });
    if (m && m.game) {
      const g = m.game;
      if (this.allowed("roll") && !this.serverRolls()) {
        main.append(this.button(t("btn.roll"), "roll", () => this.act("roll"), "primary"));
      }
      if (this.allowed("double")) {
        const value = g.cube.value * 2;
        main.append(this.button(t("btn.double"), "double", () => this.ask(t("ask.double", { value }), () => this.act("double"), "double")));
      }
      for (const type of ["take", "drop", "beaver", "raccoon"]) {
        if (!this.allowed(type)) continue;
        main.append(this.button(t(`btn.${type}`), type, () => this.askCube(type), type === "take" ? "primary" : ""));
      }
      if (this.allowed("accept_resign")) main.append(this.button(t("btn.accept_resign"), "accept_resign", () => this.act("accept_resign"), "primary"));
      if (this.allowed("reject_resign")) main.append(this.button(t("btn.reject_resign"), "reject_resign", () => this.act("reject_resign")));
      if (this.canMove()) {
        const opts = this.options();
        if (m.forced && !this.played.length) {
          main.append(this.button(t("btn.play_forced", { move: m.moves[0].move }), "play-forced", () => this.playForced(), "primary"));
        }
        if (opts && opts.complete) {
          main.append(this.button(`${t("btn.confirm")} ${opts.move || ""}`.trim(), "confirm-move", () => this.confirmMove(), "primary"));
        }
        if (this.played.length) {
          main.append(this.button(t("btn.undo"), "undo", () => this.undo()));
          if (this.played.length > 1) main.append(this.button(t("btn.undo_all"), "undo-all", () => this.undoAll()));
        }
      }
    }
    const extra = h("div", { class: "actions secondary" });
    if (m && m.game) {
      if (this.allowed("resign")) {
        extra.append(this.button(t("btn.resign"), "resign", () => {
          this.resignMenu = true;
          this.renderControls();
        }));
      }
      if (this.allowed("abandon")) {
        extra.append(this.button(t("btn.abandon"), "abandon", () => this.ask(this.abandonText(), () => this.act("abandon"), "abandon"), "danger"));
      }
    }
    if (this.you.can_leave) {
      extra.append(this.button(t("btn.leave"), "leave", () => this.ask(t("ask.leave"), () => this.leave(), "leave")));
    }
    replaceChildren(e.controls, main, extra);
  }

  // The settings of the seated player (remembered in localStorage), in the side column.
  renderSettings() {
    const e = this.el;
    const m = this.match;
    const show = this.mySeat !== null && Boolean(m) && !m.over;
    e.settings.hidden = !show;
    if (!show) return;
    const focused = document.activeElement && e.settings.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const option = (testid, field, key, label, after) => {
      const box = h("input", { type: "checkbox", "data-testid": testid });
      box.checked = this[field];
      box.addEventListener("change", () => {
        this[field] = box.checked;
        storage(key, box.checked ? "1" : "0");
        if (after) after();
      });
      return h("label", { class: "check" }, box, " ", t(label));
    };
    replaceChildren(e.settings,
      h("h2", {}, t("settings.title")),
      option("quick-move", "quickMove", "gammon.quickMove", "move.quick"),
      option("auto-confirm", "autoConfirm", "gammon.autoConfirm", "move.auto_confirm", () => this.maybeAutoConfirm()),
      option("auto-forced", "autoForced", "gammon.autoForced", "move.auto_forced", () => this.maybeAutoPlay()),
    );
    if (focused) {
      const again = e.settings.querySelector(`[data-testid=${focused}]`);
      if (again) again.focus();
    }
  }

  // The highest resignation level of ours the other side rejected this game (0 = none).
  rejectedLevel() {
    const g = this.match && this.match.game;
    const me = this.mySeat;
    if (!g || me === null || !Array.isArray(g.rejected)) return 0;
    return g.rejected[me] || 0;
  }

  // Money at stake: points x the table's stake in a money session (0 in a match).
  stake() {
    const o = (this.state && this.state.table && this.state.table.options) || {};
    return o.match_length ? 0 : o.stake || 0;
  }

  // The most a game can be worth in cubes: 1 (Oin), 2 (Mars) or 3 (Cox); 1 under the Jacoby
  // rule while the cube is centred (`centred`: whether it still is when the game is scored).
  maxResult(centred = false) {
    const o = (this.state && this.state.table && this.state.table.options) || {};
    if (centred && o.jacoby && !o.match_length) return 1;
    return o.end_setting === "oin" ? 1 : o.end_setting === "mars" ? 2 : 3;
  }

  // "4 points" or "4 points (40 in play money)"
  risk(n) {
    const stake = this.stake();
    return stake ? t("risk.money", { points: points(n), money: n * stake }) : points(n);
  }

  // Whether the server is about to roll by itself (protocol: "the server rolls for a player
  // by itself when rolling is the only sensible choice"), so that no Roll button flashes.
  serverRolls() {
    const st = this.state;
    const g = this.match && this.match.game;
    if (!g) return false;
    if (g.phase === "turn") return !this.allowed("double");
    if (g.phase === "opening") {
      const dice = st.dice || {};
      const seats = (st.table && st.table.seats) || [];
      const given = dice.seeds_given || [false, false];
      return Boolean(dice.locked) || [0, 1].every((i) => given[i] || (seats[i] && seats[i].kind === "bot"));
    }
    return false;
  }

  ask(text, onConfirm, action = null) {
    this.resignMenu = false;
    this.prompt = { text, onConfirm, action };
    this.renderControls();
  }

  // Abandoning scores the game from the board: at least the cube, at most the end setting's.
  abandonText() {
    const g = this.match.game;
    const value = g.cube.value;
    const max = this.maxResult(g.cube.owner === null || g.cube.owner === undefined);
    return max > 1 ? t("ask.abandon_risk", { risk: this.risk(value), max: this.risk(value * max) }) : t("ask.abandon_risk1", { risk: this.risk(value) });
  }

  askCube(type) {
    const g = this.match.game;
    const value = g.phase === "doubled" ? g.cube.value * 2 : g.cube.value;
    const before = g.phase === "doubled" ? g.cube.value : Math.max(1, g.cube.value / 2);
    const max = this.maxResult();
    const text = {
      take: max > 1 ? t("ask.take_risk", { value, risk: this.risk(value), max: this.risk(value * max) }) : t("ask.take_risk1", { value, risk: this.risk(value) }),
      drop: t("ask.drop", { points: this.risk(before) }),
      beaver: t("ask.beaver", { value: g.cube.value * 4 }),
      raccoon: t("ask.raccoon", { value: g.cube.value * 2 }),
    }[type];
    this.ask(text, () => this.act(type), type);
  }

  sit(seat) {
    if (this.cfg.user) {
      this.send({ type: "sit", seat }, { action: true });
      return;
    }
    this.postForm(`/tables/${encodeURIComponent(this.cfg.table)}/sit`, { seat: String(seat) });
  }

  leave() {
    this.prompt = null;
    this.postForm(`/tables/${encodeURIComponent(this.cfg.table)}/leave`, {});
  }

  postForm(action, fields) {
    const form = h("form", { method: "post", action, hidden: true });
    form.append(h("input", { type: "hidden", name: "csrf_token", value: this.cfg.csrf }));
    for (const [k, v] of Object.entries(fields)) form.append(h("input", { type: "hidden", name: k, value: v }));
    document.body.append(form);
    form.submit();
  }

  matchId() {
    const m = this.match;
    return (m && m.match_id) || (this.state && this.state.dice && this.state.dice.match_id) || this.cfg.table;
  }

  matchLinks() {
    const id = encodeURIComponent(this.matchId());
    const variant = this.state && this.state.table && this.state.table.variant;
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

  renderInfo() {
    const st = this.state;
    const e = this.el;
    if (!st || !st.table) {
      replaceChildren(e.info);
      return;
    }
    const o = st.table.options || {};
    const m = this.match;
    const title = o.match_length ? t("score.match", { n: o.match_length }) : t("score.money");
    const rows = [h("h2", {}, title)];
    if (m) {
      const names = this.names();
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
        rows.push(h("ol", { class: "games", "data-testid": "games" }, m.games.map((g) =>
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
    if (o.first_move && o.first_move !== "rolloff") opts.push(t(`opt.first.${o.first_move}`));
    if (o.clock) opts.push(t("opt.clock", { delay: o.clock.delay, base: o.clock.reserve_base, per: o.clock.reserve_per_point }));
    if (st.table.private) opts.push(t("opt.private"));
    rows.push(h("p", { class: "options muted" }, opts.join(" · ")));
    if (m) rows.push(this.matchLinks());
    replaceChildren(e.info, rows);
  }

  renderOver() {
    const e = this.el;
    const st = this.state;
    const finished = st && st.table && st.table.status === "finished";
    const over = finished || (this.match && this.match.over);
    e.over.hidden = !over;
    if (!over) return;
    const body = [h("h2", {}, t("over.title")), h("p", { class: "over-text", "data-testid": "over-text" }, this.statusText())];
    if (finished && this.mySeat !== null && this.cfg.user) {
      // a rematch: same options, same opponent kind (see POST /tables/{id}/rematch)
      const offer = this.rematchOffer;
      const names = this.names();
      if (offer && offer.offeredBy) body.push(h("p", { class: "rematch-offer", "data-testid": "rematch-offer" }, t("over.rematch_offered", { name: offer.offeredBy })));
      const label = offer && offer.offeredBy ? t("btn.rematch_join") : t("btn.rematch");
      body.push(h("p", {}, h("button", { type: "button", class: "btn primary", "data-action": "rematch", onclick: () => this.postForm(`/tables/${encodeURIComponent(this.cfg.table)}/rematch`, {}) }, label)));
      this.watchRematch(names);
    }
    if (this.match) body.push(this.matchLinks());
    body.push(h("p", {}, h("a", { href: "/" }, t("over.back"))));
    replaceChildren(e.over, body);
  }

  // After a match between people, look (every 4 s) whether the other player asked for a
  // rematch, to offer it here too (GET /api/tables/{id}/rematch).
  watchRematch(names) {
    if (this.rematchTimer) return;
    const seats = (this.state.table && this.state.table.seats) || [];
    const other = seats[1 - this.mySeat];
    if (!other || other.kind === "bot") return;
    const look = () => {
      fetch(`/api/tables/${encodeURIComponent(this.cfg.table)}/rematch`, { headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : null))
        .then((body) => {
          const table = body && body.table;
          if (!table) return;
          clearInterval(this.rematchTimer);
          const mine = (table.seats || []).some((s) => s && s.name === names[this.mySeat]);
          if (mine) return;
          const by = (table.seats || []).find((s) => s);
          this.rematchOffer = { id: table.id, offeredBy: by ? by.name : names[1 - this.mySeat] };
          this.toast(t("over.rematch_offered", { name: this.rematchOffer.offeredBy }), "good");
          sound.play("turn");
          this.renderOver();
        })
        .catch((err) => console.warn("gammon: rematch lookup failed", err));
    };
    this.rematchTimer = setInterval(look, 4000);
    look();
  }

  renderMoves() {
    const box = this.el.moves;
    this.el.movesTitle.textContent = t("moves.title");
    const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
    replaceChildren(box, this.moves.render(this.names()));
    if (atBottom) box.scrollTop = box.scrollHeight;
  }

  renderChat() {
    const e = this.el;
    e.chatTitle.textContent = t("chat.title");
    e.chatInput.placeholder = t("chat.placeholder");
    e.chatInput.setAttribute("aria-label", t("chat.placeholder"));
    e.chatSend.textContent = t("btn.send");
    const canChat = Boolean(this.you.can_chat);
    e.chatForm.hidden = !canChat;
    e.chatNote.hidden = canChat || !this.state;
    e.chatNote.textContent = t("chat.signin");
    const items = [...this.chat.values()].sort((a, b) => a.version - b.version);
    const atBottom = e.chatLog.scrollTop + e.chatLog.clientHeight >= e.chatLog.scrollHeight - 4;
    if (!items.length) {
      replaceChildren(e.chatLog, h("li", { class: "muted" }, t("chat.empty")));
      return;
    }
    replaceChildren(e.chatLog, items.map((c) => {
      const who = h("span", { class: `who${c.seat === 0 || c.seat === 1 ? ` s${c.seat}` : ""}` }, c.name || "?");
      const tag = c.seat === 0 || c.seat === 1 ? null : h("span", { class: "tag" }, t("chat.spectator"));
      const text = h("span", { class: "text" });
      text.textContent = c.text ?? "";
      return h("li", { "data-version": c.version }, who, tag, " ", text);
    }));
    if (atBottom) e.chatLog.scrollTop = e.chatLog.scrollHeight;
  }

  sendChat() {
    const text = this.el.chatInput.value.trim();
    if (!text) return;
    this.chatId = this.send({ type: "chat", text: text.slice(0, 500) });
  }

  renderSpectators() {
    const e = this.el;
    const st = this.state;
    const raw = st ? st.spectators ?? (st.table && st.table.spectators) : undefined;
    if (raw === undefined || raw === null) {
      e.spect.hidden = true;
      return;
    }
    e.spect.hidden = false;
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
      if (names.length) body.push(h("ul", { class: "spect-list" }, names.map((n) => h("li", {}, n))));
    }
    replaceChildren(e.spect, body);
  }

  renderFairDice() {
    const e = this.el;
    e.diceTitle.textContent = t("dice.title");
    e.seedButton.textContent = t("btn.set_seed");
    e.seedInput.setAttribute("aria-label", t("dice.your_seed"));
    const st = this.state;
    const dice = st && st.dice;
    if (!dice) {
      replaceChildren(e.diceBody, h("p", { class: "muted" }, t("dice.not_started")));
      return;
    }
    const out = [
      h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.commitment")), h("code", { class: "hex", "data-testid": "commitment" }, dice.commitment || "")),
    ];
    const seat = this.mySeat;
    if (seat !== null) {
      const seed = typeof dice.your_seed === "string" ? dice.your_seed : this.mySeed;
      if (this.you.seed_needed) {
        if (document.activeElement !== e.seedInput) e.seedInput.value = seed;
        out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.your_seed")), e.seedForm));
        out.push(h("p", { class: "muted small" }, t("dice.seed_help")));
      } else {
        out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.your_seed")), h("code", { "data-testid": "your-seed" }, seed || t("dice.empty_seed"))));
      }
    }
    if (dice.locked) {
      out.push(h("p", { class: "muted small" }, t("dice.locked")));
      if (dice.client_seeds) {
        const names = this.names();
        out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.client_seeds")),
          h("span", {}, [0, 1].map((s) => h("span", { class: "seedline" }, `${names[s]}: `, h("code", {}, dice.client_seeds[s] || t("dice.empty_seed")))))));
      }
    }
    out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.server_seed")),
      dice.server_seed ? h("code", { class: "hex", "data-testid": "server-seed" }, dice.server_seed) : h("span", { class: "muted" }, t("dice.hidden"))));
    if (dice.server_seed) {
      out.push(h("p", {}, h("a", { href: `/matches/${encodeURIComponent(this.matchId())}/verify`, class: "btn small", "data-link": "verify-dice" }, t("dice.verify"))));
    }
    replaceChildren(e.diceBody, out);
  }

  toast(text, kind = "info") {
    const node = h("div", { class: `toast ${kind}` }, text);
    this.el.toasts.append(node);
    while (this.el.toasts.children.length > 4) this.el.toasts.firstChild.remove();
    setTimeout(() => node.remove(), kind === "error" ? 7000 : 4500);
  }
}

function start() {
  const root = document.getElementById("game");
  if (!root) {
    console.error("gammon: no <main id=game> on this page");
    return;
  }
  // data-lang is the server's choice: ?lang=, else the gammon_lang cookie, else Accept-Language
  setLang(pickLang(new URLSearchParams(location.search).get("lang"), root.dataset.lang, navigator.language));
  window.addEventListener("unhandledrejection", (e) => console.error("gammon: unhandled rejection", e.reason));
  bindSiteHeader();
  window.gammonPage = new GamePage(root);
  window.gammonSound = sound; // for the browser tests
}

start();

export { GamePage };
