// @ts-check
// The dice verification page: loads the match's action log (or a pasted / uploaded one) and
// recomputes every roll in the browser (./dice.js), like `gammon verify-dice`.

import { h, replaceChildren } from "../game/dom.js";
import { bindSiteHeader, loadLang, onLangChange, personName, pickLang, t } from "../game/i18n.js";
import { LogError, parseLog, verifyLog } from "./dice.js";

/** @param {string} d */
function fmt(d) {
  return d ? `${d[0]}-${d[1]}` : "";
}

/** @param {string} s */
function shellQuote(s) {
  return `'${String(s).replace(/'/g, "'\\''")}'`;
}

class VerifyPage {
  /** @param {HTMLElement} root `<main id="verify">` with the shell's data attributes */
  constructor(root) {
    this.root = root;
    /** @type {Record<string, any>} the page's elements, made by build() */
    this.el = {};
    this.matchId = root.dataset.match || "";
    this.logUrl = root.dataset.log || (this.matchId ? `/matches/${encodeURIComponent(this.matchId)}/log` : "");
    this.text = null; // the log being shown
    this.source = "server"; // "server" or "local"
    this.log = null;
    this.result = null;
    this.message = null; // {key, params, kind}
    this.build();
    onLangChange(() => this.render());
    this.render();
    if (this.logUrl) this.load();
  }

  build() {
    const e = this.el;
    e.title = h("h1");
    e.head = h("div", { class: "vhead" }, e.title, h("span", { class: "spacer" }));
    e.message = h("p", { class: "vmessage", "data-testid": "message", role: "status" });
    e.verdict = h("div", { class: "verdict", "data-testid": "verdict", hidden: true });
    e.summary = h("dl", { class: "summary", "data-testid": "summary" });
    e.rollsTitle = h("h2");
    // a scrolling region: reachable by keyboard, named by its title
    e.rollsTitle.id = "rolls-title";
    e.rolls = h("div", { class: "rolls-wrap", tabindex: 0, role: "region", "aria-labelledby": "rolls-title" });
    e.pasteTitle = h("h2", { id: "paste-title" });
    e.textarea = h("textarea", { rows: 6, spellcheck: "false", "data-testid": "paste", "aria-labelledby": "paste-title" });
    e.file = h("input", { type: "file", accept: ".jsonl,.json,.txt,text/plain", "data-testid": "file" });
    e.fileLabel = h("label", { class: "file" });
    e.check = h("button", { type: "submit", class: "btn primary", "data-testid": "check" });
    const form = h("form", { class: "paste-form" }, e.textarea, h("div", { class: "row" }, e.fileLabel, e.check));
    e.fileLabel.append(h("span", {}), " ", e.file);
    form.addEventListener("submit", (/** @type {Event} */ ev) => {
      ev.preventDefault();
      if (e.textarea.value.trim()) this.check(e.textarea.value, "local");
    });
    e.file.addEventListener("change", async () => {
      const f = e.file.files && e.file.files[0];
      if (!f) return;
      const text = await f.text();
      e.textarea.value = text;
      this.check(text, "local");
    });
    e.howTitle = h("h2");
    e.how = h("div", { class: "how" });
    this.root.classList.add("verify-page");
    this.root.replaceChildren(
      e.head,
      e.message,
      e.verdict,
      h("section", { class: "vpanel" }, e.summary),
      h("section", { class: "vpanel" }, e.rollsTitle, e.rolls),
      h("section", { class: "vpanel" }, e.pasteTitle, form),
      h("section", { class: "vpanel" }, e.howTitle, e.how),
    );
  }

  async load() {
    this.message = { key: "verify.loading" };
    this.render();
    let response;
    try {
      response = await fetch(this.logUrl, { credentials: "same-origin" });
    } catch (err) {
      console.error("gammon: cannot fetch the action log", err);
      this.message = { key: "verify.load_failed", params: { message: String(err) }, kind: "bad" };
      this.render();
      return;
    }
    if (!response.ok) {
      let code = "";
      try {
        code = (await response.json()).error.code;
      } catch {
        // not a JSON error body
      }
      console.error(`gammon: GET ${this.logUrl} answered ${response.status} ${code}`);
      this.message = code === "not_started"
        ? { key: "verify.not_started", kind: "warn" }
        : { key: "verify.load_failed", params: { message: `HTTP ${response.status} ${code}`.trim() }, kind: "bad" };
      this.render();
      return;
    }
    await this.check(await response.text(), "server");
  }

