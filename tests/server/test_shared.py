"""The lists every visitor shares (gammon.server.infra.shared): the lobby's and the watch page's
are worked out once for all who ask at the same moment, kept for a second, and seen at
once when a table is created, taken or ended."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from gammon.server.context import CSRF_SLOT
from gammon.server.infra.shared import SharedAnswers
from gammon.server.web.errors import REFUSAL_DELAY
from serverkit import TLS, Player, RunningServer, run_async, start_server
from serverkit import test_settings as settings_for

# ---------------------------------------------------------------- the cache itself


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_answer_is_kept_for_its_ttl_and_while_its_generation_holds() -> None:
    clock = _Clock()
    shared = SharedAnswers(ttl=1.0, clock=clock)
    calls: list[int] = []

    async def work() -> int:
        calls.append(1)
        return len(calls)

    async def scenario() -> list[int]:
        got = [await shared.get("k", 0, work)]
        clock.now = 0.9
        got.append(await shared.get("k", 0, work))  # kept
        got.append(await shared.get("k", 1, work))  # a listing changed: worked out again
        clock.now = 1.8
        got.append(await shared.get("k", 1, work))  # kept (0.9 s old)
        clock.now = 2.0
        got.append(await shared.get("k", 1, work))  # a second old: worked out again
        got.append(await shared.get("other", 1, work))  # another key
        return got

    assert run_async(scenario) == [1, 1, 2, 2, 3, 4]


def test_a_failure_reaches_every_waiter_and_is_not_kept() -> None:
    shared = SharedAnswers(ttl=60.0)
    calls: list[int] = []

    async def failing() -> int:
        calls.append(1)
        await asyncio.sleep(0.01)
        raise OSError("the database went away")

    async def fine() -> int:
        return 7

    async def scenario() -> tuple[list[Any], int]:
        results = await asyncio.gather(
            *(shared.get("k", 0, failing) for _ in range(5)), return_exceptions=True
        )
        return results, await shared.get("k", 0, fine)

    results, after = run_async(scenario)
    assert len(calls) == 1
    assert all(isinstance(r, OSError) for r in results), results
    assert after == 7


def test_a_visitor_who_leaves_does_not_stop_the_work_others_wait_for() -> None:
    shared = SharedAnswers(ttl=60.0)
    calls: list[int] = []

    async def slow() -> str:
        calls.append(1)
        await asyncio.sleep(0.05)
        return "lists"

    async def scenario() -> str:
        first = asyncio.create_task(shared.get("k", 0, slow))
        await asyncio.sleep(0)
        second = asyncio.create_task(shared.get("k", 0, slow))
        await asyncio.sleep(0.01)
        first.cancel()  # the first visitor closed the tab
        return await second

    assert run_async(scenario) == "lists"
    assert len(calls) == 1


# ---------------------------------------------------------------- the site's lists


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    running = start_server(settings_for(tmp_path_factory.mktemp("shared")))
    yield running
    running.stop()


def _count_list_queries(server: RunningServer) -> list[str]:
    """Record each query for a list of tables (the store's method, wrapped)."""
    store = server.app.state.gammon.infra.store
    seen: list[str] = []
    original = store.list_tables

    def counted(statuses: Any, **kw: Any) -> Any:
        seen.append(",".join(statuses))
        return original(statuses, **kw)

    store.list_tables = counted
    return seen


def test_visitors_asking_at_once_share_one_lookup_and_each_gets_its_own_token(
    server: RunningServer,
) -> None:
    host = Player(server).guest()
    table = host.create(opponent="human", match_length=3)["id"]
    visitors = [Player(server).guest() for _ in range(12)]
    server.app.state.gammon.infra.shared.forget()
    seen = _count_list_queries(server)
    pages: dict[int, str] = {}
    start = threading.Barrier(len(visitors))

    def visit(i: int) -> None:
        start.wait()
        pages[i] = visitors[i].http.get("/lobby/tables").text

    threads = [threading.Thread(target=visit, args=(i,)) for i in range(len(visitors))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    del server.app.state.gammon.infra.store.list_tables  # the class's method again
    # one lookup for the twelve (its two queries: open tables, live games)
    assert sorted(seen) == ["playing", "waiting"], seen
    for i, page in pages.items():
        assert f"/tables/{table}/sit" in page
        tokens = set(re.findall(r'name="csrf_token" value="([^"]*)"', page))
        assert tokens == {visitors[i].csrf}, (i, tokens)
        assert CSRF_SLOT not in page
    for p in (host, *visitors):
        p.close()


def test_a_table_created_taken_or_ended_is_listed_at_once(server: RunningServer) -> None:
    watcher = httpx.Client(verify=TLS, base_url=server.url, timeout=20)
    ann, bob = Player(server).guest(), Player(server).guest()
    watcher.get("/watch")  # the lists are kept now
    watcher.get("/lobby/tables")
    table = ann.create(opponent="human", match_length=1)["id"]
    # created: open at once (kept lists are of an older generation)
    assert f'data-table="{table}"' in watcher.get("/lobby/tables").text
    assert table not in watcher.get("/watch").text
    assert bob.sit(table, 1).status_code == 200
    # taken: no longer open, live at once
    lists = watcher.get("/lobby/tables").text
    assert f"/tables/{table}/sit" not in lists
    assert f'data-table="{table}"' in lists
    assert f"/table/{table}" in watcher.get("/watch").text
    assert any(t["id"] == table for t in watcher.get("/api/tables").json()["live"])
    # ended (the match forfeited): gone at once
    assert ann.post(f"/api/tables/{table}/leave", {}).status_code == 200
    assert table not in watcher.get("/lobby/tables").text
    assert table not in watcher.get("/watch").text
    watcher.close()
    for p in (ann, bob):
        p.close()


def test_the_shared_lists_are_in_the_visitors_language(server: RunningServer) -> None:
    host = Player(server).guest()
    host.create(opponent="human", match_length=5)
    fr = httpx.Client(verify=TLS, base_url=server.url, timeout=20, cookies={"gammon_lang": "fr"})
    it = httpx.Client(verify=TLS, base_url=server.url, timeout=20, cookies={"gammon_lang": "it"})
    assert "Tables ouvertes" in fr.get("/lobby/tables").text
    assert "Tavoli aperti" in it.get("/lobby/tables").text
    assert "Tables ouvertes" in fr.get("/").text
    for c in (fr, it):
        c.close()
    host.close()


def test_no_list_leaks_into_a_page_with_its_slot(tmp_path: Path) -> None:
    """The slot is random per process: a page never shows it, even with no token."""
    server = start_server(settings_for(tmp_path))
    try:
        host = Player(server).guest()
        host.create(opponent="human", match_length=1)
        anonymous = httpx.Client(verify=TLS, base_url=server.url, timeout=20)
        for path in ("/", "/lobby/tables", "/watch"):
            page = anonymous.get(path)
            assert page.status_code == 200 and CSRF_SLOT not in page.text, path
        anonymous.close()
        host.close()
    finally:
        server.stop()


def test_an_address_looping_on_the_lists_is_refused_and_others_are_not(tmp_path: Path) -> None:
    """Past ``--list-limit`` (here one every 10 s, one at once) the lists are refused to that address
    (429 after about a second's wait, a line of text with ``Retry-After``; JSON for the API), and
    only to it."""
    server = start_server(settings_for(tmp_path, list_limit=0.1, trust_proxy=("127.0.0.1",)))
    try:
        looping = httpx.Client(
            verify=TLS, base_url=server.url, timeout=20, headers={"X-Forwarded-For": "198.51.100.7"}
        )
        other = httpx.Client(
            verify=TLS, base_url=server.url, timeout=20, headers={"X-Forwarded-For": "203.0.113.9"}
        )
        statuses = [looping.get(path).status_code for path in ("/", "/lobby/tables", "/")]
        assert statuses == [200, 429, 429], statuses
        refused = looping.get("/watch")
        assert refused.status_code == 429
        # a refusal waits about a second (0.5 to 1.5 s): a loop then asks about once a
        # second, not as fast as it can
        low, high = REFUSAL_DELAY
        assert low - 0.05 <= refused.elapsed.total_seconds() <= high + 1.0, refused.elapsed
        # ... at random: six clients refused together are not answered together (they
        # would all come back in the same millisecond a second later)
        with ThreadPoolExecutor(6) as pool:
            waits = list(
                pool.map(lambda _: looping.get("/watch").elapsed.total_seconds(), range(6))
            )
        assert max(waits) - min(waits) > 0.05, waits  # all six within 50 ms: p ~ 2e-6
        assert refused.headers["retry-after"] == "2"
        assert refused.text.startswith("rate_limited: too many requests for the lists")
        api = looping.get("/api/tables")
        assert api.status_code == 429 and api.json()["error"]["code"] == "rate_limited"
        assert other.get("/watch").status_code == 200  # another address is served
        assert looping.get("/rules").status_code == 200  # other pages are not rationed
        for c in (looping, other):
            c.close()
    finally:
        server.stop()
