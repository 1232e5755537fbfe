// @ts-check
// The table's WebSocket: hello/welcome, versions, reconnection with exponential backoff and
// jitter, request ids, liveness pings. It hands every server message to `onMessage` and
// reports its status to `onStatus`; it never applies anything twice (the app checks versions).

export const PROTOCOL = 1;

// Close codes after which reconnecting cannot help.
const FATAL = new Set([4400, 4403, 4404]);

/**
 * How long to wait before reconnecting attempt number `attempt` (from 0), in ms.
 * @param {number} attempt
 * @param {{base?: number, cap?: number, random?: () => number}} [options]
 */
export function backoffDelay(attempt, { base = 400, cap = 15000, random = Math.random } = {}) {
  // "equal jitter": half of the exponential delay, plus a random part of the other half
  const exp = Math.min(cap, base * 2 ** attempt);
  return Math.round(exp / 2 + random() * (exp / 2));
}

export class Connection {
  // url: absolute ws:// or wss:// URL; getLastVersion(): the newest version applied (or null
  // for a first connection that wants no history); hooks: {onMessage, onStatus, onOpen}
  /**
   * @param {string} url
   * @param {() => number | null} getLastVersion
   * @param {{onMessage: (msg: Record<string, any>) => void, onStatus: (status: string, code?: number, delay?: number) => void, onOpen?: () => void}} hooks
   */
  constructor(url, getLastVersion, hooks) {
    this.url = url;
    this.getLastVersion = getLastVersion;
    this.hooks = hooks;
    this.ws = null;
    this.attempt = 0;
    this.nextId = 1;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.pingTimer = undefined;
    /** @type {number | null} */
    this.pongDeadline = null;
    this.stopped = false;
    this.welcomed = false;
    this.retryAt = null;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
  }

  open() {
    clearTimeout(this.timer);
    this.welcomed = false;
    this.hooks.onStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      console.error("gammon: cannot open the WebSocket", err);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      const hello = { type: "hello", protocol: PROTOCOL, last_version: this.getLastVersion() };
      ws.send(JSON.stringify(hello));
      this.hooks.onOpen && this.hooks.onOpen();
    });
    ws.addEventListener("message", (e) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch (err) {
        console.error("gammon: the server sent something that is not JSON", e.data);
        return;
      }
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.attempt = 0;
        this.startPings();
        this.hooks.onStatus("online");
      } else if (msg.type === "pong") {
        this.pongDeadline = null;
      }
      this.hooks.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (ws !== this.ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      if (this.stopped) {
        this.hooks.onStatus("closed", e.code);
        return;
      }
      if (FATAL.has(e.code)) {
        this.hooks.onStatus("fatal", e.code);
        return;
      }
      this.scheduleReconnect(e.code === 4429 ? 4 : 0);
    });
    // "error" is always followed by "close", which reconnects; the browser itself logs the
    // failed connection in the console.
  }

  scheduleReconnect(extra = 0) {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt + extra);
    this.attempt = Math.min(this.attempt + 1, 10);
    this.retryAt = Date.now() + delay;
    this.hooks.onStatus("offline", undefined, delay);
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.open(), delay);
  }

  // Drop the socket and open a new one now (e.g. after a version gap).
  reconnectNow() {
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
    clearInterval(this.pingTimer);
    this.open();
  }

  // Retry at once when the browser comes back online or the tab becomes visible again.
  nudge() {
    if (!this.ws && !this.stopped && this.timer) {
      clearTimeout(this.timer);
      this.open();
    }
  }

  startPings() {
    clearInterval(this.pingTimer);
    this.pongDeadline = null;
    this.pingTimer = window.setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (this.pongDeadline && Date.now() > this.pongDeadline) {
        console.warn("gammon: no pong from the server; reconnecting");
        this.reconnectNow();
        return;
      }
      this.send({ type: "ping" });
      if (!this.pongDeadline) this.pongDeadline = Date.now() + 20000;
    }, 20000);
  }

  get ready() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed);
  }

  /**
   * Send a message; returns its id (or null when the socket is not open).
   * @param {Record<string, any>} msg
   * @returns {number | null}
   */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }
}
