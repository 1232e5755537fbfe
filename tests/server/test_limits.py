"""One limiter for every creation path (issue #30, items 6 and 8): bot challenges and
tournaments are rationed like tables; the limits hold across two processes sharing
Redis; the pending-challenge caps hold under concurrent requests; a crowd challenging
one player sends their socket a bounded amount; racing staked acceptances make one
table and hold no escrow for anything that did not start (SQLite and PostgreSQL)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from contestkit import UserSocket, form, signed_up
from gammon.server.play.challenges import MAX_INCOMING, MAX_PENDING
from gammon.storage import normalize_url
from serverkit import (
    REDIS_URL,
    Player,
    RunningServer,
    ServeProcess,
    postgres_schema,
    start_server,
)
from serverkit import test_settings as settings_for

#: A money session whose escrow (stake 200 x cox 3) takes 600 of a 1000 balance: a
#: balance covers one such table, never two.
STAKED: dict[str, Any] = {"match_length": 0, "stake": 200, "cube": False}
NEED = 600


@contextmanager
def running(tmp_path: Path, **changes: Any) -> Iterator[RunningServer]:
    server = start_server(settings_for(tmp_path, **changes))
    try:
        yield server
    finally:
        server.stop()


def query(url: str, sql: str, **params: Any) -> list[Any]:
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql), params))
    finally:
        engine.dispose()


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls on as many threads, together."""
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(lambda call: call(), calls))


def bot_challenge(player: Player) -> Any:
    return player.post("/api/challenges", {"against": "bot", "bot_level": "beginner"})


# ---------------------------------------------------------------- every creation path


def test_bot_challenges_are_cut_at_the_create_limit(tmp_path: Path) -> None:
    """One guest hammering POST /api/challenges against the bot made 3,516 tables in 30 s:
    now each is a table like the lobby's, rationed by --create-limit (429, Retry-After)."""
    with running(tmp_path, create_limit=3.0) as server:  # 3 a minute, 6 at once
        guest = Player(server).guest()  # 1
        answers = [bot_challenge(guest) for _ in range(12)]
        codes = [r.status_code for r in answers]
        assert codes == [201] * 5 + [429] * 7, codes
        refused = answers[-1]
        assert refused.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 20
        assert "try again in" in refused.json()["error"]["message"]
        tables = query(server.settings.database_url, "SELECT COUNT(*) FROM tables")[0][0]
        assert tables == 5
        # the HTML form: the page again with the translated reason
        r = guest.http.post(
            "/challenges",
            data={"csrf_token": guest.csrf, "against": "bot", "bot_level": "beginner"},
            headers={"Accept-Language": "fr"},
        )
        assert r.status_code == 429 and "trop de nouvelles tables" in r.text
        guest.close()


def test_tournaments_are_cut_per_account(tmp_path: Path) -> None:
    """Tournament creation was unlimited (1,297 in 20 s): four at once, then two a minute."""
    with running(tmp_path) as server:
        boss = signed_up(Player(server).guest())
        values = {"name": "cup", "format": "knockout", "match_length": "1", "max_players": "4"}
        codes = [form(boss, "/tournaments", **values).status_code for _ in range(7)]
        assert codes == [303] * 4 + [429] * 3, codes
        made = query(server.settings.database_url, "SELECT COUNT(*) FROM tournaments")[0][0]
        assert made == 4
        boss.close()


@pytest.mark.postgres
@pytest.mark.redis
def test_the_limit_holds_across_two_processes_through_redis() -> None:
    """Two processes sharing Redis share the buckets: one address gets one allowance,
    not one per process."""
    with postgres_schema() as url:
        args = ("--database-url", url, "--redis-url", REDIS_URL, "--create-limit", "3")
        one, two = ServeProcess(*args), ServeProcess(*args)
        try:
            guest = Player(one.server()).guest()  # 1 of the burst of 6
            other = Player(two.server())
            other.http.cookies.update(guest.http.cookies)
            other.csrf = guest.csrf
            codes = [bot_challenge(p).status_code for _ in range(6) for p in (guest, other)]
            # 5 left in the shared burst (one may refill while the test runs: 3 a minute)
            assert 5 <= codes.count(201) <= 6, codes
            assert codes.count(429) >= 6, codes
            guest.close()
            other.close()
        finally:
            one.stop()
            two.stop()


# ---------------------------------------------------------------- pending caps


