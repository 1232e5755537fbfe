"""A match's downloads (the action log, the ``.mat`` file), built off the event loop.

A table that lived long has thousands of entries and its ``.mat`` file takes seconds
of CPU to write, so a download never runs on the event loop: it is built on the
exports' :class:`~gammon.server.workqueue.WorkQueue` (one worker: a process when the
server runs its bots in processes, so that it does not even share the event loop's
interpreter lock, else a thread; the clients asking are served in turn), kept once the match is finished (its record no longer changes),
rationed per client address and sent in chunks.

>>> from gammon.server.table import initial_state
>>> from gammon.match import TableOptions
>>> state = initial_state("t1", {"by": "a", "options": TableOptions().to_dict()}, 0)
>>> record_of(state, [])
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: the match has not started
"""

from __future__ import annotations

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
#: Bytes of finished matches' downloads kept (least recently asked for go first).
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
        self._cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._bytes = 0

    async def build(
        self,
        client: str,
        kind: str,
        state: TableState,
        records: Sequence[Record],
        builder: Builder,
    ) -> bytes:
        """A download of ``kind`` for ``client`` (an address): from the cache if the match
        is finished and it was built before, else built in the client's turn."""
        if not self.limiter.allow(client):
            raise ServerError("rate_limited", "too many downloads from your address: wait a moment")
        key = (state.id, kind)
        finished = state.status == "finished"
        if finished and (hit := self._cache.get(key)) is not None:
            self._cache.move_to_end(key)
            return hit
        data = await self.queue.run(client, builder, state, records)
        if finished and key not in self._cache and len(data) <= CACHE_BYTES // 4:
            self._cache[key] = data
            self._bytes += len(data)
            while self._bytes > CACHE_BYTES:
                _, old = self._cache.popitem(last=False)
                self._bytes -= len(old)
        return data

    def close(self) -> None:
        """Stop the queue's thread."""
        self.queue.close()
