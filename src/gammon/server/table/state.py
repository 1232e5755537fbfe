"""A table's state, rebuilt by folding its journal: :func:`reduce` is pure.

A table's journal (``entries`` in the database) holds everything that happened
at it, numbered from 1: ``created``, ``sit`` (with the escrow it holds at a
staked table), ``leave``, ``start`` (the match and its dice commitment),
``seed`` (a client seed), ``action`` (one engine action, dice included),
``escrow`` (a seat's escrow topped up for the next game), ``resume`` (the server
came back: the running decision starts again after a grace), ``chat`` and
``end`` (which reveals the server seed).  Folding
the entries in order with :func:`reduce` gives the same :class:`TableState`
every time, in every process.

>>> from gammon.match import TableOptions
>>> t = initial_state("t1", {"by": "alice", "private": False, "options": TableOptions(match_length=1).to_dict()}, 0)
>>> t, _ = reduce(t, "sit", {"seat": 0, "name": "alice", "kind": "user", "user": 1, "level": None}, 1)
>>> t, _ = reduce(t, "sit", {"seat": 1, "name": "bot", "kind": "bot", "user": None, "level": "expert"}, 2)
>>> t, _ = reduce(t, "start", {"match_id": "t1", "scheme": "hmac-sha256-v1", "commitment": "c", "players": ["alice", "bot"], "balances": None}, 3)
>>> t, events = reduce(t, "action", {"action": {"type": "roll", "player": 0, "dice": "31"}, "by": "server", "reason": "auto_roll"}, 4)
>>> t.version, t.status, t.match.game.phase, t.rolls, t.locked, [e["kind"] for e in events]
(5, 'playing', 'moving', 1, True, ['opening_roll', 'starts'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final, Literal

from gammon.match import (
    Action,
    MatchState,
    Roll,
    TableOptions,
    Timeout,
    action_from_dict,
    allowed_actions,
    apply,
    dead_cube,
    new_match,
    to_act,
)
from gammon.match.fairdice import DICE_SCHEME
from gammon.server.protocol import ServerError
from gammon.server.table.journal import JOURNAL, EntryKind, check_entry

__all__ = [
    "CHAT_KEPT",
    "DICE_SCHEME",
    "Seat",
    "SeatKind",
    "TableState",
    "auto_roll_due",
    "clock_deadline",
    "escrow_due",
    "initial_state",
    "is_fresh_game",
    "reduce",
]

SeatKind = Literal["user", "guest", "bot"]
#: Chat lines kept in the state (older ones stay in the journal).
CHAT_KEPT: Final = 50


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat."""

    name: str
    kind: SeatKind
    user_id: int | None = None
    level: str | None = None

    def public(self) -> dict[str, Any]:
        """The seat as clients see it (no user id)."""
        return {"name": self.name, "kind": self.kind, "level": self.level}


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything known about a table at one version (times in ms)."""

    id: str
    options: TableOptions
    private: bool
    created_by: str
    created_at: int
    version: int = 1
    status: Literal["waiting", "playing", "finished"] = "waiting"
    seats: tuple[Seat | None, Seat | None] = (None, None)
    match: MatchState | None = None
    commitment: str | None = None
    players: tuple[str, str] = ("", "")
    balances: tuple[int, int] | None = None
    #: Client seeds given so far (None: not given).
    seeds: tuple[str | None, str | None] = (None, None)
    #: The dice are locked once the first roll is made.
    locked: bool = False
    #: Roll actions so far: the dice stream has given ``2 * rolls`` dice.
    rolls: int = 0
    #: The ``end`` entry's data once finished.
    result: dict[str, Any] | None = field(default=None, compare=False)
    #: Clock: each seat's reserve (ms) before the running decision, the seat whose
    #: decision it is, and when that decision began.
    reserves: tuple[int, int] = (0, 0)
    clock_seat: int | None = None
    clock_since: int = 0
    #: What each seat's escrow holds at a staked table (its player's balance
    #: reserved for this table; 0 for bots and at tables without a stake).
    escrow: tuple[int, int] = (0, 0)
    chat: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat a user sits in here, if any."""
        if user_id is None:
            return None
        for seat, who in enumerate(self.seats):
            if who is not None and who.user_id == user_id:
                return seat
        return None

    @property
    def seeds_locked(self) -> tuple[str, str]:
        """The client seeds the dice use (a seat that gave none counts as empty)."""
        return (self.seeds[0] or "", self.seeds[1] or "")


def initial_state(table_id: str, data: dict[str, Any], at: int) -> TableState:
    """The state after entry 1 (``created``)."""
    return TableState(
        id=table_id,
        options=TableOptions.from_dict(data["options"]),
        private=bool(data.get("private", False)),
        created_by=str(data.get("by", "")),
        created_at=at,
    )


