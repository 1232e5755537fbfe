// @ts-check
// The game page's buttons under the board (roll, cube, resign, move: confirm, undo, forced),
// the questions they ask before acting (what is at risk), the seated player's settings, and
// sitting down or leaving.

import { h, replaceChildren, storage } from "./dom.js";
import { askHint, canHint } from "./hint.js";
import { points, t } from "./i18n.js";

/** @typedef {import("./page.js").GamePage} GamePage */

/**
 * @param {GamePage} page
 * @param {string} label
 * @param {string} action
 * @param {() => void} onclick
 * @param {string} [cls]
 */
export function button(page, label, action, onclick, cls = "") {
  return h("button", { type: "button", class: `btn ${cls}`.trim(), "data-action": action, disabled: Boolean(page.busy) || page.connStatus !== "online", onclick }, label);
}

/** @param {GamePage} page */
export function renderControls(page) {
  const e = page.el;
  const m = page.match;
  const out = [];
  if (page.prompt) {
    out.push(
      h("div", { class: "prompt", role: "alertdialog", "data-testid": "prompt" },
        h("span", { class: "prompt-text" }, page.prompt.text),
        button(page, t("btn.confirm"), "confirm", () => page.prompt && page.prompt.onConfirm(), "primary"),
        button(page, t("btn.cancel"), "cancel", () => {
          page.prompt = null;
          renderControls(page);
        }),
      ),
    );
    replaceChildren(e.controls, out);
    return;
  }
  if (page.resignMenu) {
    const value = m ? m.game.cube.value : 1;
    const row = h("div", { class: "prompt", "data-testid": "resign-menu" }, h("span", { class: "prompt-text" }, t("ask.resign")));
    const rejected = rejectedLevel(page);
    for (const level of [1, 2, 3]) {
      const b = button(page, `${t(`result.${level}`)} (${points(level * value)})`, `resign-${level}`, () => {
        page.resignMenu = false;
        ask(page, t("ask.resign_level", { result: t(`result.${level}`), points: points(level * value) }), () => page.act("resign", { level }), "resign");
      });
      if (level <= rejected) {
        // the engine allows only a higher offer after a rejected one (this game)
        b.disabled = true;
        b.title = t("resign.rejected_before");
        b.dataset.rejected = "true";
      }
      row.append(b);
    }
    if (rejected) row.append(h("span", { class: "muted small", "data-testid": "resign-rejected" }, t("resign.rejected_note", { result: t(`result.${rejected}`) })));
    row.append(button(page, t("btn.cancel"), "cancel", () => {
      page.resignMenu = false;
      renderControls(page);
    }));
    replaceChildren(e.controls, row);
    return;
  }
  const main = h("div", { class: "actions" });
  if (m && m.game) {
    const g = m.game;
    if (page.allowed("roll") && !serverRolls(page)) {
      main.append(button(page, t("btn.roll"), "roll", () => page.act("roll"), "primary"));
    }
    if (page.allowed("double")) {
      const value = g.cube.value * 2;
      main.append(button(page, t("btn.double"), "double", () => ask(page, t("ask.double", { value }), () => page.act("double"), "double")));
    }
    for (const type of /** @type {const} */ (["take", "drop", "beaver", "raccoon"])) {
      if (!page.allowed(type)) continue;
      main.append(button(page, t(`btn.${type}`), type, () => askCube(page, type), type === "take" ? "primary" : ""));
    }
    if (page.allowed("accept_resign")) main.append(button(page, t("btn.accept_resign"), "accept_resign", () => page.act("accept_resign"), "primary"));
    if (page.allowed("reject_resign")) main.append(button(page, t("btn.reject_resign"), "reject_resign", () => page.act("reject_resign")));
    if (page.input.canMove()) {
      const opts = page.input.options();
      if (m.forced && !page.input.played.length) {
        main.append(button(page, t("btn.play_forced", { move: m.moves[0].move }), "play-forced", () => page.input.playForced(), "primary"));
      }
      if (opts && opts.complete) {
        main.append(button(page, `${t("btn.confirm")} ${opts.move || ""}`.trim(), "confirm-move", () => page.input.confirmMove(), "primary"));
      }
      if (page.input.played.length) {
        main.append(button(page, t("btn.undo"), "undo", () => page.input.undo()));
        if (page.input.played.length > 1) main.append(button(page, t("btn.undo_all"), "undo-all", () => page.input.undoAll()));
      }
    }
  }
  const extra = h("div", { class: "actions secondary" });
  if (canHint(page)) extra.append(button(page, t("btn.hint"), "hint", () => askHint(page)));
  if (m && m.game) {
    if (page.allowed("resign")) {
      extra.append(button(page, t("btn.resign"), "resign", () => {
        page.resignMenu = true;
        renderControls(page);
      }));
    }
    if (page.allowed("abandon")) {
      extra.append(button(page, t("btn.abandon"), "abandon", () => ask(page, abandonText(page), () => page.act("abandon"), "abandon"), "danger"));
    }
  }
  if (page.you.can_leave) {
    extra.append(button(page, t("btn.leave"), "leave", () => ask(page, t("ask.leave"), () => leave(page), "leave")));
  }
  replaceChildren(e.controls, main, extra);
}

