// @ts-check
// The analysis board's deep work (gammon.server.web.deep): the "deeper analysis
// (grandmaster)" control with its progress and Cancel, and a "Roll out" button on each
// decision, whose progress (trials done/total), Cancel and result (equity ± its 95%
// interval per candidate, or the cube's) show beside the static evaluation.

import { equity, percent } from "./format.js";
import { h } from "./panels.js";

/** @typedef {import("./types.js").Decision} Decision */
/** @typedef {(key: string) => string} Say */

/**
 * @typedef {object} RolledMove
 * @property {string} move
 * @property {number} equity
 * @property {number} ci half the 95% interval (1.96 standard errors)
 * @property {number} cubeless
 * @property {number} win
 */

/**
 * @typedef {object} RolledCube
 * @property {number} no_double
 * @property {number} double_take
 * @property {number} double_pass
 * @property {number} ci
 * @property {string} action
 * @property {number} win
 */

/**
 * @typedef {object} Rollout a decision rolled out (docs/analysis.md, "Rollouts")
 * @property {string} decision
 * @property {string} kind checker | cube
 * @property {string} played
 * @property {number} trials per candidate
 * @property {number} trials_done
 * @property {number} truncation
 * @property {number} seconds
 * @property {RolledMove[]} moves
 * @property {RolledCube | null} cube
 */

/**
 * @typedef {object} DeepBoot
 * @property {boolean} available
 * @property {string} level
 * @property {boolean} stored
 * @property {string} url
 * @property {string} page
 * @property {string} rollouts_url
 * @property {Record<string, Rollout>} rollouts
 * @property {number} trials
 */

/**
 * @typedef {object} Job a rollout under way, as the page last heard
 * @property {string} status queued | running | cancelling | cancelled | failed
 * @property {number} done
 * @property {number} total
 * @property {string} message
 */

/** The key of a decision: the record's action that made it, and its kind. */
export function decisionKey(/** @type {Decision} */ d) {
  return `${d.action_index}:${d.kind}`;
}

/** @type {string | null} */
let csrfToken = null;

/** The CSRF token of the visitor (GET /api/session also sets its cookie when needed). */
async function csrf() {
  if (csrfToken === null) {
    const r = await fetch("/api/session", { credentials: "same-origin" });
    csrfToken = /** @type {string} */ ((await r.json()).csrf);
  }
  return csrfToken;
}

/**
 * POST JSON; the answer, or an Error whose message says why (in the page's language
 * where the code is known).
 * @param {string} url
 * @param {object} body
 * @param {Say} say
 */
async function post(url, body, say) {
  const r = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": await csrf() },
    body: JSON.stringify(body),
  });
  const answer = await r.json();
  if (!r.ok) throw new Error(errorText(answer && answer.error, say));
  return answer;
}

/**
 * @param {{code: string, message: string} | undefined} error
 * @param {Say} say
 */
export function errorText(error, say) {
  if (!error) return say("Failed");
  const known = /** @type {Record<string, string>} */ ({
    busy: "You have deep work running already: wait for it or cancel it.",
    rate_limited: "The site is busy with deep work: try again later.",
    not_analysed: "Analyse the match first.",
  })[error.code];
  return known ? say(known) : error.message;
}

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The "deeper analysis (grandmaster)" control in ``box``: a link when it is stored, else
 * a button that starts it, then its progress and a Cancel button; once done the page goes
 * to the grandmaster analysis.
 * @param {HTMLElement} box
 * @param {DeepBoot} deep
 * @param {string} level the level the page shows
 * @param {Say} say
 */
