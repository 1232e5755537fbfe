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
