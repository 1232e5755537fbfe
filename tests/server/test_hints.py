"""Hints over the table's socket (issue #18): the bot's best moves with equities in a casual
game; refused with ``hint_refused`` in a rated game (and at a staked table: the doctests
of gammon.server.hints)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gammon.server.bots import bots_available
from serverkit import Player, start_pair, wait_state

pytestmark = pytest.mark.skipif(not bots_available(), reason="gammon.bots.seat is not installed")

Make = Callable[[], Player]


def test_a_hint_against_the_bot_lists_the_best_moves(players: Make) -> None:
    me = players()
    table = me.create(match_length=3, opponent="bot", bot_level="beginner", seat=0)
    ws = me.connect(table["id"], seed="mine")
    for _ in range(100):
        state = wait_state(ws, lambda s: bool(set(s["you"]["allowed"]) - {"abandon", "resign"}))
        allowed = state["you"]["allowed"]
        if "move" in allowed:
            break
        assert "roll" in allowed or "double" in allowed, allowed
        reply = ws.reply({"type": "hint"}, timeout=60)
        if state["match"]["game"]["phase"] == "turn":
            assert reply["type"] == "hint" and reply["kind"] == "cube", reply
            assert reply["action"]
        else:  # the opening roll: nothing to advise on
            assert reply["code"] == "illegal_action", reply
        ws.reply({"type": "roll", "version": state["version"]})
    else:
        pytest.fail("never our move")
    reply = ws.reply({"type": "hint"}, timeout=60)
    assert reply["type"] == "hint" and reply["kind"] == "moves", reply
    listed = {m["move"] for m in state["match"]["moves"]}
    hinted = reply["moves"]
    assert 1 <= len(hinted) <= 5
    assert all(h["move"] in listed for h in hinted), (hinted, listed)
    equities = [h["equity"] for h in hinted]
    assert equities == sorted(equities, reverse=True)


def test_no_hint_in_a_rated_game_but_in_a_casual_one(members: Make) -> None:
    pair = start_pair(members, match_length=3, rated=True)
    reply = pair.ws(pair.to_act()).reply({"type": "hint"})
    assert reply["type"] == "error" and reply["code"] == "hint_refused", reply
    assert "rated" in reply["message"]
    pair = start_pair(members, match_length=3)
    ws = pair.ws(pair.to_act())
    state = wait_state(ws, lambda s: bool(s["you"]["allowed"]))
    reply = ws.reply({"type": "hint"}, timeout=60)
    if "move" in state["you"]["allowed"]:
        assert reply["type"] == "hint" and reply["kind"] == "moves", reply
    else:
        assert reply.get("code") != "hint_refused", reply


def test_no_hint_for_a_spectator_or_before_the_match(players: Make) -> None:
    me = players()
    table = me.create(match_length=3, opponent="human")
    ws = me.connect(table["id"])
    assert ws.reply({"type": "hint"})["code"] == "not_started"
