// The keyboard shortcuts (keys.js): which button each key presses.

import assert from "node:assert/strict";
import { test } from "node:test";
import { keyTarget } from "../../src/gammon/server/static/game/keys.js";

/** @param {string[]} present the selectors that find a button */
const finder = (present) => (/** @type {string} */ s) => (present.includes(s) ? /** @type {any} */ ({ selector: s }) : null);

test("each key presses its enabled button", () => {
  const all = ["roll", "double", "take", "drop", "undo", "confirm-move"].map((a) => `[data-action=${a}]:not([disabled])`);
  const find = finder(all);
  const pressed = (/** @type {string} */ k) => /** @type {any} */ (keyTarget(k, find))?.selector;
  assert.equal(pressed("r"), "[data-action=roll]:not([disabled])");
  assert.equal(pressed("R"), "[data-action=roll]:not([disabled])");
  assert.equal(pressed("d"), "[data-action=double]:not([disabled])");
  assert.equal(pressed("t"), "[data-action=take]:not([disabled])");
  assert.equal(pressed("p"), "[data-action=drop]:not([disabled])");
  assert.equal(pressed("u"), "[data-action=undo]:not([disabled])");
  assert.equal(pressed("Backspace"), "[data-action=undo]:not([disabled])");
  assert.equal(pressed("Enter"), "[data-action=confirm-move]:not([disabled])");
  assert.equal(pressed("c"), "[data-action=confirm-move]:not([disabled])");
  assert.equal(pressed("x"), undefined);
});

test("Enter confirms an open question first; nothing without the button", () => {
  const prompt = "[data-testid=prompt] [data-action=confirm]:not([disabled])";
  assert.equal(/** @type {any} */ (keyTarget("Enter", finder([prompt, "[data-action=confirm-move]:not([disabled])"]))).selector, prompt);
  assert.equal(keyTarget("r", finder([])), null);
});
