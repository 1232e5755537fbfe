// @ts-check
// Translations of every string the game and verification pages show: English, French,
// Italian. The texts are the server's (its gettext catalogue, the entries marked
// "#. browser: game"), fetched from /i18n/<lang>.json, and only the page's language is loaded
// (`loadLang`; switching language loads the new one).
// t("key", {name: "x"}) fills {name} placeholders; a key missing in the language logs an
// error and shows the key (so the browser tests catch it).

export const LANGS = ["en", "fr", "it"];
/** @type {Record<string, string>} */
export const LANG_NAMES = { en: "English", fr: "Français", it: "Italiano" };

/** @type {Map<string, Record<string, string>>} the catalogues loaded, by language */
const loaded = new Map();
/** @type {Record<string, string>} the current language's catalogue */
let strings = {};

let current = "en";
/** @type {Set<(lang: string) => void>} */
const listeners = new Set();

/**
 * The first of `candidates` that is one of LANGS (by its first two letters), else "en".
 * @param {...(string | null | undefined)} candidates
 */
export function pickLang(...candidates) {
  for (const c of candidates) {
    if (!c) continue;
    const code = String(c).toLowerCase().slice(0, 2);
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

export function getLang() {
  return current;
}

/**
 * Load a language's catalogue (once) and make it the page's language.
 * @param {string} lang
 */
export async function loadLang(lang) {
  const code = pickLang(lang);
  let catalogue = loaded.get(code);
  if (!catalogue) {
    const answer = await fetch(`/i18n/${code}.json`);
    if (!answer.ok) throw new Error(`i18n: no catalogue for ${code} (${answer.status})`);
    catalogue = /** @type {Record<string, string>} */ (await answer.json());
    loaded.set(code, catalogue);
  }
  current = code;
  strings = catalogue;
  if (typeof document !== "undefined") document.documentElement.lang = current;
}

/** The languages whose catalogue has been loaded. */
export function loadedLangs() {
  return [...loaded.keys()];
}

/**
 * Switch the page's language (in place) and tell the listeners.
 * @param {string} lang
 */
export async function setLang(lang) {
  await loadLang(lang);
  for (const fn of listeners) fn(current);
}

/** @param {(lang: string) => void} fn */
export function onLangChange(fn) {
  listeners.add(fn);
}

/**
 * The text of `key` in the page's language, with its {placeholders} filled from `params`.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params = {}) {
  const text = strings[key];
  if (text === undefined) {
    console.error(`i18n: key ${key} missing in ${current}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/**
 * A player's name as the page shows it: the bot's level ("gammon-bot (beginner)") in the
 * page's language.
 * @param {string} name
 */
export function personName(name) {
  const m = /^gammon-bot \((beginner|intermediate|expert|world-class)\)$/.exec(name || "");
  return m && hasKey(`level.${m[1]}`) ? `gammon-bot (${t(`level.${m[1]}`)})` : name;
}

/** @param {string} key */
export function hasKey(key) {
  return key in strings;
}

/** @param {number} n */
export function points(n) {
  return t(n === 1 ? "points.one" : "points.many", { n });
}

// The page's one language switch is the site header's EN / FR / IT links: on the pages with
// this module they switch the language in place (no reload, so nothing being played is lost),
// relabel the header's own links (data-i18n) and remember the choice in the gammon_lang cookie,
// which the server's pages read too. Without JavaScript they are plain ?lang= links.
export function bindSiteHeader() {
  const header = document.querySelector("header.site");
  if (!header) return;
  const links = [.../** @type {NodeListOf<HTMLAnchorElement>} */ (header.querySelectorAll(".langs a[data-lang]"))];
  const sync = () => {
    for (const a of links) {
      if (a.dataset.lang === current) a.setAttribute("aria-current", "true");
      else a.removeAttribute("aria-current");
      const lang = a.dataset.lang || "";
      a.title = `${t("app.language")}: ${LANG_NAMES[lang] || lang}`;
    }
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (header.querySelectorAll("[data-i18n]"))) node.textContent = t(node.dataset.i18n || "");
    const me = /** @type {HTMLElement | null} */ (header.querySelector("#me"));
    if (me && me.dataset.name) {
      const balance = me.querySelector("#me-balance");
      const label = me.dataset.guest === "1" ? `${me.dataset.name} (${t("nav.guest")}): ` : `${me.dataset.name}: `;
      if (balance) me.replaceChildren(label, balance);
    }
  };
  for (const a of links) {
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      // the site remembers a visitor's language in this cookie (the server's pages read it too)
      document.cookie = `gammon_lang=${a.dataset.lang}; path=/; max-age=31536000; samesite=lax`;
      setLang(a.dataset.lang || "en");
    });
  }
  sync();
  onLangChange(sync);
}

// The balance in the site header (`#me-balance`), kept up to date by the game page.
/** @param {unknown} balance */
export function setHeaderBalance(balance) {
  const node = document.getElementById("me-balance");
  if (node && typeof balance === "number" && node.textContent !== String(balance)) node.textContent = String(balance);
}
