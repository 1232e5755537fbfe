"""What a table actor and its collaborators need from each other: small protocols.

The actor never imports the hub: it is given a :class:`TableHost` (the hub is
one).  Its collaborators (:mod:`~gammon.server.table.actor.seeds`,
:mod:`~gammon.server.table.actor.seating`, :mod:`~gammon.server.table.actor.autopilot`,
:mod:`~gammon.server.table.actor.fanout`, :mod:`~gammon.server.table.actor.messages`) see the
actor only as a :class:`Table`: its state, the one way to change it
(:meth:`Table.commit`), and the way to run something in its order.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from gammon.server.infra.bus import Bus, Entry
from gammon.server.infra.settings import Settings
from gammon.server.infra.workqueue import WorkQueue
from gammon.server.table.bots import BotRunner
from gammon.server.table.connection import Connection
from gammon.server.table.journal import EntryKind
from gammon.server.table.state import TableState
from gammon.storage import Database, Store

__all__ = [
    "NoMetrics",
    "Record",
    "Table",
    "TableHost",
    "TableMetrics",
    "loaded",
    "off_the_board",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Record:
    """A journal entry as kept in memory: its data and, for actions, the engine's events."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: int
    events: tuple[dict[str, Any], ...] = ()

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        """Pickled as its constructor's arguments: a long session's journal goes to a
        worker process for its downloads, pickled on a thread that shares the interpreter
        lock with the event loop (the dataclass default spends four times as long).

        >>> import pickle
        >>> r = Record(3, "action", {"a": 1}, 7, ({"kind": "x"},))
        >>> pickle.loads(pickle.dumps(r)) == r
        True
        """
        return (Record, (self.seq, self.kind, self.data, self.at, self.events))


class TableMetrics(Protocol):
    """What the tables count for ``/metrics`` (:class:`gammon.server.infra.metrics.ServerMetrics`)."""

    def committed(self, kind: str, data: dict[str, Any]) -> None:
        """A table committed a journal entry of ``kind`` holding ``data``."""

    def answered(self, kind: str, seconds: float) -> None:
        """A client's ``kind`` message was applied and broadcast ``seconds`` after it came."""


class NoMetrics:
    """:class:`TableMetrics` that counts nothing (a hub built without metrics)."""

    def committed(self, kind: str, data: dict[str, Any]) -> None:
        """Nothing."""

    def answered(self, kind: str, seconds: float) -> None:
        """Nothing."""


class TableHost(Protocol):
    """What a table actor needs from its process (:class:`gammon.server.table.hub.Hub`)."""

    settings: Settings
    db: Database
    store: Store
    bus: Bus
    bots: BotRunner
    #: Where the rules' heavy work off the backgammon board runs (legal moves of a
    #: variant position), the tables taking turns: never the event loop.
    work: WorkQueue
    #: What the tables count for ``/metrics``.
    metrics: TableMetrics
    #: Where a table's journal is replayed when its actor is loaded (threads of the
    #: process, a few at a time): never the event loop.
    loads: WorkQueue
    #: Where a long journal is replayed (a worker process, when the host runs its heavy
    #: work in processes: :mod:`gammon.server.table.actor.loader`).
    long_loads: WorkQueue

    def announce(self, table_id: str, version: int, entry: Entry | None = None) -> None:
        """Tell other processes that the table is at ``version`` (by ``entry``)."""

    def ended(self, table_id: str) -> None:
        """The table's ``end`` entry was committed (tournaments listen to it)."""

    def maybe_evict(self, table_id: str) -> None:
        """The table has gone idle: forget its actor after a while."""


class Table(Protocol):
    """The actor as its collaborators see it."""

    @property
    def id(self) -> str:
        """The table's id."""

    @property
    def host(self) -> TableHost:
        """The process's services."""

    @property
    def state(self) -> TableState | None:
        """The table now (None before it is loaded)."""

    @property
    def records(self) -> list[Record]:
        """The journal so far."""

    @property
    def conns(self) -> set[Connection]:
        """This process's connections to the table."""

    def seat(self, conn: Connection) -> int | None:
        """The seat a connection's user sits in, if any."""

    async def commit(
        self, kind: EntryKind, data: dict[str, Any], *, server_seed: bytes | None = None
    ) -> Record:
        """Validate, write through, apply and fan out one entry."""

    async def catch_up(self) -> None:
        """Read and apply what other processes committed."""

    async def retrying(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn``, catching up and trying again when another process wins a race."""

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` in the actor's order (after everything queued before it)."""

    def drive(self) -> None:
        """Ask the autopilot to look at the table again."""

    def error(self, conn: Connection, msg_id: str | int | None, exc: BaseException) -> None:
        """Send an ``error`` message to one connection."""


def off_the_board(state: TableState) -> bool:
    """Whether the table plays a variant off the backgammon board (``gammon.rules.track``),
    whose legal moves can number thousands (an acey-deucey 1-2)."""
    match = state.match
    return match is not None and not match.game.position.variant.standard_geometry


def loaded(table: Table) -> TableState:
    """The table's state (collaborators work only on a loaded table)."""
    state = table.state
    assert state is not None, f"table {table.id} is not loaded"
    return state
