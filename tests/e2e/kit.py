"""Helpers of the browser tests: the server subprocess, watched pages, playing through the UI."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

try:
    import playwright.sync_api as playwright_api
except ImportError:  # pragma: no cover - depends on the dev extra
    playwright_api = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        FloatRect,
        Locator,
        Page,
    )

CI = bool(os.environ.get("CI"))
#: Viewports every page-level test runs at.
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
#: Seconds to wait for the server, the bot or the other player.
WAIT_MS = 30_000
#: Console errors that are never the page's: browsers ask every site for /favicon.ico; and
#: Chromium logs the analysis board's ask refused while the site is busy (429), which the
#: page asks again a moment later (static/analysis/main.js, askAnalysis).
ALWAYS_ALLOWED = (
    re.compile(r"/favicon\.ico"),
    re.compile(r"status of 429 \(Too Many Requests\) \(http://[^ ]*/api/tables/[^ ]*/analysis\?"),
)
SCREENSHOTS = os.environ.get("GAMMON_E2E_SCREENSHOTS")

#: An init script: records the browser notifications the page makes (``window.__notes``),
#: permission granted, and says the tab is hidden (inbox.js notifies only then).
NOTIFICATION_HOOK = """
window.__notes = [];
class RecordedNotification {
  constructor(title, options) { window.__notes.push({title, body: options && options.body}); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
}
window.Notification = RecordedNotification;
Object.defineProperty(document, "visibilityState", {get: () => "hidden", configurable: true});
"""


#: axe-core (``npm ci``), for the pages' accessibility checks.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def axe_with_every_page(page: Page) -> None:
    """Load axe-core with every page the page's browser context opens from now on (an init
    script: 40 ms a page, where a script tag added to the page took 170 ms)."""
    page.context.add_init_script(path=str(AXE))


def axe_loaded(page: Page) -> None:
    """Make sure axe-core is in the page (a script tag when it did not come with it)."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))


def unavailable(reason: str) -> None:
    """Skip (or, under CI, fail) a test that cannot run here."""
    if CI:
        pytest.fail(f"{reason}: the browser tests must run in CI")
    pytest.skip(reason)


