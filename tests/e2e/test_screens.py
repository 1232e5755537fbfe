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

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, create_table, next_action, play_until, sign_up

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
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return dict(found)


def small_targets(page: Any) -> list[str]:
    """Visible buttons of the game page under 40×40 px, and board targets under 40 px high
    or 24 px wide (a point is a twelfth of the half-board: 25 px wide on a 390-px phone,
    110 px high)."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('#game button, #game .board [role=button]')]
            .filter((b) => b.offsetParent !== null || b.closest('svg'))
            .map((b) => [b, b.getBoundingClientRect()])
            .filter(([b, r]) => r.width > 0 && (r.height < 39.5
              || r.width < (b.closest('svg') ? 24 : 39.5)))
            .map(([b, r]) => `${b.dataset.action || b.dataset.point || b.textContent} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
    )


def test_phone_portrait_and_landscape(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "phone", "alice")
    sign_up(page)
    table = create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    next_action(page)
    board = box(page, "[data-testid=board]")
    assert board["width"] >= 0.95 * 390, board
    assert board["x"] + board["width"] <= 390.5
    assert board["y"] + board["height"] <= 844, board
    # the side panels follow below the buttons
    assert box(page, ".side")["y"] >= box(page, "[data-testid=controls]")["y"]
    assert not small_targets(page), small_targets(page)
    # the rows under the board keep their place when buttons come and go
    status = box(page, "[data-testid=status]")["y"]
    controls = box(page, "[data-testid=controls]")
    page.evaluate("() => window.gammonPage.toast('a long message to see where toasts go', 'warn')")
    toast = box(page, ".toast")
    pips = box(page, "[data-testid=player-bottom]")
    assert (
        toast["y"] >= pips["y"] + pips["height"]
        or toast["y"] + toast["height"] <= box(page, "[data-testid=player-top]")["y"]
    ), (toast, pips)
    save(page, "phone-portrait")
    for _ in range(3):
        what = next_action(page)
        if what in ("src", "dest"):
            page.locator(".board.interactive .hit.src, .board.interactive .hit.dest").first.click()
        assert abs(box(page, "[data-testid=status]")["y"] - status) < 1
        assert box(page, "[data-testid=controls]")["height"] >= controls["height"] - 1

    land = browse.browser.new_context(base_url=server.url, **LANDSCAPE)
    browse.contexts.append(land)
    other = land.new_page()
    sign_up(other)
    other.goto(f"/table/{table}")
    other.wait_for_function("() => window.gammonPage && window.gammonPage.synced")
    b = box(other, "[data-testid=board]")
    assert b["y"] >= 0 and b["y"] + b["height"] <= 390.5, b
    assert b["x"] >= 0 and b["x"] + b["width"] <= 844.5, b
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
    save(page, "desktop-dark-playing")
    page.emulate_media(color_scheme="light")
    page.evaluate("() => localStorage.removeItem('gammon.theme')")
    page.reload()
    page.wait_for_function("() => window.gammonPage && window.gammonPage.synced")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    save(page, "desktop-light-playing")
    play_until(page, lambda: False)
    over = page.locator("[data-testid=over]")
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
