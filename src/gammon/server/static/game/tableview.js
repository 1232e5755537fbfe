// @ts-check
// The table as the game page draws it: the two players' panels (name, kind, pips, score,
// clock), the board with the steps played so far, and the status line saying whose decision
// it is.

import { describeBoard } from "./describe.js";
import { fmtClock, fmtDice, h, replaceChildren } from "./dom.js";
import { hasKey, points, t } from "./i18n.js";
import { displayName } from "./store.js";

/**
 * What the table's view needs of the view.
 * @typedef {object} TableHost
 * @property {import("./store.js").TableStore} store the table
 * @property {import("./moving.js").MoveInput} input the move being built (the board shows its steps)
 * @property {import("./board.js").BoardView} board
 * @property {HTMLElement} root the view (its clocks)
 * @property {Pick<import("./layout.js").Elements, "top" | "bottom" | "desc" | "status" | "notice">} el
 * @property {() => {key: string, code: string, message: string} | null} notice the server's last refusal, shown under the status
 * @property {() => boolean} online whether the table's socket is open
 * @property {(text: string, kind?: string) => void} toast
 * @property {(seat: number) => void} sit take an empty seat
 */
/** @typedef {Pick<TableHost, "store" | "input">} StatusHost what the status line reads */



/** @param {TableHost} view */
export function renderPlayers(view) {
  const bottom = view.store.bottomSeat;
  renderPlayer(view, view.el.bottom, bottom);
  renderPlayer(view, view.el.top, 1 - bottom);
}

/**
 * @param {TableHost} view
 * @param {HTMLElement} node
 * @param {number} seat
 */
export function renderPlayer(view, node, seat) {
  const st = view.store.state;
  const seats = (st && st.table && st.table.seats) || [null, null];
  const info = seats[seat];
  const m = view.store.match;
  node.dataset.seat = String(seat);
  const children = [h("span", { class: `swatch s${seat}`, title: t("seat.checkers", { color: t(seat === 0 ? "color.light" : "color.dark") }) })];
  if (!info) {
    children.push(h("span", { class: "name muted" }, t("seat.empty")));
    // a visitor without a session may sit too: the form makes a guest (protocol: view shells)
    const visitor = !view.store.cfg.user && st && st.table && st.table.status === "waiting" && view.store.mySeat === null;
    if ((view.store.you.can_sit && view.store.you.can_sit[seat]) || visitor) {
      children.push(h("button", { class: "btn small", type: "button", "data-action": `sit-${seat}`, onclick: () => view.sit(seat) }, t("seat.sit")));
    }
    replaceChildren(node, children);
    node.classList.remove("on-turn");
    return;
  }
  const online = info.kind === "bot" || info.online !== false;
  children.push(h("span", { class: `dot ${online ? "on" : "off"}`, title: t(online ? "seat.online" : "seat.offline") }));
  const shown = displayName(info);
  // an account's name links to its profile (a new tab: the game goes on); a guest's or a bot's does not
  const profile = info.kind === "user" && info.name ? `/@/${encodeURIComponent(info.name)}` : null;
  children.push(h(profile ? "a" : "span", { class: "name", "data-testid": `name-${seat}`, title: shown, href: profile, target: profile && "_blank", rel: profile && "noopener" }, shown));
  if (seat === view.store.mySeat) children.push(h("span", { class: "tag" }, t("seat.you")));
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
    const pips = view.input.pips(seat);
    children.push(h("span", { class: "pips", "data-testid": `pips-${seat}` }, t("seat.pips", { pips })));
    children.push(h("span", { class: "score", "data-testid": `score-${seat}`, title: t("score.score") }, String(m.score ? m.score[seat] : 0)));
  }
  if (st && st.clock) {
    children.push(h("span", { class: "clock", "data-clock": seat }));
  }
  replaceChildren(node, children);
  const turn = m && m.game && m.game.phase !== "over" && (m.to_act || []).includes(seat);
  node.classList.toggle("on-turn", Boolean(turn));
  tickClocks(view);
}

