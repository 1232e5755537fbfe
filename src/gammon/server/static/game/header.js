// @ts-check
// The game page's top bar and tab: the table's name, the connection's state, the sound
// button, the keys' help, and the tab's title and icon (which say when it is your turn).

import { h } from "./dom.js";
import { setHeaderBalance, t } from "./i18n.js";
import { PROTOCOL } from "./net.js";
import { sound } from "./sound.js";

/**
 * What the top bar shows.
 * @typedef {object} HeaderHost
 * @property {string} table the table's id
 * @property {() => boolean} myTurn whether the seated player has something to do now
 * @property {() => {status: string, code?: number, delay?: number}} conn the socket's state (net.js)
 * @property {Pick<import("./layout.js").Elements, "tableId" | "conn" | "sound" | "keysHelp">} el
 */

/**
 * The tab's icon: a plain dot, green with a ring when it is the player's turn.
 * @param {boolean} mine
 */
export function setFavicon(mine) {
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

/**
 * The words for a socket closed for good (its close code).
 * @param {number | undefined} code
 * @example fatalText(4404) // the words for a table that does not exist, in the page's language
 */
export function fatalText(code) {
  return t(code === 4404 ? "conn.not_found" : code === 4403 ? "conn.origin" : "conn.protocol", { ours: PROTOCOL, theirs: "?" });
}

/** @param {HeaderHost} host */
export function renderHeader(host) {
  const e = host.el;
  e.tableId.textContent = t("app.table", { id: host.table });
  const mine = host.myTurn();
  document.title = `${mine ? `● ${t("title.your_turn")} · ` : ""}${t("app.title")} · ${t("app.table", { id: host.table })}`;
  setFavicon(mine);
  e.keysHelp.textContent = t("keys.help");
  const { status: s, code, delay } = host.conn();
  let text;
  if (s === "online") text = t("conn.online");
  else if (s === "offline") text = t("conn.offline", { s: Math.max(1, Math.round((delay || 0) / 1000)) });
  else if (s === "reconnecting") text = t("conn.reconnecting");
  else if (s === "fatal") text = fatalText(code);
  else if (s === "closed") text = t("conn.closed");
  else text = t("conn.connecting");
  e.conn.textContent = text;
  e.conn.dataset.state = s;
  e.sound.textContent = t(sound.muted ? "sound.off" : "sound.on");
  e.sound.setAttribute("aria-pressed", sound.muted ? "true" : "false");
  e.sound.title = t(sound.muted ? "sound.unmute" : "sound.mute");
}

// The site header's balance (`#me-balance`) follows the account's: asked again when a game ends.
export function refreshBalance() {
  if (!document.getElementById("me-balance")) return;
  fetch("/api/session", { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((body) => {
      if (body && body.user) setHeaderBalance(body.user.balance);
    })
    .catch((err) => console.warn("gammon: could not refresh the balance", err));
}
