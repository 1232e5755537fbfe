"""Issue #12 on the site: the seven new variants are playable through the server.

The state carries the variant (its description and point mapping) and, for plakoto and
acey-deucey, the pinned checkers and the checkers still to enter; a cubeless variant's
table is created without sending ``cube``; a whole game of each variant is played against
the bot through the WebSocket, by the first legal move or, when the moves are left out
(an acey-deucey 1-2), step by step through ``steps``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from gammon import Position
from gammon.match import Match
from gammon.server.analysis.registry import analyser_for
from gammon.server.protocol import ServerError
from gammon.server.table.bots import bots_available
from gammon.server.table.forms import table_request
from gammon.server.table.views import MOVES_LIMIT, moves_payload, variant_view
from gammon.variants import get_variant
from serverkit import WS, Player, my_turn_or_finished, wait_state

Make = Callable[[], Player]

NEW = ("tavla", "portes", "plakoto", "fevga", "acey-deucey", "jacquet", "long-nardy")
SAME = ("fevga", "jacquet", "long-nardy")


def test_variant_view_carries_the_description_and_the_mapping() -> None:
    for name in NEW:
        view = variant_view(name)
        v = get_variant(name)
        assert view["name"] == name and view["cube"] is False
        assert view["geometry"] == v.geometry()
        assert view["other_point"][1:25] == [v.other_point(p) for p in range(1, 25)]
        direction = "same" if name in SAME else "opposite"
        assert view["geometry"]["direction"] == direction
        # a .mat file (and SGF) knows only the backgammon board
        assert view["mat"] is (name in ("tavla", "portes"))
    assert variant_view("standard")["mat"] is True
    assert variant_view("fevga")["other_point"][24] == 12
    assert variant_view("plakoto")["other_point"][24] == 1


def test_an_acey_deucey_1_2_leaves_the_moves_out() -> None:
    # a middle game where the 1-2 and the double of one's choice give ~13,000 moves
    position = Position.from_position_id("QIBys0RgIEEDAA:w7.3", "acey-deucey")
    payload = moves_payload(position, (1, 2))
    assert payload["moves"] is None and payload["moves_omitted"] is True
    assert payload["forced"] is False and payload["step_options"]["steps"]
    assert len(json.dumps(payload)) < 5_000
    small = moves_payload(position, (6, 5))
    assert small["moves_omitted"] is False and 0 < len(small["moves"]) <= MOVES_LIMIT


def test_the_cube_follows_the_variant_when_not_sent() -> None:
    for name in NEW:
        assert table_request({"variant": name}, form=False).options.cube is False
        # the lobby form: an unticked (or disabled) cube box is not sent
        assert (
            table_request({"variant": name, "match_length": "3"}, form=True).options.cube is False
        )
        # a form sent without the lobby's script, the cube options still ticked
        ticked = {"variant": name, "cube": "on", "beaver": "on", "cube_limit": "8"}
        assert table_request(ticked, form=True).options.cube is False
        with pytest.raises(ServerError, match="played without a cube"):
            table_request({"variant": name, "cube": True}, form=False)
    assert table_request({"variant": "standard"}, form=False).options.cube is True


def test_cubeless_tables_through_the_api_and_the_form(players: Make) -> None:
    me = players()
    table = me.create(variant="plakoto", match_length=3)
    assert table["options"]["variant"] == "plakoto" and table["options"]["cube"] is False
    page = me.http.get("/").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf is not None
    # the lobby marks the cubeless variants for its script
    for name in NEW:
        assert f'value="{name}" data-cubeless' in page
    made = me.http.post(
        "/tables",
        data={"csrf_token": csrf.group(1), "variant": "fevga", "match_length": "3"},
    )
    assert made.status_code == 303, made.text
    table_id = made.headers["location"].rsplit("/", 1)[1]
    got = me.http.get(f"/api/tables/{table_id}").json()
    got = got.get("table", got)
    assert got["options"]["variant"] == "fevga" and got["options"]["cube"] is False


def _act(ws: WS, state: dict[str, Any]) -> dict[str, Any]:
    """One message for what the seat may do now (a move, step by step if need be)."""
    allowed = state["you"]["allowed"]
    if "move" in allowed:
        m = state["match"]
        if m["moves"] is not None:
            return {"type": "move", "move": m["moves"][0]["move"]}
        assert m["moves_omitted"] is True
        played: list[list[int]] = []
        options = m["step_options"]
        while not (options["complete"] and (not options["steps"] or len(played) >= 6)):
            step = options["steps"][0]
            played.append(step[:3])
            options = ws.reply({"type": "steps", "played": played}, timeout=30)
            assert options["type"] == "steps", options
        return {"type": "move", "move": options["move"]}
    if "accept_resign" in allowed:
        return {"type": "accept_resign"}
    return {"type": "roll"}


def play_to_the_end(me: Player, variant: str, length: int = 1) -> tuple[dict[str, Any], WS]:
    table = me.create(variant=variant, match_length=length, opponent="bot", bot_level="beginner")
    ws = me.connect(table["id"], seed="mine")
    for _ in range(1500):
        state = wait_state(
            ws,
            my_turn_or_finished,
            timeout=60,
        )
        if state["table"]["status"] == "finished":
            break
        msg = _act(ws, state)
        reply = ws.reply({**msg, "version": state["version"]}, timeout=60)
        assert reply["type"] == "ack" or reply["code"] == "stale", reply
    state = ws.state
    assert state is not None and state["table"]["status"] == "finished", variant
    return state, ws


@pytest.mark.skipif(not bots_available(), reason="gammon.bots.seat is not installed")
@pytest.mark.parametrize("variant", NEW)
def test_a_whole_game_against_the_bot(players: Make, variant: str) -> None:
    start = time.monotonic()
    me = players()
    state, ws = play_to_the_end(me, variant)
    v = state["table"]["variant"]
    assert v["name"] == variant and v["cube"] is False
    assert v["other_point"][1:25] == [get_variant(variant).other_point(p) for p in range(1, 25)]
    states = [m.get("state") or m for m in ws.seen if m.get("type") in ("state", "event")]
    games = [s["match"]["game"] for s in states if s.get("match")]
    assert games
    for g in games:
        # views._board: pip counts (a checker to enter counts 25) and a Position ID
        # with the variant's suffix for pins or checkers to enter
        if g["phase"] == "over":
            continue  # the final board comes seen from the loser (see main.js sentBoard)
        for seat in (0, 1):
            wait = g["waiting"][seat] if g["waiting"] else 0
            pips = sum(i * n for i, n in enumerate(g["board"][seat])) + 25 * wait
            assert g["pips"][seat] == pips, (seat, g)
        assert isinstance(g["position_id"], str) and len(g["position_id"]) >= 14
        if g["waiting"] and any(g["waiting"]):
            assert ":w" in g["position_id"]
        if g["pinned"] and any(g["pinned"]):
            assert ":p" in g["position_id"]
    kinds = [
        e["kind"] for m in ws.seen if m.get("type") == "event" for e in m["data"].get("events", [])
    ]
    if variant in ("plakoto", "acey-deucey"):
        assert all(isinstance(g["pinned"], list) and isinstance(g["waiting"], list) for g in games)
    if variant == "plakoto":
        assert any(any(g["pinned"]) for g in games), "no pin in a whole plakoto game"
        assert all(g["waiting"] == [0, 0] for g in games)
    if variant == "acey-deucey":
        assert any(g["waiting"][0] > 0 for g in games)
        assert all(g["pinned"] == [[], []] for g in games)
    if variant not in ("plakoto", "acey-deucey"):
        assert all(g["pinned"] is not None or g["waiting"] is None for g in games)
    bot = [m for m in ws.seen if m.get("kind") == "action" and m["data"]["by"] == "bot"]
    assert bot, "the bot made no decision"
    assert "doubled" not in kinds
    assert state["match"]["games"][0]["reason"] in ("bear_off", "mother")
    # the match page links the .mat file only where the format can describe the variant
    match_page = me.http.get(f"/matches/{state['table']['id']}")
    assert match_page.status_code == 200
    assert (f"/matches/{state['table']['id']}/mat" in match_page.text) is v["mat"]
    # the analysis board replays every variant; bgsage judges the backgammon board's, the
    # trained nets the variants that ship one (plakoto, fevga, long nardy), none the others
    assert f"/matches/{state['table']['id']}/analysis" in match_page.text
    analysable = analyser_for(variant) is not None
    assert ("Analyse the match" in match_page.text) is analysable
    if not analysable:
        refused = me.http.get(f"/api/tables/{state['table']['id']}/analysis")
        assert refused.status_code == 404, refused.text
        assert refused.json()["error"]["code"] == "not_available"
    assert time.monotonic() - start < 120


@pytest.mark.skipif(not bots_available(), reason="gammon.bots.seat is not installed")
def test_acey_deucey_by_steps_alone_and_the_roll_again(
    players: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every move left out (as for a 1-2): the client plays by ``steps`` and sends the
    ``move`` text they end with; after a 1-2 the same seat rolls again."""
    from gammon.server.table import views

    monkeypatch.setattr(views, "MOVES_LIMIT", -1)
    views.forget_moves()
    try:
        for _ in range(4):  # a 1-2 comes ~9 times a game: four games without one are 1e-8
            state, ws = play_to_the_end(players(), "acey-deucey")
            assert state["match"]["games"][0]["reason"] == "bear_off"
            mine = [
                (m.get("state") or m)["match"]
                for m in ws.seen
                if m.get("type") in ("state", "event")
                and (m.get("state") or m).get("match")
                and "move" in (m.get("state") or m)["you"]["allowed"]
            ]
            assert mine and all(
                x.get("moves_kept") or (x["moves"] is None and x["moves_omitted"]) for x in mine
            )
            events = [
                e for m in ws.seen if m.get("type") == "event" for e in m["data"].get("events", [])
            ]
            again = [i for i, e in enumerate(events) if e["kind"] == "roll_again"]
            for i in again:
                # the next roll is the same seat's
                rolled = next(e for e in events[i + 1 :] if e["kind"] == "rolled")
                assert rolled["player"] == events[i]["player"], events[i : i + 3]
            if again:
                break
        else:
            pytest.fail("no 1-2 in four acey-deucey games")
    finally:
        views.forget_moves()


