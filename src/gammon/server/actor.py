"""One asyncio task per open table: the only writer of its journal in this process.

Every change to a table (a player's action, a sit, a chat line, the server's
own auto-roll, timeout or bot move) goes through the actor's queue and is
handled one at a time: validated against the current :class:`TableState`,
committed to the database (write-through), and only then applied in memory
and sent to clients, each event with its version.

Several processes may hold an actor for the same table (sharing PostgreSQL and
Redis): the database refuses a second entry with the same version
(:class:`gammon.storage.ConflictError`), the loser reads what it missed and
tries again, so the journal never forks.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar

from gammon.dice import Dice
from gammon.errors import GammonError, InvalidSeedError
from gammon.match import (
    Abandon,
    Action,
    Double,
    Drop,
    Play,
    Resign,
    Roll,
    Take,
    Timeout,
    action_from_dict,
    action_to_dict,
    allowed_actions,
    to_act,
)
from gammon.match.fairdice import CLIENT_SEED_MAX_LENGTH, VerifiableDice, commit
from gammon.position import Position
from gammon.server.auth import now_ms
from gammon.server.connection import Connection, dumps
from gammon.server.protocol import (
    PROTOCOL_VERSION,
    SERVER_NAME,
    ClientMessage,
    ServerError,
    clean_chat,
    error_code,
)
from gammon.server.table import (
    DICE_SCHEME,
    TableState,
    auto_roll_due,
    clock_deadline,
    escrow_due,
    initial_state,
    is_fresh_game,
    reduce,
)
from gammon.server.views import entry_view, moves_payload, state_view
from gammon.storage import ConflictError, InsufficientFundsError, TableUpdate, UserRow

if TYPE_CHECKING:
    from gammon.server.hub import Hub

__all__ = ["Record", "TableActor"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Tries of one change when other processes keep winning the race.
_TRIES: Final = 5
#: Seconds a process waits for another's claimed bot decision before trying itself.
_BOT_CLAIM_TTL: Final = 30.0
#: A resuming client that missed more entries than this gets one snapshot instead.
REPLAY_LIMIT: Final = 64
#: Seconds presence changes (joins, leaves) are gathered before one ``presence`` message.
_PRESENCE_DELAY: Final = 0.2


@dataclass(frozen=True, slots=True)
class Record:
    """A journal entry as kept in memory: its data and, for actions, the engine's events."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: int
    events: tuple[dict[str, Any], ...] = ()


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


@dataclass(slots=True)
class _BotResult:
    version: int
    action: Action | None
    error: str | None = None


_Command = _Join | _Part | _Message | _Call | _Drive | _Remote | _BotResult


def _check_seed(seed: str) -> str:
    if len(seed) > CLIENT_SEED_MAX_LENGTH:
        raise InvalidSeedError(
            f"a client seed is at most {CLIENT_SEED_MAX_LENGTH} characters, got {len(seed)}"
        )
    if not all(" " <= c <= "~" for c in seed) or ":" in seed:
        raise InvalidSeedError("a client seed is printable ASCII without ':'")
    return seed


@dataclass(slots=True)
class _Cache:
    version: int = -1
    states: dict[tuple[int | None, bool, bool], str] = field(default_factory=dict)
    moves: dict[str, Any] | None = None
    history: str | None = None