  /**
   * @param {string} text the log
   * @param {string} source where it came from
   */
  async check(text, source) {
    this.text = text;
    this.source = source;
    this.log = null;
    this.result = null;
    if (!(window.crypto && crypto.subtle)) {
      this.message = { key: "verify.no_crypto", kind: "bad" };
      this.render();
      return;
    }
    try {
      this.log = parseLog(text);
    } catch (err) {
      if (!(err instanceof LogError)) throw err;
      this.message = { key: "verify.bad_log", params: { message: t(err.key, err.params) }, kind: "bad" };
      this.render();
      return;
    }
    try {
      this.result = await verifyLog(this.log);
    } catch (err) {
      console.error("gammon: the dice check failed", err);
      this.message = { key: "verify.load_failed", params: { message: String(err) }, kind: "bad" };
      this.render();
      return;
    }
    const status = this.result.status;
    this.message = status === "no_seed" ? { key: "verify.no_seed", kind: "warn" }
      : status === "no_dice" ? { key: "verify.no_dice", kind: "bad" }
      : status === "bad_seed" ? { key: "verify.bad_seed", kind: "bad" }
      : null;
    this.render();
  }

  render() {
    const e = this.el;
    const id = (this.log && this.log.dice && this.log.dice.matchId) || this.matchId;
    document.title = `${t("verify.title")} · ${t("app.title")}`;
    e.title.textContent = id ? `${t("verify.title")} · ${t("verify.match", { id })}` : t("verify.title");
    e.message.hidden = !this.message;
    if (this.message) {
      e.message.textContent = t(this.message.key, this.message.params || {});
      e.message.dataset.kind = this.message.kind || "info";
    }
    this.renderVerdict();
    this.renderSummary();
    this.renderRolls();
    e.pasteTitle.textContent = t("verify.paste");
    e.fileLabel.firstChild.textContent = t("verify.file");
    e.check.textContent = t("btn.check");
    this.renderHow();
  }

  renderVerdict() {
    const e = this.el;
    const r = this.result;
    const show = r && ["ok", "bad_roll", "bad_commitment"].includes(r.status);
    e.verdict.hidden = !show;
    if (!show) return;
    const ok = r.status === "ok";
    e.verdict.dataset.ok = ok ? "true" : "false";
    e.verdict.className = `verdict ${ok ? "ok" : "bad"}`;
    let text;
    if (ok) text = t("verify.verdict_ok", { n: r.rows.length });
    else if (r.status === "bad_commitment") text = t("verify.verdict_bad_commit");
    else {
      const row = r.rows[/** @type {number} */ (r.firstBad)];
      text = t("verify.verdict_bad_roll", { n: row.index, logged: fmt(row.dice), computed: fmt(row.computed) });
    }
    replaceChildren(e.verdict, h("strong", {}, ok ? "✔ " : "✘ "), text);
  }

  renderSummary() {
    const e = this.el;
    const log = this.log;
    if (!log || !log.dice) {
      replaceChildren(e.summary);
      return;
    }
    const d = log.dice;
    const r = this.result;
    const item = (/** @type {string} */ k, /** @type {any} */ v, /** @type {string} */ testid) => [h("dt", {}, k), h("dd", { "data-testid": testid }, v)];
    const parts = [
      item(t("verify.match_id"), h("code", {}, d.matchId), "match-id"),
      item(t("verify.commitment"), h("code", {}, d.commitment), "commitment"),
      item(t("verify.server_seed"), log.serverSeed ? h("code", {}, log.serverSeed) : h("span", { class: "muted" }, t("dice.hidden")), "server-seed"),
      item(t("verify.client_seeds"), h("span", {}, [0, 1].map((s) =>
        h("span", { class: "seedline" }, `${personName(log.players[s] ?? String(s))}: `, h("code", {}, d.clientSeeds[s] || t("dice.empty_seed"))))), "client-seeds"),
    ];
    if (r && r.actual) {
      const line = r.commitmentOk ? t("verify.commit_ok") : t("verify.commit_bad", { actual: r.actual });
      parts.push(item("sha256", h("span", { class: r.commitmentOk ? "good" : "bad" }, line), "commit-check"));
    }
    replaceChildren(e.summary, parts);
  }

