"""A long journal is folded in a worker process (issue #30): the same state, records and
game starts as the fold on the loader thread, and a server with worker processes loads
a long finished table through it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from gammon.server.infra.workqueue import WorkQueue
from gammon.server.table.actor.host import Record
from gammon.server.table.actor.loader import (
    LONG_JOURNAL,
    SLICE,
    records_of,
    replay_journal,
    replay_rows,
)
from gammon.server.table.hub import Hub
from gammon.storage import Database, Store
from journalkit import write_long_session
from serverkit import Player, start_server, wait_state
from serverkit import test_settings as settings_for


def _plain(records: list[Record]) -> list[Any]:
    """Records as the wire sees them (JSON: a tuple and a list are the same array)."""
    return [json.loads(json.dumps([r.seq, r.kind, r.data, r.at, list(r.events)])) for r in records]


@pytest.fixture(scope="module")
def long_journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, list[Any]]:
    """A money session of 20 finished games (over LONG_JOURNAL entries) and its journal."""
    url = f"sqlite:///{tmp_path_factory.mktemp('loader') / 'gammon.db'}"
    long = write_long_session(url, 20)
    loaded = Store(Database(url)).load(long.table_id)
    assert loaded is not None
    entries = loaded[1]
    assert len(entries) >= LONG_JOURNAL > SLICE
    return url, long.table_id, entries


def test_the_worker_process_fold_equals_the_threads(
    long_journal: tuple[str, str, list[Any]],
) -> None:
    """Through a real worker process (spawned, its answer pickled back), the state, the
    starts and every record (data and events) are the thread's."""
    _, table_id, entries = long_journal
    state, records, starts = replay_journal(table_id, entries)
    rows = [(e.seq, e.kind, e.data, e.at) for e in entries]

    async def through_a_process() -> tuple[Any, list[Record], list[int]]:
        queue = WorkQueue("test-load-long", 1, processes=True)
        try:
            s, found, events = await queue.run(table_id, replay_rows, table_id, rows)
            return s, await records_of(entries, events), found
        finally:
            queue.close()

    state2, records2, starts2 = asyncio.run(through_a_process())
    assert state2 == state
    assert starts2 == starts and len(starts) == 21  # 20 games over and the one in play
    assert _plain(records2) == _plain(records)
    assert records2[0].seq == 1 and any(r.events for r in records2)


def test_records_are_made_a_slice_at_a_time(long_journal: tuple[str, str, list[Any]]) -> None:
    """Between two slices of records the loop runs other work."""
    _, table_id, entries = long_journal
    _, _, events = replay_rows(table_id, [(e.seq, e.kind, e.data, e.at) for e in entries])
    ticks = 0

    async def main() -> list[Record]:
        nonlocal ticks

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        try:
            return await records_of(entries, events)
        finally:
            task.cancel()

    records = asyncio.run(main())
    assert len(records) == len(entries)
    assert ticks >= len(entries) // SLICE


def test_a_server_with_worker_processes_loads_a_long_table_in_one(
    long_journal: tuple[str, str, list[Any]], tmp_path: Path
) -> None:
    """``gammon serve`` with worker processes (its default) folds a long journal in its
    loader process; a spectator then gets the table as it is."""
    url, table_id, entries = long_journal
    server = start_server(settings_for(tmp_path, database_url=url, bot_workers=1))
    try:
        hub: Hub = server.app.state.gammon.table.hub
        assert hub.long_loads.processes
        watcher = Player(server).guest()
        ws = watcher.connect(table_id, seed=None)
        state = wait_state(ws, lambda s: s["version"] >= entries[-1].seq, 60)
        assert state["match"]["game"]["number"] == 21  # 20 games over
        assert hub.long_loads.used(table_id) > 0  # the process did the fold
        # the resumed table may have gone on since (the server rolls for the player)
        assert len(hub.actors[table_id].records) >= len(entries)
        ws.close()
        watcher.close()
    finally:
        server.stop()
