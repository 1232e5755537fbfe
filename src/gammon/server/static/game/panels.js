// @ts-check
// The game page's side panels: the match (score, options, links), the end of the match and
// the rematch, the move list, the chat, the spectators and the fair dice.

import { postForm } from "./controls.js";
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { resultText } from "./movelist.js";
import { sound } from "./sound.js";
import { statusText } from "./tableview.js";

/** @typedef {import("./page.js").GamePage} GamePage */

/** @param {GamePage} page */
export function matchId(page) {
  const m = page.match;
  return (m && m.match_id) || (page.state && page.state.dice && page.state.dice.match_id) || page.cfg.table;
}

/** @param {GamePage} page */
export function matchLinks(page) {
  const id = encodeURIComponent(matchId(page));
  const variant = page.state && page.state.table && page.state.table.variant;
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

/** @param {GamePage} page */
export function renderInfo(page) {
  const st = page.state;
  const e = page.el;
  if (!st || !st.table) {
    replaceChildren(e.info);
    return;
  }
  const o = st.table.options || {};
  const m = page.match;
  const title = o.match_length ? t("score.match", { n: o.match_length }) : t("score.money");
  const rows = [h("h2", {}, title)];
  if (m) {
    const names = page.names();
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
  if (m) rows.push(matchLinks(page));
  replaceChildren(e.info, rows);
}

/** @param {GamePage} page */
export function renderOver(page) {
  const e = page.el;
  const st = page.state;
  const finished = st && st.table && st.table.status === "finished";
  const over = finished || (page.match && page.match.over);
  e.over.hidden = !over;
  if (!over) return;
  const body = [h("h2", {}, t("over.title")), h("p", { class: "over-text", "data-testid": "over-text" }, statusText(page))];
  if (finished && page.mySeat !== null && page.cfg.user) {
    // a rematch: same options, same opponent kind (see POST /tables/{id}/rematch)
    const offer = page.rematchOffer;
    const names = page.names();
    if (offer && offer.offeredBy) body.push(h("p", { class: "rematch-offer", "data-testid": "rematch-offer" }, t("over.rematch_offered", { name: offer.offeredBy })));
    const label = offer && offer.offeredBy ? t("btn.rematch_join") : t("btn.rematch");
    body.push(h("p", {}, h("button", { type: "button", class: "btn primary", "data-action": "rematch", onclick: () => postForm(page, `/tables/${encodeURIComponent(page.cfg.table)}/rematch`, {}) }, label)));
    watchRematch(page, names);
  }
  if (finished) body.push(h("p", {}, h("a", { href: `/matches/${encodeURIComponent(matchId(page))}/analysis`, class: "btn primary", "data-link": "analysis" }, t("over.analysis"))));
  if (page.match) body.push(matchLinks(page));
  body.push(h("p", {}, h("a", { href: "/" }, t("over.back"))));
  replaceChildren(e.over, body);
}

// After a match between people, look (every 4 s) whether the other player asked for a
// rematch, to offer it here too (GET /api/tables/{id}/rematch).
/**
 * @param {GamePage} page
 * @param {string[]} names
 */
export function watchRematch(page, names) {
  if (page.rematchTimer) return;
  const seats = (page.state.table && page.state.table.seats) || [];
  const other = seats[1 - page.mySeat];
  if (!other || other.kind === "bot") return;
  const look = () => {
    fetch(`/api/tables/${encodeURIComponent(page.cfg.table)}/rematch`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => {
        const table = body && body.table;
        if (!table) return;
        clearInterval(page.rematchTimer);
        const mine = (table.seats || []).some((/** @type {any} */ s) => s && s.name === names[page.mySeat]);
        if (mine) return;
        const by = (table.seats || []).find((/** @type {any} */ s) => s);
        page.rematchOffer = { id: table.id, offeredBy: by ? by.name : names[1 - page.mySeat] };
        page.toast(t("over.rematch_offered", { name: page.rematchOffer.offeredBy }), "good");
        sound.play("turn");
        renderOver(page);
      })
      .catch((err) => console.warn("gammon: rematch lookup failed", err));
  };
  page.rematchTimer = setInterval(look, 4000);
  look();
}

/**
 * @param {GamePage} page
 * @param {boolean} [follow] keep the newest move in view when it was (not when the reader
 *   opened an earlier game)
 */
export function renderMoves(page, follow = true) {
  const box = page.el.moves;
  page.el.movesTitle.textContent = t("moves.title");
  const atBottom = follow && box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  const match = page.state && page.state.match;
  replaceChildren(box, page.moves.render(page.names(), match ? match.rotation : null, {
    onEarlier: () => page.toggleEarlierGames(),
    onGame: (n) => page.toggleEarlierGame(n),
  }));
  if (atBottom) box.scrollTop = box.scrollHeight;
}

/**
 * Make the visitor a guest (`POST /api/guest`), then reconnect: the table's socket then knows
 * the new session, and the chat opens.
 * @param {GamePage} page
 */
export function chatAsGuest(page) {
  fetch("/api/guest", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": page.cfg.csrf },
    body: "{}",
  })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then((body) => {
      page.cfg.csrf = body.csrf;
      page.cfg.user = body.user.name;
      page.conn.reconnectNow();
    })
    .catch((err) => {
      console.warn("gammon: could not become a guest", err);
      page.toast(t("error.generic", { message: String(err) }), "error");
    });
}

/** @param {GamePage} page */
export function renderChat(page) {
  const e = page.el;
  e.chatTitle.textContent = t("chat.title");
  e.chatInput.placeholder = t("chat.placeholder");
  e.chatInput.setAttribute("aria-label", t("chat.placeholder"));
  e.chatSend.textContent = t("btn.send");
  const canChat = Boolean(page.you.can_chat);
  e.chatForm.hidden = !canChat;
  e.chatNote.hidden = canChat || !page.state;
  if (visitorsMayNotChat(page)) {
    // the table keeps its chat to the players (its `spectator_chat` option): say so
    e.chatNote.dataset.testid = "chat-closed";
    replaceChildren(e.chatNote, t("chat.closed"));
  } else {
    delete e.chatNote.dataset.testid;
    // a visitor without a session may chat at once as a guest (one click, no form)
    const asGuest = page.cfg.user ? null : h("button", { type: "button", class: "btn small", "data-action": "chat-as-guest", onclick: () => chatAsGuest(page) }, t("chat.as_guest"));
    replaceChildren(e.chatNote, t("chat.signin"), asGuest ? " " : "", asGuest);
  }
  const items = [...page.chat.values()].sort((a, b) => a.version - b.version);
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

// Whether the page's viewer is a visitor at a table whose visitors may not chat.
/** @param {GamePage} page */
export function visitorsMayNotChat(page) {
  const o = (page.state && page.state.table && page.state.table.options) || {};
  return o.spectator_chat === false && page.mySeat === null;
}

/** @param {GamePage} page */
export function sendChat(page) {
  const text = page.el.chatInput.value.trim();
  if (!text) return;
  page.chatId = page.send({ type: "chat", text: text.slice(0, 500) });
}

/** @param {GamePage} page */
export function renderSpectators(page) {
  const e = page.el;
  const st = page.state;
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
    if (names.length) body.push(h("ul", { class: "spect-list" }, names.map((/** @type {string} */ n) => h("li", {}, n))));
  }
  replaceChildren(e.spect, body);
}

/** @param {GamePage} page */
export function renderFairDice(page) {
  const e = page.el;
  e.diceTitle.textContent = t("dice.title");
  e.seedButton.textContent = t("btn.set_seed");
  e.seedInput.setAttribute("aria-label", t("dice.your_seed"));
  const st = page.state;
  const dice = st && st.dice;
  if (!dice) {
    replaceChildren(e.diceBody, h("p", { class: "muted" }, t("dice.not_started")));
    return;
  }
  const out = [
    h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.commitment")), h("code", { class: "hex", "data-testid": "commitment" }, dice.commitment || "")),
  ];
  const seat = page.mySeat;
  if (seat !== null) {
    const seed = typeof dice.your_seed === "string" ? dice.your_seed : page.mySeed;
    if (page.you.seed_needed) {
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
      const names = page.names();
      out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.client_seeds")),
        h("span", {}, [0, 1].map((s) => h("span", { class: "seedline" }, `${names[s]}: `, h("code", {}, dice.client_seeds[s] || t("dice.empty_seed")))))));
    }
  }
  out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.server_seed")),
    dice.server_seed ? h("code", { class: "hex", "data-testid": "server-seed" }, dice.server_seed) : h("span", { class: "muted" }, t("dice.hidden"))));
  if (dice.server_seed) {
    out.push(h("p", {}, h("a", { href: `/matches/${encodeURIComponent(matchId(page))}/verify`, class: "btn small", "data-link": "verify-dice" }, t("dice.verify"))));
  }
  replaceChildren(e.diceBody, out);
}