def _seat(data: dict[str, Any]) -> Seat:
    kind = data["kind"]
    if kind not in ("user", "guest", "bot"):
        raise ServerError("bad_message", f"unknown seat kind {kind!r}")
    return Seat(str(data["name"]), kind, data.get("user"), data.get("level"))


def _clock_after(state: TableState, match: MatchState, action: Action, at: int) -> TableState:
    """Whose decision it is and since when (with or without a clock), and the reserves."""
    clock = state.options.clock
    reserves = list(state.reserves)
    if clock is not None and state.clock_seat is not None:
        used = max(0, at - state.clock_since - round(clock.delay * 1000))
        reserves[state.clock_seat] = max(0, reserves[state.clock_seat] - used)
    if isinstance(action, Timeout):
        reserves[action.player] = 0
    seats = to_act(match)
    seat = (
        seats[0] if len(seats) == 1 and match.game.phase != "opening" and not match.over else None
    )
    return replace(state, reserves=(reserves[0], reserves[1]), clock_seat=seat, clock_since=at)


def _escrow_after(state: TableState, old: MatchState, new: MatchState) -> TableState:
    """A settled game uses up the loser's escrow by what it lost."""
    escrow = list(state.escrow)
    for entry in new.ledger[len(old.ledger) :]:
        if entry.amount < 0:
            escrow[entry.player] = max(0, escrow[entry.player] + entry.amount)
    return replace(state, escrow=(escrow[0], escrow[1]))


def _sit(state: TableState, data: dict[str, Any], at: int) -> TableState:
    seat = data["seat"]
    if state.status != "waiting" or state.seats[seat] is not None:
        raise ServerError("seat_taken", f"seat {seat} is not free")
    seats = list(state.seats)
    seats[seat] = _seat(data)
    escrow = list(state.escrow)
    escrow[seat] = int(data.get("escrow", 0))
    return replace(state, seats=(seats[0], seats[1]), escrow=(escrow[0], escrow[1]))


def _leave(state: TableState, data: dict[str, Any], at: int) -> TableState:
    seat = data["seat"]
    if state.status != "waiting":
        raise ServerError("illegal_action", "only a waiting table's seats can be left")
    seats = list(state.seats)
    seats[seat] = None
    escrow = list(state.escrow)
    escrow[seat] = 0
    return replace(state, seats=(seats[0], seats[1]), escrow=(escrow[0], escrow[1]))


def _start(state: TableState, data: dict[str, Any], at: int) -> TableState:
    if state.status != "waiting" or None in state.seats:
        raise ServerError("illegal_action", "a match starts when both seats are taken")
    balances = data.get("balances")
    bal = (int(balances[0]), int(balances[1])) if balances is not None else None
    match = new_match(state.options, bal)
    reserve = 0
    if state.options.clock is not None:
        reserve = round(state.options.clock.reserve(state.options.match_length) * 1000)
    players = data["players"]
    given = data.get("seeds") or [None, None]
    return replace(
        state,
        status="playing",
        match=match,
        commitment=str(data["commitment"]),
        players=(str(players[0]), str(players[1])),
        balances=bal,
        reserves=(reserve, reserve),
        clock_seat=None,
        clock_since=at,
        seeds=(
            str(given[0]) if given[0] is not None else None,
            str(given[1]) if given[1] is not None else None,
        ),
    )


def _seed_given(state: TableState, data: dict[str, Any], at: int) -> TableState:
    if state.status != "playing" or state.locked:
        raise ServerError("seeds_locked", "the dice are locked: the first roll was made")
    seeds = list(state.seeds)
    seeds[data["seat"]] = str(data["seed"])
    return replace(state, seeds=(seeds[0], seeds[1]))


def _escrow(state: TableState, data: dict[str, Any], at: int) -> TableState:
    seat = data["seat"]
    if state.status != "playing":
        raise ServerError("illegal_action", "escrow is topped up during a session only")
    escrow = list(state.escrow)
    escrow[seat] += int(data["amount"])
    return replace(state, escrow=(escrow[0], escrow[1]))


def _resume(state: TableState, data: dict[str, Any], at: int) -> TableState:
    if state.status != "playing":
        raise ServerError("illegal_action", "only a table in play resumes")
    return replace(state, clock_since=at + int(data.get("grace", 0)))


def _chat(state: TableState, data: dict[str, Any], at: int) -> TableState:
    private = JOURNAL["chat"].private
    line = {
        **{k: v for k, v in data.items() if k not in private},
        "version": state.version + 1,
        "at": at,
    }
    return replace(state, chat=(*state.chat, line)[-CHAT_KEPT:])


def _chat_removed(state: TableState, data: dict[str, Any], at: int) -> TableState:
    seq = data["seq"]
    if type(seq) is not int:
        raise ServerError("bad_message", "a chat_removed entry names the seq of a chat line")
    return replace(state, chat=tuple(line for line in state.chat if line.get("version") != seq))