export function setupDeep(box, deep, level, say) {
  if (!deep.available) {
    box.hidden = true;
    return;
  }
  if (deep.stored) {
    if (level !== deep.level) box.replaceChildren(h("a", { href: deep.page, "data-testid": "deep-link" }, say("See the grandmaster analysis")));
    else box.replaceChildren();
    return;
  }
  const start = h("button", { type: "button", class: "deep-start", "data-testid": "deep-start" }, say("Deeper analysis (grandmaster)"));
  const meter = /** @type {HTMLProgressElement} */ (h("progress", { max: "1", value: "0" }));
  const label = h("span", { class: "deep-label", "aria-live": "polite" });
  const cancel = h("button", { type: "button", "data-testid": "deep-cancel" }, say("Cancel"));
  const running = h("span", { class: "deep-run", hidden: true }, meter, " ", label, " ", cancel);
  const note = h("span", { class: "muted deep-note" });
  box.replaceChildren(start, running, note);
  let polling = false;

  const poll = async () => {
    if (polling) return;
    polling = true;
    start.hidden = true;
    running.hidden = false;
    note.textContent = "";
    try {
      for (;;) {
        const r = await fetch(deep.url, { credentials: "same-origin" });
        const p = await r.json();
        if (!r.ok) throw new Error(errorText(p.error, say));
        meter.value = p.fraction ?? 0;
        if (p.status === "done") {
          location.assign(deep.page);
          return;
        }
        if (p.status === "cancelled" || p.status === "failed" || p.status === "none") {
          note.textContent = p.status === "failed" ? `${say("Failed")}: ${p.message ?? ""}` : p.status === "cancelled" ? say("Cancelled") : "";
          break;
        }
        label.textContent = p.status === "running" ? `${say(`stage.${p.stage}`)} ${p.done}/${p.total}` : say("waiting for a worker");
        await pause(700);
      }
    } catch (err) {
      note.textContent = err instanceof Error ? err.message : String(err);
    } finally {
      polling = false;
    }
    start.hidden = false;
    running.hidden = true;
  };

  start.addEventListener("click", async () => {
    try {
      const answer = await post(deep.url, {}, say);
      if (answer.status === "done") location.assign(deep.page);
      else poll();
    } catch (err) {
      note.textContent = err instanceof Error ? err.message : String(err);
    }
  });
  cancel.addEventListener("click", async () => {
    try {
      await post(`${deep.url}/cancel`, {}, say);
    } catch (err) {
      note.textContent = err instanceof Error ? err.message : String(err);
    }
  });
  // a job under way (started before a reload): show it
  fetch(deep.url, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((p) => {
      if (p && (p.status === "running" || p.status === "queued")) poll();
    })
    .catch(() => {});
}

/**
 * The rollouts of the decisions: stored ones, those under way (polled), and the block
 * each decision of the panel shows.
 */
export class Rollouts {
  /**
   * @param {DeepBoot} deep
   * @param {Say} say
   * @param {() => void} changed called when a rollout shown may have changed
   */
  constructor(deep, say, changed) {
    this.deep = deep;
    this.say = say;
    this.changed = changed;
    /** @type {Map<string, Job>} */
    this.jobs = new Map();
  }

  /**
   * Add a rollout block to each decision section of the decision panel ``box``.
   * @param {HTMLElement} box
   * @param {Decision[]} decisions
   */
  decorate(box, decisions) {
    if (!this.deep.available) return;
    const sections = box.querySelectorAll("section.decision");
    decisions.forEach((d, n) => {
      const section = sections[n];
      if (section) section.append(this.block(d));
    });
  }

  /** @param {Decision} d */
  block(d) {
    const say = this.say;
    const key = decisionKey(d);
    const result = this.deep.rollouts[key];
    const job = this.jobs.get(key);
    const parts = [];
    if (result) parts.push(rolloutTable(result, d, say));
    else if (job && (job.status === "running" || job.status === "queued" || job.status === "cancelling")) {
      const meter = h("progress", { max: String(job.total || 1), value: String(job.done) });
      const text = job.status === "queued" ? say("waiting for a worker") : `${say("Rolling out")}: ${job.done}/${job.total} ${say("trials")}`;
      const cancel = h("button", { type: "button", "data-testid": "rollout-cancel", disabled: job.status === "cancelling" }, say("Cancel"));
      cancel.addEventListener("click", () => this.cancel(key));
      parts.push(h("p", { class: "rollout-run", "data-testid": "rollout-progress" }, meter, " ", text, " ", cancel));
    } else {
      const button = h("button", { type: "button", class: "rollout-start", "data-testid": "rollout" }, say("Roll out"));
      button.addEventListener("click", () => this.start(key));
      const what = d.kind === "checker" ? say("the move played and the best candidates") : say("the cube decision: no double, double/take, double/pass");
      parts.push(h("p", { class: "rollout-offer" }, button, " ", h("span", { class: "muted" }, `${what} (${this.deep.trials} ${say("trials")})`)));
      if (job && job.message) parts.push(h("p", { class: "muted", "data-testid": "rollout-note" }, job.message));
    }
    return h("div", { class: "rollout", "data-testid": "rollout-box", "data-decision": key }, ...parts);
  }

  /** @param {string} key */
  async start(key) {
    this.jobs.set(key, { status: "queued", done: 0, total: 0, message: "" });
    this.changed();
    try {
      const answer = await post(this.deep.rollouts_url, { decision: key, trials: this.deep.trials }, this.say);
      if (answer.status === "done") {
        this.deep.rollouts[key] = answer.result;
        this.jobs.delete(key);
        this.changed();
        return;
      }
      await this.poll(key);
    } catch (err) {
      this.jobs.set(key, { status: "failed", done: 0, total: 0, message: err instanceof Error ? err.message : String(err) });
      this.changed();
    }
  }

  /** @param {string} key */
  async poll(key) {
    for (;;) {
      const r = await fetch(`${this.deep.rollouts_url}?decision=${encodeURIComponent(key)}`, { credentials: "same-origin" });
      const p = await r.json();
      if (!r.ok) throw new Error(errorText(p.error, this.say));
      if (p.status === "done") {
        this.deep.rollouts[key] = p.result;
        this.jobs.delete(key);
        this.changed();
        return;
      }
      if (p.status === "cancelled" || p.status === "failed" || p.status === "none") {
        const message = p.status === "failed" ? `${this.say("Failed")}: ${p.message ?? ""}` : p.status === "cancelled" ? this.say("Cancelled") : "";
        this.jobs.set(key, { status: p.status, done: 0, total: 0, message });
        this.changed();
        return;
      }
      const job = this.jobs.get(key);
      this.jobs.set(key, { status: job && job.status === "cancelling" ? "cancelling" : p.status, done: p.done ?? 0, total: p.total ?? 0, message: "" });
      this.changed();
      await pause(500);
    }
  }

  /** @param {string} key */
  async cancel(key) {
    const job = this.jobs.get(key);
    if (job) this.jobs.set(key, { ...job, status: "cancelling" });
    this.changed();
    try {
      await post(`${this.deep.rollouts_url}/cancel`, { decision: key }, this.say);
    } catch (err) {
      this.jobs.set(key, { status: "failed", done: 0, total: 0, message: err instanceof Error ? err.message : String(err) });
      this.changed();
    }
  }
}

/**
 * A rollout's result: each candidate's equity ± its 95% interval beside the static
 * evaluation of the analysis, or the cube's three equities.
 * @param {Rollout} r
 * @param {Decision} d
 * @param {Say} say
 */
export function rolloutTable(r, d, say) {
  const title = h("h4", {}, `${say("Rollout")} · ${r.trials} ${say("trials")}${r.kind === "checker" ? ` ${say("per move")}` : ""} · ${r.seconds.toFixed(1)} s`);
  if (r.cube) {
    const c = r.cube;
    /** @type {[string, number, number | null][]} */
    const rows = [
      ["No double", c.no_double, d.cube ? d.cube.no_double : null],
      ["Double, take", c.double_take, d.cube ? d.cube.double_take : null],
      ["Double, pass", c.double_pass, d.cube ? d.cube.double_pass : null],
    ];
    return h(
      "div",
      { "data-testid": "rollout-result" },
      title,
      h(
        "table",
        { class: "cands" },
        h("tr", {}, h("th", {}, ""), h("th", {}, say("Rollout")), h("th", {}, say("Static"))),
        ...rows.map(([label, v, s]) => h("tr", {}, h("th", {}, say(label)), h("td", { class: "num" }, `${equity(v)} ± ${c.ci.toFixed(3)}`), h("td", { class: "num" }, s === null ? "" : equity(s)))),
      ),
      h("p", {}, `${say("Right action")}: ${say(`cube.${c.action}`)} · ${say("Win")} ${percent(c.win)}`),
    );
  }
  const statics = new Map(d.candidates.map((c) => [c.move, c.equity]));
  return h(
    "div",
    { "data-testid": "rollout-result" },
    title,
    h(
      "table",
      { class: "cands" },
      h("tr", {}, h("th", {}, say("Move")), h("th", {}, say("Rollout")), h("th", {}, say("Win")), h("th", {}, say("Static"))),
      ...r.moves.map((m) => {
        const s = statics.get(m.move);
        return h(
          "tr",
          { class: m.move === r.played ? "played" : null },
          h("td", {}, m.move, m.move === r.played ? h("span", { class: "tag" }, ` ${say("Played")}`) : null),
          h("td", { class: "num" }, `${equity(m.equity)} ± ${m.ci.toFixed(3)}`),
          h("td", { class: "num" }, percent(m.win)),
          h("td", { class: "num" }, s === undefined ? "" : equity(s)),
        );
      }),
    ),
  );
}
