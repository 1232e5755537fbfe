// @ts-check
// Play now (the lobby's first section; docs/server.md "Quick pairing"): a click on a pool
// (a match length x a clock, for the variant chosen, rated or casual) makes the visitor a
// guest if need be (POST /api/guest), waits there (POST /api/pairing/seek) and listens on a
// user socket (/ws/user: the seek lasts while one is open) for {"type": "paired", "table"},
// then goes to the table; GET /api/pairing every few seconds catches a lost message and
// keeps the count of players waiting on each button.  After the server's bot_after seconds
// "Play a bot instead" appears.  Cancel withdraws the seek (DELETE /api/pairing/seek).

const COUNTS_MS = 5000;
const WAITING_POLL_MS = 2000;

/** @typedef {{seek: {id: string, pool: string, placed: number} | null, table: string | null, bot_after: number, pools?: Record<string, number>}} Status */

function start() {
  const box = document.getElementById("play-now");
  const wait = document.getElementById("pool-wait");
  const variant = /** @type {HTMLSelectElement | null} */ (document.getElementById("pool-variant"));
  const texts = /** @type {HTMLTemplateElement | null} */ (document.getElementById("pool-texts"));
  if (!box || !wait || !variant || !texts) return;
  const rated = /** @type {HTMLInputElement | null} */ (document.getElementById("pool-rated"));
  const cancel = /** @type {HTMLButtonElement | null} */ (document.getElementById("pool-cancel"));
  const bot = /** @type {HTMLButtonElement | null} */ (document.getElementById("pool-bot"));
  const error = document.getElementById("pool-error");
  const waited = document.getElementById("pool-waited");
  /** @param {string} key */
  const text = (key) => {
    const node = texts.content.querySelector(`[data-key="${key}"]`);
    return node ? node.textContent || "" : key;
  };
  let csrf = box.dataset.csrf || "";
  let signed = Boolean(box.dataset.signed);
  /** @type {string | null} */
  let pool = null;
  /** @type {WebSocket | null} */
  let socket = null;
  let since = 0;
  let botAfter = 20;
  /** @type {number | undefined} */
  let timer;

  /** @param {HTMLElement} button */
  const keyOf = (button) =>
    `${variant.value}.${button.dataset.length}.${button.dataset.clock}.${rated && rated.checked ? "rated" : "casual"}`;
  const buttons = () => /** @type {HTMLButtonElement[]} */ ([...box.querySelectorAll("button.pool")]);

  /** @param {Record<string, number>} pools */
  const showCounts = (pools) => {
    for (const button of buttons()) {
      const n = pools[keyOf(button)] || 0;
      const slot = button.querySelector("[data-count]");
      if (slot) slot.textContent = n ? text("waiting").replace("%d", String(n)) : text("nobody");
    }
  };

  /** @param {string} method @param {string} url @param {object} [body] */
  const call = async (method, url, body) => {
    const r = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json", "X-CSRF-Token": csrf } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error((data.error && data.error.message) || r.statusText);
    return data;
  };

  /** @param {string} message */
  const fail = (message) => {
    if (error) {
      error.textContent = message;
      error.hidden = false;
    }
  };

  /** @param {string | null} table */
  const go = (table) => {
    if (table) location.assign(`/table/${encodeURIComponent(table)}`);
  };

  const stop = () => {
    pool = null;
    wait.hidden = true;
    if (bot) bot.hidden = true;
    for (const button of buttons()) button.setAttribute("aria-pressed", "false");
    if (socket) socket.close();
    socket = null;
    clearInterval(timer);
  };

  const listen = () => {
    if (socket) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/user`);
    socket.addEventListener("message", (event) => {
      try {
        const msg = JSON.parse(event.data);
        if (msg.type !== "paired" || pool === null) return;
        if (msg.table) go(msg.table);
        else {
          stop();
          fail(text("failed"));
        }
      } catch (err) {
        console.warn("gammon: a pairing message could not be read", err);
      }
    });
    socket.addEventListener("close", () => {
      socket = null;
    });
  };

  const tick = async () => {
    if (pool === null) return;
    const seconds = Math.floor((Date.now() - since) / 1000);
    if (waited) waited.textContent = `${seconds} s`;
    if (bot && seconds >= botAfter) bot.hidden = false;
    if (socket === null) listen();
  };

  const poll = async () => {
    try {
      /** @type {Status} */
      const status = await call("GET", "/api/pairing");
      if (status.pools) showCounts(status.pools);
      if (pool !== null && status.table) go(status.table);
      else if (pool !== null && status.seek === null) {
        stop();
        fail(text("failed"));
      }
    } catch (err) {
      console.warn("gammon: pairing status", err);
    }
  };

  /** @param {HTMLButtonElement} button */
  const seek = async (button) => {
    if (error) error.hidden = true;
    try {
      if (!signed) {
        const guest = await call("POST", "/api/guest", {});
        csrf = guest.csrf;
        signed = true;
      }
      pool = keyOf(button);
      for (const b of buttons()) b.setAttribute("aria-pressed", b === button ? "true" : "false");
      listen();
      /** @type {Status} */
      const status = await call("POST", "/api/pairing/seek", { pool });
      if (status.table) return go(status.table);
      botAfter = status.bot_after;
      since = Date.now();
      wait.hidden = false;
      clearInterval(timer);
      let beat = 0;
      timer = window.setInterval(() => {
        tick();
        beat += 1;
        if (beat % (WAITING_POLL_MS / 500) === 0) poll();
      }, 500);
      tick();
    } catch (err) {
      stop();
      fail(err instanceof Error ? err.message : String(err));
    }
  };

  for (const button of buttons()) {
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => seek(button));
  }
  if (cancel)
    cancel.addEventListener("click", () => {
      stop();
      call("DELETE", "/api/pairing/seek", {}).catch((err) => fail(String(err)));
    });
  if (bot)
    bot.addEventListener("click", async () => {
      const chosen = pool;
      if (chosen === null) return;
      try {
        const made = await call("POST", "/api/pairing/bot", { pool: chosen });
        go(made.table);
      } catch (err) {
        fail(err instanceof Error ? err.message : String(err));
      }
    });
  variant.addEventListener("change", poll);
  if (rated) rated.addEventListener("change", poll);
  setInterval(() => {
    if (pool === null && document.visibilityState === "visible") poll();
  }, COUNTS_MS);
  poll();
}

start();
