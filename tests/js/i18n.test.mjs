// The i18n loader: the page's language's texts fetched from the server (/i18n/<lang>.json,
// served from its gettext catalogues: tests/server/test_translations.py checks what it
// serves), only the page's language loaded, a missing key shown as itself.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as i18n from "../../src/gammon/server/static/game/i18n.js";

/** @type {Record<string, Record<string, string>>} what the stub server answers */
const served = {
  en: { "app.table": "Table {id}", "points.one": "{n} point", "points.many": "{n} points" },
  fr: { "app.table": "Table {id}", "points.one": "{n} point", "points.many": "{n} points" },
  it: { "app.table": "Tavolo {id}", "points.one": "{n} punto", "points.many": "{n} punti" },
};
/** @type {string[]} the URLs asked for */
const asked = [];
globalThis.fetch = /** @type {typeof fetch} */ (
  /** @param {string} url */
  async (url) => {
    asked.push(url);
    const lang = /^\/i18n\/(\w+)\.json$/.exec(url)?.[1] || "";
    return new Response(JSON.stringify(served[lang] || {}), { status: lang in served ? 200 : 404 });
  }
);

test("pickLang takes the first known language, by its first two letters", () => {
  assert.equal(i18n.pickLang(null, "", "it-IT", "fr"), "it");
  assert.equal(i18n.pickLang("FR"), "fr");
  assert.equal(i18n.pickLang("de", undefined), "en");
});

test("only the page's language is fetched, and a switch fetches the new one", async () => {
  assert.deepEqual(i18n.loadedLangs(), []);
  await i18n.loadLang("fr-CA");
  assert.deepEqual(asked, ["/i18n/fr.json"]);
  assert.deepEqual(i18n.loadedLangs(), ["fr"]);
  assert.equal(i18n.getLang(), "fr");
  assert.equal(i18n.t("app.table", { id: "x1" }), "Table x1");
  /** @type {string[]} */
  const heard = [];
  i18n.onLangChange((lang) => heard.push(lang));
  await i18n.setLang("it");
  assert.deepEqual(heard, ["it"]);
  assert.deepEqual(i18n.loadedLangs(), ["fr", "it"]);
  assert.equal(i18n.points(1), "1 punto");
  assert.equal(i18n.points(3), "3 punti");
  await i18n.setLang("fr"); // loaded already: not again
  assert.deepEqual(i18n.loadedLangs(), ["fr", "it"]);
  assert.deepEqual(asked, ["/i18n/fr.json", "/i18n/it.json"]);
});

test("a missing key shows the key and logs an error; placeholders without a value stay", async (t) => {
  await i18n.loadLang("en");
  const errors = t.mock.method(console, "error", () => {});
  assert.equal(i18n.hasKey("no.such.key"), false);
  assert.equal(i18n.t("no.such.key"), "no.such.key");
  assert.equal(errors.mock.callCount(), 1);
  assert.equal(i18n.hasKey("app.table"), true);
  assert.equal(i18n.t("app.table"), "Table {id}");
});
