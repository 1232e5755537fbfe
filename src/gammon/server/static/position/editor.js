// @ts-check
// The position page (/analysis, static/position/editor.js): a board editor on the game page's board, the position's
// XGID, Position ID, Match ID and share link (ids.js), its analysis and rollout on demand
// (POST /api/position/analysis, /api/position/rollout), and its picture (SVG, PNG).
// Pasting an ID or changing the variant loads the page's link for it: the server reads it.

import { BoardView } from "../game/board.js";
import { matchId, setupPositionId, shareLink, xgid } from "./ids.js";

/** @typedef {import("./ids.js").Setup} Setup */
/**
 * @typedef {object} VariantInfo
 * @property {number[]} other the top seat's point q is drawn at the viewer's other[q]
 * @property {number} checkers
 * @property {boolean} cube
 * @property {boolean} xgid whether an XGID can describe it (the backgammon board)
 * @property {boolean} rollout
 * @property {string} start the starting position's Position ID
 */
/**
 * @typedef {object} Boot
 * @property {Setup} setup
 * @property {boolean} linked whether the address named a position (analysed at once)
 * @property {string | null} error
 * @property {string} level
 * @property {Record<string, VariantInfo>} variants
 * @property {number} trials
 * @property {Record<string, string>} texts
 */

/** @param {string} id */
function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (byId(id));

const boot = /** @type {Boot} */ (JSON.parse(byId("pe-boot").textContent || "{}"));
/** @type {Setup} */
const setup = structuredClone(boot.setup);
const info = boot.variants[setup.variant];
const root = byId("position-editor");
const note = byId("pe-note");
/** @param {string} key */
const say = (key) => boot.texts[key] ?? key;

// ------------------------------------------------------------------ the board

/** The seat's own number of the viewer's point p (the bar is 25 for both). */
function own(/** @type {number} */ seat, /** @type {number} */ p) {
  if (p === 25 || seat === 0) return p;
  return info.other.indexOf(p);
}

function tell(/** @type {string} */ text) {
  note.textContent = text;
}

/** Add a checker of ``seat`` on the viewer's point p. */
function add(/** @type {number} */ seat, /** @type {number} */ p) {
  const q = own(seat, p);
  const theirs = p === 25 ? 0 : setup.board[1 - seat][own(1 - seat, p)];
  if (q < 1) return false;
  if (theirs && setup.variant !== "plakoto") {
    tell(say("That point holds the other side's checkers: remove them first."));
    return false;
  }
  if (setup.board[seat][0] < 1) {
    tell(say("Every checker of this side is on the board already."));
    return false;
  }
  setup.board[seat][q] += 1;
  setup.board[seat][0] -= 1;
  return true;
}

/** Take a checker off the viewer's point p: the chosen side's, else the other's. */
function remove(/** @type {number} */ p, /** @type {number} */ first) {
  for (const seat of [first, 1 - first]) {
    const q = own(seat, p);
    if (q >= 1 && setup.board[seat][q] > 0) {
      setup.board[seat][q] -= 1;
      setup.board[seat][0] += 1;
      if (!setup.board[seat][q]) setup.pinned = setup.pinned.map((pins) => pins.filter((x) => x !== q));
      return seat;
    }
  }
  return null;
}

function side() {
  return input("pe-side-top").checked ? 1 : 0;
}

let shift = false;
const view = byId("pe-board");
view.addEventListener("pointerdown", (e) => {
  shift = e.shiftKey;
}, true);
view.addEventListener("keydown", (e) => {
  shift = e.shiftKey;
}, true);
view.addEventListener("contextmenu", (e) => {
  const target = e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest("[data-point]")) : null;
  if (!target) return;
  e.preventDefault();
  if (remove(Number(target.dataset.point), side()) !== null) edited();
});

/** A click or Enter on a point: add a checker, or remove one (the tool, Shift). */
function clicked(/** @type {number} */ p) {
  tell("");
  const removing = shift || input("pe-tool-remove").checked;
  const done = removing ? remove(p, side()) !== null : add(side(), p);
  if (done) edited();
}

/** A checker dragged from a point to another. */
function dragged(/** @type {number} */ from, /** @type {number} */ to) {
  tell("");
  const seat = remove(from, side());
  if (seat === null) return;
  if (!add(seat, to)) add(seat, from);
  edited();
}

const ALL = new Set(Array.from({ length: 25 }, (_, i) => i + 1));
const board = new BoardView(view, { onPoint: clicked, onSelect: () => {}, onDrag: dragged });