def _end(state: TableState, data: dict[str, Any], at: int) -> TableState:
    if state.status == "finished":
        raise ServerError("table_finished", "the table is already finished")
    return replace(state, status="finished", result=dict(data), clock_seat=None, escrow=(0, 0))


def _created(state: TableState, data: dict[str, Any], at: int) -> TableState:
    raise ServerError("bad_message", "a table is created only once")


def _apply_action(
    state: TableState, data: dict[str, Any], at: int
) -> tuple[TableState, list[dict[str, Any]]]:
    if state.status != "playing" or state.match is None:
        raise ServerError("illegal_action", "no match is being played at this table")
    action = action_from_dict(data["action"])
    transition = apply(state.match, action)
    events = [{"kind": e.kind, "player": e.player, "data": e.data} for e in transition.events]
    new = replace(state, match=transition.state)
    if isinstance(action, Roll):
        new = replace(new, rolls=state.rolls + 1, locked=True)
    new = _clock_after(new, transition.state, action, at)
    return _escrow_after(new, state.match, transition.state), events


_Step = Callable[[TableState, dict[str, Any], int], TableState]
_Reducer = Callable[[TableState, dict[str, Any], int], tuple[TableState, list[dict[str, Any]]]]


def _quiet(step: _Step) -> _Reducer:
    """A reducer for an entry kind that has no engine events."""

    def reducer(state: TableState, data: dict[str, Any], at: int) -> tuple[TableState, list[Any]]:
        return step(state, data, at), []

    return reducer


#: How each registered journal kind (``gammon.server.table.journal.JOURNAL``) changes a table.
_REDUCERS: Final[Mapping[EntryKind, _Reducer]] = MappingProxyType(
    {
        "created": _quiet(_created),
        "sit": _quiet(_sit),
        "leave": _quiet(_leave),
        "start": _quiet(_start),
        "seed": _quiet(_seed_given),
        "action": _apply_action,
        "escrow": _quiet(_escrow),
        "resume": _quiet(_resume),
        "chat": _quiet(_chat),
        "chat_removed": _quiet(_chat_removed),
        "end": _quiet(_end),
    }
)


def reduce(
    state: TableState, kind: str, data: dict[str, Any], at: int
) -> tuple[TableState, list[dict[str, Any]]]:
    """Fold one more entry (the next version) into the state.

    Returns the new state and, for ``action`` entries, the engine's events as
    ``{"kind", "player", "data"}``.  Raises (changing nothing) if the entry is not
    possible in this state, or is not a registered kind holding what it must
    (:func:`gammon.server.table.journal.check_entry`).
    """
    new, events = _REDUCERS[check_entry(kind, data).name](state, data, at)
    return replace(new, version=state.version + 1), events


def is_fresh_game(match: MatchState) -> bool:
    """Whether the current game has not really begun (nothing played, cube untouched)."""
    g = match.game
    return g.phase in ("opening", "turn") and g.plies == 0 and g.cube.value == 1


def auto_roll_due(state: TableState) -> bool:
    """Whether the server is about to roll by itself (so no player should send ``roll``).

    That is the roll-off once both seeds are in (or the dice are locked; at once at a
    correspondence table), and a turn on
    which the player may not double (or where a double would change nothing: see
    :func:`dead_cube`).
    """
    match = state.match
    if state.status != "playing" or match is None or match.over:
        return False
    g = match.game
    if g.phase == "opening":
        clock = state.options.clock
        if clock is not None and clock.correspondence:
            return True  # nobody waits days for a first roll (docs/notifications.md)
        return state.locked or all(
            state.seeds[i] is not None or (s is not None and s.kind == "bot")
            for i, s in enumerate(state.seats)
        )
    if g.phase == "turn" and g.turn is not None:
        return dead_cube(match) or "double" not in allowed_actions(match).get(g.turn, ())
    return False


def escrow_due(state: TableState) -> list[tuple[int, int]]:
    """``(seat, amount)`` for each player whose escrow must be topped up before the
    next game of a staked session can begin (its last loss used part of it)."""
    need = state.options.required_balance()
    match = state.match
    if not need or state.status != "playing" or match is None or match.over:
        return []
    due = []
    for seat, who in enumerate(state.seats):
        if who is not None and who.kind != "bot" and state.escrow[seat] < need:
            due.append((seat, need - state.escrow[seat]))
    return due


def clock_deadline(state: TableState) -> int | None:
    """When (ms) the running decision times out, or None when no clock runs."""
    clock = state.options.clock
    if clock is None or state.clock_seat is None or state.status != "playing":
        return None
    return state.clock_since + round(clock.delay * 1000) + state.reserves[state.clock_seat]
