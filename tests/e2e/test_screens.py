"""Issue #18, item 4: any screen.

At 390×844 the board fills the width with the side panels below; landscape (844×390) shows the
whole board; buttons and board targets are at least 40 px; the rows under the board keep their
height when buttons come and go; toasts never cover the board's pips or the score; the
end-of-match panel is in view; dark mode follows the system and the header's toggle
(remembered); the tab's title and icon say when it is your turn; the opponent's checkers move
with an animation unless reduced motion is asked for.  Screenshots (desktop, phone portrait and
landscape, dark) are saved in tests/e2e/artifacts/ (gitignored).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    create_table,
    drag_step,
    next_action,
    next_step,
    play_to_our_move,
    play_until,
    playwright_api,
    resign_the_match,
    sign_up,
    take,
)
from e2e.test_variants import check_drawn_right, drawn

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
LANDSCAPE = {
    "viewport": {"width": 844, "height": 390},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def save(page: Any, name: str) -> None:
    """A screenshot in tests/e2e/artifacts/ (kept by CI as an artefact)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def box(page: Any, selector: str) -> dict[str, float]:
    """The first such element's box, once it is shown: found and measured in one step in
    the page, since the page may draw the element again between two calls (Playwright's
    wait for it to be visible, then its box, once gave no box)."""
    found = page.wait_for_function(
        """(selector) => {
            const e = document.querySelector(selector);
            if (!e || !e.isConnected || getComputedStyle(e).visibility === "hidden") return null;
            const r = e.getBoundingClientRect();
            return r.width || r.height ? {x: r.x, y: r.y, width: r.width, height: r.height} : null;
        }""",
        arg=selector,
    )
    return dict(found.json_value())


def small_targets(page: Any) -> list[str]:
    """Visible buttons of the game page under 40×40 px, and board targets under 40 px high
    or wide."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('#game button, #game .board [role=button]')]
            .filter((b) => b.offsetParent !== null || b.closest('svg'))
            .map((b) => [b, b.getBoundingClientRect()])
            .filter(([b, r]) => r.width > 0 && (r.height < 39.5 || r.width < 39.5))
            .map(([b, r]) => `${b.dataset.action || b.dataset.point || b.textContent} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
    )


def hits(page: Any) -> list[tuple[int, dict[str, float]]]:
    """Every target of the board (the 24 points, the bar, the tray), whether it may be
    clicked now or not: (point, its box on the screen)."""
    found = page.evaluate(
        """() => [...document.querySelectorAll('.board .hit')].map((h) => {
          const r = h.getBoundingClientRect();
          return [Number(h.dataset.point), {x: r.x, y: r.y, width: r.width, height: r.height}];
        })"""
    )
    return [(int(p), dict(b)) for p, b in found]


def smallest_hit(page: Any) -> float:
    """The smallest side of the board's targets, in CSS px."""
    boxes = hits(page)
    # 24 points, the bar and the tray (25 too while checkers wait to enter: acey-deucey)
    points = sorted(p for p, _ in boxes)
    assert points in (list(range(26)), [*range(1, 26), 25]), points
    return min(min(b["width"], b["height"]) for _, b in boxes)


def smallest_text(page: Any) -> float:
    """The smallest text the board draws (point numbers, counts, the cube), in CSS px: the
    font's size times the board's scale."""
    return float(
        page.evaluate(
            """() => {
              const svg = document.querySelector('.board');
              const scale = svg.getScreenCTM().a;
              return Math.min(...[...svg.querySelectorAll('text')]
                .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
            }"""
        )
    )


def layout(page: Any) -> str:
    return str(page.locator("[data-testid=board]").get_attribute("data-layout"))


def in_viewport(page: Any, selector: str) -> dict[str, float]:
    """The element's box, asserted to lie wholly within the viewport."""
    b = box(page, selector)
    size = page.viewport_size
    assert b["x"] >= -0.5 and b["x"] + b["width"] <= size["width"] + 0.5, (selector, b)
    assert b["y"] >= -0.5 and b["y"] + b["height"] <= size["height"] + 0.5, (selector, b)
    return b


def one_line_header(page: Any) -> None:
    """The site's header is one line: the brand beside the menu button, the links hidden."""
    header = box(page, "header.site")
    assert header["height"] <= 56, header
    brand = box(page, "header.site .brand")
    toggle = box(page, "[data-testid=nav-toggle]")
    assert abs((brand["y"] + brand["height"] / 2) - (toggle["y"] + toggle["height"] / 2)) < 4
    assert toggle["width"] >= 40 and toggle["height"] >= 40, toggle
    assert not page.locator("#site-nav").is_visible()


