"""Sending a table to its connections: snapshots, events, presence, errors.

What each viewer is sent depends on the version, the viewer's seat and whether
it is signed in, so the texts are cached per version: one move costs one state
per kind of viewer, however many watch.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gammon.server.infra.clock import now_ms
from gammon.server.protocol import PROTOCOL_VERSION, SERVER_NAME, error_code
from gammon.server.table.actor.host import Record, Table, loaded
from gammon.server.table.connection import Connection, dumps
from gammon.server.table.state import TableState
from gammon.server.table.views import (
    entry_view,
    moves_for,
    moves_payload,
    public_view,
    you_view,
    your_seed,
)

__all__ = ["KEPT_MOVES", "REPLAY_LIMIT", "Fanout"]

#: A resuming client that missed more entries than this gets one snapshot instead.
REPLAY_LIMIT: Final = 64
#: Seconds presence changes (joins, leaves) are gathered before one ``presence`` message.
_PRESENCE_DELAY: Final = 0.2
#: What the state of an event carries instead of legal moves the mover's connection holds
#: already (an entry that did not change them: a seed, a resume, a seat's news).
KEPT_MOVES: Final[dict[str, Any]] = {"moves_kept": True}


#: What identifies the mover's legal moves: the game, its ply, the position and the dice.
MovesKey = tuple[int, int, object, tuple[int, int]]


@dataclass(slots=True)
class _Cache:
    version: int = -1
    #: The texts per (seat, signed in, with chat, moves kept).
    states: dict[tuple[int | None, bool, bool, bool], str] = field(default_factory=dict)
    #: The pieces of the state every viewer shares, with and without the chat.
    public: dict[bool, tuple[str, str | None, dict[str, Any] | None, str]] = field(
        default_factory=dict
    )
    moves: dict[str, Any] | None = None
    #: Which moves ``moves`` lists (None: no seat is moving).
    moves_key: MovesKey | None = None
    history: str | None = None


class Fanout:
    """What one table's connections are sent (a collaborator of its actor)."""

    def __init__(self, table: Table, idle_deadline: Callable[[TableState], int | None]) -> None:
        self._table = table
        self._idle_deadline = idle_deadline
        self._cache = _Cache()
        self._presence_timer: asyncio.TimerHandle | None = None
        self._stopped = False
        #: ``_game_starts``: what it found so far, and how many records it looked at.
        self._starts: list[int] = []
        self._scanned = 0

    def stop(self) -> None:
        """Send no more presence messages."""
        self._stopped = True
        if self._presence_timer is not None:
            self._presence_timer.cancel()

    def online(self) -> tuple[bool, bool]:
        """Whether each seat's player has this table open here (a bot always has)."""
        result = []
        for seat in loaded(self._table).seats:
            if seat is None:
                result.append(False)
            elif seat.kind == "bot":
                result.append(True)
            else:
                conns = self._table.conns
                result.append(any(c.user_id == seat.user_id for c in conns if c.joined))
        return result[0], result[1]

    def spectators(self) -> tuple[int, tuple[str, ...]]:
        """How many of this process's connections watch without a seat, and their names."""
        state = loaded(self._table)
        watching = [c for c in self._table.conns if c.joined and state.seat_of(c.user_id) is None]
        names = sorted({c.user.name for c in watching if c.user is not None})
        return len(watching), tuple(names)

    def _fresh_cache(self) -> _Cache:
        state = loaded(self._table)
        cache = self._cache
        if cache.version != state.version:
            cache.version = state.version
            cache.states.clear()
            cache.public.clear()
            cache.moves = None
            cache.moves_key = None
            cache.history = None
            match = state.match
            g = match.game if match is not None else None
            if (
                g is not None
                and g.phase == "moving"
                and g.turn is not None
                and g.dice is not None
                and state.status == "playing"
            ):
                cache.moves_key = (g.number, g.plies, g.position, (g.dice.d1, g.dice.d2))
        return cache

    def _moves_to(self, conn: Connection, seat: int | None, *, may_keep: bool) -> bool:
        """Whether the state for ``conn`` may leave the legal moves out because ``conn``
        was sent these very moves already (``may_keep``: an event, not a snapshot); the
        connection remembers which moves it holds."""
        cache = self._fresh_cache()
        key = cache.moves_key
        state = loaded(self._table)
        assert state.match is not None or key is None
        if key is None or seat is None or state.match is None or state.match.game.turn != seat:
            conn.moves_key = None  # a state without them: the client holds none any more
            return False
        kept = may_keep and conn.moves_key == key
        conn.moves_key = key
        return kept

    def is_listed_move(self, text: str) -> bool:
        """Whether ``text`` is one of the canonical move texts already sent at this version."""
        cache = self._cache
        return (
            cache.version == loaded(self._table).version
            and cache.moves is not None
            and any(m["move"] == text for m in cache.moves["moves"] or ())
        )

    def _state_json(
        self, seat: int | None, signed_in: bool, *, chat: bool = True, kept: bool = False
    ) -> str:
        """The state for a viewer, as JSON (``kept``: the viewer, the mover, holds these
        legal moves already: ``moves_kept`` instead of them)."""
        state = loaded(self._table)
        cache = self._fresh_cache()
        key = (seat, signed_in, chat, kept)
        text = cache.states.get(key)
        if text is None:
            moves = None
            match = state.match
            if (
                cache.moves_key is not None
                and match is not None
                and seat is not None
                and match.game.turn == seat
            ):
                if kept:
                    moves = KEPT_MOVES
                else:
                    if cache.moves is None:
                        g = match.game
                        assert g.dice is not None
                        cache.moves = moves_payload(g.position, (g.dice.d1, g.dice.d2))
                    moves = cache.moves
            head, match_open, dice, tail = self._public(chat)
            you = dumps(you_view(state, seat, signed_in=signed_in))
            if match_open is None:
                text = f'{head},"you":{you},"match":null,"dice":null,{tail}'
            else:
                assert dice is not None
                mv = f"{match_open},{dumps(moves_for(state, seat, moves))[1:]}"
                dv = dumps(dice | your_seed(state, seat))
                text = f'{head},"you":{you},"match":{mv},"dice":{dv},{tail}'
            cache.states[key] = text
        return text

    def _public(self, chat: bool) -> tuple[str, str | None, dict[str, Any] | None, str]:
        """What every viewer is sent alike (:func:`gammon.server.table.views.public_view`), in
        pieces of JSON made once per version and presence: the text up to ``table``, the
        ``match`` without its closing brace (None without a match), the ``dice`` (to which a
        seat's own seed is added) and the text after them, through the closing brace."""
        cache = self._fresh_cache()
        pieces = cache.public.get(chat)
        if pieces is None:
            state = loaded(self._table)
            view = public_view(
                state,
                online=self.online(),
                spectators=self.spectators(),
                chat=chat,
                idle=self._idle_deadline(state),
            )
            match, dice = view.pop("match"), view.pop("dice")
            head = f'{{"version":{view.pop("version")},"table":{dumps(view.pop("table"))}'
            pieces = (head, dumps(match)[:-1] if match is not None else None, dice, dumps(view)[1:])
            cache.public[chat] = pieces
        return pieces

    def _game_starts(self) -> list[int]:
        """Where each game of the match begins in the journal: the index of the ``start``
        entry (game 1), then of each action whose events start a game."""
        self._scanned = scan_game_starts(self._table.records, self._starts, self._scanned)
        return self._starts

    def knew_starts(self, starts: list[int], scanned: int) -> None:
        """The game starts found by the loader while it replayed the journal (the
        scan of a long session's records stays off the event loop)."""
        self._starts, self._scanned = starts, scanned

    def games(self) -> int:
        """How many games the match has begun (0 before the start)."""
        return len(self._game_starts())

    def page(self, game: int) -> list[dict[str, Any]]:
        """One game of the match as ``start`` and ``action`` entries (what a move list is
        built from), each ``{"version", "at", "kind", "data": {"events"}}``: from the entry
        that began it through the one that ended it (which also begins the next game)."""
        starts = self._game_starts()
        if not 1 <= game <= len(starts):
            return []
        records = self._table.records
        end = starts[game] + 1 if game < len(starts) else len(records)
        return [
            {
                "version": r.seq,
                "at": r.at,
                "kind": r.kind,
                "data": {"events": list(r.events)} if r.kind == "action" else {},
            }
            for r in records[starts[game - 1] : end]
            if r.kind in ("start", "action")
        ]

    def _history_json(self) -> str:
        """The snapshot's ``history``: the current game (older games by page)."""
        cache = self._fresh_cache()
        if cache.history is None:
            cache.history = dumps(self.page(self.games()))
        return cache.history

    def _send_state(self, conn: Connection, *, resync: bool = False, history: bool = False) -> None:
        """A snapshot: the whole state (and, for a client starting afresh, the current
        game's history; ``history_game`` is its number, older games come by page)."""
        seat = self._table.seat(conn)
        self._moves_to(conn, seat, may_keep=False)
        body = self._state_json(seat, conn.user is not None)
        if conn.blocked:
            body = self._without_blocked(body, conn.blocked)
        extra = '"resync":true,' if resync else ""
        if history:
            extra += f'"history":{self._history_json()},"history_game":{max(1, self.games())},'
        conn.send(f'{{"type":"state","now":{now_ms()},{extra}{body[1:]}')

    def history(self, conn: Connection, msg_id: str | int | None, game: int) -> None:
        """Answer a ``history`` message: one earlier game's entries."""
        conn.send_json(
            {
                "type": "history",
                "id": msg_id,
                "version": loaded(self._table).version,
                "game": game,
                "games": self.games(),
                "history": self.page(game),
            }
        )

    @staticmethod
    def _hidden_head(record: Record) -> str:
        """A chat line's ``event`` for a viewer who blocked its author: its version only."""
        return (
            f'{{"type":"event","version":{record.seq},"at":{record.at},'
            f'"kind":"chat","data":{{"hidden":true}}'
        )

    @staticmethod
    def _event_head(record: Record, seat: int | None) -> str:
        """An ``event`` message for a viewer in ``seat``, without its closing brace."""
        data = entry_view(record.kind, record.data, seat)
        if record.kind == "action":
            data = {**data, "events": list(record.events)}
        return (
            f'{{"type":"event","version":{record.seq},"at":{record.at},'
            f'"kind":{dumps(record.kind)},"data":{dumps(data)}'
        )

    def _without_blocked(self, body: str, blocked: frozenset[int]) -> str:
        """A state's JSON without the chat lines of accounts its viewer blocks (rare: the
        shared text is parsed again only for such a viewer, only when a line is theirs)."""
        records = self._table.records

        def author(line: dict[str, Any]) -> object:
            version = line.get("version")
            if not isinstance(version, int) or not 1 <= version <= len(records):
                return None
            record = records[version - 1]
            return record.data.get("user") if record.seq == version else None

        chat = loaded(self._table).chat
        if not any(author(line) in blocked for line in chat):
            return body
        view = json.loads(body)
        view["chat"] = [line for line in view.get("chat", ()) if author(line) not in blocked]
        return dumps(view)

    @staticmethod
    def _hidden(record: Record, conn: Connection) -> bool:
        """Whether a chat line's author is blocked by this connection's user."""
        return record.kind == "chat" and record.data.get("user") in conn.blocked

    def _event_text(self, record: Record, conn: Connection, with_state: bool) -> str:
        seat = self._table.seat(conn)
        head = self._event_head(record, seat)
        if self._hidden(record, conn):
            head = self._hidden_head(record)
        if with_state:
            self._moves_to(conn, seat, may_keep=False)
            body = self._state_json(seat, conn.user is not None, chat=False)
            return f'{head},"state":{body}}}'
        return head + "}"

    def broadcast(self, record: Record) -> None:
        """A new entry, with the state after it, to every joined connection; a chat line
        changes nothing else, so it goes alone (one text for everyone, a few hundred
        bytes, not a state per viewer).  The mover's legal moves go only to a connection
        that does not hold them yet (``moves_kept`` otherwise)."""
        conns = [conn for conn in self._table.conns if conn.joined]
        if record.kind in ("chat", "chat_removed"):
            text = self._event_head(record, None) + "}"
            for conn in conns:
                # to whoever blocked its author, the line's version without the line
                conn.send(self._hidden_head(record) + "}" if self._hidden(record, conn) else text)
            return
        heads: dict[int | None, str] = {}  # what a viewer sees of the entry: per seat
        for conn in conns:
            seat = self._table.seat(conn)
            head = heads.get(seat)
            if head is None:
                head = heads[seat] = self._event_head(record, seat)
            kept = self._moves_to(conn, seat, may_keep=True)
            body = self._state_json(seat, conn.user is not None, chat=False, kept=kept)
            conn.send(f'{head},"state":{body}}}')

    def welcome(self, conn: Connection, last_version: int | None) -> None:
        """Greet a connection that said hello, then bring it up to date: the entries it
        missed, or one snapshot (docs/protocol.md, "Versions, events and resuming")."""
        state = loaded(self._table)
        conn.send_json(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "server": SERVER_NAME,
                "table": self._table.id,
                "version": state.version,
                "you": {
                    "seat": state.seat_of(conn.user_id),
                    "name": conn.user.name if conn.user else None,
                },
                "now": now_ms(),
            }
        )
        last = last_version
        if last is None or last == state.version:
            self._send_state(conn)
        elif last == 0:
            self._send_state(conn, history=True)
        elif last > state.version or state.version - last > REPLAY_LIMIT:
            self._send_state(conn, resync=True, history=True)
        else:
            missed = self._table.records[last:]
            for i, record in enumerate(missed):
                conn.send(self._event_text(record, conn, with_state=i == len(missed) - 1))

    def presence_changed(self) -> None:
        """Joins and leaves: one small ``presence`` message to everyone, a moment later
        (so that a burst of joins costs one message per connection, not one each)."""
        self._cache.states.clear()
        self._cache.public.clear()
        if self._presence_timer is None:
            loop = asyncio.get_running_loop()
            self._presence_timer = loop.call_later(_PRESENCE_DELAY, self._send_presence)

    def _send_presence(self) -> None:
        self._presence_timer = None
        state = self._table.state
        if state is None or self._stopped:
            return
        count, names = self.spectators()
        text = dumps(
            {
                "type": "presence",
                "version": state.version,
                "online": list(self.online()),
                "spectators": {"count": count, "names": list(names)},
            }
        )
        for conn in list(self._table.conns):
            if conn.joined:
                conn.send(text)

    def error(self, conn: Connection, msg_id: str | int | None, exc: BaseException) -> None:
        """An ``error`` message for one connection (``internal`` says nothing more)."""
        code = error_code(exc)
        message = str(exc) if code != "internal" else "internal error; nothing was changed"
        state = self._table.state
        conn.send_json(
            {
                "type": "error",
                "id": msg_id,
                "code": code,
                "message": message[:500],
                "version": state.version if state is not None else 0,
            }
        )


def scan_game_starts(records: Sequence[Record], starts: list[int], scanned: int) -> int:
    """Extend ``starts`` (where each game begins: the ``start`` record, then each action
    whose events start a game) with ``records[scanned:]``; how many are scanned now.

    >>> from gammon.server.table.actor.host import Record
    >>> records = [Record(1, "created", {}, 0), Record(2, "start", {}, 0),
    ...            Record(3, "action", {}, 0, ({"kind": "game_started", "data": {"game": 2}},))]
    >>> starts = []
    >>> scan_game_starts(records, starts, 0), starts
    (3, [1, 2])
    """
    for i in range(scanned, len(records)):
        record = records[i]
        if record.kind == "start":
            starts[:] = [i]
        elif record.kind == "action" and starts:
            for event in record.events:
                if event["kind"] == "game_started" and event["data"].get("game", 0) > len(starts):
                    starts.append(i)
    return len(records)
