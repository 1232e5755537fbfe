"""Issue #18, item 5: the board in words, its keys and the text move box; the axe-core helper
other browser tests use (:func:`axe`).

axe-core on every page, at desktop and phone size, light and dark: tests/e2e/test_axe_pages.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    create_table,
    play_to_our_move,
    sign_up,
    version,
)

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts that fail the test.
SERIOUS = ("serious", "critical")


def axe(page: Any, label: str, results: dict[str, list[str]]) -> None:
    """Run axe-core on the page as it is; record its serious and critical violations."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
        const r = await window.axe.run(document, {resultTypes: ['violations']});
        return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
    }"""
    )
    bad = [
        f"{v['impact']} {v['id']}: {v['help']} ({v['nodes']})"
        for v in found
        if v["impact"] in SERIOUS
    ]
    minor = [f"{v['impact']} {v['id']}" for v in found if v["impact"] not in SERIOUS]
    results[label] = bad
    print(f"axe-core {label}: {len(bad)} serious/critical, others: {minor or 'none'}")
    for line in bad:
        print("   ", line)


def test_the_board_in_words_keys_and_the_text_move_box(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=3)
    # the buttons and the board's targets have names; the board is described in words
    assert page.locator("[data-testid=board]").get_attribute("aria-label")
    desc = page.locator("[data-testid=board-desc]")
    expect(desc).to_contain_text("The board in words")
    expect(desc).to_contain_text(re.compile(r"\d+-point \d+"))
    play_to_our_move(page, roll=lambda: page.keyboard.press("r"))  # R presses Roll
    expect(desc).to_contain_text("Dice of")
    names = page.evaluate(
        "() => [...document.querySelectorAll('.board [role=button]')].map((b) => b.getAttribute('aria-label'))"
    )
    assert names and all(re.fullmatch(r"Point \d+|Bar|Bear off", n) for n in names), names
    # the text move box: M focuses it, Enter plays the move (read by the server's parser)
    move = page.evaluate("() => window.gammonPage.match.moves[0].move")
    page.keyboard.press("m")
    expect(page.locator("[data-testid=move-text]")).to_be_focused()
    v = version(page)
    page.keyboard.type(move)
    page.keyboard.press("Enter")
    page.wait_for_function("v => window.gammonPage.version > v", arg=v)
    expect(page.locator("[data-testid=moves]")).to_contain_text(move.split()[0])
