"""Issue #18, item 5: every page checked with axe-core (no serious or critical violation).

axe-core comes from npm (``node_modules/axe-core``, a dev dependency in package.json,
installed by ``npm ci``) and is injected by Playwright into each page: the lobby, sign up and
sign in, the account, a game against the bot (while playing and at the end), the match page,
the verification page, the analysis page, the rules pages, watching, the leaderboard, a
player's profile, challenges, tournaments and the import form; in light and dark colour
schemes.  The result is
printed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import (
    CI,
    Browse,
    GammonServer,
    create_table,
    next_action,
    play_to_our_move,
    play_until,
    resign_the_match,
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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation_on_any_page(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], scheme: str
) -> None:
    if not AXE.exists():
        if CI:
            pytest.fail("node_modules/axe-core is missing: run npm ci")
        pytest.skip("node_modules/axe-core is missing (npm ci)")
    # the site's Content-Security-Policy allows no injected script: bypassed for axe-core
    page = browse.page(server.url, "desktop", "alice", bypass_csp=True, color_scheme=scheme)
    results: dict[str, list[str]] = {}
    print()
    page.goto("/signup")
    axe(page, "sign up", results)
    page.goto("/signin")
    axe(page, "sign in", results)
    sign_up(page)
    page.goto("/")
    axe(page, "lobby", results)
    page.goto("/account")
    axe(page, "account", results)
    table = create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    next_action(page)
    axe(page, "game (playing)", results)
    # a few turns each (the record, the analysis and the match pages then have moves to
    # show), then a resignation ends the match: a whole game took most of this test's time
    start = version(page)
    play_until(page, lambda: version(page) >= start + 12)
    if not page.locator("[data-testid=over]").is_visible():
        resign_the_match(page)
    expect(page.locator("[data-testid=over]")).to_be_visible()
    axe(page, "game (over)", results)
    name = page.evaluate("() => window.gammonPage.state.table.seats.find((s) => s && !s.bot).name")
    for label, path in (
        ("match", f"/matches/{table}"),
        ("verify", f"/matches/{table}/verify"),
        ("analysis", f"/matches/{table}/analysis"),
        ("rules", "/rules"),
        ("rules of plakoto", "/rules/plakoto"),
        ("watch", "/watch"),
        ("leaderboard", "/leaderboard"),
        ("profile", f"/@/{name}"),
        ("challenges", "/challenges"),
        ("tournaments", "/tournaments"),
        ("import", "/import"),
    ):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        axe(page, label, results)
    failing = {k: v for k, v in results.items() if v}
    assert not failing, failing


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
