"""Issue #30, the fair-play check on the site (docs/fairplay.md): every rated match that
ends is analysed (nobody asks for it) and each account gets a ``fairplay_checks`` row;
an account that plays the analyser's moves against a weak history of its own is flagged
(and the moderators' log says so); casual tables are not checked."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("bgsage", reason="the fair-play check analyses matches: the bot extra")

from sqlalchemy import delete, select

from gammon import Position
from gammon.bots.bot import Bot
from gammon.bots.equity import ScoreContext
from gammon.server.infra.settings import Settings
from gammon.storage import Database, Store
from gammon.storage.fairplay import CheckRow, FairPlayChecks, FairPlayRow
from gammon.storage.moderation_models import FairPlayCheck, ModLog
from serverkit import (
    REDIS_URL,
    Pair,
    Player,
    RunningServer,
    member,
    play_move,
    postgres_schema,
    resign,
    start_pair,
    start_server,
    wait_state,
)
from serverkit import test_settings as settings_in


@pytest.fixture
def checks(server: RunningServer) -> Iterator[FairPlayChecks]:
    db = Database(server.settings.database_url)
    yield FairPlayChecks(db)
    db.close()


def _user_id(server: RunningServer, name: str) -> int:
    db = Database(server.settings.database_url)
    try:
        user = Store(db).user_by_name(name)
        assert user is not None
        return user.id
    finally:
        db.close()


def _rows(
    checks: FairPlayChecks, table_id: str, count: int, timeout: float = 90
) -> list[FairPlayRow]:
    """The table's checks once there are ``count`` (the analysis runs in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        rows = checks.for_table(table_id)
        if len(rows) >= count or time.monotonic() > deadline:
            return rows
        time.sleep(0.2)


def _pair(a: Player, b: Player, **options: Any) -> Pair:
    seated = iter((a, b))
    return start_pair(lambda: next(seated), **options)


def test_every_rated_match_is_analysed_and_checked_casual_ones_are_not(
    server: RunningServer, members: Callable[[], Player], checks: FairPlayChecks
) -> None:
    a, b = members(), members()
    casual = _pair(members(), members(), match_length=1)
    play_move(casual)
    resign(casual)
    rated = _pair(a, b, match_length=1, rated=True)
    play_move(rated)
    play_move(rated)
    resign(rated)
    wait_state(rated.ws(0), lambda s: s["table"]["status"] == "finished")
    rows = _rows(checks, rated.table, 2)
    ids = {_user_id(server, p.name) for p in (a, b)}
    assert {r.user_id for r in rows} == ids
    for r in rows:  # a few decisions: never flagged, whatever they were
        assert r.decisions < 40 and not r.flagged and r.baseline is None
        assert 0.0 <= r.bot_agreement <= 1.0 and r.error_rate >= 0.0
    # the analysis was stored, and the profiles' error rates kept, as if a player had asked
    analysis = server.app.state.gammon.analysis.runner
    assert analysis.cached(rated.table, "expert") is not None
    assert checks.for_table(casual.table) == []  # not rated: not checked


def _choose(bot: Bot, state: dict[str, Any]) -> str:
    """The move ``bot`` plays in the state sent to the mover (a 7-point match, no cube)."""
    match, game = state["match"], state["match"]["game"]
    seat = state["you"]["seat"]
    position = Position.from_position_id(game["position_id"])
    ctx = ScoreContext(
        match_length=match["length"],
        away_me=match["length"] - match["score"][seat],
        away_opp=match["length"] - match["score"][1 - seat],
        crawford_game=match["crawford"],
        post_crawford=match["post_crawford"],
        cube_enabled=False,
    )
    move = str(bot.choose_move(position, tuple(game["dice"]), ctx))
    offered = [m["move"] for m in match["moves"]]
    assert move in offered, (move, offered)
    return move


def _moving(state: dict[str, Any], seat: int) -> bool:
    match = state["match"]
    return match["game"]["phase"] == "moving" and match["to_act"] == [seat] and bool(match["moves"])


def _play_until(pair: Pair, bots: tuple[Bot, Bot], seat: int, decisions: int) -> None:
    """Both seats play their bot's moves (rolling when asked) until ``seat`` has made
    ``decisions`` non-forced checker plays."""
    made = 0
    while made < decisions:
        state = wait_state(pair.ws(0), lambda s: len(s["match"]["to_act"]) == 1)
        assert state["table"]["status"] == "playing"
        mover = state["match"]["to_act"][0]
        ws = pair.ws(mover)
        try:  # the server rolls by itself at a table without a cube: wait for it first
            mine = wait_state(ws, lambda s, m=mover: _moving(s, m), timeout=0.5)
        except TimeoutError:
            mine = ws.state
            if mine is None or "roll" not in mine["you"]["allowed"]:
                pair.settle()  # the turn passed (a roll that could not be played)
                continue
            reply = ws.reply({"type": "roll"})
            if reply["type"] == "error" and reply["code"] == "illegal_action":
                # the server's own roll came after the half second (CI: "player 1 cannot
                # roll now: it is player 1's turn to move"): play it at the next turn
                pair.settle()
                continue
        else:
            moves = mine["match"]["moves"]
            move = moves[0]["move"] if len(moves) == 1 else _choose(bots[mover], mine)
            made += mover == seat and len(moves) > 1
            reply = ws.reply({"type": "move", "move": move, "version": mine["version"]})
        assert reply["type"] == "ack", reply
        wait_state(pair.ws(0), lambda s, v=reply["version"]: s["version"] >= v)


