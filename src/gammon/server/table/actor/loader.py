"""Rebuilding a table from its journal when its actor is loaded.

A journal is folded by the table's pure reducer from its ``created`` entry on: a finished
money session of 85 games (about 5,000 entries) takes about a second of CPU. On a thread
that second is not spent on the event loop, but the thread holds the interpreter lock
that the loop needs to answer every other table, so for as long as it runs each of their
actions waits for the lock again and again. A journal of :data:`LONG_JOURNAL` entries or
more is therefore folded in a worker process (:attr:`TableHost.long_loads`): the process
is sent the entries as plain tuples and sends back the state (a few kilobytes), where each
game starts, and each entry's events as JSON text; the loop then makes the records a slice
at a time, letting other work in between (:func:`records_of`). Shorter journals, and every
journal when the host has no worker processes, are folded on the loader thread
(:attr:`TableHost.loads`) as before.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
from collections.abc import Sequence
from typing import Final

import orjson

from gammon.server.table.actor.fanout import scan_game_starts
from gammon.server.table.actor.host import Record, TableHost
from gammon.server.table.state import TableState, initial_state, reduce
from gammon.storage import EntryRow

__all__ = ["LONG_JOURNAL", "load_journal", "replay_journal", "replay_rows"]

log = logging.getLogger(__name__)

#: Journals with this many entries or more are folded in a worker process (when the host
#: has them): below it the round trip to the process costs more than the fold.
LONG_JOURNAL: Final = 1000
#: Records the loop makes between two chances for other work (:func:`records_of`).
SLICE: Final = 256

#: A journal entry as sent to a worker process: seq, kind, data (JSON text), at.
Row = tuple[int, str, str, int]


def replay_journal(
    table_id: str, entries: Sequence[EntryRow]
) -> tuple[TableState, list[Record], list[int]]:
    """A table's state and records, rebuilt by folding its whole journal, and where each
    game begins among the records (pure: run on the loader thread by :func:`load_journal`)."""
    if not entries or entries[0].kind != "created":
        raise RuntimeError(f"table {table_id} has a journal without its created entry")
    first = entries[0]
    data = json.loads(first.data)
    state = initial_state(table_id, data, first.at)
    records = [Record(1, "created", data, first.at)]
    for entry in entries[1:]:
        data = json.loads(entry.data)
        state, events = reduce(state, entry.kind, data, entry.at)
        records.append(Record(entry.seq, entry.kind, data, entry.at, tuple(events)))
    starts: list[int] = []
    scan_game_starts(records, starts, 0)
    return state, records, starts


def replay_rows(table_id: str, rows: Sequence[Row]) -> tuple[TableState, list[int], list[bytes]]:
    """:func:`replay_journal` in a worker process: the state, where each game starts, and
    each entry's events as JSON text (``b"[]"`` for none), which pickle in milliseconds where
    the records themselves (thousands of small dicts) would hold the loop's lock for a
    tenth of a second to unpickle.

    >>> created = '{"options": {}, "seats": [null, null]}'
    >>> state, starts, events = replay_rows("t", [(1, "created", created, 0)])
    >>> state.id, starts, events
    ('t', [], [b'[]'])
    """
    entries = [EntryRow(seq, kind, data, at) for seq, kind, data, at in rows]
    state, records, starts = replay_journal(table_id, entries)
    return state, starts, [orjson.dumps(r.events) if r.events else b"[]" for r in records]


async def records_of(entries: Sequence[EntryRow], events: Sequence[bytes]) -> list[Record]:
    """The records of ``entries`` with the ``events`` a worker process found (see
    :func:`replay_rows`), made :data:`SLICE` at a time: between two slices the loop answers
    other tables."""
    records: list[Record] = []
    for start in range(0, len(entries), SLICE):
        for entry, found in zip(
            entries[start : start + SLICE], events[start : start + SLICE], strict=True
        ):
            seq = 1 if entry.kind == "created" and not records else entry.seq
            extra = tuple(orjson.loads(found)) if found != b"[]" else ()
            records.append(Record(seq, entry.kind, orjson.loads(entry.data), entry.at, extra))
        await asyncio.sleep(0)
    return records


async def load_journal(
    host: TableHost, table_id: str, entries: Sequence[EntryRow]
) -> tuple[TableState, list[Record], list[int]]:
    """Fold a table's journal off the event loop: a long one in a worker process, the
    others on the loader thread (see the module's text)."""
    if len(entries) >= LONG_JOURNAL and host.long_loads.processes:
        rows = [(e.seq, e.kind, e.data, e.at) for e in entries]
        try:
            state, starts, events = await host.long_loads.run(table_id, replay_rows, table_id, rows)
        except concurrent.futures.BrokenExecutor:
            # the worker process died (killed): fold on the thread instead
            log.warning("the journal loader process is gone; table %s loads on a thread", table_id)
        else:
            return state, await records_of(entries, events), starts
    return await host.loads.run(table_id, replay_journal, table_id, entries)
