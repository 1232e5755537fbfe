"""The costly GETs and messages are rationed and kept, and the analysis queues are fair
(issue #30): a replay is refused past its ration per address and past the site's budget
for every address together; an imported match's replay is worked out once; ``history``
pages are rationed the same way; one owner's analyses do not hold up another's; guests
hold at most their few places of deep work; the workers run at a lower CPU priority.

The servers are real (uvicorn on loopback, SQLite), the clients come from several
loopback addresses (127.0.0.2, ...), which the server sees as different clients.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import gammon.server.analysis.runner as analysis_module
import gammon.server.web.deep as web_deep
from gammon.server.analysis import deep
from gammon.server.analysis.deep import DeepRunner
from gammon.server.analysis.runner import PER_OWNER, AnalysisRunner
from gammon.server.protocol import ServerError
from matchseed import recorded, seed_finished_match
from serverkit import (
    REDIS_URL,
    TLS,
    WS,
    Player,
    RunningServer,
    ServeProcess,
    member,
    postgres_schema,
    run_async,
    start_server,
)
from serverkit import test_settings as settings_in

M7 = "rationM7xxxx"
DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    """A server whose rations are small: ``--list-limit 0.5`` makes a replay 0.05 a second
    per address (1 at once) and 0.5 a second for the site (1 at once), a history page 0.25
    a second per address (1 at once) and 2.5 for the site (5 at once)."""
    settings = settings_in(tmp_path, list_limit=0.5)
    seed_finished_match(settings.database_url, M7, recorded("standard-7"))
    running = start_server(settings)
    yield running
    running.stop()


def _client(server: RunningServer, address: str) -> httpx.Client:
    transport = httpx.HTTPTransport(verify=TLS, local_address=address)
    return httpx.Client(verify=TLS, base_url=server.url, timeout=20, transport=transport)


def test_a_replay_is_refused_past_the_ration_of_an_address_and_of_the_site(
    server: RunningServer,
) -> None:
    path = f"/api/tables/{M7}/replay"
    with (
        _client(server, "127.0.0.1") as a,
        _client(server, "127.0.0.2") as b,
        _client(server, "127.0.0.3") as c,
    ):
        first = a.get(path)
        assert first.status_code == 200 and first.json()[0]
        # another address at once: its own ration holds one, the site's is spent
        site = b.get(path)
        assert site.status_code == 429, site.text
        assert "the site is answering too many replays" in site.json()["error"]["message"]
        time.sleep(2.1)  # the site's ration holds one again (0.5 a second)
        assert c.get(path).content == first.content  # kept: the same answer
        again = a.get(path)  # the site's is spent, and so is this address's
        assert again.status_code == 429
        time.sleep(2.1)
        mine = a.get(path)  # the address's own ration refuses it (0.05 a second)
        assert mine.status_code == 429
        assert "too many replays asked for from your address" in mine.json()["error"]["message"]


def test_an_imported_matchs_replay_is_worked_out_once(tmp_path: Path) -> None:
    running = start_server(settings_in(tmp_path))
    try:
        player = Player(running).guest()
        data = (DATA / "mat" / "dialects").glob("*.mat")
        name = sorted(data)[0]
        sent = player.http.post(
            "/import",
            data={"csrf_token": player.csrf},
            files={"file": (name.name, name.read_bytes(), "application/octet-stream")},
        )
        assert sent.status_code == 303, sent.text
        replay = f"/api{sent.headers['location']}/replay"
        kept = running.app.state.gammon.infra.kept
        answers = [player.http.get(replay) for _ in range(3)]
        assert all(r.status_code == 200 for r in answers)
        assert answers[0].json() and answers[0].content == answers[2].content
        assert kept.computed == 1
        stranger = Player(running).guest()  # someone else's import: not found, not kept
        assert stranger.http.get(replay).status_code == 404
        player.close()
        stranger.close()
    finally:
        running.stop()


def _spectator(server: RunningServer, address: str) -> WS:
    conn = connect(
        f"{server.ws_url}/ws/table/{M7}",
        open_timeout=10,
        max_size=2**22,
        source_address=(address, 0),
        legacy=True,
    )
    ws = WS(conn)
    ws.send({"type": "hello", "protocol": 1, "last_version": None})
    ws.until(lambda m: m["type"] == "state")
    return ws


def _history(ws: WS, game: int, ident: str) -> dict[str, Any]:
    ws.send({"type": "history", "game": game, "id": ident})
    return ws.until(lambda m: m.get("id") == ident)


def test_history_pages_are_rationed_per_address_and_for_the_site(server: RunningServer) -> None:
    first = _spectator(server, "127.0.0.1")
    page = _history(first, 1, "h1")
    assert page["type"] == "history" and page["game"] == 1 and page["games"] >= 2
    assert page["history"][0]["kind"] == "start"
    refused = _history(first, 2, "h2")  # the address's one page at once is taken
    assert refused["type"] == "error" and refused["code"] == "rate_limited"
    # other addresses: each has its page, until the site's five are taken
    others = [_spectator(server, f"127.0.0.{n}") for n in range(2, 8)]
    answers = [_history(ws, 1, f"o{n}") for n, ws in enumerate(others)]
    assert [a["type"] for a in answers[:4]] == ["history"] * 4
    assert answers[5]["type"] == "error"
    assert "the site is answering too many history pages" in answers[5]["message"]
    assert answers[0]["history"] == page["history"]  # an ended game's page, kept
    for ws in [first, *others]:
        ws.close()


# ------------------------------------------------------------ across two processes


def _get(url: str, address: str, path: str) -> httpx.Response:
    transport = httpx.HTTPTransport(verify=TLS, local_address=address)
    with httpx.Client(verify=TLS, base_url=url, timeout=20, transport=transport) as client:
        return client.get(path)


@pytest.mark.postgres
@pytest.mark.redis
def test_the_rations_hold_across_two_processes_through_redis() -> None:
    """Two ``gammon serve`` processes sharing PostgreSQL and Redis, ``--list-limit 0.5``:
    a replay is 1 at once per address and 1 for the site, a match page 1 per address, the
    lists 2 per address and 10 for the site.  Before, each process had its own buckets:
    the second process served the same address again, and twenty lists were served (ten
    by each process) where the site's budget is ten.

    The pairs are asked for at once: one after the other, the first answer (a replay
    built, a table loaded) can take longer than a bucket's refill (2 s for the site's
    replays here) on a loaded machine, and the second would be served by right."""
    with postgres_schema() as url:
        seed_finished_match(url, M7, recorded("standard-7"))
        args = ("--database-url", url, "--redis-url", REDIS_URL, "--list-limit", "0.5")
        one, two = ServeProcess(*args), ServeProcess(*args)
        try:
            replay = f"/api/tables/{M7}/replay"
            # two addresses at once, one on each process: the site's one replay is spent
            asks = [(one.url, "127.0.0.1"), (two.url, "127.0.0.2")]
            with ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(lambda a: _get(*a, replay), asks))
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 429], [r.text[:200] for r in answers]
            served = next(n for n, r in enumerate(answers) if r.status_code == 200)
            refused = answers[1 - served]
            assert "the site is answering too many replays" in refused.text
            # the served address again, on the process that did not serve it
            other = (two, one)[served]
            mine = _get(other.url, asks[served][1], replay)
            assert mine.status_code == 429, mine.text[:200]
            assert "too many replays asked for from your address" in mine.text
            # match pages: the address's one at once, whichever process serves it
            page = f"/matches/{M7}"
            with ThreadPoolExecutor(2) as pool:
                pages = list(pool.map(lambda u: _get(u, "127.0.0.3", page), [one.url, two.url]))
            assert sorted(r.status_code for r in pages) == [200, 429]
            refused = next(r for r in pages if r.status_code == 429)
            assert refused.text.startswith("rate_limited: too many match pages asked for")
            assert _get(one.url, "127.0.0.4", page).status_code == 200  # another address
            # the lists: ten addresses twice each (their own burst), half on each process,
            # all at once: the site's budget of ten serves about ten, not twenty
            asks = [(proc.url, f"127.0.1.{n}") for n in range(1, 11) for proc in (one, two)]
            with ThreadPoolExecutor(len(asks)) as pool:
                codes = list(pool.map(lambda a: _get(*a, "/api/tables").status_code, asks))
            assert set(codes) == {200, 429}, codes
            assert 10 <= codes.count(200) <= 12, codes
        finally:
            one.stop()
            two.stop()


# ---------------------------------------------------------------------- the queues


def test_one_owners_analyses_do_not_hold_up_anothers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Owner A asks for five analyses, then B for one: A may have two under way (the rest
    is refused), and B's runs right after the one running, before A's second."""
    ended: list[str] = []
    lock = threading.Lock()

    def analyse(job: int, log_text: str, level: str) -> dict[str, Any]:
        time.sleep(0.3)
        with lock:
            ended.append(log_text)
        return {"log": log_text}

    monkeypatch.setattr(analysis_module, "analyse_in_worker", analyse)

    async def scenario() -> None:
        runner = AnalysisRunner(0)
        try:
            started = time.monotonic()
            mine = []
            for n in range(5):
                task = asyncio.ensure_future(runner.analyse(f"a{n}", "expert", f"A{n}", "A"))
                await asyncio.sleep(0.01)
                mine.append(task)
            theirs = asyncio.ensure_future(runner.analyse("b", "expert", "B", "B"))
            results = await asyncio.gather(*mine, return_exceptions=True)
            await theirs
            refused = [r for r in results if isinstance(r, ServerError)]
            assert len(refused) == 5 - PER_OWNER and {r.code for r in refused} == {"busy"}
            assert ended == ["A0", "B", "A1"]
            assert time.monotonic() - started < 2.0
        finally:
            runner.close()

    run_async(scenario)


