// The i18n loader: one catalogue file per language, only the page's language loaded, the
// three catalogues with the same keys and placeholders.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as i18n from "../../src/gammon/server/static/game/i18n.js";

/** @param {string} lang */
const catalogue = async (lang) => (await import(`../../src/gammon/server/static/game/i18n/${lang}.js`)).default;

/** @param {string} text */
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("pickLang takes the first known language, by its first two letters", () => {
  assert.equal(i18n.pickLang(null, "", "it-IT", "fr"), "it");
  assert.equal(i18n.pickLang("FR"), "fr");
  assert.equal(i18n.pickLang("de", undefined), "en");
});

test("only the page's language is loaded, and a switch loads the new one", async () => {
  assert.deepEqual(i18n.loadedLangs(), []);
  await i18n.loadLang("fr-CA");
  assert.deepEqual(i18n.loadedLangs(), ["fr"]);
  assert.equal(i18n.getLang(), "fr");
  assert.equal(i18n.t("app.table", { id: "x1" }), (await catalogue("fr"))["app.table"].replace("{id}", "x1"));
  /** @type {string[]} */
  const heard = [];
  i18n.onLangChange((lang) => heard.push(lang));
  await i18n.setLang("it");
  assert.deepEqual(heard, ["it"]);
  assert.deepEqual(i18n.loadedLangs(), ["fr", "it"]);
  assert.equal(i18n.points(1), (await catalogue("it"))["points.one"].replace("{n}", "1"));
  await i18n.setLang("fr"); // loaded already: not again
  assert.deepEqual(i18n.loadedLangs(), ["fr", "it"]);
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

test("the three catalogues have the same keys and placeholders", async () => {
  const en = await catalogue("en");
  assert.ok(Object.keys(en).length > 200);
  for (const lang of i18n.LANGS) {
    const other = await catalogue(lang);
    assert.deepEqual(Object.keys(other).sort(), Object.keys(en).sort(), lang);
    for (const [key, text] of Object.entries(en)) {
      assert.deepEqual(placeholders(other[key]), placeholders(text), `${lang} ${key}`);
    }
  }
});