@pytest.mark.skipif(not bots_available(), reason="gammon.bots.seat is not installed")
def test_a_whole_tavli_match_against_the_bot(players: Make) -> None:
    """Tavli to 3 points: the state switches variant with each game (portes, plakoto,
    fevga), the move list's events and the match page name each game's variant, and the
    action log replays the whole match."""
    rotation = ["portes", "plakoto", "fevga"]
    me = players()
    state, ws = play_to_the_end(me, "tavli", length=3)
    table_id = state["table"]["id"]
    assert state["table"]["options"]["variant"] == "tavli"
    assert state["table"]["options"]["first_move"] == "winner"
    assert state["match"]["rotation"] == rotation
    states = [m.get("state") or m for m in ws.seen if m.get("type") in ("state", "event")]
    shown = {
        (s["match"]["game"]["number"], s["table"]["variant"]["name"])
        for s in states
        if s.get("match")
    }
    assert {n for n, _ in shown} >= {1, 2}, "the match ended in one game"
    for number, name in shown:
        assert name == rotation[(number - 1) % 3], (number, name)
    games = state["match"]["games"]
    assert max(state["match"]["score"]) == 3 and len(games) >= 2
    assert [g["variant"] for g in games] == [rotation[i % 3] for i in range(len(games))]
    assert all(g["points"] in (1, 2) for g in games)
    events = [e for m in ws.seen if m.get("type") == "event" for e in m["data"].get("events", [])]
    started = [e for e in events if e["kind"] == "game_started"]
    assert [e["data"]["variant"] for e in started] == [
        rotation[i % 3] for i in range(1, len(games))
    ]
    # the winner of each game starts the next one, with an ordinary roll
    for game, e in zip(games, started, strict=False):
        assert e["player"] == game["winner"] and e["data"]["phase"] == "turn"
    page = me.http.get(f"/matches/{table_id}").text
    for game in games:
        assert f'data-variant="{game["variant"]}"' in page
    assert f"/matches/{table_id}/mat" not in page
    # tavli is analysed game by game (bgsage for portes, the nets for plakoto and fevga)
    assert ("Analyse the match" in page) is (analyser_for("tavli") is not None)
    steps = me.http.get(f"/api/tables/{table_id}/replay")
    assert steps.status_code == 200, steps.text
    refused = me.http.get(f"/matches/{table_id}/mat")
    assert refused.status_code >= 400 and "tavli" in refused.text
    log = me.http.get(f"/matches/{table_id}/log").text
    replayed = Match.from_log(log).state
    assert list(replayed.score) == state["match"]["score"] and replayed.over
    assert [o.winner for o in replayed.games] == [g["winner"] for g in games]