/** @param {TableHost} view */
export function tickClocks(view) {
  const st = view.store.state;
  if (!st || !st.clock) return;
  const c = st.clock;
  const now = Date.now() + view.store.clockOffset;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (view.root.querySelectorAll("[data-clock]"))) {
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

/** @param {TableHost} view */
export function renderBoard(view) {
  const m = view.store.match;
  const bottom = view.store.bottomSeat;
  const empty = new Array(26).fill(0);
  if (!m || !m.game) {
    view.board.render({ bottom, board: [empty, empty], dice: null, cube: null, sources: new Set(), dests: new Set(), selected: null, interactive: false });
    view.board.setTitle(t("status.waiting_opponent"));
    return;
  }
  const g = m.game;
  const opts = view.input.options();
  const interactive = Boolean(opts && !opts.complete);
  const sources = interactive ? view.input.sources(opts) : new Set();
  const dests = interactive ? view.input.destinations(opts, view.input.selected) : new Set();
  let dice = null;
  if (g.dice && g.phase === "moving" && g.turn !== null) {
    const [a, b] = g.dice;
    const values = a === b ? [a, a, a, a] : [a, b];
    const used = values.map(() => false);
    for (const [, , die] of view.input.played) {
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
  const options = (view.store.state.table && view.store.state.table.options) || {};
  const variant = (view.store.state.table && view.store.state.table.variant) || {};
  const noDouble = Boolean(m.crawford || g.crawford || g.last_roll);
  const cube = {
    enabled: options.cube !== false && variant.cube !== false,
    disabled: noDouble,
    disabledText: noDouble ? t(g.last_roll && !(m.crawford || g.crawford) ? "cube.last_roll" : "cube.crawford") : "",
    value: g.cube.value,
    owner: g.cube.owner,
    /** @type {{value: number, by: number} | null} an offer pending */
    offer: null,
  };
  if (["doubled", "beavered", "raccooned"].includes(g.phase)) {
    const value = g.phase === "doubled" ? g.cube.value * 2 : g.cube.value;
    const by = g.phase === "doubled" ? g.doubled_by ?? g.turn : g.phase === "beavered" ? g.cube.owner : g.doubled_by ?? g.turn;
    cube.offer = { value, by };
  }
  const shown = view.input.displayState();
  view.board.render({
    bottom,
    board: shown.board,
    pinned: shown.pinned,
    waiting: shown.waiting,
    other: view.input.otherPoint(),
    dice,
    cube,
    sources,
    dests,
    selected: interactive ? view.input.selected : null,
    interactive,
    labels: { waiting: t("board.waiting"), pinned: t("board.pinned"), point: t("board.point", { n: "{n}" }), bar: t("board.bar"), tray: t("board.tray") },
    confirm: view.input.canConfirm() && view.online() ? `${t("btn.confirm")} ${opts && opts.move ? opts.move : ""}`.trim() : null,
    sending: sendingModel(view),
  });
  view.board.setTitle(statusText(view));
  const names = view.store.names();
  const lines = describeBoard({
    bottom,
    board: shown.board,
    other: view.input.otherPoint(),
    names,
    waiting: shown.waiting,
    dice: dice && { seat: dice.seat, values: dice.values.filter((_, i) => !dice.used[i]) },
    cube: cube.enabled ? { value: cube.value, owner: cube.owner ?? null } : null,
  }, t);
  replaceChildren(view.el.desc, h("h2", {}, t("desc.title")), ...lines.map((line) => h("p", {}, line)));
}

// The countdown of a complete move about to be sent by itself (moving.js), for the board.
/** @param {TableHost} view */
function sendingModel(view) {
  const progress = view.input.sendingProgress();
  return progress === null ? null : { progress, ms: view.input.graceMs, label: t("move.sending") };
}

/** @param {StatusHost} view */
export function statusText(view) {
  const st = view.store.state;
  if (!st) return t("conn.connecting");
  const names = view.store.names();
  const table = st.table || {};
  if (table.status === "waiting") return t("status.waiting_opponent");
  if (table.status === "finished") {
    const r = table.result || {};
    const m = view.store.match;
    if (r.reason === "match_over" && r.winner !== null && r.winner !== undefined) {
      const score = r.score || (m && m.score) || [0, 0];
      return t("status.over", { name: names[r.winner], s0: score[r.winner], s1: score[1 - r.winner] });
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
  const m = view.store.match;
  if (!m || !m.game) return "";
  const g = m.game;
  const me = view.store.mySeat;
  const toAct = m.to_act || [];
  const mine = me !== null && toAct.includes(me);
  const other = toAct.length === 1 ? names[toAct[0]] : "";
  switch (g.phase) {
    case "opening": {
      const side = me !== null ? ` ${t("status.your_side", { color: t(me === 0 ? "color.light" : "color.dark") })}` : "";
      return (mine && view.store.allowed("roll") ? t("status.opening_you") : t("status.opening")) + side;
    }
    case "turn":
      if (mine) return view.store.allowed("double") ? t("status.turn_you_double") : t("status.turn_you");
      return t("status.turn_other", { name: names[g.turn] });
    case "moving": {
      const dice = fmtDice(g.dice);
      if (g.turn === me && view.input.canMove()) {
        const opts = view.input.options();
        return opts && opts.complete ? t(view.input.sending ? "status.moving_sending" : "status.moving_done") : t("status.moving_you", { dice });
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
      return w === 0 || w === 1 ? t("status.over", { name: names[w], s0: m.score[w], s1: m.score[1 - w] }) : t("status.over_draw");
    }
    default:
      return "";
  }
}

/** @param {TableHost} view */
export function renderStatus(view) {
  const e = view.el;
  const parts = [statusText(view)];
  const m = view.store.match;
  if (m && m.game && m.game.last_roll && m.game.phase !== "over") parts.push(t("status.last_roll"));
  if (view.store.state && view.store.mySeat === null && view.store.state.table && view.store.state.table.status !== "finished") {
    parts.push(t("status.spectating"));
  }
  const children = [h("span", {}, parts.filter(Boolean).join(" "))];
  if (view.store.state && view.store.state.table && view.store.state.table.status === "waiting") {
    children.push(" ", h("button", { type: "button", class: "btn small", "data-action": "copy-link", onclick: () => copyLink(view) }, t("status.copy_link")));
  }
  replaceChildren(e.status, children);
  const n = view.notice();
  e.notice.hidden = !n;
  if (n) {
    const text = hasKey(n.key) ? t(n.key) : t("error.generic", { message: n.code });
    const detail = n.message ? h("small", { class: "detail", lang: "en" }, ` (${n.message})`) : null;
    replaceChildren(e.notice, [text, detail].filter(Boolean));
  }
}

/** @param {TableHost} view */
export function copyLink(view) {
  const url = new URL(`/table/${view.store.cfg.table}`, location.href).href;
  const done = () => view.toast(t("status.copied"));
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(url).then(done, () => view.toast(url));
  } else {
    view.toast(url);
  }
}
