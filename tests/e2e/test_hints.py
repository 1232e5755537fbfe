"""Issue #18, item 2: the Hint button (the bot's best moves with equities) against the bot,
in standard backgammon and in plakoto (the trained net's equities), and none in a rated game
between two people (the server refuses it there: tests/server/test_hints.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    create_table,
    open_table,
    play_to_our_move,
    sign_up,
)

pytestmark = pytest.mark.e2e


def test_a_hint_against_the_bot(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    play_to_our_move(page)
    page.keyboard.press("h")  # the shortcut presses the Hint button
    moves = page.locator("[data-testid=hint-moves] li")
    expect(moves.first).to_be_visible()
    listed = set(page.evaluate("() => window.gammonPage.match.moves.map((m) => m.move)"))
    texts = [moves.nth(i).locator(".hint-move").inner_text() for i in range(moves.count())]
    assert texts and set(texts) <= listed, (texts, listed)
    expect(moves.first).to_contain_text(re.compile(r"equity [+-]\d\.\d{3}"))


def test_a_plakoto_hint_against_the_bot_comes_from_the_net(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    sign_up(page)
    create_table(page, variant="plakoto", opponent="bot", bot_level="beginner", match_length=1)
    play_to_our_move(page)
    page.locator("[data-action=hint]").click()
    moves = page.locator("[data-testid=hint-moves] li")
    expect(moves.first).to_be_visible()
    listed = set(page.evaluate("() => window.gammonPage.match.moves.map((m) => m.move)"))
    texts = [moves.nth(i).locator(".hint-move").inner_text() for i in range(moves.count())]
    assert texts and set(texts) <= listed, (texts, listed)
    expect(moves.first).to_contain_text(re.compile(r"equity [+-]\d\.\d{3}"))
    expect(page.locator("[data-testid=hint-engine]")).to_contain_text("trained neural net")


def test_no_hint_in_a_rated_game(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")
    bob = browse.page(server.url, "desktop", "bob")
    sign_up(alice)
    sign_up(bob)
    table = create_table(alice, opponent="human", match_length=3, rated=True)
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    for page in (alice, bob):
        page.wait_for_function("() => window.gammonPage.match && window.gammonPage.match.game")
        expect(page.locator("[data-action=resign], [data-action=abandon]").first).to_be_visible()
        assert page.locator("[data-action=hint]").count() == 0