def _pending_cap_holds(url: str, tmp_path: Path) -> None:
    limits = ("challenge=6000/100",)  # the per-account rate out of the way: only the caps
    with running(tmp_path, database_url=url, limits=limits) as server:
        ann, bob = signed_up(Player(server).guest()), signed_up(Player(server).guest())
        calls = [lambda: ann.post("/api/challenges", {"opponent": bob.name})] * 20
        codes = [r.status_code for r in at_once(calls)]
        assert codes.count(201) == MAX_PENDING and codes.count(429) == 20 - MAX_PENDING, codes
        pending = query(url, "SELECT COUNT(*) FROM challenges WHERE status = 'pending'")[0][0]
        assert pending == MAX_PENDING
        ann.close()
        bob.close()


def test_the_pending_cap_holds_under_concurrent_requests_sqlite(tmp_path: Path) -> None:
    _pending_cap_holds(f"sqlite:///{tmp_path / 'caps.db'}", tmp_path)


@pytest.mark.postgres
def test_the_pending_cap_holds_under_concurrent_requests_postgres(tmp_path: Path) -> None:
    with postgres_schema() as url:
        _pending_cap_holds(url, tmp_path)


def test_a_crowd_challenging_one_player_sends_their_socket_a_bounded_amount(
    tmp_path: Path,
) -> None:
    """66 guests sent 330 challenges in 14 s, 6.5 MB to the victim's socket: now at most
    MAX_INCOMING wait for an answer, and the news trickles (one summary per 0.5 s)."""
    with running(tmp_path) as server:
        victim = signed_up(Player(server).guest())
        news = UserSocket(victim)
        news.recv()
        crowd = [Player(server).guest() for _ in range(66)]
        calls = [
            (lambda p=p: p.post("/api/challenges", {"opponent": victim.name}).status_code)
            for p in crowd
            for _ in range(5)
        ]
        started = time.monotonic()
        codes = [c for chunk in range(0, 330, 30) for c in at_once(calls[chunk : chunk + 30])]
        took = time.monotonic() - started
        assert codes.count(201) == MAX_INCOMING, codes
        received = 0
        while True:
            try:
                message = news.conn.recv(timeout=1.5)
            except TimeoutError:
                break
            received += len(message)
        # one summary (at most MAX_INCOMING challenges, ~0.3 KB each) per 0.5 s at most
        bound = (took / 0.5 + 2) * 12_000
        assert received <= bound, (received, took)
        assert received <= 400_000, received
        news.close()
        for p in crowd:
            p.close()
        victim.close()


# ---------------------------------------------------------------- staked acceptance


def _one_table_for_one_balance(url: str, tmp_path: Path) -> None:
    with running(tmp_path, database_url=url, limits=("challenge=6000/100",)) as server:
        ann = signed_up(Player(server).guest())
        others = [signed_up(Player(server).guest()) for _ in range(6)]
        made = []
        for p in others:
            r = ann.post("/api/challenges", {"opponent": p.name, **STAKED})
            assert r.status_code == 201, r.text
            made.append(r.json()["challenge"]["id"])
        calls = [
            (lambda p=p, c=c: p.post(f"/api/challenges/{c}/accept", {}))
            for p, c in zip(others, made, strict=True)
        ]
        answers = at_once(calls)
        codes = [r.status_code for r in answers]
        assert codes.count(200) == 1 and codes.count(409) == 5, codes
        refused = [r.json()["error"]["code"] for r in answers if r.status_code != 200]
        assert set(refused) == {"insufficient_balance"}
        assert query(url, "SELECT COUNT(*) FROM tables")[0][0] == 1
        statuses = sorted(s for (s,) in query(url, "SELECT status FROM challenges"))
        assert statuses == ["accepted"] + ["pending"] * 5
        winner = others[codes.index(200)]
        held = dict(query(url, "SELECT name, held FROM users WHERE held <> 0"))
        assert held == {ann.name: NEED, winner.name: NEED}  # the started table's, no more
        for p in (ann, *others):
            p.close()


def test_racing_staked_acceptances_make_one_table_sqlite(tmp_path: Path) -> None:
    _one_table_for_one_balance(f"sqlite:///{tmp_path / 'stakes.db'}", tmp_path)


@pytest.mark.postgres
def test_racing_staked_acceptances_make_one_table_postgres(tmp_path: Path) -> None:
    with postgres_schema() as url:
        _one_table_for_one_balance(url, tmp_path)