def test_anonymous_world_class_analyses_are_few() -> None:
    runner = AnalysisRunner(0)
    runner._running[("t1", "world-class")] = analysis_module._Running(1, "slow", "x", True)
    with pytest.raises(ServerError) as anonymous:
        runner.admit("world-class", ("address", "1.2.3.4"), anonymous=True)
    assert anonymous.value.code == "rate_limited"
    runner.admit("expert", ("address", "1.2.3.4"), anonymous=True)  # the quick lane is free
    runner.admit("world-class", ("user", 7), anonymous=False)  # an account's may wait its turn


def test_guests_hold_at_most_their_places_of_deep_work() -> None:
    gate = threading.Event()

    def slow(job: int) -> dict[str, Any]:
        assert gate.wait(10)
        return {"job": job}

    async def scenario() -> None:
        runner = DeepRunner(processes=False)

        async def keep(data: dict[str, Any]) -> None:
            return None

        try:
            for n in range(deep.MAX_ANONYMOUS_JOBS):
                owner = ("address", f"10.0.0.{n}")
                runner.start(
                    (f"g{n}", "grandmaster"), owner, "analysis", slow, (), keep, anonymous=True
                )
            owner = ("address", "10.0.0.99")
            with pytest.raises(ServerError) as full:
                runner.start(
                    ("g99", "grandmaster"), owner, "analysis", slow, (), keep, anonymous=True
                )
            assert full.value.code == "rate_limited"
            assert "without an account" in str(full.value)
            # an account still finds a place
            runner.start(("m1", "grandmaster"), ("user", 1), "analysis", slow, (), keep)
            assert runner.jobs == deep.MAX_ANONYMOUS_JOBS + 1
            gate.set()
            for key in ("g0", "g1", "m1"):
                await runner.wait((key, "grandmaster"))
        finally:
            runner.close()
            await asyncio.sleep(0)

    run_async(scenario)