  renderRolls() {
    const e = this.el;
    e.rollsTitle.textContent = t("verify.rolls");
    const log = this.log;
    const r = this.result;
    if (!log || !log.rolls.length) {
      replaceChildren(e.rolls);
      e.rollsTitle.hidden = true;
      return;
    }
    e.rollsTitle.hidden = false;
    const rows = r && r.rows.length ? r.rows : log.rolls.map((x) => ({ ...x, computed: null, ok: null }));
    const table = h("table", { class: "rolls", "data-testid": "rolls" },
      h("thead", {}, h("tr", {},
        h("th", {}, t("verify.col.n")), h("th", {}, t("verify.col.player")), h("th", {}, t("verify.col.logged")),
        h("th", {}, t("verify.col.computed")), h("th", {}, t("verify.col.check")))),
      h("tbody", {}, rows.map((row) => h("tr", { class: row.ok === false ? "bad" : row.ok ? "ok" : "", "data-roll": row.index },
        h("td", {}, String(row.index)),
        h("td", {}, personName(log.players[row.player] ?? String(row.player ?? ""))),
        h("td", {}, fmt(row.dice)),
        h("td", {}, row.computed ? fmt(row.computed) : "…"),
        h("td", { class: "check" }, row.ok === null ? "" : row.ok ? `✔ ${t("verify.ok")}` : `✘ ${t("verify.mismatch")}`)))));
    replaceChildren(e.rolls, table);
    const bad = table.querySelector("tr.bad");
    if (bad) e.rolls.scrollTop = Math.max(0, bad.offsetTop - e.rolls.clientHeight / 2);
  }

  renderHow() {
    const e = this.el;
    e.howTitle.textContent = t("verify.how");
    const d = this.log && this.log.dice;
    const seed = (this.log && this.log.serverSeed) || "SERVER_SEED_HEX";
    const mid = (d && d.matchId) || this.matchId || "MATCH_ID";
    const s0 = d ? d.clientSeeds[0] : "SEED_0";
    const s1 = d ? d.clientSeeds[1] : "SEED_1";
    const file = this.source === "server" ? `gammon-${mid}.jsonl` : "LOG.jsonl";
    const openssl = [
      `SEED=${seed}`,
      `printf '%s' "$SEED" | xxd -r -p | sha256sum   # = ${d ? d.commitment : "the commitment"}`,
      `printf '%s' ${shellQuote(`${mid}:${s0}:${s1}:0`)} | openssl dgst -sha256 -mac HMAC -macopt hexkey:$SEED`,
    ].join("\n");
    const links = [];
    if (this.logUrl && this.source === "server") links.push(h("a", { href: this.logUrl, download: file }, t("over.log")));
    replaceChildren(e.how,
      h("p", {}, t("verify.how_text")),
      h("p", {}, t("verify.how_cli"), " ", links),
      h("pre", {}, h("code", { "data-testid": "cli" }, `gammon verify-dice ${file}`)),
      h("p", {}, t("verify.how_openssl")),
      h("pre", {}, h("code", {}, openssl)),
    );
  }
}

async function start() {
  const root = document.getElementById("verify");
  if (!root) {
    console.error("gammon: no <main id=verify> on this page");
    return;
  }
  window.addEventListener("unhandledrejection", (e) => console.error("gammon: unhandled rejection", e.reason));
  // data-lang is the server's choice: ?lang=, else the gammon_lang cookie, else Accept-Language
  await loadLang(pickLang(new URLSearchParams(location.search).get("lang"), root.dataset.lang, navigator.language));
  bindSiteHeader();
  Object.assign(window, { gammonVerify: new VerifyPage(root) }); // for the browser tests
}

start();
