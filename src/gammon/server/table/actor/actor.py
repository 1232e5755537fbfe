"""One asyncio task per open table: the only writer of its journal in this process.

Every change to a table (a player's action, a sit, a chat line, the server's
own auto-roll, timeout or bot move) goes through the actor's queue and is
handled one at a time: validated against the current :class:`TableState`,
committed to the database (write-through), and only then applied in memory
and sent to clients, each event with its version.

The actor only sequences, persists and fans out; the rest is its collaborators':
:class:`~gammon.server.table.actor.seeds.Seeds` (the dice),
:class:`~gammon.server.table.actor.seating.Seating` (sits, leaves, escrow, start, end),
:class:`~gammon.server.table.actor.autopilot.Autopilot` (auto-rolls, clocks, idle
forfeits, bots, resuming), :class:`~gammon.server.table.actor.messages.Messages`
(client messages) and :class:`~gammon.server.table.actor.fanout.Fanout` (what
connections are sent).  Its process is a :class:`~gammon.server.table.actor.host.TableHost`.

Several processes may hold an actor for the same table (sharing PostgreSQL and
Redis): the database refuses a second entry with the same version
(:class:`gammon.storage.ConflictError`), the loser reads what it missed and
tries again, so the journal never forks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeVar

from gammon.errors import GammonError
from gammon.server.infra.bus import Entry
from gammon.server.infra.clock import now_ms
from gammon.server.protocol import ClientMessage, ServerError
from gammon.server.table.actor.autopilot import Autopilot
from gammon.server.table.actor.fanout import Fanout
from gammon.server.table.actor.host import Record, TableHost, off_the_board
from gammon.server.table.actor.loader import load_journal
from gammon.server.table.actor.messages import Messages
from gammon.server.table.actor.seating import Seating
from gammon.server.table.actor.seeds import Seeds, check_seed
from gammon.server.table.connection import Connection, dumps
from gammon.server.table.correspondence import dormant, is_correspondence, wake
from gammon.server.table.journal import EntryKind
from gammon.server.table.results import match_result
from gammon.server.table.state import TableState, reduce
from gammon.server.table.views import keep_moves, list_moves
from gammon.storage import ConflictError, TableUpdate

__all__ = ["TableActor"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Tries of one change when other processes keep winning the race.
_TRIES: Final = 5
#: Seconds between looks while a roll waits for a client seed.
_SEED_POLL: Final = 0.05


@dataclass(slots=True)
class _Join:
    conn: Connection
    last_version: int | None
    client_seed: str | None


@dataclass(slots=True)
class _Part:
    conn: Connection


@dataclass(slots=True)
class _Message:
    conn: Connection
    message: ClientMessage
    #: When the message arrived (``time.perf_counter``): its answer's latency counts from it.
    received: float = field(default_factory=time.perf_counter)


@dataclass(slots=True)
class _Call:
    fn: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any]


@dataclass(slots=True)
class _Drive:
    pass


@dataclass(slots=True)
class _Remote:
    version: int
    entry: Entry | None = None  # the entry that made ``version``, when announced with it


_Command = _Join | _Part | _Message | _Call | _Drive | _Remote


def _update(
    old: TableState, new: TableState, kind: str, data: dict[str, Any], at: int
) -> TableUpdate:
    """What the database stores besides the entry: the listing cache, ledger, holds, and
    with the ``end`` entry the table's result and ratings (in the same transaction)."""
    ledger: list[tuple[int, int, str, int | None]] = []
    game = None
    if old.match is not None and new.match is not None:
        game = old.match.game.number
        for entry in new.match.ledger[len(old.match.ledger) :]:
            who = new.seats[entry.player]
            if who is not None and who.kind != "bot" and who.user_id is not None:
                ledger.append((who.user_id, entry.amount, "game", entry.game))
    holds: list[tuple[int, int, int | None]] = []
    for seat in (0, 1):
        change = new.escrow[seat] - old.escrow[seat]
        who = new.seats[seat] or old.seats[seat]
        if change and who is not None and who.user_id is not None:
            holds.append((who.user_id, change, game))
    wake_at, turn_user = _wake_columns(new)
    return TableUpdate(
        status=new.status if new.status != old.status else None,
        seats=(
            dumps([s.public() if s is not None else None for s in new.seats])
            if new.seats != old.seats
            else None
        ),
        finished_at=at if kind == "end" else None,
        result=dumps(data) if kind == "end" else None,
        ledger=tuple(ledger),
        holds=tuple(holds),
        outcome=match_result(new, data) if kind == "end" else None,
        wake_at=wake_at,
        turn_user=turn_user,
    )


