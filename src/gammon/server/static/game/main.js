// @ts-check
// The game page's entry point (templates/game.html): loads the page's language, then starts
// the page (page.js) on `<main id="game">`.

import { bindSiteHeader, loadLang, pickLang } from "./i18n.js";
import { GamePage } from "./page.js";
import { sound } from "./sound.js";

async function start() {
  const root = document.getElementById("game");
  if (!root) {
    console.error("gammon: no <main id=game> on this page");
    return;
  }
  window.addEventListener("unhandledrejection", (e) => console.error("gammon: unhandled rejection", e.reason));
  // data-lang is the server's choice: ?lang=, else the gammon_lang cookie, else Accept-Language
  await loadLang(pickLang(new URLSearchParams(location.search).get("lang"), root.dataset.lang, navigator.language));
  bindSiteHeader();
  // for the browser tests
  Object.assign(window, { gammonPage: new GamePage(root), gammonSound: sound });
}

start();