def toast_clear_of_the_players(page: Any) -> None:
    """A toast long enough to take two lines covers neither player's panel (pips, score)."""
    page.evaluate(
        "() => window.gammonPage.toast('a long message to see where toasts go, long enough"
        " to take two lines on a phone held upright', 'warn')"
    )
    toasts = page.locator(".toast:visible").all()
    assert toasts
    for toast in toasts:
        t = dict(toast.bounding_box())
        assert t["height"] > 40, t  # two lines at least
        for seat in ("top", "bottom"):
            p = box(page, f"[data-testid=player-{seat}]")
            apart = (
                t["y"] >= p["y"] + p["height"]
                or t["y"] + t["height"] <= p["y"]
                or t["x"] >= p["x"] + p["width"]
                or t["x"] + t["width"] <= p["x"]
            )
            assert apart, (seat, t, p)


def tap(page: Any, selector: str) -> None:
    """A finger on the middle of the element, as the screen has it (elementFromPoint: the
    board must have put the target there)."""
    b = box(page, selector)
    page.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)


#: The first legal move while the page waits for this player's move and none of it is
#: played yet (null otherwise), with the state's version.
_MOVE_TO_TAP = """() => {
  const p = window.gammonPage;
  const m = p.state && p.state.match;
  const ready = m && Array.isArray(m.moves) && m.moves.length && !m.forced
    && p.input.canMove() && p.input.played.length === 0
    && document.querySelector('.board.interactive .hit.src');
  return ready ? {move: m.moves[0], version: p.version} : null;
}"""

_INPUT = """() => { const p = window.gammonPage; return {version: p.version,
  played: p.input.played, selected: p.input.selected, busy: p.busy,
  srcs: [...document.querySelectorAll('.board .hit.src')].map((h) => h.dataset.point),
  dests: [...document.querySelectorAll('.board .hit.dest')].map((h) => h.dataset.point)}; }"""


def tap_a_legal_move(page: Any, move: dict[str, Any], v: int) -> str:
    """Play a legal move by tapping its checkers and points (select, then the destination,
    step by step) and the dice to confirm; returns its text once the server has it. The move
    builder must end with exactly that move's steps."""
    for i, (frm, to, _die, _hit) in enumerate(move["steps"]):
        try:
            tap(page, f".board.interactive .hit.src[data-point='{frm}']")
            page.wait_for_selector(f".board .hit.selected[data-point='{frm}']", timeout=10_000)
            tap(page, f".board.interactive .hit.dest[data-point='{to}']")
            page.wait_for_function(
                "n => window.gammonPage.input.played.length === n", arg=i + 1, timeout=10_000
            )
        except playwright_api.TimeoutError as e:
            raise AssertionError((move, i, page.evaluate(_INPUT))) from e
    played = page.evaluate("() => window.gammonPage.input.played.map((s) => s.slice(0, 3))")
    assert played == [s[:3] for s in move["steps"]], (played, move)
    tap(page, "[data-action=confirm-dice]")
    page.wait_for_function("v => window.gammonPage.version > v", arg=v)
    return str(move["move"])


