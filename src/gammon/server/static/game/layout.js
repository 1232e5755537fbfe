// @ts-check
// The game page's elements: the top bar, the play column (players, board, status, buttons)
// and the side column's panels, made once; the page's modules fill them.

import { h } from "./dom.js";

/**
 * The page's elements, by name.
 * @typedef {object} Elements
 * @property {HTMLElement} tableId @property {HTMLElement} conn @property {HTMLButtonElement} sound
 * @property {HTMLElement} top @property {HTMLElement} bottom @property {HTMLElement} boardWrap
 * @property {HTMLElement} desc @property {HTMLElement} status @property {HTMLElement} notice
 * @property {HTMLElement} controls @property {HTMLElement} toasts
 * @property {HTMLElement} info @property {HTMLElement} settings @property {HTMLElement} hint
 * @property {HTMLInputElement} moveInput @property {HTMLElement} moveLabel
 * @property {HTMLButtonElement} moveSend @property {HTMLElement} moveHelp @property {HTMLFormElement} moveForm
 * @property {HTMLElement} keysHelp @property {HTMLElement} over
 * @property {HTMLElement} movesTitle @property {HTMLElement} moves
 * @property {HTMLElement} chatTitle @property {HTMLElement} chatLog @property {HTMLInputElement} chatInput
 * @property {HTMLButtonElement} chatSend @property {HTMLFormElement} chatForm @property {HTMLElement} chatNote
 * @property {HTMLElement} spect
 * @property {HTMLElement} diceTitle @property {HTMLElement} diceBody @property {HTMLInputElement} seedInput
 * @property {HTMLButtonElement} seedButton @property {HTMLFormElement} seedForm
 */

/**
 * What the page's own forms and buttons do.
 * @typedef {object} LayoutActions
 * @property {() => void} mute the sound button
 * @property {(text: string) => boolean} move the text move box sent: whether it was taken
 * @property {() => void} chat the chat form sent
 * @property {(seed: string) => void} seed the fair dice' seed form sent
 */

/**
 * Make the page's elements in `root` (its children replaced).
 * @param {HTMLElement} root `<main id="game">`
 * @param {LayoutActions} on
 * @returns {Elements}
 */
export function buildLayout(root, on) {
  root.classList.add("game-page");
  const e = /** @type {Elements} */ ({});
  e.tableId = h("h1", { class: "table-id" });
  e.conn = h("span", { class: "conn", "data-testid": "conn", role: "status" });
  e.sound = h("button", { type: "button", class: "btn small sound", "data-action": "mute", "data-testid": "mute", onclick: on.mute });
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
  e.moveForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = e.moveInput.value.trim();
    if (text && on.move(text)) e.moveInput.value = "";
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
  e.chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    on.chat();
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
    on.seed(e.seedInput.value.trim());
  });
  const dicePanel = h("section", { class: "panel fair", "data-testid": "fair-dice" }, e.diceTitle, e.diceBody);

  const side = h("aside", { class: "side" }, e.over, e.hint, e.info, e.settings, movesPanel, chatPanel, e.spect, dicePanel, e.keysHelp);
  root.replaceChildren(header, h("div", { class: "layout" }, play, side), e.toasts);
  return e;
}