def _wake_columns(state: TableState) -> tuple[int | None, int | None]:
    """A correspondence table's deadline and whose move it is, on its row (0: none; None:
    not a correspondence table), so that the actor may be forgotten while it waits
    (:mod:`gammon.server.table.correspondence`)."""
    if not is_correspondence(state.options):
        return None, None
    return wake(state) or (0, 0)


class TableActor:
    """The serialised owner of one table in this process."""

    def __init__(self, host: TableHost, table_id: str) -> None:
        self.host = host
        self.id = table_id
        self.state: TableState | None = None
        self.records: list[Record] = []
        self.conns: set[Connection] = set()
        self.seeds = Seeds(self)
        self.seating = Seating(self, self.seeds)
        self.autopilot = Autopilot(self, self.seeds, self.seating)
        self.fanout = Fanout(self, self.autopilot.idle_deadline)
        self.messages = Messages(self, self.seeds, self.seating, self.fanout)
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._drive_pending = False
        #: Set once stopped (evicted or shutting down): new connections are sent away.
        self.stopped = False

    # ------------------------------------------------------------------ life cycle

    async def load(self) -> bool:
        """Rebuild the table from its journal; False if there is no such table.

        The journal is replayed off the event loop (:mod:`.loader`: a long one in a worker
        process): a finished session of 85 games takes about a second of CPU, during which
        every other table of the process would wait."""
        loaded = await self.host.db.run(self.host.store.load, self.id)
        if loaded is None:
            return False
        row, entries = loaded
        state, records, starts = await load_journal(self.host, self.id, entries)
        self.state = state
        self.records = records
        self.fanout.knew_starts(starts, len(records))
        self.seeds.set_server_seed(bytes.fromhex(row.server_seed) if row.server_seed else None)
        self.autopilot.resumed_at = now_ms()
        return True

    def start(self) -> None:
        """Start processing commands."""
        self._task = asyncio.create_task(self._run(), name=f"gammon-table-{self.id}")
        self.drive()

    async def stop(self) -> None:
        """Stop the task, close every connection (1001: going away)."""
        self.stopped = True
        self.fanout.stop()
        for conn in list(self.conns):
            conn.close(1001, "server shutting down")
        await self.autopilot.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        while not self._queue.empty():  # nobody waits for ever on a stopped table
            command = self._queue.get_nowait()
            if isinstance(command, _Call) and not command.future.done():
                command.future.set_exception(
                    ServerError("conflict", "the table was being reloaded; try again")
                )

    @property
    def idle(self) -> bool:
        """No connections, nothing queued, nothing that runs by itself (no match in play,
        or a correspondence table waiting on a person)."""
        return (
            not self.conns
            and self._queue.empty()
            and (self.state is None or self.state.status != "playing" or dormant(self.state))
        )

    # ------------------------------------------------------------------ entry points

    def join(self, conn: Connection, last_version: int | None, client_seed: str | None) -> None:
        """A connection said hello (an evicted actor sends it away to reconnect)."""
        if self.stopped:
            conn.close(1012, "the table moved: reconnect")
            return
        self._queue.put_nowait(_Join(conn, last_version, client_seed))

    def part(self, conn: Connection) -> None:
        """A connection went away."""
        self._queue.put_nowait(_Part(conn))

    def submit(self, conn: Connection, message: ClientMessage) -> None:
        """A client message for the table."""
        self._queue.put_nowait(_Message(conn, message))

    def notify(self, version: int, entry: Entry | None = None) -> None:
        """Another process committed ``version`` (by ``entry``, when the announcement
        carried it)."""
        if self.state is None or version > self.state.version:
            self._queue.put_nowait(_Remote(version, entry))

    def drive(self) -> None:
        """Ask the actor to do what the server does by itself (auto-roll, bots, clock)."""
        if not self._drive_pending:
            self._drive_pending = True
            self._queue.put_nowait(_Drive())

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` inside the actor (serialised with everything else) and return its result."""
        if self.stopped:
            raise ServerError("conflict", "the table was being reloaded; try again")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Call(fn, future))
        return await future

    def online(self) -> tuple[bool, bool]:
        """Whether each seat's player has this table open here (a bot always has)."""
        return self.fanout.online()

    def seat(self, conn: Connection) -> int | None:
        """The seat a connection's user sits in, if any."""
        assert self.state is not None
        return self.state.seat_of(conn.user_id)

    def error(self, conn: Connection, msg_id: str | int | None, exc: BaseException) -> None:
        """Send an ``error`` message to one connection."""
        self.fanout.error(conn, msg_id, exc)

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        while True:
            command = await self._queue.get()
            try:
                await self._handle(command)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: failed to handle %s", self.id, type(command).__name__)

    async def _handle(self, command: _Command) -> None:
        if isinstance(command, _Message):
            await self._on_message(command)
        elif isinstance(command, _Drive):
            self._drive_pending = False
            await self.retrying(self.autopilot.run)
        elif isinstance(command, _Join):
            await self._on_join(command)
        elif isinstance(command, _Part):
            self._on_part(command.conn)
        elif isinstance(command, _Call):
            await self._on_call(command)
        elif (
            self.state is not None
            and command.version > self.state.version
            and not self._apply_announced(command)
        ):
            await self.catch_up()

    async def _on_call(self, command: _Call) -> None:
        if command.future.cancelled():
            return
        try:
            result = await self.retrying(command.fn)
        except Exception as exc:
            if not command.future.cancelled():
                command.future.set_exception(exc)
        else:
            if not command.future.cancelled():
                command.future.set_result(result)

    async def retrying(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn``, catching up and trying again when another process wins a race."""
        for _ in range(_TRIES - 1):
            try:
                return await fn()
            except ConflictError:
                await self.catch_up()
        try:
            return await fn()
        except ConflictError:
            raise ServerError("conflict", "the table kept changing; try again") from None

    # ------------------------------------------------------------------ writing

    async def commit(
        self, kind: EntryKind, data: dict[str, Any], *, server_seed: bytes | None = None
    ) -> Record:
        """Validate, write through, apply, tell everyone.  Raises (changing nothing) on error."""
        old = self.state
        assert old is not None
        at = max(now_ms(), self.records[-1].at if self.records else 0)
        if off_the_board(old):  # legal moves can take a while: keep the loop free
            new, events = await self.host.work.run(self.id, reduce, old, kind, data, at)
        else:
            new, events = reduce(old, kind, data, at)
        change = _update(old, new, kind, data, at)
        if change.outcome is not None and change.outcome.rated:
            # at most --rated-pair-limit rated matches a day per pair (docs/ratings.md)
            limit = self.host.settings.rated_pair_limit
            change = replace(change, outcome=replace(change.outcome, pair_limit=limit))
        if server_seed is not None:
            change = replace(change, server_seed=server_seed.hex())
        await self.host.db.write(
            self.host.store.append, self.id, new.version, kind, dumps(data), at, change
        )
        if server_seed is not None:
            self.seeds.set_server_seed(server_seed)
        g = new.match.game if new.match is not None else None
        if g is not None and g.phase == "moving" and g.dice is not None and off_the_board(new):
            # the state to the mover needs the moves: work them out off the loop, kept here
            dice = (g.dice.d1, g.dice.d2)
            payload = await self.host.work.run(self.id, list_moves, g.position, dice)
            keep_moves(g.position, dice, payload)
        self.host.metrics.committed(kind, data)
        return self._applied(new, Record(new.version, kind, data, at, tuple(events)), publish=True)

    def _applied(self, new: TableState, record: Record, *, publish: bool) -> Record:
        self.state = new
        self.records.append(record)
        self.fanout.broadcast(record)
        if publish:
            self.host.announce(self.id, new.version, (record.kind, record.data, record.at))
            if record.kind == "end":
                self.host.ended(self.id)
        self.drive()
        return record

    def _apply_announced(self, remote: _Remote) -> bool:
        """Apply the entry another process announced when it is the next one (not a
        ``start``, whose server seed only the database holds); False: read the journal."""
        assert self.state is not None
        if remote.entry is None or remote.version != self.state.version + 1:
            return False
        kind, data, at = remote.entry
        if kind == "start":
            return False
        try:
            new, events = reduce(self.state, kind, data, at)
        except Exception as exc:  # the journal is the truth: read it there
            log.warning(
                "table %s: announced entry %d not applied: %s", self.id, remote.version, exc
            )
            return False
        self._applied(new, Record(remote.version, kind, data, at, tuple(events)), publish=False)
        return True

    async def catch_up(self) -> None:
        """Read and apply what other processes committed."""
        assert self.state is not None
        rows = await self.host.db.run(self.host.store.entries, self.id, self.state.version)
        for row in rows:
            if row.seq != self.state.version + 1:
                log.warning("table %s: journal gap at %d", self.id, row.seq)
                break
            data = json.loads(row.data)
            new, events = reduce(self.state, row.kind, data, row.at)
            if row.kind == "start":
                seed = await self.host.db.run(self.host.store.server_seed, self.id)
                self.seeds.set_server_seed(bytes.fromhex(seed) if seed else None)
            self._applied(
                new, Record(row.seq, row.kind, data, row.at, tuple(events)), publish=False
            )

    # ------------------------------------------------------------------ connections

    def _presence(self) -> tuple[tuple[bool, bool], tuple[int, tuple[str, ...]]]:
        return self.fanout.online(), self.fanout.spectators()

    async def _on_join(self, join: _Join) -> None:
        conn = join.conn
        if conn.closing:
            return
        before = self._presence()
        self.conns.add(conn)
        conn.joined = True
        self.fanout.welcome(conn, join.last_version)
        if self._presence() != before:
            self.fanout.presence_changed()
        if join.client_seed is not None:
            try:
                conn.pending_seed = check_seed(join.client_seed)
                await self.retrying(lambda: self.seeds.apply(conn))
            except GammonError as exc:
                self.error(conn, None, exc)

    def _on_part(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        before = self._presence()
        self.conns.discard(conn)
        conn.joined = False
        if self.state is not None and self._presence() != before:
            self.fanout.presence_changed()
        if self.idle:
            self.host.maybe_evict(self.id)

    async def _on_message(self, command: _Message) -> None:
        conn, message = command.conn, command.message
        if conn not in self.conns:
            return
        state = self.state
        if message.type == "roll" and state is not None and self.seeds.awaited(state, now_ms()):
            # a seated player's seed is on its way (its page's hello): look again soon
            loop = asyncio.get_running_loop()
            loop.call_later(_SEED_POLL, self._queue.put_nowait, _Message(conn, message))
            return
        try:
            record = await self.retrying(lambda: self.messages.handle(conn, message))
        except GammonError as exc:
            self.error(conn, message.id, exc)
            return
        except Exception as exc:
            log.exception("table %s: %s message failed", self.id, message.type)
            self.error(conn, message.id, exc)
            return
        assert self.state is not None
        version = record.seq if record is not None else self.state.version
        if record is not None:
            self.host.metrics.answered(message.type, time.perf_counter() - command.received)
        conn.send_json({"type": "ack", "id": message.id, "version": version})
