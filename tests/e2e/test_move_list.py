"""Issue #20: the game page asks for older games on request.

A snapshot carries the current game only; a long money session's earlier games come by page
(``history``), one request per game, kept by the page.  The table is written straight to the
database (``tests/journalkit.py``) rather than played through the browser.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, SentFrames, open_table, shot
from gammon.server.community.auth import SESSION_COOKIE
from journalkit import LongTable, write_long_session

pytestmark = pytest.mark.e2e

#: Games over before the one in play.
GAMES = 5


@pytest.fixture
def long_table(chromium: str, tmp_path: Path) -> Iterator[tuple[GammonServer, LongTable]]:
    """A server resuming a money session whose first GAMES games are over."""
    db = tmp_path / "gammon.db"
    table = write_long_session(f"sqlite:///{db}", GAMES, plies=12, seed=7)
    srv = GammonServer(db)
    srv.start()
    yield srv, table
    srv.stop()


def _logged_games(page: Any, table: str) -> list[list[str]]:
    """The moves of each game, from the action log (each game there ends in an abandon)."""
    games: list[list[str]] = [[]]
    for line in page.request.get(f"/matches/{table}/log").text().splitlines()[1:]:
        action = json.loads(line)
        if action.get("type") == "move" and action.get("move") not in (None, "", "pass"):
            games[-1].append(action["move"])
        elif action.get("type") == "abandon":
            games.append([])
    return games


_SHOWN = """(n) => {
  const section = document.querySelector(`[data-testid=earlier-games] section[data-game="${n}"]`);
  return section ? [...section.querySelectorAll('td:not(.n)')].map((td) => td.textContent) : null;
}"""


def test_earlier_games_load_on_request(
    long_table: tuple[GammonServer, LongTable], browse: Browse, expect: Callable[..., Any]
) -> None:
    server, table = long_table
    page = browse.page(server.url, "desktop", "player")
    page.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": table.tokens[0], "url": server.url}]
    )
    sent = SentFrames(page)
    open_table(page, table.table_id)
    assert page.evaluate("() => window.gammonPage.mySeat") == 0
    # the snapshot holds the game in play only
    assert page.evaluate("() => window.gammonPage.moves.firstGame") == GAMES + 1
    shown = page.evaluate("() => window.gammonPage.moves.games.map((g) => g.number)")
    assert shown == [GAMES + 1]
    earlier = page.locator("[data-testid=earlier-games]")
    toggle = earlier.locator("[data-action=earlier-games]")
    expect(toggle).to_have_text("Earlier games…")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    assert sent.count("history") == 0  # nothing is asked before the reader wants it

    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    picks = earlier.locator("button[data-game]")
    expect(picks).to_have_count(GAMES)
    logged = _logged_games(page, table.table_id)

    # game 2: one request, its moves as the log has them, its result
    picks.nth(1).click()
    section = earlier.locator("section[data-game='2']")
    expect(section).to_be_visible()
    expect(section.locator(".result")).to_contain_text("wins")
    assert sent.count("history") == 1
    assert sent.messages[-1]["game"] == 2
    cells = page.evaluate(_SHOWN, 2)
    moves = [c.split(": ", 1)[1] for c in cells if ": " in c and c.split(": ", 1)[1]]
    assert sorted(moves) == sorted(logged[1]) and moves, (moves, logged[1])

    # closed and opened again: kept, not asked again
    picks.nth(1).click()
    expect(section).to_have_count(0)
    picks.nth(1).click()
    expect(section).to_be_visible()
    # the first game too; each game's request once
    picks.nth(0).click()
    expect(earlier.locator("section[data-game='1']")).to_be_visible()
    assert sent.count("history") == 2
    cells = page.evaluate(_SHOWN, 1)
    moves = [c.split(": ", 1)[1] for c in cells if ": " in c and c.split(": ", 1)[1]]
    assert sorted(moves) == sorted(logged[0]) and moves
    # the games read in order, above the game in play
    order = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=moves] section.game-moves')]"
        ".map((s) => Number(s.dataset.game))"
    )
    assert order == [1, 2, GAMES + 1]
    shot(page, "move-list-earlier-games")
