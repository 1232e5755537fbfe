"""Play now (issue #33 H16): quick pairing pools.  The matcher (rating reach widening,
blocks, never oneself, one pair per seek), the pools' options (clock presets), the rated
rules on seeking, and the routes: two seekers of a pool are paired at one table and told on
their user sockets; a block made while both wait keeps them apart (SQLite, and two processes
on PostgreSQL and Redis); one seek per account; a seek whose player has no user socket lapses;
bad input changes nothing; seeking is rationed (kind ``create``); the bot instead."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from contestkit import UserSocket, signed_up
from gammon.server.play import pairing
from gammon.server.play.pairing import Pool, pair_up, reach
from gammon.server.play.seeks import LocalSeeks, RedisSeeks, Seek, SeeksFullError
from gammon.server.protocol import ServerError
from serverkit import Player, RunningServer, run_async, start_server
from serverkit import test_settings as settings_in

POOL = "standard.3.normal.casual"


def _seek(user: int, rating: float = 1500.0, placed: int = 0, **kw: object) -> Seek:
    fields: dict[str, object] = {"pool": POOL, "blocks": ()}
    fields.update(kw)
    return Seek(
        f"s{user}",
        user,
        f"p{user}",
        False,
        str(fields["pool"]),
        rating,
        placed,
        tuple(fields["blocks"]),  # type: ignore[arg-type]
    )


# ---------------------------------------------------------------------- the matcher


def test_reach_widens_by_50_every_5_seconds() -> None:
    s = _seek(1)
    assert [reach(s, ms) for ms in (0, 4_999, 5_000, 10_000, 30_000)] == [
        100.0,
        100.0,
        150.0,
        200.0,
        400.0,
    ]


def test_two_far_ratings_meet_once_both_reaches_are_wide_enough() -> None:
    far = [_seek(1, 1500.0, placed=0), _seek(2, 1720.0, placed=10_000)]
    # at 20 s the first reaches 300, the second (10 s) 200: not yet
    assert pair_up(far, 20_000) == []
    # at 25 s: 350 and 250 >= 220
    assert [(a.user, b.user) for a, b in pair_up(far, 25_000)] == [(1, 2)]


def test_blocked_pairs_and_oneself_are_never_paired() -> None:
    blocked = [_seek(1, blocks=(2,)), _seek(2)]
    assert pair_up(blocked, 600_000) == []
    blocking = [_seek(1), _seek(2, blocks=(1,))]
    assert pair_up(blocking, 600_000) == []
    same = [_seek(1), Seek("other", 1, "p1", False, POOL, 1500.0, 0, ())]
    assert pair_up(same, 600_000) == []


def test_pools_do_not_mix_and_no_one_is_paired_twice() -> None:
    seeks = [_seek(i, 1500.0 + i) for i in range(7)] + [_seek(9, pool="standard.5.blitz.casual")]
    pairs = pair_up(seeks, 0)
    users = [u for a, b in pairs for u in (a.user, b.user)]
    assert len(pairs) == 3 and len(set(users)) == 6 and 9 not in users
    assert pair_up(seeks, 0, frozenset({frozenset((0, 1))}))[0][0].user == 0


def test_the_nearest_rating_is_chosen() -> None:
    seeks = [_seek(1, 1500.0), _seek(2, 1590.0), _seek(3, 1510.0)]
    assert [(a.user, b.user) for a, b in pair_up(seeks, 0)] == [(1, 3)]


def test_pool_keys_and_their_options() -> None:
    blitz = Pool.parse("standard.7.blitz.rated").options()
    assert blitz.match_length == 7 and blitz.rated and blitz.clock is not None
    assert (blitz.clock.delay, blitz.clock.reserve_base) == (6.0, 30.0)
    assert Pool.parse("plakoto.1.long.casual").options().cube is False
    for bad in ("", "standard.3.normal", "standard.0.normal.casual", "nope.3.normal.casual", 3):
        with pytest.raises(ServerError):
            Pool.parse(bad)


def test_a_store_holds_one_seek_per_account_and_a_cap() -> None:
    async def run() -> None:
        store = LocalSeeks()
        assert await store.put(_seek(1), 2) is None
        moved = _seek(1, pool="standard.5.normal.casual")
        assert await store.put(moved, 2) == _seek(1)  # replaced
        await store.put(_seek(2), 2)
        with pytest.raises(SeeksFullError):
            await store.put(_seek(3), 2)
        assert await store.take(_seek(1), _seek(2)) is False  # 1's seek changed
        assert await store.take(moved, _seek(2)) is True
        assert await store.all() == []

    asyncio.run(run())


# ---------------------------------------------------------------------- the routes


def _seek_http(p: Player, pool: str = POOL) -> dict[str, object]:
    r = p.post("/api/pairing/seek", {"pool": pool})
    assert r.status_code == 200, r.text
    answer: dict[str, object] = r.json()
    return answer


def test_two_seekers_are_paired_at_one_table_and_told(players: Callable[[], Player]) -> None:
    ann, bob = players(), players()
    ann_news = UserSocket(ann)
    ann_news.recv()
    first = _seek_http(ann, "standard.1.blitz.casual")
    assert first["table"] is None and first["seek"] is not None
    assert ann.http.get("/api/pairing").json()["pools"]["standard.1.blitz.casual"] >= 1
    second = _seek_http(bob, "standard.1.blitz.casual")
    table = second["table"]
    assert isinstance(table, str)
    told = ann_news.until(lambda m: m.get("type") == "paired")
    assert told["table"] == table
    assert ann.http.get("/api/pairing").json()["table"] == table
    state = ann.http.get(f"/api/tables/{table}").json()
    assert {s["name"] for s in state["seats"]} == {ann.name, bob.name}
    assert state["options"]["clock"]["delay"] == 6.0 and state["options"]["match_length"] == 1
    ann_news.close()


def test_one_seek_per_account(players: Callable[[], Player]) -> None:
    ann = players()
    _seek_http(ann, "standard.5.long.casual")
    _seek_http(ann, "standard.7.long.casual")
    pools = ann.http.get("/api/pairing").json()
    assert pools["seek"]["pool"] == "standard.7.long.casual"
    assert "standard.5.long.casual" not in pools["pools"]
    assert ann.http.request(
        "DELETE", "/api/pairing/seek", json={}, headers={"X-CSRF-Token": ann.csrf}
    ).json() == {"cancelled": True}
    assert ann.http.get("/api/pairing").json()["seek"] is None


def test_bad_input_is_refused_and_changes_nothing(
    players: Callable[[], Player], server: RunningServer
) -> None:
    ann = players()
    for body, code in (
        ({"pool": "standard.2.normal.casual"}, "invalid_options"),
        ({"pool": None}, "invalid_options"),
        ({"pool": POOL, "extra": 1}, "bad_message"),
    ):
        r = ann.post("/api/pairing/seek", body)
        assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
    r = ann.http.post("/api/pairing/seek", json={"pool": POOL})  # no CSRF token
    assert r.status_code == 403
    anonymous = Player(server)
    token = anonymous.http.get("/api/session").json()["csrf"]
    r = anonymous.http.post(
        "/api/pairing/seek", json={"pool": POOL}, headers={"X-CSRF-Token": token}
    )
    assert r.status_code == 401
    anonymous.close()
    assert ann.http.get("/api/pairing").json()["seek"] is None


def test_rated_pools_take_accounts_only(players: Callable[[], Player]) -> None:
    guest = players()
    r = guest.post("/api/pairing/seek", {"pool": "standard.3.normal.rated"})
    assert r.status_code == 400 and "signed-in accounts" in r.json()["error"]["message"]
    member = signed_up(players())
    assert _seek_http(member, "standard.3.normal.rated")["seek"] is not None


def test_a_too_new_account_may_not_seek_rated(tmp_path: Path) -> None:
    running = start_server(settings_in(tmp_path, rated_min_matches=5))
    try:
        ann = signed_up(Player(running).guest())
        r = ann.post("/api/pairing/seek", {"pool": "standard.3.normal.rated"})
        assert r.status_code == 400 and "finished 5 matches" in r.json()["error"]["message"]
        assert ann.http.get("/api/pairing").json()["seek"] is None
        ann.close()
    finally:
        running.stop()


def test_seeking_is_rationed_like_making_tables(tmp_path: Path) -> None:
    running = start_server(settings_in(tmp_path, create_limit=3.0))  # 6 at once
    try:
        guest = Player(running).guest()  # one of the address's 6
        codes = [guest.post("/api/pairing/seek", {"pool": POOL}).status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}
        assert guest.http.get("/api/pairing").json()["pools"] == {POOL: 1}  # still one
        guest.close()
    finally:
        running.stop()


def test_a_seek_without_a_user_socket_lapses(
    players: Callable[[], Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pairing, "SOCKET_GRACE", 0.3)
    ann, bob = players(), players()
    bob_news = UserSocket(bob)
    bob_news.recv()
    _seek_http(ann, "standard.5.blitz.casual")
    _seek_http(bob, "standard.7.blitz.casual")
    deadline = time.monotonic() + 5
    while ann.http.get("/api/pairing").json()["seek"] is not None:
        assert time.monotonic() < deadline, "the seek without a socket stayed"
        time.sleep(0.2)
    time.sleep(1.0)  # bob's socket keeps his
    assert bob.http.get("/api/pairing").json()["seek"] is not None
    bob_news.close()
    deadline = time.monotonic() + 8
    while bob.http.get("/api/pairing").json()["seek"] is not None:
        assert time.monotonic() < deadline, "the seek stayed after its socket closed"
        time.sleep(0.2)


def test_the_bot_instead(players: Callable[[], Player]) -> None:
    pytest.importorskip("gammon.bots.seat")
    ann = players()
    _seek_http(ann, "standard.3.blitz.casual")
    r = ann.post("/api/pairing/bot", {"pool": "standard.3.blitz.casual", "bot_level": "beginner"})
    assert r.status_code == 201, r.text
    state = ann.http.get(f"/api/tables/{r.json()['table']}").json()
    assert state["seats"][1]["kind"] == "bot" and state["options"]["clock"]["delay"] == 6.0
    assert ann.http.get("/api/pairing").json()["seek"] is None


def _block_after_seeking(make: Callable[[], Player], hold: Any) -> None:
    """Ann and Bob (accounts) wait in one pool while no round runs (``hold``: the rounds'
    lock held, an async context manager), then Bob blocks Ann: the rounds that follow never
    pair them (their seeks carry the blocks of before), while Carol, seeking next, is paired
    with Ann, the longest waiting (so rounds did run)."""
    pool = "standard.5.long.casual"
    ann, bob, carol = (signed_up(make()) for _ in range(3))
    news = [UserSocket(p) for p in (ann, bob, carol)]  # present: their seeks stay
    try:
        for n in news:
            n.recv()
        with hold():
            assert _seek_http(ann, pool)["table"] is None
            assert _seek_http(bob, pool)["table"] is None
            r = bob.http.post(f"/@/{ann.name}/block", data={"csrf_token": bob.csrf, "on": "1"})
            assert r.status_code == 303
        time.sleep(4 * pairing.TICK)  # rounds with both seeks in the pool
        assert ann.http.get("/api/pairing").json()["table"] is None
        assert bob.http.get("/api/pairing").json()["seek"] is not None
        table = _seek_http(carol, pool)["table"]
        deadline = time.monotonic() + 10
        while table is None:
            assert time.monotonic() < deadline, "carol was never paired"
            time.sleep(0.1)
            table = carol.http.get("/api/pairing").json()["table"]
        seats = carol.http.get(f"/api/tables/{table}").json()["seats"]
        assert {s["name"] for s in seats} == {ann.name, carol.name}
        assert bob.http.get("/api/pairing").json()["seek"] is not None  # still waiting
    finally:
        for n in news:
            n.close()


def test_a_block_made_while_both_wait_is_never_paired(
    players: Callable[[], Player], server: RunningServer
) -> None:
    store = server.app.state.gammon.play.pairing.store

    @contextlib.contextmanager
    def hold() -> Iterator[None]:
        assert run_async(lambda: store.lock(30.0))
        try:
            yield
        finally:
            run_async(store.unlock)

    _block_after_seeking(players, hold)


# ---------------------------------------------------------------------- two processes


@pytest.mark.postgres
@pytest.mark.redis
def test_two_processes_pair_each_seeker_once() -> None:
    """Two ``gammon serve`` sharing PostgreSQL and Redis: two seekers on different processes
    are paired once, at one table; 50 seekers sent at once, half to each process, make 25
    tables and nobody sits at two."""
    from concurrent.futures import ThreadPoolExecutor

    from serverkit import REDIS_URL, ServeProcess, postgres_schema

    with postgres_schema() as url:
        limits = ("--create-limit", "100000", "--list-limit", "100000")
        args = ("--database-url", url, "--redis-url", REDIS_URL, *limits)
        one, two = ServeProcess(*args), ServeProcess(*args)
        made: list[Player] = []
        try:
            ann = Player(one.server()).guest()
            bob = Player(two.server()).guest()
            made += [ann, bob]
            ann_news = UserSocket(ann)
            ann_news.recv()
            assert _seek_http(ann, "standard.3.blitz.casual")["table"] is None
            table = _seek_http(bob, "standard.3.blitz.casual")["table"]
            assert isinstance(table, str)
            assert ann_news.until(lambda m: m.get("type") == "paired")["table"] == table
            ann_news.close()

            crowd = [Player((one if i % 2 else two).server()).guest() for i in range(50)]
            made += crowd
            with ThreadPoolExecutor(max_workers=16) as pool:
                list(pool.map(lambda p: _seek_http(p, "standard.7.normal.casual"), crowd))
            tables: dict[str, list[str]] = {}
            deadline = time.monotonic() + 30
            for p in crowd:
                while (found := p.http.get("/api/pairing").json()["table"]) is None:
                    assert time.monotonic() < deadline, f"{p.name} was never paired"
                    time.sleep(0.2)
                tables.setdefault(found, []).append(p.name)
            assert len(tables) == 25 and all(len(names) == 2 for names in tables.values())
            seated: list[str] = []
            for table_id in tables:
                seats = crowd[0].http.get(f"/api/tables/{table_id}").json()["seats"]
                seated += [s["name"] for s in seats]
            assert sorted(seated) == sorted(p.name for p in crowd)  # each once

            # a block made while both wait, seekers on both processes
            import redis

            key = RedisSeeks(REDIS_URL, url).lock_key  # the site's rounds' lock
            client = redis.Redis.from_url(REDIS_URL)

            @contextlib.contextmanager
            def hold() -> Iterator[None]:
                assert client.set(key, "test", nx=True, px=30_000)
                try:
                    yield
                finally:
                    client.delete(key)

            servers = itertools.cycle((one.server(), two.server()))

            def make() -> Player:
                made.append(Player(next(servers)).guest())
                return made[-1]

            _block_after_seeking(make, hold)
            client.close()
        finally:
            for p in made:
                p.close()
            one.stop()
            two.stop()
