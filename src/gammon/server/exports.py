"""A match's downloads (the action log, the ``.mat`` file), built off the event loop.

A table that lived long has thousands of entries and its ``.mat`` file takes seconds
of CPU to write, so a download never runs on the event loop: it is built on the
exports' :class:`~gammon.server.workqueue.WorkQueue` (one worker: a process when the
server runs its bots in processes, so that it does not even share the event loop's
interpreter lock, else a thread; the clients asking are served in turn), kept per table and kind for the version it was
built at (a table's record changes only with its version, so however many clients ask
for an unchanged table, it is built once; clients asking at the same time share the
one build), rationed per client address and sent in chunks.

>>> from gammon.server.table import initial_state
>>> from gammon.match import TableOptions
>>> state = initial_state("t1", {"by": "a", "options": TableOptions().to_dict()}, 0)
>>> record_of(state, [])
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: the match has not started
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from gammon.match import action_from_dict
from gammon.match.record import DiceRecord, MatchRecord, write_log
from gammon.server.actor.host import Record
from gammon.server.protocol import ServerError
from gammon.server.ratelimit import KeyedLimiter
from gammon.server.table import DICE_SCHEME, TableState
from gammon.server.workqueue import WorkQueue

__all__ = [
    "CACHE_BYTES",
    "CHUNK",
    "EXPORT_BURST",
    "EXPORT_RATE",
    "Exports",
    "chunks",
    "log_bytes",
    "mat_bytes",
    "record_of",
]

#: Downloads per second one client address may ask for (after a burst of ``EXPORT_BURST``).
EXPORT_RATE: Final = 0.5
EXPORT_BURST: Final = 8
#: Bytes of downloads kept (least recently asked for go first).
CACHE_BYTES: Final = 32 * 1024 * 1024
#: Bytes per piece of a streamed download.
CHUNK: Final = 64 * 1024

#: What builds a download from a table's state and journal (run on a worker thread).
Builder = Callable[[TableState, Sequence[Record]], bytes]


def record_of(state: TableState, records: Sequence[Record]) -> MatchRecord:
    """The action log of a table's match (the server seed only once finished)."""
    if state.match is None or state.commitment is None:
        raise ServerError("not_started", "the match has not started")
    actions = tuple(action_from_dict(r.data["action"]) for r in records if r.kind == "action")
    seed = None
    if state.status == "finished" and state.result is not None:
        seed = state.result.get("server_seed")
    return MatchRecord(
        state.options,
        actions,
        state.players,
        state.balances,
        # the client seeds are shown once the dice are locked (as in the state)
        DiceRecord(
            state.id,
            state.commitment,
            state.seeds_locked if state.locked else ("", ""),
            DICE_SCHEME,
        ),
        seed,
        {"table": state.id, "status": state.status, "result": state.result or {}},
    )


def log_bytes(state: TableState, records: Sequence[Record]) -> bytes:
    """The action log (``/matches/{id}/log``), as sent."""
    return write_log(record_of(state, records)).encode()


def mat_bytes(state: TableState, records: Sequence[Record]) -> bytes:
    """The ``.mat`` file (``/matches/{id}/mat``), as sent."""
    from gammon.match.formats.matwrite import match_to_mat

    record = record_of(state, records)
    if not record.actions:
        raise ServerError("not_started", "no action has been played yet")
    return match_to_mat(record).encode()


def chunks(data: bytes) -> Iterator[bytes]:
    """``data`` in pieces of :data:`CHUNK` bytes.

    >>> [len(c) for c in chunks(bytes(CHUNK + 1))]
    [65536, 1]
    """
    for start in range(0, len(data), CHUNK):
        yield data[start : start + CHUNK]


class Exports:
    """The downloads of one process: their queue, their cache, their ration."""

    def __init__(self, workers: int = 1, *, processes: bool = False) -> None:
        self.queue = WorkQueue("gammon-export", workers, per_key=2, processes=processes)
        self.limiter = KeyedLimiter(EXPORT_RATE, EXPORT_BURST)
        #: (table, kind) -> (version, bytes): one entry per table and kind, the newest
        self._cache: OrderedDict[tuple[str, str], tuple[int, bytes]] = OrderedDict()
        self._building: dict[tuple[str, str, int], asyncio.Future[bytes]] = {}  # shared
        self._bytes = 0
        self.builds = 0  # how many were built (not found kept): for tests and figures

    def admit(self, client: str) -> None:
        """Take one of ``client``'s downloads (an address), or refuse (``rate_limited``):
        asked before anything else, so that a refusal costs next to nothing."""
        if not self.limiter.allow(client):
            raise ServerError("rate_limited", "too many downloads from your address: wait a moment")

    async def build(
        self,
        client: str,
        kind: str,
        state: TableState,
        records: Sequence[Record],
        builder: Builder,
    ) -> bytes:
        """A download of ``kind`` for ``client`` (an address, :meth:`admit`-ted): kept if it was built at this
        version of the table, else built in the client's turn (or shared with the build
        another client started for the same version).  ``records``: the table's journal
        (its entries past ``state.version`` are left out)."""
        key = (state.id, kind)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == state.version:
            self._cache.move_to_end(key)
            return hit[1]
        building = (*key, state.version)
        task = self._building.get(building)
        if task is None:  # a task of its own: a client that leaves does not stop it
            self.builds += 1
            # the records up to this version: a copy, since the table goes on appending
            job = self.queue.run(client, builder, state, records[: state.version])
            task = asyncio.ensure_future(job)
            self._building[building] = task
            task.add_done_callback(lambda done: self._built(building, done))
        return await asyncio.shield(task)

    def _built(self, building: tuple[str, str, int], task: asyncio.Future[bytes]) -> None:
        del self._building[building]
        if not task.cancelled() and task.exception() is None:
            table_id, kind, version = building
            self._keep((table_id, kind), version, task.result())

    def _keep(self, key: tuple[str, str], version: int, data: bytes) -> None:
        old = self._cache.get(key)
        if old is not None and old[0] > version:
            return  # a build for a newer version came first
        if old is not None:
            del self._cache[key]
            self._bytes -= len(old[1])
        if len(data) > CACHE_BYTES // 4:
            return
        self._cache[key] = (version, data)
        self._bytes += len(data)
        while self._bytes > CACHE_BYTES:
            _, (_, dropped) = self._cache.popitem(last=False)
            self._bytes -= len(dropped)

    def close(self) -> None:
        """Stop the queue's thread."""
        self.queue.close()