@pytest.mark.parametrize("variant", ["standard", "plakoto", "long-nardy"])
def test_phone_portrait_targets_and_taps(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], variant: str
) -> None:
    # long nardy in dark mode (a screenshot of each)
    scheme = "dark" if variant == "long-nardy" else "light"
    page = browse.page(server.url, "phone", variant, color_scheme=scheme)
    sent: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))),
    )
    # a tap selects, a second tap on a highlighted point plays (one-tap moves off: each tap
    # is then checked on its own)
    page.add_init_script("localStorage.setItem('gammon.quickMove', '0')")
    sign_up(page)
    create_table(page, variant=variant, opponent="bot", bot_level="beginner", match_length=1)
    what, seen = next_step(page)
    assert layout(page) == "portrait"
    board = in_viewport(page, "[data-testid=board]")
    assert board["width"] >= 0.97 * 390, board
    one_line_header(page)
    # every point, the bar and the tray: at least 40×40 px; text at least 11 px
    figure = smallest_hit(page)
    print(f"portrait 390x844 {variant}: smallest board target {figure:.1f} px,", end=" ")
    print(f"smallest text {smallest_text(page):.1f} px, board {board['height']:.0f} px high")
    assert figure >= 40, hits(page)
    assert smallest_text(page) >= 11
    assert not small_targets(page), small_targets(page)
    # the point numbers are upright and in order down each side: 13..18 | 19..24 on the
    # left, 12..7 | 6..1 on the right
    labels = page.evaluate(
        """() => [...document.querySelectorAll('.board .point-label')].map((t) => {
          const r = t.getBoundingClientRect();
          return [Number(t.textContent), r.x + r.width / 2, r.y + r.height / 2];
        })"""
    )
    left = [n for n, x, _ in sorted(labels, key=lambda t: t[2]) if x < 195]
    right = [n for n, x, _ in sorted(labels, key=lambda t: t[2]) if x > 195]
    assert left == list(range(13, 25)) and right == list(range(12, 0, -1)), (left, right)
    save(page, f"phone-portrait-{variant}-{scheme}")

    played = 0
    for _ in range(40):
        if played == 2 or what == "over":
            break
        ready = page.evaluate(_MOVE_TO_TAP) if what == "src" else None
        if ready:
            text = tap_a_legal_move(page, ready["move"], ready["version"])
            page.wait_for_function(
                "t => [...document.querySelectorAll('[data-testid=moves]')].some((m) =>"
                " m.textContent.includes(t))",
                arg=text,
            )
            assert [m["move"] for m in sent if m.get("type") == "move"][-1] == text
            played += 1
        elif what == "src":
            # a forced move playing itself, or the state changing: look again
            page.wait_for_timeout(200)
        else:
            take(page, what, seen)
        what, seen = next_step(page)
    assert played == 2 or what == "over"
    save(page, f"phone-portrait-{variant}-{scheme}-played")


def test_phone_portrait_drag(server: GammonServer, browse: Browse) -> None:
    """A checker dragged on the turned board lands on the point it is dropped on."""
    page = browse.page(server.url, "phone", "drag")
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    play_to_our_move(page)
    assert layout(page) == "portrait"
    src, dest = drag_step(page)
    page.wait_for_function("() => window.gammonPage.input.played.length > 0")
    first = page.evaluate("() => window.gammonPage.input.played[0].slice(0, 2)")
    assert first == [src, dest], (first, src, dest)


@pytest.mark.parametrize(
    "variant",
    [
        "nackgammon",
        "hypergammon",
        "caucasian",
        "tavla",
        "portes",
        "fevga",
        "jacquet",
        "acey-deucey",
        "tavli",
    ],
)
def test_every_variant_upright(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], variant: str
) -> None:
    """The other variants' boards on a phone held upright: every checker where the state
    and the variant's mapping put it, the targets at least 40 px, the board in view."""
    page = browse.page(server.url, "phone", variant)
    sign_up(page)
    create_table(page, variant=variant, opponent="bot", bot_level="beginner", match_length=1)
    page.wait_for_function("() => window.gammonPage.state.match !== null")
    next_action(page)
    assert layout(page) == "portrait"
    check_drawn_right(drawn(page))
    assert smallest_hit(page) >= 40, hits(page)
    assert smallest_text(page) >= 11
    in_viewport(page, "[data-testid=board]")
    save(page, f"phone-portrait-{variant}")