// The settings of the seated player (remembered in localStorage), in the side column.
/** @param {GamePage} page */
export function renderSettings(page) {
  const e = page.el;
  const m = page.match;
  const show = page.mySeat !== null && Boolean(m) && !m.over;
  e.settings.hidden = !show;
  if (!show) return;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && e.settings.contains(active) ? active.dataset.testid : null;
  /**
   * @param {string} testid
   * @param {"quickMove" | "autoConfirm" | "autoForced"} field
   * @param {string} key
   * @param {string} label
   * @param {() => void} [after]
   * @param {boolean} [invert] the box ticked means the setting off
   */
  const option = (testid, field, key, label, after, invert = false) => {
    const box = h("input", { type: "checkbox", "data-testid": testid });
    box.checked = page.input[field] !== invert;
    box.addEventListener("change", () => {
      const on = box.checked !== invert;
      page.input[field] = on;
      storage(key, on ? "1" : "0");
      if (after) after();
    });
    return h("label", { class: "check" }, box, " ", t(label));
  };
  replaceChildren(e.settings,
    h("h2", {}, t("settings.title")),
    option("quick-move", "quickMove", "gammon.quickMove", "move.quick"),
    // complete moves go by themselves after a short grace (the default); ticked, the player
    // confirms each one (a click on the dice, Confirm, Enter)
    option("confirm-myself", "autoConfirm", "gammon.autoConfirm", "move.confirm_myself", () => page.input.maybeAutoConfirm(), true),
    option("auto-forced", "autoForced", "gammon.autoForced", "move.auto_forced", () => page.input.maybeAutoPlay()),
    e.moveForm,
  );
  e.moveLabel.textContent = t("move.box");
  e.moveSend.textContent = t("move.box_send");
  e.moveHelp.textContent = t("move.box_help");
  const typing = page.input.canMove() && !(page.match && page.match.moves_omitted);
  e.moveInput.disabled = !typing;
  e.moveSend.disabled = !typing;
  if (focused) {
    const again = e.settings.querySelector(`[data-testid=${focused}]`);
    if (again) again.focus();
  }
}

// The highest resignation level of ours the other side rejected this game (0 = none).
/** @param {GamePage} page */
export function rejectedLevel(page) {
  const g = page.match && page.match.game;
  const me = page.mySeat;
  if (!g || me === null || !Array.isArray(g.rejected)) return 0;
  return g.rejected[me] || 0;
}

// Money at stake: points x the table's stake in a money session (0 in a match).
/** @param {GamePage} page */
export function stake(page) {
  const o = (page.state && page.state.table && page.state.table.options) || {};
  return o.match_length ? 0 : o.stake || 0;
}

// The most a game can be worth in cubes: 1 (Oin), 2 (Mars) or 3 (Cox); 1 under the Jacoby
// rule while the cube is centred (`centred`: whether it still is when the game is scored).
/**
 * @param {GamePage} page
 * @param {boolean} [centred]
 */
export function maxResult(page, centred = false) {
  const o = (page.state && page.state.table && page.state.table.options) || {};
  if (centred && o.jacoby && !o.match_length) return 1;
  return o.end_setting === "oin" ? 1 : o.end_setting === "mars" ? 2 : 3;
}

// "4 points" or "4 points (40 in play money)"
/**
 * @param {GamePage} page
 * @param {number} n
 */
