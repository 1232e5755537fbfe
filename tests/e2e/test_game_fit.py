"""Issue #33, item 5 (the game page on a phone, and steadiness): the end-of-match panel fits a
390x844 screen with no toast over Rematch or Leave; the button rows do not move during play
(the layout shifts Chromium reports add up to less than 0.01, desktop and phone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    create_table,
    has,
    new_name,
    next_step,
    playwright_api,
    resign_the_match,
    shot,
    sign_up,
    take,
    version,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

#: Chromium's layout shifts (not those right after an input), summed, with their sources.
WATCH_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__shifts.push({value: e.value, sources: (e.sources || []).map((s) => {
      const n = s.node;
      const what = n && n.nodeType === 1 ? `${n.tagName}.${n.className}` : String(n && n.nodeName);
      return `${what} ${s.previousRect.y}->${s.currentRect.y} h${s.previousRect.height}->${s.currentRect.height}`;
    })});
  }
}).observe({type: 'layout-shift', buffered: true});
"""


#: The tops of the button rows under the board (the controls, and each row of buttons in
#: them) and the status line's height, in CSS pixels.
ROWS = """() => {
  const top = (n) => Math.round(n.getBoundingClientRect().top * 10) / 10;
  const controls = document.querySelector('[data-testid=controls]');
  const status = document.querySelector('[data-testid=status]');
  return {
    controls: controls ? top(controls) : null,
    rows: [...document.querySelectorAll('[data-testid=controls] .actions')].map(top),
    status: status ? [status.textContent, Math.round(status.getBoundingClientRect().height)] : null,
  };
}"""


def moved_rows(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The rows whose top moved between two reads (a row that came or went is no move)."""
    moves = []
    if before["controls"] != after["controls"]:
        moves.append(f"controls {before['controls']} -> {after['controls']}")
    for i, (a, b) in enumerate(zip(before["rows"], after["rows"], strict=False)):
        if a != b:
            moves.append(f"row {i} {a} -> {b}")
    return moves


def shifts(page: Page) -> tuple[float, list[Any]]:
    """The shifts so far: their sum, and the entries."""
    entries = page.evaluate("() => window.__shifts")
    return sum(e["value"] for e in entries), entries


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_buttons_do_not_move_during_play(
    server: GammonServer, browse: Browse, size: str
) -> None:
    page = browse.page(server.url, size, "alice")
    page.add_init_script(WATCH_SHIFTS)
    sign_up(page, new_name("a-long-player-name")[:20])  # long statuses: they may wrap
    create_table(page, opponent="bot", bot_level="beginner", match_length=3)
    page.wait_for_timeout(500)
    start, _ = shifts(page)  # the page's own loading is not play
    first = page.evaluate(ROWS)
    seen_rows = [first]
    moves = 0
    for _ in range(200):
        if moves >= 6:
            break
        if has(page, "[data-action=take]"):  # the bot doubled: one click, sent after a grace
            seen = version(page)
            page.locator("[data-action=take]").click()
            page.wait_for_function("v => window.gammonPage.version > v", arg=seen)
            continue
        try:
            what, seen = next_step(page, timeout=3000)
        except playwright_api.TimeoutError:
            continue  # the bot's turn, or its double
        if what == "over":
            break
        before = page.evaluate(ROWS)
        take(page, what, seen)
        page.wait_for_timeout(150)  # the answer drawn
        after = page.evaluate(ROWS)
        seen_rows += [before, after]
        assert not moved_rows(before, after), (what, before, after)
        assert not moved_rows(first, after), (what, first, after)
        if what in ("confirm", "forced"):
            moves += 1
    total, entries = shifts(page)
    shot(page, f"fit-play-{size}")
    heights = sorted({r["status"][1] for r in seen_rows if r["status"]})
    print(
        f"\nlayout shift during play ({size}): {total - start:.4f} ({len(entries)} entries),"
        f" {len(seen_rows)} reads of the rows, status heights {heights}"
    )
    assert total - start < 0.01, entries


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_end_panel_fits_a_phone(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], scheme: str
) -> None:
    page = browse.page(server.url, "phone", "alice", color_scheme=scheme)
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    over = resign_the_match(page)
    rematch = page.locator("[data-testid=over] [data-action=rematch]")
    expect(rematch).to_be_visible()
    page.wait_for_timeout(800)  # the smooth scroll to the panel
    shot(page, f"fit-over-phone-{scheme}")
    view = page.viewport_size
    assert view is not None
    box = over.bounding_box()
    assert box is not None
    assert box["height"] <= view["height"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"] + 1, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 1, box
    for name in ("rematch", "leave"):
        button = page.locator(f"[data-action={name}]").first
        if not button.is_visible():
            continue
        b = button.bounding_box()
        assert b is not None
        for i in range(page.locator(".toast").count()):
            t = page.locator(".toast").nth(i).bounding_box()
            if t is None:
                continue
            apart = (
                t["x"] + t["width"] <= b["x"]
                or b["x"] + b["width"] <= t["x"]
                or t["y"] + t["height"] <= b["y"]
                or b["y"] + b["height"] <= t["y"]
            )
            assert apart, f"a toast covers {name}: {t} over {b}"
