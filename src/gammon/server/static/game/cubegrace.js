// @ts-check
// Fewer clicks around the cube (issue #33, item 4): the roll at the start of a turn where the
// player may double, and the cube actions, wait a short grace and then go by themselves.
//
// Rolling: the server rolls by itself when no double is possible (a dead cube); when the cube
// is live, the page rolls for the player after ROLL_GRACE_MS unless they double, ask for a
// hint, open the resignation menu or a question meanwhile (then it waits for them). This is a
// rule of time, not an engine's view of the cube: it tells nothing about the position, so it
// is the same in rated games (where hints are refused). The setting "roll for me" turns it off.
//
// Cube actions (double, take, drop, beaver, raccoon): one click shows what it means with
// a countdown; after CUBE_GRACE_MS it is sent, Undo takes it back, Confirm sends it at once.
// With "confirm my moves myself" they wait for the Confirm click as before.

/** How long the Roll button waits for a double before it rolls (ms). */
export const ROLL_GRACE_MS = 1200;
/** How long a cube action waits for its Undo before it is sent (ms). */
export const CUBE_GRACE_MS = 1800;

/** The cube actions that go by themselves after their grace. */
export const CUBE_ACTIONS = new Set(["double", "take", "drop", "beaver", "raccoon"]);

/**
 * A grace's countdown drawn on a button: the CSS animation `grace` (controls.css) starts
 * where the grace stands, so that a redraw does not start it again.
 * @param {HTMLElement} el
 * @param {number} since performance.now() when the grace began
 * @param {number} ms the grace
 */
export function showCountdown(el, since, ms) {
  el.classList.add("counting");
  el.style.setProperty("--grace-ms", `${ms}ms`);
  el.style.setProperty("--grace-at", `${-Math.min(ms, performance.now() - since)}ms`);
}

/**
 * The automatic roll of one turn (one table version): armed when the Roll button shows
 * beside Double, it rolls once the grace is over, or is held for the turn.
 */
export class RollGrace {
  constructor() {
    /** @type {{version: number, since: number, timer: number, held: boolean} | null} */
    this.at = null;
  }

  /**
   * Start the grace of this version (once).
   * @param {number} version the table version the roll belongs to
   * @param {() => "go" | "wait" | "hold"} check at the end: roll, try again in a moment (an
   *   answer awaited), or leave it to the player (they are busy with the cube or a question)
   * @param {() => void} roll send the roll
   * @param {() => void} redraw draw the buttons again (the countdown gone)
   */
  arm(version, check, roll, redraw) {
    if (this.at && this.at.version === version) return;
    this.cancel();
    const at = { version, since: performance.now(), timer: 0, held: false };
    const fire = () => {
      if (this.at !== at || at.held) return;
      const what = check();
      if (what === "wait") {
        at.timer = window.setTimeout(fire, 200);
        return;
      }
      at.held = true;
      if (what === "go") roll();
      else redraw();
    };
    at.timer = window.setTimeout(fire, ROLL_GRACE_MS);
    this.at = at;
  }

  /**
   * The player took the turn in hand (a hint, a question): no roll by itself this version.
   * @param {number} version
   */
  hold(version) {
    if (this.at && this.at.version === version) {
      clearTimeout(this.at.timer);
      this.at.held = true;
    } else {
      this.cancel();
      this.at = { version, since: 0, timer: 0, held: true };
    }
  }

  cancel() {
    if (this.at) clearTimeout(this.at.timer);
    this.at = null;
  }

  /**
   * When the grace of this version began, while it runs (null: none, or held).
   * @param {number} version
   */
  since(version) {
    const at = this.at;
    return at && at.version === version && !at.held ? at.since : null;
  }
}
