// @ts-check
// The game page's keyboard shortcuts (issue #18): R roll, H hint, Enter or C confirm the move, U or
// Backspace undo, D double, T take, P pass (drop), M the text move box, Escape drops a
// selection. Each presses the page's own button (the same questions are asked), and only
// while it is there and enabled; keys typed in a field are the field's.

/**
 * What the keys need of the page.
 * @typedef {object} KeysHost
 * @property {HTMLElement} root the page, whose buttons the keys press
 * @property {HTMLInputElement} moveInput the text move box (M)
 * @property {() => boolean} dropSelection Escape: unselect the selected checker; whether one was
 */

/** @type {Record<string, string>} key -> the button's data-action */
const BUTTONS = { h: "hint", r: "roll", d: "double", t: "take", p: "drop", u: "undo", backspace: "undo", c: "confirm-move", enter: "confirm-move" };

/**
 * The button a key presses, if any (the prompt's Confirm for Enter while one is open).
 * @param {string} key KeyboardEvent.key
 * @param {(selector: string) => HTMLElement | null} find
 * @returns {HTMLElement | null}
 */
export function keyTarget(key, find) {
  const k = key.toLowerCase();
  if (k === "enter") {
    const prompt = find("[data-testid=prompt] [data-action=confirm]:not([disabled])");
    if (prompt) return prompt;
  }
  const action = BUTTONS[k];
  return action ? find(`[data-action=${action}]:not([disabled])`) : null;
}

/** @param {KeysHost} host */
export function installKeys(host) {
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && host.dropSelection()) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = /** @type {HTMLElement | null} */ (e.target instanceof HTMLElement ? e.target : null);
    if (target && (target.closest("input, textarea, select, [contenteditable]") || (e.key === "Enter" && target.closest("button, a, [role=button]")))) return;
    if (e.key.toLowerCase() === "m" && !host.moveInput.disabled) {
      e.preventDefault();
      host.moveInput.focus();
      return;
    }
    const button = keyTarget(e.key, (s) => /** @type {HTMLElement | null} */ (host.root.querySelector(s)));
    if (!button) return;
    e.preventDefault();
    button.click();
  });
}
