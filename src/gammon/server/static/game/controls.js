// @ts-check
// The game page's buttons under the board (roll, cube, resign, move: confirm, undo, forced),
// the questions they ask before acting (what is at risk), the seated player's settings, and
// sitting down or leaving.

import { CUBE_ACTIONS, CUBE_GRACE_MS, ROLL_GRACE_MS, showCountdown } from "./cubegrace.js";
import { h, postForm, replaceChildren, storage } from "./dom.js";
import { points, t } from "./i18n.js";

/**
 * What the buttons, questions and settings need of the page; `prompt` and `resignMenu` are the
 * controls' own (what they show), kept here for the page to clear when the table moves on.
 * @typedef {object} ControlsHost
 * @property {import("./store.js").TableStore} store the table (the viewer's decision, the options)
 * @property {import("./moving.js").MoveInput} input the move being built
 * @property {Pick<import("./hint.js").Hints, "can" | "ask">} hints
 * @property {Pick<import("./layout.js").Elements, "controls" | "settings" | "moveForm" | "moveLabel" | "moveSend" | "moveHelp" | "moveInput">} el
 * @property {() => boolean} blocked whether the buttons are disabled (an action awaits its answer, or offline)
 * @property {(type: string, extra?: Record<string, any>) => void} act send an action
 * @property {(msg: Record<string, any>, options?: {action?: boolean}) => string | number | null} send
 * @property {{text: string, onConfirm: () => void, action: string | null, since?: number, graceMs?: number} | null} prompt a question awaiting a confirmation (with `graceMs`: a cube action sent by itself after it, unless undone)
 * @property {import("./cubegrace.js").RollGrace} rollGrace the roll made for the player when they do not double
 * @property {boolean} resignMenu whether the resignation levels are shown
 */

/**
 * @param {ControlsHost} c
 * @param {string} label
 * @param {string} action
 * @param {() => void} onclick
 * @param {string} [cls]
 */
export function button(c, label, action, onclick, cls = "") {
  return h("button", { type: "button", class: `btn ${cls}`.trim(), "data-action": action, disabled: c.blocked(), onclick }, label);
}