class TableActor:
    """The serialised owner of one table in this process."""

    def __init__(self, hub: Hub, table_id: str) -> None:
        self.hub = hub
        self.id = table_id
        self.state: TableState | None = None
        self.records: list[Record] = []
        self.conns: set[Connection] = set()
        self._server_seed: bytes | None = None
        self._dice_stream: VerifiableDice | None = None
        self._dice_next: tuple[tuple[int, tuple[str, str]], Dice] | None = None
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._cache = _Cache()
        self._drive_pending = False
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_version = -1
        self._resumed_at = now_ms()
        self._presence_timer: asyncio.TimerHandle | None = None
        #: Set once stopped (evicted or shutting down): new connections are sent away.
        self.stopped = False

    # ------------------------------------------------------------------ life cycle

    async def load(self) -> bool:
        """Rebuild the table from its journal; False if there is no such table."""
        loaded = await self.hub.db.run(self.hub.store.load, self.id)
        if loaded is None:
            return False
        row, entries = loaded
        if not entries or entries[0].kind != "created":
            raise RuntimeError(f"table {self.id} has a journal without its created entry")
        first = entries[0]
        data = json.loads(first.data)
        state = initial_state(self.id, data, first.at)
        records = [Record(1, "created", data, first.at)]
        for entry in entries[1:]:
            data = json.loads(entry.data)
            state, events = reduce(state, entry.kind, data, entry.at)
            records.append(Record(entry.seq, entry.kind, data, entry.at, tuple(events)))
        self.state = state
        self.records = records
        self._server_seed = bytes.fromhex(row.server_seed) if row.server_seed else None
        self._resumed_at = now_ms()
        return True

    def start(self) -> None:
        """Start processing commands."""
        self._task = asyncio.create_task(self._run(), name=f"gammon-table-{self.id}")
        self.drive()

    async def stop(self) -> None:
        """Stop the task, close every connection (1001: going away)."""
        self.stopped = True
        for conn in list(self.conns):
            conn.close(1001, "server shutting down")
        for timer in (self._timer, self._presence_timer):
            if timer is not None:
                timer.cancel()
        for task in (self._bot_task, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        while not self._queue.empty():  # nobody waits for ever on a stopped table
            command = self._queue.get_nowait()
            if isinstance(command, _Call) and not command.future.done():
                command.future.set_exception(
                    ServerError("conflict", "the table was being reloaded; try again")
                )

    @property
    def idle(self) -> bool:
        """No connections, nothing queued, nothing that runs by itself (no match in play)."""
        return (
            not self.conns
            and self._queue.empty()
            and (self.state is None or self.state.status != "playing")
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

    def notify(self, version: int) -> None:
        """Another process committed ``version``."""
        if self.state is None or version > self.state.version:
            self._queue.put_nowait(_Remote(version))

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
            await self._on_message(command.conn, command.message)
        elif isinstance(command, _Drive):
            self._drive_pending = False
            await self._retrying(self._drive)
        elif isinstance(command, _Join):
            await self._on_join(command)
        elif isinstance(command, _Part):
            self._on_part(command.conn)
        elif isinstance(command, _Call):
            if command.future.cancelled():
                return
            try:
                result = await self._retrying(command.fn)
            except Exception as exc:
                if not command.future.cancelled():
                    command.future.set_exception(exc)
            else:
                if not command.future.cancelled():
                    command.future.set_result(result)
        elif isinstance(command, _Remote):
            if self.state is not None and command.version > self.state.version:
                await self.catch_up()
        elif isinstance(command, _BotResult):
            await self._retrying(lambda: self._on_bot_result(command))

    async def _retrying(self, fn: Callable[[], Awaitable[T]]) -> T:
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

    def _now(self) -> int:
        last = self.records[-1].at if self.records else 0
        return max(now_ms(), last)

    def _update(
        self, old: TableState, new: TableState, kind: str, data: dict[str, Any], at: int
    ) -> TableUpdate:
        status = new.status if new.status != old.status else None
        seats = None
        if new.seats != old.seats:
            seats = dumps([s.public() if s is not None else None for s in new.seats])
        finished_at = at if kind == "end" else None
        result = dumps(data) if kind == "end" else None
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
        return TableUpdate(
            status=status,
            seats=seats,
            finished_at=finished_at,
            result=result,
            ledger=tuple(ledger),
            holds=tuple(holds),
        )

    async def _commit(
        self, kind: str, data: dict[str, Any], *, server_seed: bytes | None = None
    ) -> Record:
        """Validate, write through, apply, tell everyone.  Raises (changing nothing) on error."""
        old = self.state
        assert old is not None
        at = self._now()
        if _off_the_board(old):  # legal moves can take a while: keep the loop free
            new, events = await asyncio.to_thread(reduce, old, kind, data, at)
        else:
            new, events = reduce(old, kind, data, at)
        change = self._update(old, new, kind, data, at)
        if server_seed is not None:
            change = TableUpdate(
                status=change.status,
                seats=change.seats,
                server_seed=server_seed.hex(),
                finished_at=change.finished_at,
                result=change.result,
                ledger=change.ledger,
                holds=change.holds,
            )
        await self.hub.db.run(
            self.hub.store.append, self.id, new.version, kind, dumps(data), at, change
        )
        if server_seed is not None:
            self._set_seed(server_seed)
        g = new.match.game if new.match is not None else None
        if g is not None and g.phase == "moving" and g.dice is not None and _off_the_board(new):
            # the state to the mover needs the moves: work them out off the loop (cached)
            await asyncio.to_thread(moves_payload, g.position, (g.dice.d1, g.dice.d2))
        return self._applied(new, Record(new.version, kind, data, at, tuple(events)), publish=True)

    def _applied(self, new: TableState, record: Record, *, publish: bool) -> Record:
        self.state = new
        self.records.append(record)
        self._broadcast(record)
        if publish:
            self.hub.announce(self.id, new.version)
        self.drive()
        return record

    async def catch_up(self) -> None:
        """Read and apply what other processes committed."""
        assert self.state is not None
        rows = await self.hub.db.run(self.hub.store.entries, self.id, self.state.version)
        for row in rows:
            if row.seq != self.state.version + 1:
                log.warning("table %s: journal gap at %d", self.id, row.seq)
                break
            data = json.loads(row.data)
            new, events = reduce(self.state, row.kind, data, row.at)
            if row.kind == "start":
                seed = await self.hub.db.run(self.hub.store.server_seed, self.id)
                self._set_seed(bytes.fromhex(seed) if seed else None)
            self._applied(
                new, Record(row.seq, row.kind, data, row.at, tuple(events)), publish=False
            )

    # ------------------------------------------------------------------ sending

    def online(self) -> tuple[bool, bool]:
        """Whether each seat's player has this table open here (a bot always has)."""
        assert self.state is not None
        result = []
        for seat in self.state.seats:
            if seat is None:
                result.append(False)
            elif seat.kind == "bot":
                result.append(True)
            else:
                result.append(any(c.user_id == seat.user_id for c in self.conns if c.joined))
        return result[0], result[1]

    def _spectators(self) -> tuple[int, tuple[str, ...]]:
        """How many of this process's connections watch without a seat, and their names."""
        assert self.state is not None
        watching = [c for c in self.conns if c.joined and self.state.seat_of(c.user_id) is None]
        names = sorted({c.user.name for c in watching if c.user is not None})
        return len(watching), tuple(names)

    def _seat(self, conn: Connection) -> int | None:
        assert self.state is not None
        return self.state.seat_of(conn.user_id)

    def _fresh_cache(self) -> _Cache:
        state = self.state
        assert state is not None
        cache = self._cache
        if cache.version != state.version:
            cache.version = state.version
            cache.states.clear()
            cache.moves = None
            cache.history = None
        return cache

    def _state_json(self, seat: int | None, signed_in: bool, *, chat: bool = True) -> str:
        state = self.state
        assert state is not None
        cache = self._fresh_cache()
        key = (seat, signed_in, chat)
        text = cache.states.get(key)
        if text is None:
            moves = None
            match = state.match
            if (
                match is not None
                and seat is not None
                and match.game.phase == "moving"
                and match.game.turn == seat
                and match.game.dice is not None
                and state.status == "playing"
            ):
                if cache.moves is None:
                    g = match.game
                    assert g.dice is not None
                    cache.moves = moves_payload(g.position, (g.dice.d1, g.dice.d2))
                moves = cache.moves
            view = state_view(
                state,
                seat,
                signed_in=signed_in,
                online=self.online(),
                moves=moves,
                spectators=self._spectators(),
                chat=chat,
                idle=self._idle_deadline(state),
            )
            text = dumps(view)
            cache.states[key] = text
        return text

    def _history_json(self) -> str:
        """The match so far as ``start`` and ``action`` entries (what a move list is
        built from), each ``{"version", "at", "kind", "data": {"events"}}``."""
        cache = self._fresh_cache()
        if cache.history is None:
            cache.history = dumps(
                [
                    {
                        "version": r.seq,
                        "at": r.at,
                        "kind": r.kind,
                        "data": {"events": list(r.events)} if r.kind == "action" else {},
                    }
                    for r in self.records
                    if r.kind in ("start", "action")
                ]
            )
        return cache.history

    def _send_state(self, conn: Connection, *, resync: bool = False, history: bool = False) -> None:
        """A snapshot: the whole state (and, for a client starting afresh, the history)."""
        body = self._state_json(self._seat(conn), conn.user is not None)
        extra = '"resync":true,' if resync else ""
        if history:
            extra += f'"history":{self._history_json()},'
        conn.send(f'{{"type":"state","now":{now_ms()},{extra}{body[1:]}')

    def _event_text(self, record: Record, conn: Connection, with_state: bool) -> str:
        seat = self._seat(conn)
        data = entry_view(record.kind, record.data, seat)
        if record.kind == "action":
            data = {**data, "events": list(record.events)}
        head = (
            f'{{"type":"event","version":{record.seq},"at":{record.at},'
            f'"kind":{dumps(record.kind)},"data":{dumps(data)}'
        )
        if with_state:
            body = self._state_json(seat, conn.user is not None, chat=False)
            return f'{head},"state":{body}}}'
        return head + "}"

    def _broadcast(self, record: Record) -> None:
        for conn in list(self.conns):
            if conn.joined:
                conn.send(self._event_text(record, conn, with_state=True))

    def _presence_changed(self) -> None:
        """Joins and leaves: one small ``presence`` message to everyone, a moment later
        (so that a burst of joins costs one message per connection, not one each)."""
        self._cache.states.clear()
        if self._presence_timer is None:
            loop = asyncio.get_running_loop()
            self._presence_timer = loop.call_later(_PRESENCE_DELAY, self._send_presence)

    def _send_presence(self) -> None:
        self._presence_timer = None
        if self.state is None or self.stopped:
            return
        count, names = self._spectators()
        text = dumps(
            {
                "type": "presence",
                "version": self.state.version,
                "online": list(self.online()),
                "spectators": {"count": count, "names": list(names)},
            }
        )
        for conn in list(self.conns):
            if conn.joined:
                conn.send(text)

    def _error(self, conn: Connection, msg_id: str | int | None, exc: BaseException) -> None:
        code = error_code(exc)
        message = str(exc) if code != "internal" else "internal error; nothing was changed"
        version = self.state.version if self.state is not None else 0
        conn.send_json(
            {
                "type": "error",
                "id": msg_id,
                "code": code,
                "message": message[:500],
                "version": version,
            }
        )

    # ------------------------------------------------------------------ connections

    async def _on_join(self, join: _Join) -> None:
        conn = join.conn
        state = self.state
        assert state is not None
        if conn.closing:
            return
        seat = state.seat_of(conn.user_id)
        was_online, was_watching = self.online(), self._spectators()
        self.conns.add(conn)
        conn.joined = True
        conn.send_json(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "server": SERVER_NAME,
                "table": self.id,
                "version": state.version,
                "you": {"seat": seat, "name": conn.user.name if conn.user else None},
                "now": now_ms(),
            }
        )
        last = join.last_version
        if last is None or last == state.version:
            self._send_state(conn)
        elif last == 0:
            self._send_state(conn, history=True)
        elif last > state.version or state.version - last > REPLAY_LIMIT:
            self._send_state(conn, resync=True, history=True)
        else:
            missed = self.records[last:]
            for i, record in enumerate(missed):
                conn.send(self._event_text(record, conn, with_state=i == len(missed) - 1))
        if self.online() != was_online or self._spectators() != was_watching:
            self._presence_changed()
        if join.client_seed is not None:
            try:
                conn.pending_seed = _check_seed(join.client_seed)
                await self._retrying(lambda: self._apply_seed(conn))
            except GammonError as exc:
                self._error(conn, None, exc)

    def _on_part(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        was_online, was_watching = self.online(), self._spectators()
        self.conns.discard(conn)
        conn.joined = False
        if self.state is not None and (
            self.online() != was_online or self._spectators() != was_watching
        ):
            self._presence_changed()
        if self.idle:
            self.hub.maybe_evict(self.id)

    # ------------------------------------------------------------------ client messages

    async def _on_message(self, conn: Connection, message: ClientMessage) -> None:
        if conn not in self.conns:
            return
        try:
            record = await self._retrying(lambda: self._client(conn, message))
        except GammonError as exc:
            self._error(conn, message.id, exc)
            return
        except Exception as exc:
            log.exception("table %s: %s message failed", self.id, message.type)
            self._error(conn, message.id, exc)
            return
        assert self.state is not None
        version = record.seq if record is not None else self.state.version
        conn.send_json({"type": "ack", "id": message.id, "version": version})

    def _need_user(self, conn: Connection) -> UserRow:
        if conn.user is None:
            raise ServerError("auth_required", "sign in or play as a guest first")
        return conn.user

    def _need_seat(self, conn: Connection) -> int:
        seat = self._seat(conn)
        if seat is None:
            raise ServerError("not_seated", "you are not seated at this table")
        return seat

    async def _client(self, conn: Connection, message: ClientMessage) -> Record | None:
        state = self.state
        assert state is not None
        kind = message.type
        fields = message.fields
        if kind == "chat":
            user = self._need_user(conn)
            text = clean_chat(fields["text"])
            return await self._commit(
                "chat",
                {
                    "name": user.name,
                    "seat": self._seat(conn),
                    "text": text,
                    "html": html.escape(text),
                    "user": user.id,
                },
            )
        if kind == "sit":
            return await self.sit_user(self._need_user(conn), fields["seat"])
        if kind == "leave":
            return await self.leave_user(self._need_user(conn))
        if kind == "client_seed":
            self._need_seat(conn)
            conn.pending_seed = _check_seed(fields["seed"])
            if state.status != "playing":
                return None  # applied when the match starts
            if state.locked:
                raise ServerError("seeds_locked", "the dice are locked: the first roll was made")
            return await self._apply_seed(conn)
        return await self._player_action(conn, message)

    async def _player_action(self, conn: Connection, message: ClientMessage) -> Record:
        state = self.state
        assert state is not None
        seat = self._need_seat(conn)
        fields = message.fields
        if "player" in fields and fields["player"] != seat:
            raise ServerError(
                "forbidden", f"you sit in seat {seat}: you cannot act for the other seat"
            )
        if "version" in fields and fields["version"] != state.version:
            raise ServerError(
                "stale", f"version {fields['version']} is not the current version {state.version}"
            )
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if escrow_due(state):  # settle the last game's escrow before the next game's action
            await self._top_up()
            state = self.state
            assert state is not None
            if state.status == "finished":
                raise ServerError("table_finished", "the table is finished")
        match = state.match
        if state.status != "playing" or match is None:
            raise ServerError("not_started", "the match has not started")
        kind = message.type
        # tables started before escrow (journals whose start gave the engine balances)
        if kind in ("take", "beaver", "raccoon") and match.balances is not None:
            need = match.options.required_balance()
            if match.balances[seat] < need and seat in to_act(match):
                raise ServerError(
                    "insufficient_balance",
                    f"your balance {match.balances[seat]} does not cover stake x cube limit x "
                    f"end coefficient = {need}",
                )
        action: Action
        if kind == "roll":
            # the dice are a pure function of the journal: drawing them for a roll the
            # engine then refuses reveals nothing (the refusal names no dice)
            action = Roll(seat, self._next_dice(state))
        elif kind == "move":
            if _off_the_board(state):
                action = await asyncio.to_thread(self._canonical_move, seat, fields["move"])
            else:
                action = self._canonical_move(seat, fields["move"])
        elif kind == "resign":
            action = Resign(seat, fields["level"])
        else:
            action = action_from_dict({"type": kind, "player": seat})
        return await self._commit(
            "action", {"action": action_to_dict(action), "by": "player", "reason": None}
        )

    def _canonical_move(self, seat: int, text: str) -> Play:
        state = self.state
        assert state is not None and state.match is not None
        g = state.match.game
        if g.phase != "moving" or g.turn != seat or g.dice is None:
            return Play(seat, text)  # the engine refuses it with its own message
        cache = self._cache
        if (
            cache.version == state.version
            and cache.moves is not None
            and any(m["move"] == text for m in cache.moves["moves"] or ())
        ):
            return Play(seat, text)  # already one of the canonical texts
        move = g.position.parse_move(text, g.dice)
        return Play(seat, str(move))

    def _set_seed(self, seed: bytes | None) -> None:
        self._server_seed = seed
        self._dice_stream = None
        self._dice_next = None

    def _next_dice(self, state: TableState) -> Dice:
        """The match's next roll (the stream is kept, so each roll costs one step)."""
        seeds = state.seeds_locked
        key = (state.rolls, seeds)
        if self._dice_next is not None and self._dice_next[0] == key:
            return self._dice_next[1]
        stream = self._dice_stream
        if stream is None or stream.client_seeds != seeds or stream.dice_drawn != 2 * state.rolls:
            stream = VerifiableDice(self._seed_bytes(), self.id, seeds, dice_drawn=2 * state.rolls)
        dice = stream.roll()
        self._dice_stream = stream
        self._dice_next = (key, dice)
        return dice

    def _seed_bytes(self) -> bytes:
        if self._server_seed is None:
            raise ServerError("not_started", "the match has not started")
        return self._server_seed

    async def _apply_pending_seeds(self) -> bool:
        """Journal the seeds that connected players gave before the match started."""
        for conn in list(self.conns):
            if conn.pending_seed is None or self._seat(conn) is None:
                continue
            try:
                if await self._apply_seed(conn) is not None:
                    return True
            except ConflictError:
                raise
            except GammonError as exc:
                conn.pending_seed = None
                self._error(conn, None, exc)
        return False

    async def _apply_seed(self, conn: Connection) -> Record | None:
        state = self.state
        assert state is not None
        seed = conn.pending_seed
        seat = self._seat(conn)
        if seed is None or seat is None or state.status != "playing" or state.locked:
            return None
        _check_seed(seed)
        if state.seeds[seat] == seed:
            return None
        return await self._commit("seed", {"seat": seat, "seed": seed})

    # ------------------------------------------------------------------ seats

    async def sit_user(self, user: UserRow, seat: int) -> Record:
        """Seat a user (from the lobby, the API or the socket); starts the match when full."""
        state = self.state
        assert state is not None
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if state.seat_of(user.id) is not None:
            raise ServerError("already_seated", "you already sit at this table")
        if state.status != "waiting" or state.seats[seat] is not None:
            raise ServerError("seat_taken", f"seat {seat} is taken")
        data: dict[str, Any] = {
            "seat": seat,
            "name": user.name,
            "kind": "guest" if user.guest else "user",
            "user": user.id,
            "level": None,
        }
        need = state.options.required_balance()
        if need:
            # the table's largest loss in one game is held in escrow, atomically with the
            # sit: a balance covers any number of tables only as far as it goes
            data["escrow"] = need
        try:
            record = await self._commit("sit", data)
        except InsufficientFundsError as exc:
            raise ServerError(
                "insufficient_balance",
                f"this table holds stake {state.options.stake} x cube limit "
                f"{state.options.cube_max} x end coefficient {state.options.end_coefficient}"
                f" = {need} of your balance in escrow while you sit: {exc}",
            ) from None
        await self._start_after_sit()
        return record

    async def _start_after_sit(self) -> None:
        """Start the match if the sit filled the table (the sit itself is already done:
        a lost race here is left to the drive, which starts a full table)."""
        try:
            await self._start_if_full()
        except ConflictError:
            await self.catch_up()
            self.drive()

    async def sit_bot(self, seat: int, level: str) -> Record:
        """Seat a bot of some level."""
        state = self.state
        assert state is not None
        if state.status != "waiting" or state.seats[seat] is not None:
            raise ServerError("seat_taken", f"seat {seat} is taken")
        data = {
            "seat": seat,
            "name": f"gammon-bot ({level})",
            "kind": "bot",
            "user": None,
            "level": level,
        }
        record = await self._commit("sit", data)
        await self._start_after_sit()
        return record

    async def _start_if_full(self) -> None:
        state = self.state
        assert state is not None
        if state.status != "waiting" or None in state.seats:
            return
        server_seed = secrets.token_bytes(32)
        players = [s.name if s is not None else "" for s in state.seats]
        # seeds the seated players gave before the start (e.g. in their hello) go into the
        # start itself, so no roll can come between the start and them
        seeds: list[str | None] = [None, None]
        for conn in self.conns:
            seat = self._seat(conn)
            if seat is not None and conn.pending_seed is not None:
                with contextlib.suppress(GammonError):
                    seeds[seat] = _check_seed(conn.pending_seed)
        # the money at stake is held in escrow (see ``sit_user``), so the engine needs no
        # balances to apply seed 004's rule: a player always covers the table's need
        await self._commit(
            "start",
            {
                "match_id": self.id,
                "scheme": DICE_SCHEME,
                "commitment": commit(server_seed),
                "players": players,
                "balances": None,
                "seeds": seeds,
            },
            server_seed=server_seed,
        )

    async def leave_user(self, user: UserRow) -> Record:
        """A user leaves: frees the seat before the match, forfeits during it."""
        state = self.state
        assert state is not None
        seat = state.seat_of(user.id)
        if seat is None:
            raise ServerError("not_seated", "you are not seated at this table")
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if state.status == "waiting":
            record = await self._commit("leave", {"seat": seat, "name": user.name})
            after = self.state
            assert after is not None
            if all(s is None or s.kind == "bot" for s in after.seats):
                record = await self._end("closed", None)
            return record
        return await self._forfeit(seat, "leave", "left")

    async def _forfeit(self, seat: int, reason: str, end_reason: str) -> Record:
        """End a table in play because of one seat: its game in progress is abandoned by
        that seat (scored and settled), then the other seat wins a match by forfeit."""
        state = self.state
        assert state is not None
        match = state.match
        assert match is not None
        if not match.over and not is_fresh_game(match):
            await self._commit(
                "action",
                {"action": action_to_dict(Abandon(seat)), "by": "server", "reason": reason},
            )
        after = self.state
        assert after is not None and after.match is not None
        if after.match.over:
            return await self._end("match_over", after.match.winner)
        winner = 1 - seat if after.options.is_match else None
        return await self._end(end_reason, winner, by=seat)

    async def _top_up(self) -> None:
        """Hold each player's escrow again before a staked session's next game; a player
        whose balance no longer covers it ends the session (reason ``balance``)."""
        state = self.state
        assert state is not None
        for seat, amount in escrow_due(state):
            try:
                await self._commit("escrow", {"seat": seat, "amount": amount})
            except InsufficientFundsError as exc:
                log.info("table %s: seat %d cannot cover the next game: %s", self.id, seat, exc)
                await self._end("balance", None)
                return

    async def resume(self) -> None:
        """After a restart: the decision that was running starts again after a grace, so
        that the time the server was down never counts against anyone."""
        state = self.state
        if (
            state is None
            or state.status != "playing"
            or state.clock_seat is None
            or (self.records and self.records[-1].kind == "resume")
        ):
            return
        grace = round(self.hub.settings.reconnect_grace * 1000)
        await self._commit("resume", {"grace": grace})

    async def close_if_empty(self) -> None:
        """Finish a waiting table that nobody sits at (e.g. its creator could not sit)."""
        state = self.state
        if state is not None and state.status == "waiting" and state.seats == (None, None):
            await self._end("closed", None)

    async def _end(self, reason: str, winner: int | None, *, by: int | None = None) -> Record:
        state = self.state
        assert state is not None
        score = list(state.match.score) if state.match is not None else None
        seed = self._server_seed.hex() if self._server_seed is not None else None
        data: dict[str, Any] = {
            "reason": reason,
            "winner": winner,
            "score": score,
            "server_seed": seed,
        }
        if by is not None:
            data["by"] = by
        return await self._commit("end", data)

    # ------------------------------------------------------------------ the server's own moves

    async def _auto(self, action: Action, by: str, reason: str | None) -> Record:
        return await self._commit(
            "action", {"action": action_to_dict(action), "by": by, "reason": reason}
        )

    async def _drive(self) -> None:
        """Do what is due: end a finished match, roll when rolling is the only choice,
        start a bot's decision, time out a player, or set the clock's timer."""
        for _ in range(8):  # each step commits; the next step looks again
            state = self.state
            if state is not None and state.status == "waiting" and None not in state.seats:
                try:
                    await self._start_if_full()
                except ServerError as exc:  # a player can no longer pay: the table waits
                    log.info("table %s cannot start: %s", self.id, exc)
                    return
                continue
            if state is None or state.status != "playing" or state.match is None:
                self._cancel_timer()
                return
            match = state.match
            if match.over:
                await self._end("match_over", match.winner)
                return
            if not state.locked and await self._apply_pending_seeds():
                continue
            if escrow_due(state):
                await self._top_up()
                continue
            g = match.game
            if auto_roll_due(state):
                seat = g.turn if g.turn is not None else 0
                roll = Roll(seat, self._next_dice(state))
                await self._auto(roll, "server", "auto_roll")
                continue
            if g.phase == "opening":
                self._cancel_timer()
                return
            deadline = clock_deadline(state)
            if deadline is not None:
                clock = state.options.clock
                assert clock is not None
                deadline = max(deadline, self._resumed_at + round(clock.delay * 1000))
                if now_ms() >= deadline:
                    late = state.clock_seat
                    assert late is not None
                    await self._auto(Timeout(late), "server", "timeout")
                    continue
                self._set_timer(deadline)
            else:
                idle = self._idle_deadline(state)
                if idle is not None and now_ms() >= idle:
                    late = state.clock_seat
                    assert late is not None
                    log.info("table %s: seat %d forfeits after inactivity", self.id, late)
                    await self._forfeit(late, "idle", "idle")
                    continue
                if idle is not None:
                    self._set_timer(idle)
                else:
                    self._cancel_timer()
            self._maybe_bot(state)
            return

    def _idle_deadline(self, state: TableState) -> int | None:
        """When a player who keeps a decision open at a table without a clock forfeits."""
        limit = self.hub.settings.idle_limit
        seat = state.clock_seat
        if not limit or state.options.clock is not None or seat is None:
            return None
        who = state.seats[seat]
        if who is None or who.kind == "bot":
            return None
        return max(state.clock_since, self._resumed_at) + round(limit * 1000)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _set_timer(self, deadline_ms: int) -> None:
        self._cancel_timer()
        loop = asyncio.get_running_loop()
        delay = max(0.0, (deadline_ms - now_ms()) / 1000) + 0.005
        self._timer = loop.call_later(delay, self.drive)

    def _maybe_bot(self, state: TableState) -> None:
        match = state.match
        assert match is not None
        seats = to_act(match)
        if len(seats) != 1:
            return
        who = state.seats[seats[0]]
        if who is None or who.kind != "bot" or who.level is None:
            return
        if self._bot_version == state.version and self._bot_task is not None:
            return
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()
        self._bot_version = state.version
        self._bot_task = asyncio.create_task(
            self._bot(state.version, state, seats[0], who.level), name=f"gammon-bot-{self.id}"
        )

    async def _bot(self, version: int, state: TableState, seat: int, level: str) -> None:
        settings = self.hub.settings
        await asyncio.sleep(settings.bot_delay)
        if not await self.hub.bus.claim(f"bot:{self.id}:{version}", _BOT_CLAIM_TTL):
            await asyncio.sleep(_BOT_CLAIM_TTL)
            self._bot_version = -1
            self.drive()
            return
        assert state.match is not None
        try:
            dice = self._next_dice(state)
            action = await self.hub.bots.choose(state.match, seat, level, dice)
        except Exception as exc:
            log.warning("table %s: bot %s failed: %s", self.id, level, exc)
            self._queue.put_nowait(_BotResult(version, None, str(exc)))
            return
        self._queue.put_nowait(_BotResult(version, action))

    async def _on_bot_result(self, result: _BotResult) -> None:
        state = self.state
        if state is None or state.version != result.version or state.match is None:
            return  # the table moved on; the drive looks again
        seats = to_act(state.match)
        seat = seats[0] if len(seats) == 1 else None
        action = result.action
        if seat is None:
            return
        dice = self._next_dice(state)
        if action is None or action.player != seat:
            action = _safe_action(state, seat, dice)
        if isinstance(action, Roll):
            action = Roll(seat, dice)
        try:
            await self._auto(action, "bot", None)
        except ConflictError:
            raise
        except GammonError as exc:
            log.warning("table %s: the bot chose %r, refused: %s", self.id, action, exc)
            await self._auto(_safe_action(state, seat, dice), "bot", None)


def _safe_action(state: TableState, seat: int, dice: Dice) -> Action:
    """A legal action for a seat whose bot failed: keep the game going simply."""
    assert state.match is not None
    g = state.match.game
    names = allowed_actions(state.match).get(seat, ())
    if g.phase == "moving" and g.dice is not None:
        moves = g.position.legal_moves(g.dice)
        return Play(seat, str(moves[0]))
    if "take" in names:
        return Take(seat)
    if "reject_resign" in names:
        return action_from_dict({"type": "reject_resign", "player": seat})
    if "roll" in names:
        return Roll(seat, dice)
    if "drop" in names:
        return Drop(seat)
    if "double" in names:
        return Double(seat)
    return Abandon(seat)


def _off_the_board(state: TableState) -> bool:
    """Whether the table plays a variant off the backgammon board (``gammon.geometry``),
    whose legal moves can number thousands (an acey-deucey 1-2)."""
    match = state.match
    return match is not None and type(match.game.position) is not Position
