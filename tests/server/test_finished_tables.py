"""Finished tables (issue #30): a long one is loaded off the event loop, and the actors of
tables opened by a page or a spectator are forgotten once idle, on SQLite and PostgreSQL.

Before: ``TableActor.load`` replayed the whole journal on the event loop (an 85-game
session: every other table's ping went from ~1 ms to ~2 s at each load), and a table
loaded by a GET was never forgotten (~40 MB each).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import gammon.server.table.hub as hub_module
from gammon.server.community.auth import SESSION_COOKIE
from gammon.server.run import serving_runtime
from gammon.server.table.hub import Hub
from journalkit import LongTable, write_long_session
from serverkit import (
    Player,
    RunningServer,
    postgres_schema,
    resign,
    start_pair,
    start_server,
    wait_state,
)
from serverkit import test_settings as settings_for

#: Games of the finished session (the issue's table).
GAMES = 85


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def finished(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[RunningServer, LongTable]]:
    """A server whose database holds a finished money session of 85 games."""
    tmp = tmp_path_factory.mktemp("finished")
    database = postgres_schema() if request.param == "postgresql" else _sqlite(tmp)
    with database as url:
        long = write_long_session(url, GAMES)
        server = start_server(settings_for(tmp, database_url=url))
        try:
            player = _signed_in(server, long, 0)
            r = player.post(f"/api/tables/{long.table_id}/leave", {})  # forfeits: finished
            assert r.status_code == 200, r.text
            player.close()
            yield server, long
        finally:
            server.stop()


@contextlib.contextmanager
def _sqlite(tmp: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp / 'gammon.db'}"


def _signed_in(server: RunningServer, long: LongTable, seat: int) -> Player:
    p = Player(server)
    p.http.cookies.set(SESSION_COOKIE, long.tokens[seat])
    p.csrf = long.csrf[seat]
    return p


def _hub(server: RunningServer) -> Hub:
    hub: Hub = server.app.state.gammon.table.hub
    return hub


def _until(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError("never came")
        time.sleep(0.02)


@pytest.fixture
def guests(finished: tuple[RunningServer, LongTable]) -> Iterator[Callable[[], Player]]:
    made: list[Player] = []

    def make() -> Player:
        made.append(Player(finished[0]).guest())
        return made[-1]

    yield make
    for p in made:
        p.close()


@pytest.fixture
def evict_after(finished: tuple[RunningServer, LongTable]) -> Iterator[Callable[[float], None]]:
    """Set the hub's idle time for a test (put back afterwards)."""
    hub = _hub(finished[0])
    before = hub.evict_after

    def set_to(seconds: float) -> None:
        hub.evict_after = seconds

    yield set_to
    hub.evict_after = before


def test_loading_a_long_finished_table_does_not_hold_the_other_tables(
    finished: tuple[RunningServer, LongTable],
    guests: Callable[[], Player],
    evict_after: Callable[[float], None],
) -> None:
    """Each time the finished 85-game table is opened again (a spectator socket, then its
    record page, each after it was forgotten), a live table's pings stay quick: its
    journal is replayed off the event loop (before: ~2 s pauses, every time).  The
    interpreter runs as ``gammon serve`` runs it (:func:`serving_runtime`: no full
    garbage collection but the periodic one)."""
    server, long = finished
    hub = _hub(server)
    evict_after(0.3)
    ws = start_pair(guests).ws(0)

    def ping() -> float:
        started = time.perf_counter()
        assert ws.reply({"type": "ping"}, timeout=60)["type"] == "pong"
        return time.perf_counter() - started

    quiet = [ping() for _ in range(30)]
    waits: list[float] = []
    done = threading.Event()

    def pinging() -> None:
        while not done.is_set():
            waits.append(ping())
            time.sleep(0.01)

    watcher = guests()
    pinger = threading.Thread(target=pinging)
    with serving_runtime():
        pinger.start()
        try:
            for _ in range(2):
                _until(lambda: long.table_id not in hub.actors)
                spectator = watcher.connect(long.table_id, seed=None)
                state = wait_state(spectator, lambda s: s["table"]["status"] == "finished", 60)
                assert state["version"] > long.version
                spectator.close()
                _until(lambda: long.table_id not in hub.actors)
                r = watcher.http.get(f"/matches/{long.table_id}", timeout=60)
                assert r.status_code == 200 and long.table_id in r.text
        finally:
            done.set()
            pinger.join()
    print(f"quiet max {max(quiet) * 1000:.1f} ms, while loading max {max(waits) * 1000:.1f} ms")
    assert max(waits) < max(0.25, 10 * max(quiet)), (sorted(quiet)[-3:], sorted(waits)[-5:])


