// @ts-check
// The game page's chat: the lines (a moderator may remove one; a blocked author's come as
// their version alone), sending one, reporting someone else's to the moderators, and a
// visitor becoming a guest to chat.

import { StickToBottom, h, replaceChildren } from "./dom.js";
import { getLang, t } from "./i18n.js";

/** @typedef {import("./store.js").TableStore} TableStore */
/** @typedef {import("./store.js").Message} Message */

/**
 * What the chat needs of the page.
 * @typedef {object} ChatHost
 * @property {TableStore} store the table (its chat lines, the viewer, the shell's csrf and user)
 * @property {Pick<import("./layout.js").Elements, "chatTitle" | "chatLog" | "chatInput" | "chatSend" | "chatForm" | "chatNote">} el
 * @property {(msg: Message) => string | number | null} send a message on the table's socket: its id, null offline
 * @property {(text: string, kind?: string) => void} toast
 * @property {() => void} reconnect open the table's socket again (a new session)
 */

/**
 * Whether a viewer at a table may not chat because visitors may not (`spectator_chat`).
 * @param {TableStore} store
 * @example visitorsMayNotChat(store) // true for a spectator at a players-only table
 */
export function visitorsMayNotChat(store) {
  const o = (store.state && store.state.table && store.state.table.options) || {};
  return o.spectator_chat === false && store.mySeat === null;
}

/**
 * The chat panel.
 * @example
 * const chat = new Chat({store, el, send, toast, reconnect});
 * chat.send(); // the input's text, once acknowledged (`acked`) the input is cleared
 */
export class Chat {
  /** @param {ChatHost} host */
  constructor(host) {
    this.host = host;
    /** @type {string | number | null} the id of the line being sent */
    this.pending = null;
    /** @type {string | null} what the panel now on the page was drawn from */
    this.shown = null;
    /** @type {StickToBottom | null} keeps the newest line in view */
    this.stick = null;
  }

  /** Send the input's line. */
  send() {
    const text = this.host.el.chatInput.value.trim();
    if (!text) return;
    this.pending = this.host.send({ type: "chat", text: text.slice(0, 500) });
  }

  /**
   * The server acknowledged a message: the line sent leaves the input.
   * @param {unknown} id
   */
  acked(id) {
    if (id !== this.pending) return;
    this.host.el.chatInput.value = "";
    this.pending = null;
  }

  /**
   * Make the visitor a guest (`POST /api/guest`), then reconnect: the table's socket then
   * knows the new session, and the chat opens.
   */
  asGuest() {
    const { store, toast, reconnect } = this.host;
    fetch("/api/guest", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": store.cfg.csrf },
      body: "{}",
    })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((body) => {
        store.cfg.csrf = body.csrf;
        store.cfg.user = body.user.name;
        reconnect();
      })
      .catch((err) => {
        console.warn("gammon: could not become a guest", err);
        toast(t("error.generic", { message: String(err) }), "error");
      });
  }

  /**
   * Report one chat line to the moderators (`POST /api/reports`).
   * @param {number} version
   */
  report(version) {
    const { store, toast } = this.host;
    const table = store.state && store.state.table ? store.state.table.id : null;
    if (!table) return;
    fetch("/api/reports", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": store.cfg.csrf },
      body: JSON.stringify({ table, seq: version, reason: "abuse" }),
    })
      .then((r) => (r.ok ? r.json() : r.json().then((b) => Promise.reject(new Error((b && b.error && b.error.message) || `HTTP ${r.status}`)))))
      .then(() => toast(t("chat.reported"), "good"))
      .catch((err) => toast(t("chat.report_failed", { message: String(err.message || err) }), "error"));
  }

  render() {
    const { store, el: e } = this.host;
    const canChat = Boolean(store.you.can_chat);
    const closed = visitorsMayNotChat(store);
    const items = [...store.chat.values()].sort((a, b) => a.version - b.version);
    const user = store.cfg.user;
    // the page draws itself after every click and message: a chat that would come out the
    // same is left alone
    const shown = JSON.stringify([getLang(), canChat, closed, Boolean(store.state), user, items]);
    if (shown === this.shown) return;
    this.shown = shown;
    if (!this.stick) this.stick = new StickToBottom(e.chatLog);
    e.chatTitle.textContent = t("chat.title");
    e.chatInput.placeholder = t("chat.placeholder");
    e.chatInput.setAttribute("aria-label", t("chat.placeholder"));
    e.chatSend.textContent = t("btn.send");
    e.chatForm.hidden = !canChat;
    e.chatNote.hidden = canChat || !store.state;
    if (closed) {
      // the table keeps its chat to the players (its `spectator_chat` option): say so
      e.chatNote.dataset.testid = "chat-closed";
      replaceChildren(e.chatNote, t("chat.closed"));
    } else {
      delete e.chatNote.dataset.testid;
      // a visitor without a session may chat at once as a guest (one click, no form)
      const asGuest = store.cfg.user ? null : h("button", { type: "button", class: "btn small", "data-action": "chat-as-guest", onclick: () => this.asGuest() }, t("chat.as_guest"));
      replaceChildren(e.chatNote, t("chat.signin"), asGuest ? " " : "", asGuest);
    }
    if (!items.length) {
      replaceChildren(e.chatLog, h("li", { class: "muted" }, t("chat.empty")));
      return;
    }
    replaceChildren(e.chatLog, items.map((c) => {
      const who = h("span", { class: `who${c.seat === 0 || c.seat === 1 ? ` s${c.seat}` : ""}` }, c.name || "?");
      const tag = c.seat === 0 || c.seat === 1 ? null : h("span", { class: "tag" }, t("chat.spectator"));
      const text = h("span", { class: "text" });
      text.textContent = c.text ?? "";
      // a signed-in player may report someone else's line to the moderators (docs/moderation.md)
      const mine = user && c.name === user;
      const report = user && !mine ? h("button", { type: "button", class: "link report", "data-action": "report-line", "aria-label": t("chat.report"), title: t("chat.report"), onclick: () => this.report(c.version) }, t("chat.report_short")) : null;
      return h("li", { "data-version": c.version }, who, tag, " ", text, report ? " " : "", report);
    }));
    this.stick.changed();
  }
}
