// @ts-check
// The lobby's lists of open tables and live games, kept up to date: every 5 s (while the tab
// is visible) the page asks the server for the lists again (GET /lobby/tables, an HTML
// fragment rendered like the page itself) and swaps them in when they changed.  The "Your
// turn" list above them (GET /lobby/turns: the games waiting for the visitor's move, the
// inbox's list) is kept the same way, shown only while it has a game, and asked for at once
// when the user socket brings a "your turn" notice (notify.js's `gammon:user` events).  A
// tournament's page keeps its bracket up to date the same way (GET /tournaments/<id>/live).

const PERIOD_MS = 5000;

/** Show the times a fragment carries (`<time data-ms>`) in the visitor's own clock.
 * @param {HTMLElement} root */
function localTimes(root) {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("time[data-ms]"))) {
    const ms = Number(node.dataset.ms);
    if (ms) node.textContent = new Date(ms).toLocaleString(document.documentElement.lang || undefined);
  }
}

/**
 * Keep `box` up to date from its `data-src` fragment; returns the refresh.
 * @param {HTMLElement} box
 * @returns {() => void}
 */
function keepFresh(box) {
  const url = new URL(/** @type {string} */ (box.dataset.src), location.href);
  const lang = new URLSearchParams(location.search).get("lang");
  if (lang) url.searchParams.set("lang", lang);
  let last = "";
  let busy = false;
  const refresh = () => {
    if (busy || document.visibilityState !== "visible") return;
    // a visitor half-way through a Sit click keeps the list they see
    const active = document.activeElement;
    if (active && box.contains(active) && active.tagName === "BUTTON") return;
    busy = true;
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        if (html === null || html === last) return;
        last = html;
        const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
        box.replaceChildren(...(doc.body.firstElementChild || doc.body).childNodes);
        localTimes(box);
        if (box.id === "your-turn-box") box.hidden = !box.querySelector("li");
        box.dataset.updated = String(Date.now());
      })
      .catch((err) => console.warn("gammon: the lobby could not refresh", err))
      .finally(() => {
        busy = false;
      });
  };
  setInterval(refresh, PERIOD_MS);
  document.addEventListener("visibilitychange", refresh);
  return refresh;
}

function start() {
  const box = document.getElementById("lobby-lists") || document.getElementById("tournament-live");
  if (box && box.dataset.src) {
    Object.assign(window, { gammonLobbyRefresh: keepFresh(box) }); // for the browser tests
  }
  const turns = document.getElementById("your-turn-box");
  if (turns && turns.dataset.src) {
    localTimes(turns);
    const refresh = keepFresh(turns);
    window.addEventListener("gammon:user", (event) => {
      const msg = /** @type {CustomEvent} */ (event).detail;
      if (msg && msg.type === "inbox" && msg.item && msg.item.kind === "your_turn") refresh();
    });
    Object.assign(window, { gammonTurnsRefresh: refresh });
  }
}

// The create-table form: a variant played without a cube (tavla, the Greek games, long
// nardy, jacquet, acey-deucey) disables the cube options (a disabled field is not sent).
function cubeOptions() {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("create-table"));
  const box = /** @type {HTMLFieldSetElement | null} */ (document.getElementById("cube-options"));
  if (!form || !box || !form.elements.namedItem("variant")) return;
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem("variant"));
  const update = () => {
    const option = select.options[select.selectedIndex];
    const cubeless = Boolean(option && option.hasAttribute("data-cubeless"));
    if (cubeless === box.disabled) return;
    box.disabled = cubeless;
    // shown unticked while they do not apply; ticked again as they were when they do
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll("input[type=checkbox]"))) {
      if (cubeless) {
        input.dataset.was = input.checked ? "1" : "";
        input.checked = false;
      } else if (input.dataset.was !== undefined) {
        input.checked = input.dataset.was === "1";
      }
    }
  };
  select.addEventListener("change", update);
  if (box.disabled) {
    box.disabled = false; // sent disabled by the server: untick as on a change
    update();
  }
}

// The tavli note says what the rotation is: shown only while tavli is chosen.
function tavliNote() {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("create-table"));
  const note = document.getElementById("tavli-note");
  const select = form && /** @type {HTMLSelectElement | null} */ (form.elements.namedItem("variant"));
  if (!note || !select) return;
  const update = () => {
    note.hidden = select.value !== "tavli";
  };
  select.addEventListener("change", update);
  update();
}

// "Visitors may chat" follows the table's kind until the creator touches it: ticked at a
// casual table, unticked once the table is rated or staked (a kibitzer could coach a player
// there; the server's default for a request without the field is the same).
function spectatorChat() {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("create-table"));
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("spectator-chat"));
  if (!form || !box) return;
  const rated = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=rated]"));
  const stake = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=stake]"));
  let touched = false;
  box.addEventListener("change", () => {
    touched = true;
  });
  const update = () => {
    if (touched) return;
    box.checked = !((rated && rated.checked) || (stake && Number(stake.value) > 0));
  };
  for (const input of [rated, stake]) if (input) input.addEventListener("input", update);
  if (rated) rated.addEventListener("change", update);
}

start();
cubeOptions();
tavliNote();
spectatorChat();
