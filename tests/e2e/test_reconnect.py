"""The page reconnects by itself when the server is killed and started again, and catches up."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    create_table,
    drag_step,
    next_step,
    open_table,
    play_until,
    shot,
    sign_up,
    take,
    version,
)

pytestmark = pytest.mark.e2e


MY_MOVE = (
    "() => { const p = window.gammonPage; const g = p.match && p.match.game;"
    " return Boolean(g && g.phase === 'moving' && g.turn === p.mySeat); }"
)


def my_move(page: Any) -> bool:
    return bool(page.evaluate(MY_MOVE))


def wait_our_move(page: Any) -> None:
    """Wait until we have a move to play: until we play it, nothing happens at the table
    (no cube, no clock), so the page and the log can be compared."""
    page.wait_for_function(f"() => ({MY_MOVE})()")


def move_cells(page: Any) -> list[str]:
    """Every move in the page's move list, in order."""
    return list(
        page.evaluate(
            "() => window.gammonPage.moves.games.flatMap(g => g.rows.flatMap(r => r))"
            ".filter(c => c && c.kind === 'roll' && typeof c.move === 'string').map(c => c.move)"
        )
    )


def logged_moves(page: Any, table: str) -> list[str]:
    lines = page.request.get(f"/matches/{table}/log").text().splitlines()
    return [a["move"] for a in map(json.loads, lines[1:]) if a.get("type") == "move"]


def test_reconnects_after_a_server_restart_and_catches_up(
    own_server: GammonServer, browse: Browse, watch: Any, expect: Callable[..., Any]
) -> None:
    page = browse.page(own_server.url, "desktop", "alice")
    sign_up(page)
    table = create_table(page, opponent="bot", bot_level="beginner", match_length=3, cube=False)

    # get to a move of ours and make its first step (kept by the page, not sent)
    while not my_move(page):
        what, seen = next_step(page)
        if what in ("src", "dest"):
            break  # our move has come: its first step is the drag below (a click would move)
        take(page, what, seen)
    src, dest = drag_step(page)  # a drag, this time
    page.wait_for_function("() => window.gammonPage.input.played.length === 1")
    assert page.evaluate("() => window.gammonPage.input.played[0].slice(0, 2)") == [src, dest]
    before = version(page)
    conn = page.locator("[data-testid=conn]")

    # 1. a crash: the page keeps what it had and comes back by itself
    watch.allow(r"WebSocket connection to .* failed")
    own_server.kill()
    expect(conn).not_to_have_attribute("data-state", "online")
    shot(page, "reconnect-offline")
    own_server.start()
    expect(conn).to_have_attribute("data-state", "online", timeout=20_000)
    # the restart's own entry (``resume``: the running decision starts again) is the one
    # new version; it changes neither position nor dice, so the half-made move stays
    page.wait_for_function("v => window.gammonPage.version === v", arg=before + 1)
    assert page.evaluate("() => window.gammonPage.input.played.length") == 1

    # 2. while the page is cut off, the game goes on from another tab of the same player
    other = browse.page(own_server.url, "desktop", "alice-2")
    other.context.add_cookies(page.context.cookies())
    page.context.set_offline(True)
    own_server.kill()
    own_server.start()
    open_table(other, table)
    assert my_move(other)
    play_until(other, lambda: not my_move(other))
    wait_our_move(other)
    target = version(other)
    assert target > before + 1
    page.context.set_offline(False)
    page.wait_for_function("v => window.gammonPage.version >= v", arg=target, timeout=20_000)
    assert version(page) == target
    expect(conn).to_have_attribute("data-state", "online")

    # every missed event was applied once: the move list is the log's, no more, no less
    assert move_cells(page) == logged_moves(page, table)
    assert move_cells(page) == move_cells(other)
    assert page.evaluate("() => window.gammonPage.input.played.length") == 0

    # and the game goes on from the page itself
    play_until(page, lambda: version(page) > target + 1)
    wait_our_move(page)
    assert move_cells(page) == logged_moves(page, table)
    shot(page, "reconnect-after")
