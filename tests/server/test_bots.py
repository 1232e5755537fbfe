"""Bot seats: a table against the bot plays to the end through the real server."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gammon.server.bots import BOT_LEVELS, bots_available
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


def test_a_short_clock_plays_the_bot_at_a_lower_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker gets the time the table's clock leaves; grandmaster falls back within it."""
    import asyncio
    from dataclasses import replace

    from gammon import Dice, Position
    from gammon.bots import seat
    from gammon.bots.bot import Bot
    from gammon.bots.evaluator import PipCountEvaluator
    from gammon.match import TableOptions, new_match
    from gammon.server.bots import BotRunner

    asked: list[str] = []

    def fake(level: str, seed: int = 0) -> Bot:
        asked.append(level)
        return Bot(PipCountEvaluator(), "expert")

    monkeypatch.setattr(seat, "bot_for_level", fake)
    state = new_match(TableOptions(match_length=3))
    position = Position.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {13: 5, 8: 3, 6: 5, 24: 2})
    game = replace(state.game, phase="moving", position=position, turn=0, dice=Dice(4, 2))
    state = replace(state, game=game)
    runner = BotRunner(0)
    try:
        for left, level in ((None, "grandmaster"), (3.0, "world-class"), (0.2, "expert")):
            asyncio.run(runner.choose(state, 0, "grandmaster", Dice(1, 2), left))
            assert asked[-1] == level
    finally:
        runner.close()
