// @ts-check
// The end of the match: its panel (the result, the analysis and the match's links) and the
// rematch: asked for here (same options, same opponent kind: POST /tables/{id}/rematch), or
// offered by the other player (looked for every 4 s) and joined or declined.

import { h, postForm, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { matchId, matchLinks } from "./panels.js";
import { sound } from "./sound.js";

/** @typedef {import("./store.js").TableStore} TableStore */

/**
 * What the end-of-match panel needs of the page.
 * @typedef {object} OverHost
 * @property {TableStore} store the table (its result, the viewer, the shell's table and csrf)
 * @property {Pick<import("./layout.js").Elements, "over">} el
 * @property {() => string} statusText the status line's words (the result)
 * @property {(text: string, kind?: string) => void} toast
 */

/** @typedef {{id: string, offeredBy: string, closed: boolean, declined: boolean}} RematchOffer a rematch the other player asked for (closed: declined or closed since) */

/**
 * The end-of-match panel and the rematch.
 * @example
 * const over = new MatchOver({store, el, statusText, toast});
 * over.render(); // shown once the table is finished
 */
export class MatchOver {
  /** @param {OverHost} host */
  constructor(host) {
    this.host = host;
    /** @type {ReturnType<typeof setInterval> | undefined} asks whether the other player wants a rematch */
    this.timer = undefined;
    /** @type {RematchOffer | null} */
    this.offer = null;
  }

  render() {
    const { store, el: e, statusText } = this.host;
    const st = store.state;
    const finished = st && st.table && st.table.status === "finished";
    const over = finished || (store.match && store.match.over);
    e.over.hidden = !over;
    if (!over) return;
    const body = [h("h2", {}, t("over.title")), h("p", { class: "over-text", "data-testid": "over-text" }, statusText())];
    if (finished && store.mySeat !== null && store.cfg.user) {
      // a rematch: same options, same opponent kind (see POST /tables/{id}/rematch)
      const offer = this.offer;
      const names = store.names();
      if (offer && offer.closed) {
        // declined here, or closed since: no rematch of this table any more
        const text = offer.declined ? t("over.rematch_declined", { name: offer.offeredBy }) : t("over.rematch_closed");
        body.push(h("p", { class: "rematch-offer muted", "data-testid": "rematch-closed", role: "status" }, text));
      } else {
        const offered = Boolean(offer && offer.offeredBy);
        if (offer && offered) body.push(h("p", { class: "rematch-offer", "data-testid": "rematch-offer" }, t("over.rematch_offered", { name: offer.offeredBy })));
        const label = offered ? t("btn.rematch_join") : t("btn.rematch");
        const accept = h("button", { type: "button", class: "btn primary", "data-action": "rematch", onclick: () => postForm(store.cfg.csrf, `/tables/${encodeURIComponent(store.cfg.table)}/rematch`, {}) }, label);
        const decline = offered
          ? h("button", { type: "button", class: "btn", "data-action": "rematch-decline", onclick: (/** @type {Event} */ ev) => this.decline(/** @type {HTMLButtonElement} */ (ev.currentTarget)) }, t("btn.rematch_decline"))
          : null;
        body.push(h("p", { class: "rematch-actions" }, accept, decline ? " " : "", decline));
      }
      this.watch(names, store.mySeat);
    }
    if (finished) body.push(h("p", {}, h("a", { href: `/matches/${encodeURIComponent(matchId(store))}/analysis`, class: "btn primary", "data-link": "analysis" }, t("over.analysis"))));
    if (store.match) body.push(matchLinks(store));
    body.push(h("p", {}, h("a", { href: "/" }, t("over.back"))));
    replaceChildren(e.over, body);
  }

  /**
   * After a match between people, look (every 4 s) whether the other player asked for a
   * rematch, to offer it here too (GET /api/tables/{id}/rematch).
   * @param {string[]} names
   * @param {0 | 1} me
   */
  watch(names, me) {
    if (this.timer) return;
    const { store, toast } = this.host;
    const seats = (store.state && store.state.table && store.state.table.seats) || [];
    const other = seats[1 - me];
    if (!other || other.kind === "bot") return;
    const look = () => {
      fetch(`/api/tables/${encodeURIComponent(store.cfg.table)}/rematch`, { headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : null))
        .then((body) => {
          const table = body && body.table;
          if (!table) return;
          clearInterval(this.timer);
          const by = (table.seats || []).find((/** @type {any} */ s) => s);
          const offeredBy = by ? by.name : names[1 - me];
          if (table.status === "finished") {
            // declined (or closed) already: offer nothing, and no Rematch that would fail
            this.offer = { id: table.id, offeredBy, closed: true, declined: false };
            this.render();
            return;
          }
          const mine = (table.seats || []).some((/** @type {any} */ s) => s && s.name === names[me]);
          if (mine) return;
          this.offer = { id: table.id, offeredBy, closed: false, declined: false };
          toast(t("over.rematch_offered", { name: this.offer.offeredBy }), "good");
          sound.play("turn");
          this.render();
        })
        .catch((err) => console.warn("gammon: rematch lookup failed", err));
    };
    this.timer = setInterval(look, 4000);
    look();
  }

  /**
   * Decline the rematch the other player asked for (`POST /api/tables/{id}/rematch/decline`):
   * their rematch table, which kept this player's seat, is closed.
   * @param {HTMLButtonElement | null} button disabled while the request is under way
   */
  decline(button) {
    const offer = this.offer;
    if (!offer) return;
    const { store, toast } = this.host;
    if (button) button.disabled = true;
    fetch(`/api/tables/${encodeURIComponent(store.cfg.table)}/rematch/decline`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": store.cfg.csrf },
      body: "{}",
    })
      .then((r) => (r.ok ? r.json() : r.json().then((b) => Promise.reject(new Error((b && b.error && b.error.message) || `HTTP ${r.status}`)))))
      .then(() => {
        this.offer = { ...offer, closed: true, declined: true };
        this.render();
      })
      .catch((err) => {
        if (button) button.disabled = false;
        toast(t("over.rematch_decline_failed", { message: String(err.message || err) }), "error");
      });
  }
}