function model() {
  return {
    bottom: 0,
    board: setup.board,
    pinned: setup.pinned,
    waiting: setup.waiting,
    other: info.other,
    labels: { waiting: say("waiting"), pinned: say("pinned"), point: say("Point {n}"), bar: say("Bar"), tray: say("Borne off") },
    dice: setup.dice ? { seat: setup.turn, values: setup.dice, used: [false, false] } : null,
    cube: info.cube ? { enabled: true, disabled: false, disabledText: "", value: setup.cube.value, owner: setup.cube.owner, offer: null } : null,
    sources: ALL,
    dests: new Set(),
    selected: null,
    interactive: true,
  };
}

// ------------------------------------------------------------------ the fields

/** @type {[string, (value: string, checked: boolean) => void][]} */
const FIELDS = [
  ["pe-turn", (v) => (setup.turn = Number(v))],
  ["pe-die1", () => readDice()],
  ["pe-die2", () => readDice()],
  ["pe-cube", (v) => (setup.cube.value = Number(v))],
  ["pe-owner", (v) => (setup.cube.owner = v === "" ? null : Number(v))],
  ["pe-length", (v) => (setup.length = Math.max(0, Math.min(99, Math.floor(Number(v) || 0))))],
  ["pe-score0", (v) => (setup.score[0] = Math.max(0, Math.floor(Number(v) || 0)))],
  ["pe-score1", (v) => (setup.score[1] = Math.max(0, Math.floor(Number(v) || 0)))],
  ["pe-crawford", (_v, c) => (setup.crawford = c)],
  ["pe-jacoby", (_v, c) => (setup.jacoby = c)],
];

function readDice() {
  const a = Number(input("pe-die1").value);
  const b = Number(input("pe-die2").value);
  setup.dice = a && b ? [a, b] : null;
}

function showFields() {
  input("pe-turn").value = String(setup.turn);
  input("pe-die1").value = setup.dice ? String(setup.dice[0]) : "";
  input("pe-die2").value = setup.dice ? String(setup.dice[1]) : "";
  input("pe-cube").value = String(setup.cube.value);
  input("pe-owner").value = setup.cube.owner === null ? "" : String(setup.cube.owner);
  input("pe-length").value = String(setup.length);
  input("pe-score0").value = String(setup.score[0]);
  input("pe-score1").value = String(setup.score[1]);
  input("pe-crawford").checked = setup.crawford;
  input("pe-jacoby").checked = setup.jacoby;
  input("pe-variant").value = setup.variant;
}

for (const [id, read] of FIELDS) {
  const field = input(id);
  field.addEventListener("change", () => {
    read(field.value, field.checked);
    edited();
  });
}

/** The position changed: draw it, write its IDs, forget the analysis shown. */
function edited() {
  draw();
  byId("pe-result").replaceChildren();
  byId("pe-rolled").replaceChildren();
  root.dataset.analysed = "false";
}

function draw() {
  board.render(model());
  const x = xgid(setup, info.xgid);
  input("pe-xgid").value = x ?? "";
  byId("pe-xgid-row").hidden = x === null;
  input("pe-pid").value = setupPositionId(setup);
  input("pe-mid").value = matchId(setup);
  const link = shareLink(setup, location.origin);
  input("pe-link").value = link;
  const q = new URLSearchParams({ variant: setup.variant, pos: setupPositionId(setup), match: matchId(setup) });
  /** @type {HTMLAnchorElement} */ (byId("pe-svg")).href = `/analysis/position.svg?${q}`;
  board.setTitle(`${say("Position ID")} ${setupPositionId(setup)}`);
}

// ------------------------------------------------------------------ loading, copying

/** Load the page's link for pasted text (an XGID, or a gnubg ID). */
function load() {
  const text = input("pe-paste").value.trim().replace(/^(GNUBGID|GNUID)[\s=:]*/i, "");
  if (!text) return;
  const q = new URLSearchParams({ variant: input("pe-variant").value });
  if (/^XGID=/i.test(text) || text.split(":").length >= 9) q.set("xgid", text);
  else {
    const cut = text.lastIndexOf(":");
    q.set("pos", cut < 0 ? text : text.slice(0, cut));
    q.set("match", cut < 0 ? "" : text.slice(cut + 1));
  }
  location.assign(`/analysis?${q}`);
}
byId("pe-load").addEventListener("click", load);
input("pe-paste").addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    e.preventDefault();
    load();
  }
});
input("pe-variant").addEventListener("change", () => {
  const v = input("pe-variant").value;
  location.assign(`/analysis?${new URLSearchParams({ variant: v, pos: boot.variants[v].start })}`);
});
byId("pe-start").addEventListener("click", () => {
  location.assign(`/analysis?${new URLSearchParams({ variant: setup.variant, pos: info.start })}`);
});
byId("pe-clear").addEventListener("click", () => {
  for (const seat of [0, 1]) setup.board[seat] = [info.checkers - setup.waiting[seat], ...Array(25).fill(0)];
  setup.pinned = [[], []];
  edited();
});