def test_guests_of_one_address_are_one_owner_and_guests_few(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guests cost nothing to make: the guests of one address are one owner (a second
    guest's job is refused as ``busy``), and guests of other addresses hold at most
    :data:`~gammon.server.analysis.deep.MAX_ANONYMOUS_JOBS` places; an account still gets one."""
    gate = threading.Event()

    def held(job: int, log_text: str) -> dict[str, Any]:
        assert gate.wait(20)
        return {"level": "grandmaster", "games": []}

    monkeypatch.setattr(web_deep, "deep_analysis_in_worker", held)
    monkeypatch.setattr(web_deep, "deep_available", lambda variant: variant == "standard")
    settings = settings_in(tmp_path)
    tables = [f"rationG{n}xxxxx"[:12] for n in range(5)]
    for table in tables:
        seed_finished_match(settings.database_url, table, recorded("standard-7"))
    running = start_server(settings)
    made: list[Player] = []

    def guest(address: str) -> Player:
        p = Player(running)
        p.http = _client(running, address)
        made.append(p.guest())
        return p

    try:
        first, second = guest("127.0.0.1"), guest("127.0.0.1")
        assert first.post(f"/api/tables/{tables[0]}/deep", {}).status_code == 202
        busy = second.post(f"/api/tables/{tables[1]}/deep", {})
        assert busy.status_code == 409 and busy.json()["error"]["code"] == "busy"
        other = guest("127.0.0.2")
        assert other.post(f"/api/tables/{tables[1]}/deep", {}).status_code == 202
        third = guest("127.0.0.3")
        full = third.post(f"/api/tables/{tables[2]}/deep", {})
        assert full.status_code == 429 and "without an account" in full.text
        account = member(running)
        made.append(account)
        assert account.post(f"/api/tables/{tables[3]}/deep", {}).status_code == 202
    finally:
        gate.set()
        for p in made:
            p.close()
        running.stop()


def test_the_analysis_and_deep_workers_run_at_a_lower_priority() -> None:
    async def scenario() -> tuple[int, int]:
        runner = AnalysisRunner(1)
        deep_runner = DeepRunner(processes=True)
        try:
            here = (os.PRIO_PROCESS, 0)
            analysis = await runner.queue("expert").run("k", os.getpriority, *here)
            deeper = await deep_runner.queue.run("k", os.getpriority, *here)
            return analysis, deeper
        finally:
            runner.close()
            deep_runner.close()

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    analysis, deeper = run_async(scenario)
    assert analysis > mine and deeper > mine