def chromium_path() -> str | None:
    """Debian's Chromium (never a browser downloaded by Playwright)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


# --------------------------------------------------------------------------- the server


class GammonServer:
    """A ``gammon serve`` subprocess on a loopback port and a temporary SQLite database."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.db = db
        #: More ``gammon serve`` flags (e.g. ``--pairing-bot-after 2``).
        self.extra = extra
        self.port = 0
        self.url = ""
        self.proc: subprocess.Popen[str] | None = None
        self.pump: threading.Thread | None = None
        self.output: list[str] = []

    def start(self) -> None:
        """Start (or start again, on the same database and port) and wait until it answers."""
        cmd = [
            sys.executable,
            "-m",
            "gammon",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--database-url",
            f"sqlite:///{self.db}",
            "--bot-delay",
            "0.05",
            "--bot-workers",
            "0",
            # every test's browser comes from 127.0.0.1: the per-address creation limit
            # would otherwise count the whole suite's accounts and tables together
            "--create-limit",
            "100000",
            "--list-limit",
            "100000",
            # fresh accounts play rated matches at once, as often as a test needs
            # (tests/server/test_fair_rated.py checks the site's defaults)
            "--rated-min-age",
            "0",
            "--rated-min-matches",
            "0",
            "--rated-pair-limit",
            "0",
            # the site's password hash at its smallest cost (serverkit.CHEAP_PASSWORDS)
            "--password-memory",
            "8192",
            "--password-passes",
            "1",
            "--password-lanes",
            "1",
            "--log-level",
            "warning",
            *self.extra,
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMMON_")}
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        found: list[str] = []
        ready = threading.Event()
        proc = self.proc

        def pump() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.output.append(line.rstrip())
                match = re.search(r"serving on (http://\S+)", line)
                if match and not ready.is_set():
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        self.pump = threading.Thread(target=pump, daemon=True)
        self.pump.start()
        if not ready.wait(60) or not found:
            self.stop()
            raise RuntimeError("gammon serve did not start:\n" + "\n".join(self.output[-40:]))
        self.url = found[0]
        self.port = int(self.url.rsplit(":", 1)[1])

    def kill(self) -> None:
        """Kill the process at once (SIGKILL), as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self._reap()

    def stop(self) -> None:
        """Stop the process politely (SIGTERM), then for good."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._reap()

    def _reap(self) -> None:
        if self.proc is None:
            return
        # shown by pytest when the test fails
        print(f"--- gammon serve ({self.url}), last lines:", *self.output[-60:], sep="\n")
        self.proc.wait(10)
        if self.pump is not None:
            self.pump.join(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc = None
        self.pump = None


# --------------------------------------------------------------------------- pages


@dataclass
class Watch:
    """Console errors and uncaught exceptions of the pages a test opened."""

    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        """Tolerate console errors matching ``pattern`` (e.g. while the server is down)."""
        self.allowed.append(re.compile(pattern))

    def on_console(self, label: str, msg: ConsoleMessage) -> None:
        if msg.type != "error":
            return
        where = msg.location.get("url", "") if msg.location else ""
        text = f"{msg.text} ({where})" if where else msg.text
        if any(p.search(text) for p in (*ALWAYS_ALLOWED, *self.allowed)):
            return
        self.errors.append(f"[{label}] console error: {text}")

    def on_pageerror(self, label: str, exc: Exception) -> None:
        self.errors.append(f"[{label}] uncaught exception: {exc}")


_names = itertools.count(1)


class Browse:
    """Opens watched pages in fresh browser contexts (one per person) and plays through them."""

    def __init__(self, browser: Browser, watch: Watch) -> None:
        self.browser = browser
        self.watch = watch
        self.contexts: list[BrowserContext] = []

    def page(self, base_url: str, size: str = "desktop", label: str = "", **options: Any) -> Page:
        """A new person with a new browser (cookies of their own) at ``size`` (``options``:
        more of the context's, e.g. ``color_scheme``)."""
        ctx = self.browser.new_context(base_url=base_url, **SIZES[size], **options)
        ctx.set_default_timeout(WAIT_MS)
        self.contexts.append(ctx)
        page = ctx.new_page()
        name = label or f"page{len(self.contexts)}"
        page.on("console", lambda msg: self.watch.on_console(name, msg))
        page.on("pageerror", lambda exc: self.watch.on_pageerror(name, exc))
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            with contextlib.suppress(Exception):
                ctx.close()


# --------------------------------------------------------------------------- site helpers


def new_name(prefix: str = "u") -> str:
    """A fresh user name (3-20 characters)."""
    return f"{prefix}{next(_names)}{secrets.token_hex(3)}"[:20]


def sign_up(page: Page, name: str | None = None, password: str = "correct-horse") -> str:
    """Sign up through the site's form; returns the user name."""
    name = name or new_name()
    page.goto("/signup")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.locator("form[action='/signup'] button[type=submit]").click()
    assert "/signup" not in page.url, page.content()[:2000]
    return name


def create_table(page: Page, **options: Any) -> str:
    """Create a table with the lobby's form; returns its id (the page is then the table).
    The form's clock is on by default (docs/server.md, "Quick pairing"): these tables have
    none unless ``clock=True`` is asked for."""
    options = {"clock": False, **options}
    page.goto("/")
    form = page.locator("#create-table")
    for name, value in options.items():
        field_ = form.locator(f"[name={name}]:not([type=hidden])")
        kind = field_.get_attribute("type")
        tag = field_.evaluate("e => e.tagName")
        if kind == "checkbox":
            field_.set_checked(bool(value))
        elif tag == "SELECT":
            field_.select_option(str(value))
        else:
            field_.fill(str(value))
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    match = re.search(r"/table/([^/?#]+)", page.url)
    assert match, f"not a table page: {page.url}"
    wait_synced(page)
    return match.group(1)


class SentFrames:
    """The protocol messages a page sends over its WebSockets from now on (for counting)."""

    def __init__(self, page: Page) -> None:
        self.messages: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framesent", self._sent))

    def _sent(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if isinstance(message, dict):
            self.messages.append(message)

    def count(self, kind: str) -> int:
        """How many messages of this ``type`` were sent."""
        return sum(1 for m in self.messages if m.get("type") == kind)


def header_menu(page: Page) -> None:
    """Open the site header's menu where the screen is narrow (a phone: its links are then
    hidden behind the menu button); nothing on a wide screen."""
    toggle = page.locator("[data-testid=nav-toggle]")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def wait_synced(page: Page) -> None:
    """Wait until the game page is connected and has the table's current state."""
    page.wait_for_function(
        "() => { const p = window.gammonPage;"
        " return Boolean(p && p.synced && p.state && p.connStatus === 'online'); }"
    )


def open_table(page: Page, table: str) -> None:
    """Open a table's page (the invite link) and wait until it shows the current state."""
    page.goto(f"/table/{table}")
    wait_synced(page)


#: What the page lets the player do next (the first that applies), read from the DOM.
_NEXT = """() => {
  const q = (s) => document.querySelector(s);
  const over = q('[data-testid=over]');
  if (over && !over.hidden) return 'over';
  if (q('[data-action=confirm-move]:not([disabled])')) return 'confirm';
  if (q('[data-action=play-forced]:not([disabled])')) return 'forced';
  if (q('.board.interactive .hit.dest')) return 'dest';
  if (q('.board.interactive .hit.src')) return 'src';
  if (q('[data-action=roll]:not([disabled])')) return 'roll';
  return null;
}"""


def next_action(page: Page, timeout: float = WAIT_MS) -> str:
    """Wait until the player can do something; returns what (see _NEXT)."""
    handle = page.wait_for_function(_NEXT, timeout=timeout)
    return str(handle.json_value())


#: _NEXT with the table version the page showed at the same instant.
_NEXT_AT = f"""() => {{
  const what = ({_NEXT})();
  return what ? [what, window.gammonPage.version] : null;
}}"""


def next_step(page: Page, timeout: float = WAIT_MS) -> tuple[str, int]:
    """Wait until the player can do something; returns what (see _NEXT) and the version
    the page showed then, read together: a version read after the fact may already be
    past what was seen (the bot rolled the opening meanwhile), and waiting for the state
    to move on from it would then wait for the player's own move."""
    handle = page.wait_for_function(_NEXT_AT, timeout=timeout)
    what, seen = handle.json_value()
    return str(what), int(seen)


def take(page: Page, what: str, seen: int, *, use_forced: bool = True) -> None:
    """Do ``what`` (from :func:`next_step`, at version ``seen``); after a confirm, a forced
    move or a roll, wait until the state has moved on from ``seen`` (at once if the server
    had already moved it on: an automatic roll, a move played by itself)."""
    play_step(page, what, use_forced=use_forced)
    if what in ("confirm", "forced", "roll"):
        page.wait_for_function("v => window.gammonPage.version > v", arg=seen)


def version(page: Page) -> int:
    """The newest table version the page has applied."""
    return int(page.evaluate("() => window.gammonPage.version"))


def play_step(page: Page, what: str, *, use_forced: bool = True) -> None:
    """Do one thing the page offers: confirm, play a forced move, click a checker or a point."""
    if what == "confirm":
        # a complete move also goes by itself after a short grace (the default): the button
        # may go before the click
        with contextlib.suppress(playwright_api.TimeoutError):
            page.locator("[data-action=confirm-move]").click(timeout=3000)
    elif what == "forced" and use_forced:
        # forced moves play by themselves by default: the button may go before the click
        with contextlib.suppress(playwright_api.TimeoutError):
            page.locator("[data-action=play-forced]").click(timeout=3000)
    elif what == "dest":
        page.locator(".board.interactive .hit.dest").first.click()
    elif what in ("src", "forced"):
        page.locator(".board.interactive .hit.src").first.click()
    elif what == "roll":
        # the server may roll first (e.g. the opening roll-off): then the button goes away
        with contextlib.suppress(playwright_api.TimeoutError):
            page.locator("[data-action=roll]").click(timeout=3000)
    else:
        raise AssertionError(f"nothing to do: {what}")


def play_until(
    page: Page, done: Callable[[], bool], *, limit: int = 2000, use_forced: bool = True
) -> int:
    """Play whatever the page offers until ``done()``; returns how many clicks it took."""
    clicks = 0
    while not done():
        what, seen = next_step(page)
        if what == "over":
            break
        take(page, what, seen, use_forced=use_forced)
        clicks += 1
        assert clicks < limit, "the game did not end"
    return clicks


def play_to_our_move(page: Page, roll: Callable[[], None] | None = None) -> None:
    """Play what the page offers until the player has a checker to move (``roll``: how to
    roll, e.g. by a key; by the Roll button without it)."""
    for _ in range(60):
        what, seen = next_step(page)
        if what == "src":
            return
        if what == "roll" and roll is not None:
            roll()
            page.wait_for_function("v => window.gammonPage.version > v", arg=seen)
        else:
            take(page, what, seen)
    raise AssertionError("never our move")


class Traffic:
    """The HTTP requests of a page in flight (its WebSockets aside), counted from now on."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.flying: set[Any] = set()
        self.last = time.monotonic()
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request: Any) -> None:
        self.flying.add(request)
        self.last = time.monotonic()

    def _ended(self, request: Any) -> None:
        self.flying.discard(request)
        self.last = time.monotonic()

    def idle(self, quiet_ms: int = 150, timeout: float = WAIT_MS) -> None:
        """Wait (up to ``timeout`` ms) until no request has been in flight for ``quiet_ms``:
        what Playwright's ``networkidle`` waits for, with a shorter quiet time than its fixed
        500 ms (a page's requests that follow one another start within milliseconds of the
        last answer)."""
        end = time.monotonic() + timeout / 1000
        while self.flying or time.monotonic() - self.last < quiet_ms / 1000:
            assert time.monotonic() < end, f"requests still in flight: {self.flying}"
            self.page.wait_for_timeout(25)  # the page's events come in meanwhile


def within_polls(
    page: Page, url: str, period_ms: int, check: Callable[[], None], *, polls: int = 3
) -> None:
    """``check()`` (a Playwright expectation with a short timeout) holds after at most
    ``polls`` of the page's polls of ``url`` (a part of the address), each made at once by
    moving the page's clock on by the poll's period (``page.clock.install()`` before the
    page loaded) instead of waiting for it: the page still updates by itself."""
    for n in range(polls):
        with page.expect_response(lambda r: url in r.url):
            page.clock.fast_forward(period_ms)
        try:
            check()
            return
        except AssertionError:
            if n == polls - 1:
                raise


#: How often the end-of-match panel asks whether the other player asked for a rematch
#: (over.js): the tests move the page's clock on by as much instead of waiting.
REMATCH_POLL_MS = 4000


def rematch_offered(page: Page) -> Locator:
    """The rematch offer on ``page``'s end panel, once shown: within four of the panel's
    polls (15 s before the page's clock was moved), each made at once (``within_polls``)."""
    offer = page.locator("[data-testid=rematch-offer]")
    within_polls(
        page,
        "/rematch",
        REMATCH_POLL_MS,
        lambda: playwright_api.expect(offer).to_be_visible(timeout=2000),
        polls=4,
    )
    return offer


def poll_until(
    page: Page, url: str, period_ms: int, check: Callable[[], None], timeout: float = WAIT_MS
) -> None:
    """Until ``check()`` holds (a Playwright expectation with a short timeout), for up to
    ``timeout`` ms: the page's poll of ``url`` (a part of the address), made every
    ``period_ms`` by the page itself, is made at once each time by moving its clock on
    (``page.clock.install()`` before the page loaded).  For what the server does meanwhile
    (a round paired, the bots' match played): the page shows it as soon as it is done."""
    end = time.monotonic() + timeout / 1000
    while True:
        try:
            check()
            return
        except AssertionError:
            if time.monotonic() > end:
                raise
        with page.expect_response(lambda r: url in r.url):
            page.clock.fast_forward(period_ms)


def shot(page: Page, name: str) -> None:
    """Save a screenshot when GAMMON_E2E_SCREENSHOTS names a folder (for looking at)."""
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


def wait_until(cond: Callable[[], bool], timeout: float = WAIT_MS / 1000, what: str = "") -> None:
    """Poll ``cond`` until true."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        time.sleep(0.05)


def play_while(pages: list[Page], cond: Callable[[], bool], *, timeout: float = 60.0) -> None:
    """While ``cond()``, make every checker play the pages offer (never rolling or doubling)."""
    end = time.monotonic() + timeout
    while cond():
        if time.monotonic() > end:
            raise AssertionError("timed out while playing")
        acted = False
        for page in pages:
            now = page.evaluate(_NEXT_AT)
            if now and now[0] in ("confirm", "forced", "dest", "src"):
                take(page, now[0], now[1])
                acted = True
        if not acted:
            time.sleep(0.05)


def has(page: Page, selector: str) -> bool:
    """Whether a visible element matches now."""
    loc = page.locator(selector)
    return loc.count() > 0 and loc.first.is_visible()


def seat_of(page: Page) -> int | None:
    """The page's own seat."""
    seat = page.evaluate("() => window.gammonPage.mySeat")
    return None if seat is None else int(seat)


def confirm(page: Page, action: str) -> None:
    """Click an action button, then Confirm in the prompt it opens."""
    page.locator(f"[data-action={action}]").click()
    page.locator("[data-testid=prompt] [data-action=confirm]").click()


def resign_the_match(page: Page) -> Locator:
    """Resign a backgammon on our first turn of a 1-point match (the bot accepts): the match is
    over; returns the end-of-match panel, shown.  It waits for our move first: the menu
    closes when resigning stops being allowed (the bot's turn), as it should for a player."""
    over = page.locator("[data-testid=over]")
    for _ in range(3):
        play_to_our_move(page)
        try:
            page.locator("[data-action=resign]").click(timeout=5000)
            page.locator("[data-testid=resign-menu] [data-action=resign-3]").click(timeout=5000)
            page.locator("[data-testid=prompt]", has_text="backgammon").wait_for(timeout=5000)
            page.locator("[data-testid=prompt] [data-action=confirm]").click(timeout=5000)
        except playwright_api.TimeoutError:
            # the turn passed meanwhile (our move played by itself: a forced one, or a
            # roll that could not be played), and the menu or the question went with it,
            # as they should: resign on our next turn (a CI run's first attempt once)
            continue
        over.wait_for(state="visible")
        return over
    raise AssertionError("could not resign")


def _settled_boxes(page: Page, *points: int) -> list[FloatRect]:
    """The boxes of the hit areas over ``points`` once two reads 100 ms apart agree: a render
    may be under way (the bot's move drawn, presence, a chat line) and may replace the board's
    elements or move them between two reads."""
    hits = [page.locator(f".board .hit[data-point='{p}']") for p in points]
    last: list[FloatRect | None] = []
    deadline = time.monotonic() + 10
    while True:
        for hit in hits:
            hit.wait_for(state="visible")
        boxes = [hit.bounding_box() for hit in hits]
        if boxes == last and all(box is not None for box in boxes):
            return [box for box in boxes if box is not None]
        assert time.monotonic() < deadline, (points, boxes)
        last = boxes
        page.wait_for_timeout(100)


def drag_step(page: Page) -> tuple[int, int]:
    """Drag a checker from the first source point to its first destination (mouse events)."""
    src, dest = page.evaluate(
        """() => {
        const p = window.gammonPage.input;
        const opts = p.options();
        const from = opts.steps[0][0];
        return [from, [...p.destinations(opts, from)][0]];
    }"""
    )
    a, b = _settled_boxes(page, src, dest)
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] * 0.8)
    page.mouse.down()
    for i in range(1, 6):
        page.mouse.move(
            a["x"] + a["width"] / 2 + (b["x"] - a["x"]) * i / 5,
            a["y"] + a["height"] * 0.8 + (b["y"] - a["y"]) * i / 5,
        )
    page.mouse.up()
    return int(src), int(dest)
