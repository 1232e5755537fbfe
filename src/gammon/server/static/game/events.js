// @ts-check
// A table event (docs/protocol.md, "event") as the game page takes it in: the move list and the
// chat lines (kept in the store), and, when it happens live (not replayed after a hello), the
// toasts and sounds it makes.

import { t } from "./i18n.js";
import { sound } from "./sound.js";
import { announce } from "./toasts.js";

/** @typedef {import("./store.js").Message} Message */

/**
 * What an event needs of the page.
 * @typedef {object} EventHost
 * @property {import("./store.js").TableStore} store the table, whose move list and chat the event adds to
 * @property {(text: string, kind?: string) => void} toast
 * @property {() => void} gameOver a game ended (the header's balance is asked again)
 */

/**
 * Take one event in; `live`: it just happened (toasts and sounds), else it is history.
 * @param {EventHost} host
 * @param {Message} ev
 * @param {boolean} live
 * @example takeEvent(host, {kind: "chat", version: 7, data: {name: "ann", text: "hi"}}, true) // store.chat has line 7
 */
export function takeEvent(host, ev, live) {
  const { store, toast } = host;
  const names = store.names();
  const d = ev.data || {};
  switch (ev.kind) {
    case "start":
      store.moves.addTableEvent(ev);
      break;
    case "action": {
      store.moves.addTableEvent(ev);
      if (!live) break;
      announce(d, names, store.mySeat, toast);
      const kinds = new Set((d.events || []).map((/** @type {Message} */ e) => e.kind));
      if (kinds.has("rolled") || kinds.has("starts") || kinds.has("opening_roll")) sound.play("dice");
      if (kinds.has("moved")) sound.play("move");
      if (kinds.has("game_over")) host.gameOver();
      break;
    }
    case "chat":
      // a line whose author this viewer blocked comes as its version alone
      if (!d.hidden) store.chat.set(ev.version, { ...d, version: ev.version, at: ev.at });
      break;
    case "chat_removed":
      // a moderator removed a line (docs/moderation.md): gone for everyone
      if (typeof d.seq === "number") store.chat.delete(d.seq);
      break;
    case "sit":
      if (live) toast(t("toast.sit", { name: d.name }));
      break;
    case "leave":
      if (live) toast(t("toast.leave", { name: d.name }));
      break;
    case "end":
      if (live && d.reason === "match_over" && d.winner !== null && d.winner !== undefined) {
        toast(t("toast.match_over", { name: names[d.winner] }), "good");
      }
      break;
    default:
      break;
  }
}