export function risk(page, n) {
  const perPoint = stake(page);
  return perPoint ? t("risk.money", { points: points(n), money: n * perPoint }) : points(n);
}

// Whether the server is about to roll by itself (protocol: "the server rolls for a player
// by itself when rolling is the only sensible choice"), so that no Roll button flashes.
/** @param {GamePage} page */
export function serverRolls(page) {
  const st = page.state;
  const g = page.match && page.match.game;
  if (!g) return false;
  if (g.phase === "turn") return !page.allowed("double");
  if (g.phase === "opening") {
    const dice = st.dice || {};
    const seats = (st.table && st.table.seats) || [];
    const given = dice.seeds_given || [false, false];
    return Boolean(dice.locked) || [0, 1].every((i) => given[i] || (seats[i] && seats[i].kind === "bot"));
  }
  return false;
}

/**
 * Ask for a confirmation in the page before acting.
 * @param {GamePage} page
 * @param {string} text
 * @param {() => void} onConfirm
 * @param {string | null} [action] the action asked about: the question goes when it is no longer allowed
 */
export function ask(page, text, onConfirm, action = null) {
  page.resignMenu = false;
  page.prompt = { text, onConfirm, action };
  renderControls(page);
}

// Abandoning scores the game from the board: at least the cube, at most the end setting's.
/** @param {GamePage} page */
export function abandonText(page) {
  const g = page.match.game;
  const value = g.cube.value;
  const max = maxResult(page, g.cube.owner === null || g.cube.owner === undefined);
  const me = page.mySeat ?? 0;
  const level = Math.min(abandonLevel(g.board[me], g.waiting ? g.waiting[me] : 0), max);
  return t(max > 1 ? "ask.abandon_risk" : "ask.abandon_risk1", { risk: risk(page, value * level), min: risk(page, value), max: risk(page, value * max) });
}

/**
 * What abandoning costs now, as the engine scores it from the abandoning player's own
 * checkers (docs/rules.md D9): 1 once one is borne off, else 3 with one on the bar, in the
 * other side's home board or still to enter, else 2.
 * @param {number[]} own the player's board in their numbering (0 off, 25 bar)
 * @param {number} waiting checkers still to enter (acey-deucey)
 */
export function abandonLevel(own, waiting) {
  if (own[0]) return 1;
  return waiting || own.slice(19, 26).some((n) => n > 0) ? 3 : 2;
}

/**
 * @param {GamePage} page
 * @param {"take" | "drop" | "beaver" | "raccoon"} type
 */
export function askCube(page, type) {
  const g = page.match.game;
  const value = g.phase === "doubled" ? g.cube.value * 2 : g.cube.value;
  const before = g.phase === "doubled" ? g.cube.value : Math.max(1, g.cube.value / 2);
  const max = maxResult(page);
  const text = {
    take: max > 1 ? t("ask.take_risk", { value, risk: risk(page, value), max: risk(page, value * max) }) : t("ask.take_risk1", { value, risk: risk(page, value) }),
    drop: t("ask.drop", { points: risk(page, before) }),
    beaver: t("ask.beaver", { value: g.cube.value * 4 }),
    raccoon: t("ask.raccoon", { value: g.cube.value * 2 }),
  }[type];
  ask(page, text, () => page.act(type), type);
}

/**
 * @param {GamePage} page
 * @param {number} seat
 */
export function sit(page, seat) {
  if (page.cfg.user) {
    page.send({ type: "sit", seat }, { action: true });
    return;
  }
  postForm(page, `/tables/${encodeURIComponent(page.cfg.table)}/sit`, { seat: String(seat) });
}

/** @param {GamePage} page */
export function leave(page) {
  page.prompt = null;
  postForm(page, `/tables/${encodeURIComponent(page.cfg.table)}/leave`, {});
}

/**
 * @param {GamePage} page
 * @param {string} action
 * @param {Record<string, string>} fields
 */
export function postForm(page, action, fields) {
  const form = h("form", { method: "post", action, hidden: true });
  form.append(h("input", { type: "hidden", name: "csrf_token", value: page.cfg.csrf }));
  for (const [k, v] of Object.entries(fields)) form.append(h("input", { type: "hidden", name: k, value: v }));
  document.body.append(form);
  form.submit();
}