def test_phone_portrait_and_landscape(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "phone", "alice")
    sign_up(page)
    table = create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    next_action(page)
    board = in_viewport(page, "[data-testid=board]")
    assert board["width"] >= 0.95 * 390, board
    # the side panels follow below the buttons
    assert box(page, ".side")["y"] >= box(page, "[data-testid=controls]")["y"]
    assert not small_targets(page), small_targets(page)
    # the rows under the board keep their place when buttons come and go
    status = box(page, "[data-testid=status]")["y"]
    controls = box(page, "[data-testid=controls]")
    toast_clear_of_the_players(page)
    save(page, "phone-portrait")
    for _ in range(3):
        what = next_action(page)
        if what in ("src", "dest"):
            page.locator(".board.interactive .hit.src, .board.interactive .hit.dest").first.click()
        assert abs(box(page, "[data-testid=status]")["y"] - status) < 1
        assert box(page, "[data-testid=controls]")["height"] >= controls["height"] - 1

    # the menu opens under the one-line header and closes with Escape
    one_line_header(page)
    page.locator("[data-testid=nav-toggle]").click()
    expect(page.locator("#site-nav")).to_be_visible()
    expect(page.locator("[data-testid=nav-toggle]")).to_have_attribute("aria-expanded", "true")
    expect(page.locator("[data-testid=theme-toggle]")).to_be_in_viewport()
    page.keyboard.press("Escape")
    expect(page.locator("#site-nav")).to_be_hidden()

    # turned sideways, the same page changes its board: the whole of it, the header too
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_function("() => document.querySelector('.board').dataset.layout === 'wide'")
    in_viewport(page, "[data-testid=board]")
    one_line_header(page)
    save(page, "phone-landscape-player")
    # the main buttons (roll, confirm, undo) beside the board, in view
    in_viewport(page, "[data-testid=controls] .actions")
    assert smallest_hit(page) >= 40
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.querySelector('.board').dataset.layout === 'portrait'")

    land = browse.browser.new_context(base_url=server.url, **LANDSCAPE)
    browse.contexts.append(land)
    other = land.new_page()
    sign_up(other)
    other.goto(f"/table/{table}")
    other.wait_for_function("() => window.gammonPage && window.gammonPage.synced")
    assert layout(other) == "wide"
    save(other, "phone-landscape")
    in_viewport(other, "[data-testid=board]")
    one_line_header(other)
    # both players' names, pips and scores beside the board, in view
    for seat in ("top", "bottom"):
        expect(other.locator(f"[data-testid=player-{seat}] .name")).to_be_visible()
        in_viewport(other, f"[data-testid=player-{seat}] .score")
        in_viewport(other, f"[data-testid=player-{seat}] .pips")
        assert box(other, f"[data-testid=player-{seat}] .name")["width"] >= 40
    in_viewport(other, "[data-testid=mute]")
    toast_clear_of_the_players(other)
    # the targets: the figure reached sideways (41.5 px on 844×390)
    figure = smallest_hit(other)
    print(f"landscape 844x390: smallest board target {figure:.1f} px,", end=" ")
    print(f"smallest text {smallest_text(other):.1f} px")
    assert figure >= 40, hits(other)
    assert smallest_text(other) >= 11
    save(other, "phone-landscape")


def test_desktop_dark_mode_title_and_the_end_panel(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice", color_scheme="dark")
    sign_up(page)
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    # the toggle: light, remembered across pages
    page.locator("[data-testid=theme-toggle]").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.locator("[data-testid=theme-toggle]").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    bg = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert bg != "rgb(243, 239, 230)", bg
    what = next_action(page)
    if what in ("src", "dest", "confirm", "forced"):
        page.wait_for_function("() => document.title.startsWith('● ')")
        assert page.evaluate("() => document.querySelector('link[rel=icon]').dataset.turn") == "1"
    # the desktop board is the classic one, as it was
    assert layout(page) == "classic"
    assert page.locator("[data-testid=board]").get_attribute("viewBox") == "0 0 940 640"
    expect(page.locator("#site-nav")).to_be_visible()
    expect(page.locator("[data-testid=nav-toggle]")).to_be_hidden()
    assert box(page, "header.site")["height"] <= 56
    save(page, "desktop-dark-playing")
    page.emulate_media(color_scheme="light")
    page.evaluate("() => localStorage.removeItem('gammon.theme')")
    page.reload()
    page.wait_for_function("() => window.gammonPage && window.gammonPage.synced")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    save(page, "desktop-light-playing")
    over = resign_the_match(page)  # the end panel (a whole game played out shows the same)
    expect(over).to_be_visible()
    expect(over.locator("[data-action=rematch]")).to_be_in_viewport()
    assert not page.evaluate("() => document.title.startsWith('● ')")
    save(page, "desktop-over")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_other_seats_checkers_slide_unless_reduced_motion(
    server: GammonServer, browse: Browse, motion: str
) -> None:
    page = browse.page(server.url, "desktop", "alice", reduced_motion=motion)
    # count the animations the board starts
    page.add_init_script(
        "window.__slides = 0; const a = Element.prototype.animate;"
        " Element.prototype.animate = function (...args) {"
        " if (this.closest && this.closest('.board')) window.__slides += 1;"
        " return a.apply(this, args); };"
    )
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    # a few turns each: the bot's moves are drawn as they come
    play_until(page, lambda: int(page.evaluate("() => window.gammonPage.version")) > 30)
    slides = int(page.evaluate("() => window.__slides"))
    if motion == "reduce":
        assert slides == 0
    else:
        assert slides > 0
