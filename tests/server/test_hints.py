"""Hints over the table's socket (issue #18): the bot's best moves with equities in a casual
game; refused with ``hint_refused`` in a rated game (and at a staked table: the doctests
of gammon.server.table.hints); in the variants off the backgammon board, the trained net's
equities (or the hand-made bot's score where no net ships)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gammon.dice import Dice
from gammon.match import Match, MatchState, Roll, TableOptions
from gammon.server.protocol import ServerError
from gammon.server.table.bots import bots_available
from gammon.server.table.hints import compute_hint
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
        elif reply["type"] == "hint":  # the opening was rolled while the hint was asked
            assert ws.version > state["version"], (reply, state["version"])
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


def test_a_hint_at_a_casual_plakoto_table_comes_from_the_net(players: Make) -> None:
    me = players()
    table = me.create(
        variant="plakoto", match_length=1, opponent="bot", bot_level="beginner", seat=0
    )
    ws = me.connect(table["id"], seed="mine")
    for _ in range(100):
        state = wait_state(ws, lambda s: bool(set(s["you"]["allowed"]) - {"abandon", "resign"}))
        if "move" in state["you"]["allowed"]:
            break
        assert "roll" in state["you"]["allowed"], state["you"]["allowed"]
        if state["match"]["game"]["phase"] == "turn":  # no cube in plakoto: nothing to advise
            answer = ws.reply({"type": "hint"}, timeout=60)
            # (unless the dice were rolled meanwhile: then the moves are advised)
            assert answer.get("code") == "illegal_action" or answer.get("kind") == "moves", answer
        ws.reply({"type": "roll", "version": state["version"]})
    else:
        pytest.fail("never our move")
    reply = ws.reply({"type": "hint"}, timeout=60)
    assert reply["type"] == "hint" and reply["kind"] == "moves", reply
    assert (reply["engine"], reply["measure"]) == ("net", "equity")
    hinted = reply["moves"]
    listed = {m["move"] for m in state["match"]["moves"]}
    assert 1 <= len(hinted) <= 5 and all(h["move"] in listed for h in hinted), (hinted, listed)
    equities = [h["equity"] for h in hinted]
    assert equities == sorted(equities, reverse=True)
    assert all(-2 <= e <= 2 for e in equities)


def test_no_hint_at_a_rated_plakoto_table(members: Make) -> None:
    pair = start_pair(members, variant="plakoto", match_length=1, rated=True, cube=False)
    reply = pair.ws(pair.to_act()).reply({"type": "hint"})
    assert reply["type"] == "error" and reply["code"] == "hint_refused", reply
    assert "rated" in reply["message"]


def _moving(variant: str, dice: Dice) -> MatchState:
    m = Match(TableOptions(variant=variant, match_length=1, cube=False))
    m.push(Roll(0, Dice(5, 2)))  # seat 0 wins the roll-off and rolls again
    m.push(Roll(0, dice))
    assert m.state.game.phase == "moving" and m.state.game.turn == 0
    return m.state


def test_the_hint_off_the_backgammon_board_names_its_engine_and_measure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gammon.bots import nets
    from gammon.bots.nets import NetBot, has_net

    state = _moving("plakoto", Dice(6, 6))
    hint = compute_hint(state, 0)
    assert (hint["engine"], hint["measure"]) == ("net", "equity")
    best = NetBot().rank(state.game.position, Dice(6, 6))[0]
    assert hint["moves"][0] == {"move": str(best[1]), "equity": round(best[0], 3)}
    assert has_net("jacquet")
    hint = compute_hint(_moving("jacquet", Dice(6, 5)), 0)
    assert (hint["engine"], hint["measure"]) == ("net", "equity")
    with pytest.raises(ServerError, match="nothing to advise"):
        compute_hint(state, 1)
    # acey-deucey's 1-2: the best plays of the net's staged search, never every play
    assert has_net("acey-deucey")
    bonus = _moving("acey-deucey", Dice(2, 1))
    hint = compute_hint(bonus, 0)
    assert (hint["engine"], hint["measure"]) == ("net", "equity")
    assert 1 <= len(hint["moves"]) <= 5
    for row in hint["moves"]:
        bonus.game.position.parse_move(row["move"], Dice(2, 1))
    # a variant without a net: the hand-made bot's score, which is not an equity
    monkeypatch.setattr(nets, "has_net", lambda variant: False)
    hint = compute_hint(_moving("acey-deucey", Dice(6, 5)), 0)
    assert (hint["engine"], hint["measure"]) == ("variant-bot", "score")
    assert 1 <= len(hint["moves"]) <= 5
