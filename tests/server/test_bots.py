"""Bot seats: a table against the bot plays to the end through the real server."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gammon.server.table.bots import BOT_LEVELS, bots_available
from serverkit import Player, wait_state

pytestmark = pytest.mark.skipif(not bots_available(), reason="gammon.bots.seat is not installed")

Make = Callable[[], Player]


def test_bot_levels_match_the_seat_module() -> None:
    from gammon.bots.bot import LEVELS

    assert set(BOT_LEVELS) == set(LEVELS)


def test_play_the_bot_to_the_end(players: Make) -> None:
    me = players()
    table = me.create(match_length=1, opponent="bot", bot_level="beginner", seat=0)
    assert table["status"] == "playing" and table["seats"][1]["kind"] == "bot"
    ws = me.connect(table["id"], seed="mine")
    for _ in range(400):
        state = wait_state(
            ws,
            lambda s: (
                s["table"]["status"] == "finished"
                or (bool(s["you"]["allowed"][:1]) and s["you"]["allowed"] != ["abandon"])
            ),
            timeout=30,
        )
        if state["table"]["status"] == "finished":
            break
        allowed = state["you"]["allowed"]
        if "move" in allowed:
            msg = {"type": "move", "move": state["match"]["moves"][0]["move"]}
        elif "accept_resign" in allowed:
            msg = {"type": "accept_resign"}
        elif "take" in allowed:
            msg = {"type": "take"}
        else:
            msg = {"type": "roll"}
        reply = ws.reply({**msg, "version": state["version"]}, timeout=30)
        # the server may have moved on (an auto-roll) since that state: "stale" is harmless
        assert reply["type"] == "ack" or reply["code"] == "stale", reply
    state = ws.state
    assert state is not None and state["table"]["status"] == "finished"
    by_bot = [m for m in ws.seen if m.get("kind") == "action" and m["data"]["by"] == "bot"]
    assert by_bot, "the bot made no decision"
    assert state["dice"]["server_seed"] is not None
    log = me.http.get(f"/matches/{table['id']}/log").text
    assert '"type": "reveal"' in log


def test_the_clocks_time_left_reaches_the_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker passes the time the table's clock leaves to ``choose_action``, which
    plays a slower level lower within it (tests/bots/test_grandmaster.py)."""
    from gammon import Dice
    from gammon.bots import seat
    from gammon.match import Roll, TableOptions, new_match
    from gammon.server.table.bots import BotRunner
    from serverkit import run_async

    given: list[object] = []

    def fake(state: object, seat_: int, level: str, **kwargs: object) -> Roll:
        given.append((level, kwargs["time_left"]))
        return Roll(seat_, Dice(1, 2))

    monkeypatch.setattr(seat, "choose_action", fake)
    runner = BotRunner(0)
    try:
        state = new_match(TableOptions(match_length=3))
        for left in (None, 2.5):
            run_async(
                lambda left=left: runner.choose(
                    state, 0, "grandmaster", Dice(1, 2), "t", time_left=left
                )
            )
    finally:
        runner.close()
    assert given == [("grandmaster", None), ("grandmaster", 2.5)]
