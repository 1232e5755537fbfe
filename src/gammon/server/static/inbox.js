// @ts-check
// The header's bell (docs/notifications.md): the number of unread notices, from the user
// socket's `inbox` messages (notify.js passes every message on as a `gammon:user` event),
// and, when the visitor allowed it, a browser notification for a new notice while the tab
// is hidden.  Permission is asked only when the visitor presses "Enable notifications"
// (on /inbox), never on load.  The texts are the page's own (#inbox-texts, rendered in the
// visitor's language).

/**
 * @typedef {{id: number, kind: string, data: Record<string, any>, at: number}} Notice
 * @typedef {{type: string, unread?: number, item?: Notice}} UserMessage
 */

/** @returns {Record<string, string>} */
function texts() {
  const node = document.getElementById("inbox-texts");
  try {
    return node ? JSON.parse(node.textContent || "{}") : {};
  } catch {
    return {};
  }
}

/**
 * "1 point" or "3 points" in the page's language (never "1 points").
 * @param {number} n @param {Record<string, string>} t @returns {string}
 */
function points(n, t) {
  return n === 1 ? t.point || "1 point" : (t.points || "%d points").replace("%d", String(n));
}

/** @param {Notice} item @param {Record<string, string>} t @returns {string} */
function describe(item, t) {
  const d = item.data;
  if (item.kind === "challenge") return `${d.from} ${t.challenge} ${points(Number(d.length), t)}`;
  if (item.kind === "round") return `${t.round} ${Number(d.round)} (${d.name}) ${t.starts} ${d.opponent}`;
  if (item.kind === "your_turn") return `${t.your_turn} ${d.opponent}`;
  return `${d.from} ${t.rematch}`;
}

/** @param {Notice} item @returns {string} */
function link(item) {
  return item.kind === "challenge" ? "/challenges" : `/table/${encodeURIComponent(String(item.data.table))}`;
}

function start() {
  const badge = document.getElementById("inbox-badge");
  if (!badge) return;
  const t = texts();

  /** @param {number} count */
  const setBadge = (count) => {
    badge.textContent = count ? String(count) : "";
    badge.hidden = !count;
  };

  /** @param {Notice} item */
  const notify = (item) => {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    if (document.visibilityState === "visible") return; // the bell says it
    try {
      const shown = new Notification(t.title || "gammon", { body: describe(item, t), tag: `gammon-${item.kind}-${item.id}` });
      shown.onclick = () => {
        window.focus();
        location.assign(link(item));
      };
    } catch (err) {
      console.warn("gammon: no notification", err);
    }
  };

  window.addEventListener("gammon:user", (event) => {
    const msg = /** @type {UserMessage} */ (/** @type {CustomEvent} */ (event).detail);
    if (!msg || msg.type !== "inbox") return;
    setBadge(Number(msg.unread) || 0);
    if (msg.item) notify(msg.item);
  });

  const button = /** @type {HTMLButtonElement | null} */ (document.getElementById("enable-notifications"));
  const on = document.getElementById("notifications-on");
  const refused = document.getElementById("notifications-refused");
  const show = () => {
    const state = "Notification" in window ? Notification.permission : "denied";
    if (button) button.hidden = state !== "default";
    if (on) on.hidden = state !== "granted";
    if (refused) refused.hidden = state !== "denied";
  };
  show();
  button?.addEventListener("click", async () => {
    try {
      await Notification.requestPermission();
    } finally {
      show();
    }
  });
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("time[data-ms]"))) {
    const ms = Number(node.dataset.ms);
    if (ms) node.textContent = new Date(ms).toLocaleString(document.documentElement.lang || undefined);
  }
}

start();
