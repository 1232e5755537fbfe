// @ts-check
// The game page's toasts: what just happened at the table (a roll with no move, a double, a
// game won...), for a few seconds; at most four at a time.

import { fmtDice, h } from "./dom.js";
import { points, t } from "./i18n.js";

/** @typedef {import("./store.js").Message} Message */

/**
 * Show a toast in `box` (the page's toasts' element).
 * @param {HTMLElement} box
 * @param {string} text
 * @param {string} [kind] info, good, warn or error
 * @example toast(el.toasts, "Reconnected")
 */
export function toast(box, text, kind = "info") {
  const node = h("div", { class: `toast ${kind}` }, text);
  box.append(node);
  while (box.children.length > 4) box.children[0].remove();
  setTimeout(() => node.remove(), kind === "error" ? 7000 : 4500);
}

/**
 * The toasts of a table action's events (`data.events`), as the viewer (`me`) sees them.
 * @param {Message} data an `action` event's data
 * @param {string[]} names the seats' names
 * @param {number | null} me the viewer's seat
 * @param {(text: string, kind?: string) => void} say
 * @example announce({events: [{kind: "took", player: 1, data: {}}]}, ["ann", "bob"], 0, say) // "bob took"
 */
export function announce(data, names, me, say) {
  for (const e of data.events || []) {
    const d = e.data || {};
    const name = names[e.player] ?? "";
    switch (e.kind) {
      case "no_move":
        say(e.player === me ? t("move.no_move_you", { dice: fmtDice(d.dice) }) : t("move.no_move", { name, dice: fmtDice(d.dice) }), "warn");
        break;
      case "opening_roll":
        if (d.dice[0] === d.dice[1]) break;
        say(t("toast.opening", { a: names[0], b: names[1], d0: d.dice[0], d1: d.dice[1] }));
        break;
      case "doubled":
        if (e.player !== me) say(t("toast.doubled", { name, value: d.cube }));
        break;
      case "took":
        if (e.player !== me) say(t("toast.took", { name }));
        break;
      case "dropped":
        if (e.player !== me) say(t("toast.dropped", { name }));
        break;
      case "roll_again":
        say(t("toast.roll_again", { name }));
        break;
      case "resign_rejected":
        if (e.player !== me) say(t("toast.resign_rejected", { name }));
        break;
      case "game_over":
        if (e.player === null || e.player === undefined) say(t("toast.game_draw", { n: d.game }));
        else say(t("toast.game_over", { name, n: d.game, points: points(d.points) }), "good");
        break;
      default:
        break;
    }
  }
}