def _resign_match(pair: Pair) -> None:
    """The player to act resigns backgammons until the match is over (the server's own
    rolls may move the table on between a look and the resignation: then look again)."""
    for _ in range(50):
        pair.settle()
        state = pair.ws(0).state
        assert state is not None
        if state["table"]["status"] == "finished":
            return
        seat = pair.to_act()
        ws = pair.ws(seat)
        assert ws.state is not None
        if "resign" not in ws.state["you"]["allowed"]:
            continue
        reply = ws.reply({"type": "resign", "level": 3, "version": ws.state["version"]})
        if reply["type"] != "ack":
            continue
        other = pair.ws(1 - seat)
        mine = wait_state(other, lambda s: "accept_resign" in s["you"]["allowed"])
        assert other.reply({"type": "accept_resign", "version": mine["version"]})["type"] == "ack"
    raise AssertionError("the match did not end")


def test_an_account_playing_the_analysers_moves_is_flagged_for_the_moderators(
    server: RunningServer, members: Callable[[], Player], checks: FairPlayChecks
) -> None:
    cheat, honest = members(), members()
    cheat_id, honest_id = (_user_id(server, p.name) for p in (cheat, honest))
    for i in range(5):  # the cheater's own play so far: a weak club player's
        checks.record(CheckRow(f"past{i}", cheat_id, 1000 + i, 100, 60.0, None, 0.45, 0.0, False))
    pair = _pair(cheat, honest, match_length=7, rated=True, cube=False)
    bots = (Bot.with_bgsage("expert", threads=1), Bot.with_bgsage("beginner", threads=1, seed=3))
    _play_until(pair, bots, seat=0, decisions=45)
    _resign_match(pair)
    rows = {r.user_id: r for r in _rows(checks, pair.table, 2)}
    assert set(rows) == {cheat_id, honest_id}
    flagged = rows[cheat_id]
    assert flagged.flagged and flagged.decisions >= 45 and flagged.baseline == 60.0
    assert flagged.bot_agreement > 0.9 and flagged.error_rate < 10.0
    assert not rows[honest_id].flagged  # no history: compared with the prior, not flagged
    db = Database(server.settings.database_url)
    try:
        with db.engine.connect() as conn:
            logged = conn.execute(
                select(ModLog.action, ModLog.moderator_id, ModLog.target_user).where(
                    ModLog.table_id == pair.table
                )
            ).all()
    finally:
        db.close()
    assert [tuple(r) for r in logged] == [("flag", None, cheat_id)]
    # the flag is the moderators' to judge: the match is the newest of the history
    assert [r.table_id for r in checks.history(cheat_id)][:2] == [pair.table, "past4"]


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.redis])]
)
def test_a_rated_match_left_unchecked_by_a_stopped_process_is_checked_at_the_next_start(
    backend: str, tmp_path: Path
) -> None:
    if backend == "sqlite":
        _unchecked_then_restarted(settings_in(tmp_path))
    else:
        with postgres_schema() as url:
            _unchecked_then_restarted(settings_in(tmp_path, database_url=url, redis_url=REDIS_URL))


def _unchecked_then_restarted(settings: Settings) -> None:
    first = start_server(settings)
    try:
        a, b = member(first), member(first)
        pair = _pair(a, b, match_length=1, rated=True)
        play_move(pair)
        resign(pair)
        db = Database(settings.database_url)
        checks = FairPlayChecks(db)
        assert len(_rows(checks, pair.table, 2)) == 2
        for p in (a, b):
            p.close()
    finally:
        first.stop()
    # as if the process had stopped before it checked the match
    with db.engine.begin() as conn:
        conn.execute(delete(FairPlayCheck).where(FairPlayCheck.table_id == pair.table))
    assert checks.unchecked(0, ["standard"]) == [pair.table]
    second = start_server(settings)
    try:
        assert len(_rows(checks, pair.table, 2)) == 2  # found and checked again
        assert checks.unchecked(0, ["standard"]) == []
    finally:
        second.stop()
        db.close()


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.redis])]
)
def test_two_processes_recording_the_same_check_store_it_once(backend: str, tmp_path: Path) -> None:
    def race(url: str) -> None:
        db = Database(url)
        db.migrate()
        try:
            user = Store(db).create_user("ann", "h", guest=False, balance=0, now=1)
            row = CheckRow("t1", user.id, 10, 80, 1.0, 20.0, 1.0, 9.0, True)
            barrier = threading.Barrier(8)

            def record() -> bool:
                barrier.wait()
                return FairPlayChecks(db).record(row, {"score": 9.0})

            with ThreadPoolExecutor(8) as pool:
                stored = list(pool.map(lambda _: record(), range(8)))
            assert stored.count(True) == 1
            assert len(FairPlayChecks(db).for_table("t1")) == 1
            with db.engine.connect() as conn:
                assert len(conn.execute(select(ModLog.id)).all()) == 1
        finally:
            db.close()

    if backend == "sqlite":
        race(f"sqlite:///{tmp_path / 'race.db'}")
    else:
        with postgres_schema() as url:
            race(url)