def test_tables_opened_by_a_page_or_a_spectator_are_forgotten_when_idle(
    finished: tuple[RunningServer, LongTable],
    guests: Callable[[], Player],
    evict_after: Callable[[float], None],
) -> None:
    """A table loaded by a GET (the record page, the API, a download) or by a spectator
    socket is forgotten once idle: the count of actors returns to what it was."""
    server, long = finished
    hub = _hub(server)
    evict_after(0.5)
    _until(lambda: long.table_id not in hub.actors)
    baseline = set(hub.actors)
    watcher = guests()
    for path in (f"/matches/{long.table_id}", f"/api/tables/{long.table_id}"):
        assert watcher.http.get(path, timeout=60).status_code == 200
        assert long.table_id in hub.actors
        _until(lambda: set(hub.actors) == baseline)
    spectator = watcher.connect(long.table_id, seed=None)
    time.sleep(1.5)  # three idle times: a table watched is kept
    assert long.table_id in hub.actors
    assert spectator.reply({"type": "ping"})["type"] == "pong"
    spectator.close()
    _until(lambda: set(hub.actors) == baseline)
    # loaded again on demand, the same table
    again = watcher.connect(long.table_id, seed=None)
    assert wait_state(again, lambda s: s["table"]["status"] == "finished")["match"] is not None
    again.close()
    _until(lambda: set(hub.actors) == baseline)


def test_idle_actors_hold_a_bounded_number_of_entries(
    finished: tuple[RunningServer, LongTable],
    guests: Callable[[], Player],
    evict_after: Callable[[float], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """However many finished tables visitors open, the idle actors kept hold at most
    ``IDLE_ENTRIES`` journal entries together: the least recently used go first."""
    server, long = finished
    hub = _hub(server)
    evict_after(60.0)
    pair = start_pair(guests, match_length=1)
    resign(pair)
    wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished")
    for ws in pair.sockets:
        ws.close()
    small = pair.table
    _until(lambda: not hub.actors[small].conns if small in hub.actors else True)
    monkeypatch.setattr(hub_module, "IDLE_ENTRIES", 1000)  # fewer than the long table's
    watcher = guests()
    assert watcher.http.get(f"/matches/{small}").status_code == 200
    assert watcher.http.get(f"/matches/{long.table_id}", timeout=60).status_code == 200
    assert long.table_id in hub.actors  # the one just used is kept...
    # ...the others go as soon as it is marked idle (after its page was sent: a moment
    # later on a loaded machine), long before their idle time (60 s)
    _until(lambda: small not in hub.actors, timeout=5.0)
    assert long.table_id in hub.actors
    assert watcher.http.get(f"/matches/{small}").status_code == 200
    _until(lambda: long.table_id not in hub.actors)
    assert small in hub.actors


def test_a_spectator_is_sent_away_from_nothing(
    finished: tuple[RunningServer, LongTable], guests: Callable[[], Player]
) -> None:
    """An unknown table id: 404 and no actor made."""
    server, _long = finished
    hub = _hub(server)
    r = guests().http.get("/matches/AAAAAAAAAAAA")
    assert r.status_code == 404
    assert "AAAAAAAAAAAA" not in hub.actors


def test_loads_past_the_limit_are_refused_and_change_nothing(
    finished: tuple[RunningServer, LongTable],
    guests: Callable[[], Player],
    evict_after: Callable[[float], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past ``LOADING_LIMIT`` tables being loaded at once, opening one more is refused
    (429 ``rate_limited``) and loads nothing; the tables already held still answer."""
    server, long = finished
    hub = _hub(server)
    evict_after(0.3)
    _until(lambda: long.table_id not in hub.actors)
    monkeypatch.setattr(hub_module, "LOADING_LIMIT", 0)
    watcher = guests()
    r = watcher.http.get(f"/api/tables/{long.table_id}")
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    assert long.table_id not in hub.actors
    monkeypatch.undo()
    assert watcher.http.get(f"/api/tables/{long.table_id}", timeout=60).status_code == 200
