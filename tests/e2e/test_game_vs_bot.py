"""A whole 1-point match against the bot, played by clicking, then its dice verified."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, SentFrames, create_table, play_until, shot, sign_up

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_full_game_against_the_bot_then_verify_the_dice(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], size: str
) -> None:
    page = browse.page(server.url, size, "alice")
    sent = SentFrames(page)
    name = sign_up(page)
    table = create_table(page, opponent="bot", bot_level="beginner", match_length=1, cube=False)

    # the commitment is shown before the first roll; the page made up a seed and sent it
    commitment = page.locator("[data-testid=commitment]")
    expect(commitment).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    published = commitment.inner_text()
    expect(page.locator("[data-testid=your-seed]")).to_have_text(re.compile(r"^[0-9a-f]{32}$"))
    seed = page.locator("[data-testid=your-seed]").inner_text()
    expect(page.locator("[data-testid=player-bottom] .name")).to_have_text(name)
    shot(page, f"game-start-{size}")

    clicks = play_until(page, lambda: False)
    assert clicks > 10
    # every turn was built in the page from the state's moves: no `steps` question was sent
    assert sent.count("hello") >= 1 and sent.count("move") >= 1
    assert sent.count("steps") == 0

    over = page.locator("[data-testid=over]")
    expect(over).to_be_visible()
    # the end-of-match panel and its Rematch come into view (below the board on a phone)
    expect(over.locator("[data-action=rematch]")).to_be_in_viewport()
    expect(over.locator("[data-testid=over-text]")).to_contain_text("wins the match")
    moves = page.locator("[data-testid=moves] .movetable tbody tr")
    assert moves.count() > 5
    # the list, taller than its box by now, followed the game: its newest move is in view
    # (it scrolls by itself while the reader stays at its end: dom.js, StickToBottom)
    tall, at_end = page.evaluate(
        """() => { const box = document.querySelector('[data-testid=moves]');
        return [box.scrollHeight > box.clientHeight + 4,
                box.scrollTop + box.clientHeight >= box.scrollHeight - 4]; }"""
    )
    assert tall and at_end, (tall, at_end)
    expect(page.locator("[data-testid=server-seed]")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    shot(page, f"game-over-{size}")

    links = {
        link.get_attribute("data-link"): link.get_attribute("href")
        for link in over.locator("[data-link]").all()
    }
    assert links == {
        "record": f"/matches/{table}",
        "log": f"/matches/{table}/log",
        "mat": f"/matches/{table}/mat",
        "verify": f"/matches/{table}/verify",
        "analysis": f"/matches/{table}/analysis",  # the analysis board, one click away
    }
    log = page.request.get(links["log"])
    assert log.ok
    assert seed in log.text()
    assert page.request.get(links["record"]).ok
    mat = page.request.get(links["mat"])
    assert mat.ok, mat.status
    assert "Match" in mat.text() or "match" in mat.text()

    with page.expect_navigation():
        over.locator("[data-link=verify]").click()
    verdict = page.locator("[data-testid=verdict]")
    expect(verdict).to_have_attribute("data-ok", "true")
    expect(page.locator("[data-testid=summary] [data-testid=commitment]")).to_have_text(published)
    rows = page.locator("[data-testid=rolls] tbody tr")
    assert rows.count() >= 2
    assert rows.filter(has_text="mismatch").count() == 0
    shot(page, f"verify-{size}")