for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const field = input(/** @type {HTMLElement} */ (button).dataset.copy || "");
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      field.select();
      document.execCommand("copy");
    }
    tell(`${say("Copied")}: ${field.value}`);
  });
}

// ------------------------------------------------------------------ analysis, rollout

/** @type {string | null} */
let csrfToken = null;

/** POST JSON; the answer, or an Error with the refusal in the page's language. */
async function post(/** @type {string} */ url, /** @type {object} */ body) {
  if (csrfToken === null) csrfToken = /** @type {string} */ ((await (await fetch("/api/session")).json()).csrf);
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
    body: JSON.stringify(body),
  });
  const answer = await r.json();
  if (!r.ok) throw new Error(answer.error ? answer.error.text || answer.error.message : String(r.status));
  return answer;
}

function body() {
  const { xgid: _x, position_id: _p, match_id: _m, ...rest } = /** @type {Setup & Record<string, unknown>} */ (setup);
  return { ...rest, level: input("pe-level").value };
}

/** @param {number} n */
const eq = (n) => (n >= 0 ? "+" : "") + n.toFixed(3);

/**
 * A table of rows (the first is the header).
 * @param {string[][]} rows
 */
function table(rows) {
  const t = document.createElement("table");
  t.className = "pe-table";
  rows.forEach((row, i) => {
    const tr = t.insertRow();
    for (const cell of row) {
      const c = document.createElement(i ? "td" : "th");
      c.textContent = cell;
      tr.append(c);
    }
  });
  return t;
}

/** @param {any} a the analysis */
function showAnalysis(a) {
  const box = byId("pe-result");
  const title = document.createElement("h2");
  if (a.kind === "cube") {
    const c = a.cube;
    title.textContent = `${say("Cube decision")}: ${say(`cube.${c.action}`)}`;
    box.replaceChildren(title, table([[say("Action"), say("Equity")], [say("No double"), eq(c.no_double)], [say("Double, take"), eq(c.double_take)], [say("Double, pass"), eq(c.double_pass)]]));
  } else {
    title.textContent = say("Best moves");
    const best = a.moves.length ? a.moves[0].equity : 0;
    const rows = a.moves.map((/** @type {{move: string, equity: number}} */ m, /** @type {number} */ i) => [String(i + 1), m.move, eq(m.equity), i ? eq(m.equity - best) : ""]);
    box.replaceChildren(title, a.moves.length ? table([["#", say("Move"), say("Equity"), say("Difference")], ...rows]) : document.createTextNode(say("No legal move")));
  }
  root.dataset.analysed = "true";
}

async function analyse() {
  tell(say("Analysing…"));
  try {
    showAnalysis(await post("/api/position/analysis", body()));
    tell("");
  } catch (err) {
    tell(`${say("The analysis failed")}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
byId("pe-analyse").addEventListener("click", analyse);

/** @param {any} r a rollout's result */
function showRollout(r) {
  const rows = r.cube
    ? [[say("Action"), say("Equity")], [say("No double"), eq(r.cube.no_double)], [say("Double, take"), eq(r.cube.double_take)], [say("Double, pass"), eq(r.cube.double_pass)]]
    : [[say("Move"), say("Equity"), "±"], ...r.moves.map((/** @type {any} */ m) => [m.move, eq(m.equity), m.ci.toFixed(3)])];
  const title = document.createElement("h2");
  title.textContent = `${say("Rollout")} (${r.trials_done} ${say("trials")})`;
  byId("pe-rolled").replaceChildren(title, table(rows));
}

async function rollout() {
  const q = new URLSearchParams({ variant: setup.variant, pos: setupPositionId(setup), match: matchId(setup) });
  try {
    let status = await post("/api/position/rollout", { ...body(), trials: boot.trials });
    while (status.status === "queued" || status.status === "running") {
      tell(`${say("Rolling out")} ${Math.round(100 * status.fraction)}%`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await (await fetch(`/api/position/rollout?${q}`)).json();
    }
    if (status.status !== "done") throw new Error(status.message || say(status.status));
    showRollout(status.result);
    tell("");
  } catch (err) {
    tell(`${say("The rollout failed")}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
byId("pe-rollout").addEventListener("click", rollout);
/** @type {HTMLButtonElement} */ (byId("pe-rollout")).hidden = !info.rollout;

// ------------------------------------------------------------------ the picture

byId("pe-png").addEventListener("click", async () => {
  const href = /** @type {HTMLAnchorElement} */ (byId("pe-svg")).href;
  const text = await (await fetch(href)).text();
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  const g = canvas.getContext("2d");
  if (!g) return;
  g.drawImage(image, 0, 0, canvas.width, canvas.height);
  const a = document.createElement("a");
  a.href = canvas.toDataURL("image/png");
  a.download = "position.png";
  a.click();
});

showFields();
draw();
if (boot.error) tell(boot.error);
else if (boot.linked) analyse();
