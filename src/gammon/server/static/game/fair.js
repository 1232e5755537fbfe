// @ts-check
// The fair dice panel (docs/protocol.md, "Fair dice"): the server seed's commitment, the
// player's own seed (random by default, sent once before the first roll, changeable until the
// dice lock), both seeds once locked, the server seed revealed at the end and the link to
// verify the dice.

import { h, replaceChildren, storage } from "./dom.js";
import { t } from "./i18n.js";
import { matchId } from "./panels.js";

/** @typedef {import("./store.js").TableStore} TableStore */
/** @typedef {import("./store.js").Message} Message */

/**
 * What the fair dice need of the page.
 * @typedef {object} FairHost
 * @property {TableStore} store the table (its dice, the viewer's seat)
 * @property {Pick<import("./layout.js").Elements, "diceTitle" | "diceBody" | "seedInput" | "seedButton" | "seedForm">} el
 * @property {(msg: Message) => string | number | null} send
 * @property {(text: string, kind?: string) => void} toast
 */

function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A seed the server takes: printable ASCII, at most 128 characters, no ":".
 * @param {string} seed
 * @example validSeed("my lucky seed") // true
 */
export function validSeed(seed) {
  return /^[\x20-\x7e]{0,128}$/.test(seed) && !seed.includes(":");
}

/**
 * The player's seed (remembered per table) and the panel.
 * @example
 * const fair = new FairDice({store, el, send, toast});
 * fair.maybeSend(); // after each state: sends the seed once the server asks for it
 */
export class FairDice {
  /** @param {FairHost} host */
  constructor(host) {
    this.host = host;
    this.key = `gammon.seed.${host.store.cfg.table}`;
    this.mySeed = storage(this.key) || randomSeed();
    storage(this.key, this.mySeed);
    this.sent = false; // sent on this socket
  }

  /** Send the seed once the server needs it (a new socket sends it again). */
  maybeSend() {
    const st = this.host.store.state;
    const seat = this.host.store.mySeat;
    if (seat === null || !st || !st.dice || !st.you || !st.you.seed_needed) return;
    const given = st.dice.seeds_given && st.dice.seeds_given[seat];
    if (given) {
      if (typeof st.dice.your_seed === "string") this.mySeed = st.dice.your_seed;
      return;
    }
    if (this.sent) return;
    this.sent = true;
    this.host.send({ type: "client_seed", seed: this.mySeed });
  }

  /** @param {string} seed the player's own */
  set(seed) {
    if (!validSeed(seed)) {
      this.host.toast(t("error.invalid_seed"), "error");
      return;
    }
    this.mySeed = seed;
    storage(this.key, seed);
    this.host.send({ type: "client_seed", seed });
  }

  render() {
    const { store, el: e } = this.host;
    e.diceTitle.textContent = t("dice.title");
    e.seedButton.textContent = t("btn.set_seed");
    e.seedInput.setAttribute("aria-label", t("dice.your_seed"));
    const st = store.state;
    const dice = st && st.dice;
    if (!dice) {
      replaceChildren(e.diceBody, h("p", { class: "muted" }, t("dice.not_started")));
      return;
    }
    const out = [
      h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.commitment")), h("code", { class: "hex", "data-testid": "commitment" }, dice.commitment || "")),
    ];
    const seat = store.mySeat;
    if (seat !== null) {
      const seed = typeof dice.your_seed === "string" ? dice.your_seed : this.mySeed;
      if (store.you.seed_needed) {
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
        const names = store.names();
        out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.client_seeds")),
          h("span", {}, [0, 1].map((s) => h("span", { class: "seedline" }, `${names[s]}: `, h("code", {}, dice.client_seeds[s] || t("dice.empty_seed")))))));
      }
    }
    out.push(h("div", { class: "kv" }, h("span", { class: "k" }, t("dice.server_seed")),
      dice.server_seed ? h("code", { class: "hex", "data-testid": "server-seed" }, dice.server_seed) : h("span", { class: "muted" }, t("dice.hidden"))));
    if (dice.server_seed) {
      out.push(h("p", {}, h("a", { href: `/matches/${encodeURIComponent(matchId(store))}/verify`, class: "btn small", "data-link": "verify-dice" }, t("dice.verify"))));
    }
    replaceChildren(e.diceBody, out);
  }
}
