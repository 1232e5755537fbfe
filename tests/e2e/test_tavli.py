"""Greek tavli in the browser: the board switches from portes to plakoto between games.

A 3-point tavli match against the bot: a move of portes is played by clicking, then we
abandon the game (2 points to the bot: no triple game in tavli), and the next game is
plakoto, started by the bot (the winner starts): the page must take the new variant from
the state, draw plakoto's start (all fifteen on each 24-point, the two sides facing each
other), and the move list heads each game with its variant.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, confirm, create_table, shot, sign_up
from e2e.test_variants import check_drawn_right, drawn, play_moves

pytestmark = pytest.mark.e2e


def test_tavli_switches_variant_between_games(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "tavli")
    sign_up(page)
    # the lobby says what tavli is once it is chosen
    expect(page.locator("#tavli-note")).to_be_hidden()
    page.locator("#create-table select[name=variant]").select_option("tavli")
    expect(page.locator("#tavli-note")).to_be_visible()
    create_table(page, variant="tavli", opponent="bot", bot_level="beginner", match_length=3)
    page.wait_for_function("() => window.gammonPage.state.match !== null")
    d = drawn(page)
    assert d["variant"]["name"] == "portes" and d["cube"] == 0
    check_drawn_right(d)
    assert page.evaluate("() => window.gammonPage.state.table.options.first_move") == "winner"
    play_moves(page, 1)
    check_drawn_right(drawn(page))
    expect(page.locator(".game-moves[data-game='1'] .variant")).to_have_attribute(
        "data-variant", "portes"
    )
    shot(page, "tavli-portes")

    confirm(page, "abandon")
    page.wait_for_function("() => window.gammonPage.state.match.game.number === 2")
    page.wait_for_function("() => window.gammonPage.state.table.variant.name === 'plakoto'")
    d = drawn(page)
    assert d["variant"]["geometry"]["landing"] == "pin"
    assert page.evaluate("() => window.gammonPage.state.match.score") == [0, 2]
    check_drawn_right(d)
    me, them = d["seat"], 1 - d["seat"]
    # plakoto's start, wherever the bot (the winner, who starts) has played from it
    assert d["drawn"][me] == {"24": 15}  # the bot starts: we have not moved yet
    # the opponent's 24-point is our 1-point; its first roll moves at most four checkers
    assert d["drawn"][them].get("1", 0) >= 11 and sum(d["drawn"][them].values()) == 15
    expect(page.locator(".game-moves[data-game='2'] .variant")).to_have_attribute(
        "data-variant", "plakoto"
    )
    play_moves(page, 1)
    check_drawn_right(drawn(page))
    shot(page, "tavli-plakoto")
