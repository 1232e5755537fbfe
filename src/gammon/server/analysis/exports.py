"""A match's downloads (the action log, the ``.mat`` file), built off the event loop.

A table that lived long has thousands of entries and its ``.mat`` file takes seconds
of CPU to write, so a download never runs on the event loop: it is built on the
exports' :class:`~gammon.server.infra.workqueue.WorkQueue` (one worker: a process when the
server runs its bots in processes, so that it does not even share the event loop's
interpreter lock, else a thread; the clients asking are served in turn), kept per table and kind for the version it was
built at (a table's record changes only with its version, so however many clients ask
for an unchanged table, it is built once; clients asking at the same time share the
one build), rationed per client address and sent in chunks.

>>> from gammon.server.table.state import initial_state
>>> from gammon.match import TableOptions
>>> state = initial_state("t1", {"by": "a", "options": TableOptions().to_dict()}, 0)
>>> record_of(state, [])
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: the match has not started
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final

from gammon.match import action_from_dict
from gammon.match.record import DiceRecord, MatchRecord, write_log
from gammon.server.infra.limits import RATIONS, Limits
from gammon.server.infra.workqueue import WorkQueue
from gammon.server.protocol import ServerError
from gammon.server.table.actor.host import Record
from gammon.server.table.state import DICE_SCHEME, TableState

__all__ = [
    "CACHE_BYTES",
    "CHUNK",
    "EXPORT_BURST",
    "EXPORT_RATE",
    "EXPORT_TOTAL_BURST",
    "EXPORT_TOTAL_RATE",
    "LIVE_REFUSAL",
    "Exports",
    "actions_of",
    "check_not_live",
    "chunks",
    "held",
    "log_bytes",
    "log_replay_bytes",
    "mat_bytes",
    "record_of",
    "replay_bytes",
]

#: Downloads per second one client address may ask for (after a burst of ``EXPORT_BURST``),
#: at the default ``--list-limit`` (10), which scales them (``RATIONS["download"]``).
EXPORT_RATE: Final = RATIONS["download"].address[0] * 10
EXPORT_BURST: Final = int(RATIONS["download"].address[1] * 10)
#: Downloads per second every address together may ask for (after ``EXPORT_TOTAL_BURST``):
#: sixteen addresses cannot together ask for sixteen times one address's.
EXPORT_TOTAL_RATE: Final = RATIONS["download"].site[0] * 10
EXPORT_TOTAL_BURST: Final = int(RATIONS["download"].site[1] * 10)
#: Bytes of downloads kept (least recently asked for go first).
CACHE_BYTES: Final = 32 * 1024 * 1024
#: Bytes per piece of a streamed download.
CHUNK: Final = 64 * 1024

#: What builds a download from a table's state and its actions (:func:`actions_of`), run
#: by a worker (a process or a thread).
Builder = Callable[[TableState, Sequence[dict[str, Any]]], bytes]


#: Why a rated or staked match's record is not sent while it is played (``not_finished``).
LIVE_REFUSAL: Final = (
    "the record of a rated or staked match is downloaded once the match is finished: "
    "an engine must not see a game in play"
)


def check_not_live(state: TableState) -> None:
    """Refuse (``not_finished``, 409) a record of a rated or staked match in play, to its
    players and its spectators alike: a ``.mat`` file or an action log of the game in
    play, appended with the current roll and imported, would have the server's analysis
    give the best move (docs/ratings.md, "No engine in a rated game").  Casual tables
    (where hints are given anyway) and finished matches are not refused.

    >>> from gammon.server.table.state import initial_state
    >>> from gammon.match import TableOptions
    >>> live = initial_state("t1", {"by": "a", "options": TableOptions(match_length=3, rated=True).to_dict()}, 0)
    >>> check_not_live(live)   # waiting: nothing to hide yet (and nothing to send)
    >>> from dataclasses import replace
    >>> check_not_live(replace(live, status="playing"))
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: the record of a rated or staked match is downloaded once the match is finished: an engine must not see a game in play
    >>> check_not_live(replace(live, status="finished"))
    """
    if held(state):
        raise ServerError("not_finished", LIVE_REFUSAL)


def held(state: TableState) -> bool:
    """Whether a table's record is held back (:func:`check_not_live`): a rated or staked
    match in play, the tables where hints are refused (``gammon.server.table.hints``)."""
    return state.status == "playing" and bool(state.options.rated or state.options.stake)


def actions_of(records: Sequence[Record]) -> list[dict[str, Any]]:
    """The actions of a table's journal, as written (what a download is built from).  A
    worker process is sent these, not the journal: a long session's entries carry the
    engine's events too, and pickling them all (on a thread that shares the interpreter
    lock with the event loop) took 70 times as long.

    >>> actions_of([Record(1, "action", {"action": {"type": "roll", "player": 0}}, 5),
    ...             Record(2, "chat", {"text": "hi"}, 6)])
    [{'type': 'roll', 'player': 0}]
    """
    return [r.data["action"] for r in records if r.kind == "action"]


def record_of(state: TableState, actions: Sequence[dict[str, Any]]) -> MatchRecord:
    """The action log of a table's match (the server seed only once finished) from its
    actions (:func:`actions_of`); refused for a rated or staked match in play
    (:func:`check_not_live`)."""
    if state.match is None or state.commitment is None:
        raise ServerError("not_started", "the match has not started")
    check_not_live(state)
    seed = None
    if state.status == "finished" and state.result is not None:
        seed = state.result.get("server_seed")
    return MatchRecord(
        state.options,
        tuple(action_from_dict(a) for a in actions),
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


def log_bytes(state: TableState, actions: Sequence[dict[str, Any]]) -> bytes:
    """The action log (``/matches/{id}/log``), as sent."""
    return write_log(record_of(state, actions)).encode()


def mat_bytes(state: TableState, actions: Sequence[dict[str, Any]]) -> bytes:
    """The ``.mat`` file (``/matches/{id}/mat``), as sent."""
    from gammon.match.formats.matwrite import match_to_mat

    record = record_of(state, actions)
    if not record.actions:
        raise ServerError("not_started", "no action has been played yet")
    return match_to_mat(record).encode()


def replay_bytes(state: TableState, actions: Sequence[dict[str, Any]]) -> bytes:
    """A finished match replayed step by step as JSON (``/api/tables/{id}/replay``,
    :func:`gammon.server.analysis.replay.replay_steps`)."""
    from gammon.server.analysis.replay import replay_steps

    return json.dumps(replay_steps(record_of(state, actions)), separators=(",", ":")).encode()


def log_replay_bytes(log_text: str) -> bytes:
    """An action log replayed step by step as JSON (an imported match's replay)."""
    from gammon.match.record import read_log
    from gammon.server.analysis.replay import replay_steps

    return json.dumps(replay_steps(read_log(log_text)), separators=(",", ":")).encode()


async def chunks(data: bytes) -> AsyncIterator[bytes]:
    """``data`` in pieces of :data:`CHUNK` bytes, for a streamed answer: asynchronous, so
    that the response sends them from the event loop (a plain iterator would be walked on
    a worker thread, one thread hand-off per piece).

    >>> import asyncio
    >>> async def sizes() -> list[int]:
    ...     return [len(c) async for c in chunks(bytes(CHUNK + 1))]
    >>> asyncio.run(sizes())
    [65536, 1]
    """
    for start in range(0, len(data), CHUNK):
        yield data[start : start + CHUNK]


class Exports:
    """The downloads of one process: their queue, their cache, their ration (``limits``'
    ``download`` kind: per address and for the whole site, shared across processes through
    Redis when the site has it; None: this process's own, at the default figures)."""

    def __init__(
        self, workers: int = 1, *, processes: bool = False, limits: Limits | None = None
    ) -> None:
        self.queue = WorkQueue("gammon-export", workers, per_key=2, processes=processes)
        self.limits = limits if limits is not None else Limits(create_limit=1.0)
        #: (table, kind) -> (version, bytes): one entry per table and kind, the newest
        self._cache: OrderedDict[tuple[str, str], tuple[int, bytes]] = OrderedDict()
        self._building: dict[tuple[str, str, int], asyncio.Future[bytes]] = {}  # shared
        self._bytes = 0
        self.builds = 0  # how many were built (not found kept): for tests and figures

    async def admit(self, client: str) -> None:
        """Take one of ``client``'s downloads (an address) and one of the site's, or refuse
        (``rate_limited``): asked before anything else, so that a refusal costs next to
        nothing."""
        await self.limits.need("download", None, client)

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
            # the actions up to this version (a copy: the table goes on appending)
            job = self.queue.run(client, builder, state, actions_of(records[: state.version]))
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