/** @param {ControlsHost} c */
export function renderControls(c) {
  const e = c.el;
  const m = c.store.match;
  const out = [];
  if (c.prompt) {
    const p = c.prompt;
    const yes = button(c, t("btn.confirm"), "confirm", () => c.prompt && c.prompt.onConfirm(), "primary");
    if (p.graceMs && p.since !== undefined) showCountdown(yes, p.since, p.graceMs);
    out.push(
      h("div", { class: "prompt", role: "alertdialog", "data-testid": "prompt" },
        h("span", { class: "prompt-text" }, p.text),
        yes,
        button(c, t(p.graceMs ? "btn.undo" : "btn.cancel"), "cancel", () => {
          c.prompt = null;
          renderControls(c);
        }),
      ),
    );
    replaceChildren(e.controls, out);
    return;
  }
  if (c.resignMenu) {
    const value = m ? m.game.cube.value : 1;
    const row = h("div", { class: "prompt", "data-testid": "resign-menu" }, h("span", { class: "prompt-text" }, t("ask.resign")));
    const rejected = rejectedLevel(c);
    for (const level of [1, 2, 3]) {
      const b = button(c, `${t(`result.${level}`)} (${points(level * value)})`, `resign-${level}`, () => {
        c.resignMenu = false;
        ask(c, t("ask.resign_level", { result: t(`result.${level}`), points: points(level * value) }), () => c.act("resign", { level }), "resign");
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
    row.append(button(c, t("btn.cancel"), "cancel", () => {
      c.resignMenu = false;
      renderControls(c);
    }));
    replaceChildren(e.controls, row);
    return;
  }
  const main = h("div", { class: "actions" });
  if (m && m.game) {
    const g = m.game;
    if (c.store.allowed("roll") && !serverRolls(c)) {
      const roll = button(c, t("btn.roll"), "roll", () => c.act("roll"), "primary");
      const since = autoRoll(c);
      if (since !== null) showCountdown(roll, since, ROLL_GRACE_MS);
      main.append(roll);
    }
    if (c.store.allowed("double")) {
      const value = g.cube.value * 2;
      main.append(button(c, t("btn.double"), "double", () => ask(c, t("ask.double", { value }), () => c.act("double"), "double")));
    }
    for (const type of /** @type {const} */ (["take", "drop", "beaver", "raccoon"])) {
      if (!c.store.allowed(type)) continue;
      main.append(button(c, t(`btn.${type}`), type, () => askCube(c, type), type === "take" ? "primary" : ""));
    }
    if (c.store.allowed("accept_resign")) main.append(button(c, t("btn.accept_resign"), "accept_resign", () => c.act("accept_resign"), "primary"));
    if (c.store.allowed("reject_resign")) main.append(button(c, t("btn.reject_resign"), "reject_resign", () => c.act("reject_resign")));
    if (c.input.canMove()) {
      const opts = c.input.options();
      if (m.forced && !c.input.played.length) {
        main.append(button(c, t("btn.play_forced", { move: m.moves[0].move }), "play-forced", () => c.input.playForced(), "primary"));
      }
      if (opts && opts.complete) {
        main.append(button(c, `${t("btn.confirm")} ${opts.move || ""}`.trim(), "confirm-move", () => c.input.confirmMove(), "primary"));
      }
      if (c.input.played.length) {
        main.append(button(c, t("btn.undo"), "undo", () => c.input.undo()));
        if (c.input.played.length > 1) main.append(button(c, t("btn.undo_all"), "undo-all", () => c.input.undoAll()));
      }
    }
  }
  const extra = h("div", { class: "actions secondary" });
  if (c.hints.can()) {
    extra.append(button(c, t("btn.hint"), "hint", () => {
      if (c.store.state) c.rollGrace.hold(c.store.state.version); // they think about the cube
      c.hints.ask();
    }));
  }
  if (m && m.game) {
    if (c.store.allowed("resign")) {
      extra.append(button(c, t("btn.resign"), "resign", () => {
        c.resignMenu = true;
        renderControls(c);
      }));
    }
    if (c.store.allowed("abandon")) {
      extra.append(button(c, t("btn.abandon"), "abandon", () => ask(c, abandonText(c), () => c.act("abandon"), "abandon"), "danger"));
    }
  }
  if (c.store.you.can_leave) {
    extra.append(button(c, t("btn.leave"), "leave", () => ask(c, t("ask.leave"), () => leave(c), "leave")));
  }
  // the first row keeps a button's height while it has none (before a step, the bot's turn):
  // the row under it does not jump by a row each time Roll or Undo comes or goes
  if (!main.childElementCount) main.append(h("span", { class: "btn row-keeper", "aria-hidden": "true" }, "\u00a0"));
  replaceChildren(e.controls, main, extra);
}

// The settings of the seated player (remembered in localStorage), in the side column.
/** @param {ControlsHost} c */
export function renderSettings(c) {
  const e = c.el;
  const m = c.store.match;
  const show = c.store.mySeat !== null && Boolean(m) && !m.over;
  e.settings.hidden = !show;
  if (!show) return;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && e.settings.contains(active) ? active.dataset.testid : null;
  /**
   * @param {string} testid
   * @param {"quickMove" | "autoConfirm" | "autoForced" | "autoRoll"} field
   * @param {string} key
   * @param {string} label
   * @param {() => void} [after]
   * @param {boolean} [invert] the box ticked means the setting off
   */
  const option = (testid, field, key, label, after, invert = false) => {
    const box = h("input", { type: "checkbox", "data-testid": testid });
    box.checked = c.input[field] !== invert;
    box.addEventListener("change", () => {
      const on = box.checked !== invert;
      c.input[field] = on;
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
    option("confirm-myself", "autoConfirm", "gammon.autoConfirm", "move.confirm_myself", () => c.input.maybeAutoConfirm(), true),
    option("auto-forced", "autoForced", "gammon.autoForced", "move.auto_forced", () => c.input.maybeAutoPlay()),
    // the roll is made after a short grace when the player may double and does not
    option("auto-roll", "autoRoll", "gammon.autoRoll", "move.auto_roll", () => renderControls(c)),
    e.moveForm,
  );
  e.moveLabel.textContent = t("move.box");
  e.moveSend.textContent = t("move.box_send");
  e.moveHelp.textContent = t("move.box_help");
  const typing = c.input.canMove() && !(c.store.match && c.store.match.moves_omitted);
  e.moveInput.disabled = !typing;
  e.moveSend.disabled = !typing;
  if (focused) {
    const again = /** @type {HTMLElement | null} */ (e.settings.querySelector(`[data-testid=${focused}]`));
    if (again) again.focus();
  }
}

// The highest resignation level of ours the other side rejected this game (0 = none).
/** @param {ControlsHost} c */
export function rejectedLevel(c) {
  const g = c.store.match && c.store.match.game;
  const me = c.store.mySeat;
  if (!g || me === null || !Array.isArray(g.rejected)) return 0;
  return g.rejected[me] || 0;
}

// Money at stake: points x the table's stake in a money session (0 in a match).
/** @param {ControlsHost} c */
export function stake(c) {
  const o = (c.store.state && c.store.state.table && c.store.state.table.options) || {};
  return o.match_length ? 0 : o.stake || 0;
}

// The most a game can be worth in cubes: 1 (Oin), 2 (Mars) or 3 (Cox); 1 under the Jacoby
// rule while the cube is centred (`centred`: whether it still is when the game is scored).
/**
 * @param {ControlsHost} c
 * @param {boolean} [centred]
 */
export function maxResult(c, centred = false) {
  const o = (c.store.state && c.store.state.table && c.store.state.table.options) || {};
  if (centred && o.jacoby && !o.match_length) return 1;
  return o.end_setting === "oin" ? 1 : o.end_setting === "mars" ? 2 : 3;
}

// "4 points" or "4 points (40 in play money)"
/**
 * @param {ControlsHost} c
 * @param {number} n
 */
export function risk(c, n) {
  const perPoint = stake(c);
  return perPoint ? t("risk.money", { points: points(n), money: n * perPoint }) : points(n);
}

// Whether the server is about to roll by itself (protocol: "the server rolls for a player
// by itself when rolling is the only sensible choice"), so that no Roll button flashes.
/** @param {ControlsHost} c */
export function serverRolls(c) {
  const st = c.store.state;
  const g = c.store.match && c.store.match.game;
  if (!g) return false;
  if (g.phase === "turn") return !c.store.allowed("double");
  if (g.phase === "opening") {
    const dice = st.dice || {};
    const seats = (st.table && st.table.seats) || [];
    const given = dice.seeds_given || [false, false];
    return Boolean(dice.locked) || [0, 1].every((i) => given[i] || (seats[i] && seats[i].kind === "bot"));
  }
  return false;
}

/**
 * Ask for a confirmation in the c before acting.
 * @param {ControlsHost} c
 * @param {string} text
 * @param {() => void} onConfirm
 * @param {string | null} [action] the action asked about: the question goes when it is no longer allowed
 */
export function ask(c, text, onConfirm, action = null) {
  c.resignMenu = false;
  if (c.store.state) c.rollGrace.hold(c.store.state.version); // a question: the roll waits for them
  const cube = action !== null && CUBE_ACTIONS.has(action) && c.input.autoConfirm;
  const prompt = cube ? { text, onConfirm, action, since: performance.now(), graceMs: CUBE_GRACE_MS } : { text, onConfirm, action };
  c.prompt = prompt;
  if (cube) {
    // one click: sent after the grace unless undone (or confirmed at once) meanwhile
    const fire = () => {
      if (c.prompt !== prompt) return;
      if (c.blocked()) window.setTimeout(fire, 200);
      else prompt.onConfirm();
    };
    window.setTimeout(fire, CUBE_GRACE_MS);
  }
  renderControls(c);
}

/**
 * Roll for the player after a grace when the cube is live and they do not double (the
 * setting "roll for me", on by default; cubegrace.js): arms the grace of this turn and
 * returns when it began, or null when it does not run.
 * @param {ControlsHost} c
 * @returns {number | null}
 */
function autoRoll(c) {
  const st = c.store.state;
  if (!st || !c.input.autoRoll || !c.store.allowed("double")) return null;
  const version = st.version;
  c.rollGrace.arm(
    version,
    () => {
      if (!c.store.state || c.store.state.version !== version || !c.store.allowed("roll")) return "hold";
      if (c.prompt || c.resignMenu || !c.input.autoRoll) return "hold";
      return c.blocked() ? "wait" : "go";
    },
    () => c.act("roll"),
    () => renderControls(c),
  );
  return c.rollGrace.since(version);
}

// Abandoning scores the game from the board: at least the cube, at most the end setting's.
/** @param {ControlsHost} c */
export function abandonText(c) {
  const g = c.store.match.game;
  const value = g.cube.value;
  const max = maxResult(c, g.cube.owner === null || g.cube.owner === undefined);
  const me = c.store.mySeat ?? 0;
  const level = Math.min(abandonLevel(g.board[me], g.waiting ? g.waiting[me] : 0), max);
  return t(max > 1 ? "ask.abandon_risk" : "ask.abandon_risk1", { risk: risk(c, value * level), min: risk(c, value), max: risk(c, value * max) });
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
 * @param {ControlsHost} c
 * @param {"take" | "drop" | "beaver" | "raccoon"} type
 */
export function askCube(c, type) {
  const g = c.store.match.game;
  const value = g.phase === "doubled" ? g.cube.value * 2 : g.cube.value;
  const before = g.phase === "doubled" ? g.cube.value : Math.max(1, g.cube.value / 2);
  const max = maxResult(c);
  const text = {
    take: max > 1 ? t("ask.take_risk", { value, risk: risk(c, value), max: risk(c, value * max) }) : t("ask.take_risk1", { value, risk: risk(c, value) }),
    drop: t("ask.drop", { points: risk(c, before) }),
    beaver: t("ask.beaver", { value: g.cube.value * 4 }),
    raccoon: t("ask.raccoon", { value: g.cube.value * 2 }),
  }[type];
  ask(c, text, () => c.act(type), type);
}

/**
 * @param {ControlsHost} c
 * @param {number} seat
 */
export function sit(c, seat) {
  if (c.store.cfg.user) {
    c.send({ type: "sit", seat }, { action: true });
    return;
  }
  postForm(c.store.cfg.csrf, `/tables/${encodeURIComponent(c.store.cfg.table)}/sit`, { seat: String(seat) });
}

/** @param {ControlsHost} c */
export function leave(c) {
  c.prompt = null;
  postForm(c.store.cfg.csrf, `/tables/${encodeURIComponent(c.store.cfg.table)}/leave`, {});
}
