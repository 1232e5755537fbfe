"""A turn's legal moves are listed once (issue #31): the engine's check after the roll,
the mover's move list, the snapshots of every viewer, a click-to-move question and the
move played all read the one play set of ``Position.plays``.

The table runs as the actor runs it (``reduce`` then the fan-out) with two seated
players and two spectators; the move generators are wrapped with counters.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra")

from gammon import movegen
from gammon.dice import Dice
from gammon.match import TableOptions
from gammon.position import forget_plays
from gammon.rules import board, track
from gammon.server.table.actor.fanout import Fanout
from gammon.server.table.actor.host import Record
from gammon.server.table.state import TableState, initial_state, reduce
from gammon.server.table.steps import canonical_move, step_payload
from gammon.server.table.views import forget_moves


@dataclass(eq=False)
class Conn:
    """A joined connection that keeps what it is sent."""

    user_id: int
    name: str
    joined: bool = True
    moves_key: object = None
    blocked: frozenset[int] = frozenset()
    sent: list[dict[str, Any]] = field(default_factory=list)

    @property
    def user(self) -> Any:
        return SimpleNamespace(name=self.name)

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def send_json(self, obj: Any) -> None:
        self.send(json.dumps(obj))


@dataclass(eq=False)
class FakeTable:
    id: str = "T1"
    state: TableState | None = None
    records: list[Record] = field(default_factory=list)
    conns: set[Any] = field(default_factory=set)

    def seat(self, conn: Any) -> int | None:
        assert self.state is not None
        return self.state.seat_of(conn.user_id)


class Table:
    """Users 1 (seat 0) and 2 (seat 1) play; 3 and 4 watch."""

    def __init__(self, variant: str) -> None:
        options = TableOptions(match_length=3, variant=variant, cube=variant == "standard")
        self.at = 1_000
        self.table = FakeTable(state=initial_state("T1", {"options": options.to_dict()}, self.at))
        self.fanout = Fanout(self.table, lambda state: None)  # type: ignore[arg-type]
        self.conns = [Conn(1, "ann"), Conn(2, "bob"), Conn(3, "cy"), Conn(4, "di")]
        self.table.conns = set(self.conns)
        self.add("sit", {"seat": 0, "name": "ann", "kind": "user", "user": 1})
        self.add("sit", {"seat": 1, "name": "bob", "kind": "user", "user": 2})
        self.add("start", {"match_id": "T1", "commitment": "0" * 64, "players": ["ann", "bob"]})

    @property
    def state(self) -> TableState:
        assert self.table.state is not None
        return self.table.state

    def add(self, kind: str, data: dict[str, Any]) -> None:
        self.at += 100
        new, events = reduce(self.state, kind, data, self.at)
        self.table.state = new
        record = Record(new.version, kind, data, self.at, tuple(events))
        self.table.records.append(record)
        self.fanout.broadcast(record)

    def act(self, action: dict[str, Any]) -> None:
        self.add("action", {"action": action, "by": "player", "reason": None})


def _count(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    calls = [0]
    real: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def _cold() -> None:
    forget_plays()
    forget_moves()
    board._raw_plays.cache_clear()
    track._all_plays.cache_clear()


def _serve_one_turn(t: Table, roll: str) -> None:
    """Roll, every viewer's snapshot, a click-to-move question, the move: one turn."""
    t.act({"type": "roll", "player": 0, "dice": roll})  # the roll-off: seat 0 moves
    g = t.state.match.game if t.state.match is not None else None
    if g is not None and g.phase == "turn":  # plakoto: the winner rolls again
        t.act({"type": "roll", "player": 0, "dice": roll})
        g = t.state.match.game if t.state.match is not None else None
    assert g is not None and g.phase == "moving" and g.dice is not None and g.turn == 0
    for conn in t.conns:
        t.fanout.welcome(conn, None)  # type: ignore[arg-type]  # a snapshot each
    (mover,) = [c for c in t.conns if c.user_id == 1]
    last = mover.sent[-1]
    moves = (last.get("state") or last)["match"]["moves"]
    assert moves, "the mover was sent its moves"
    text = moves[-1]["move"]
    first = moves[-1]["steps"][0]
    step_payload(g.position, g.dice, ((first[0], first[1], first[2]),))
    assert t.fanout.is_listed_move(text)
    assert canonical_move(g.position, g.dice, text) == text
    t.act({"type": "move", "player": 0, "move": text})
    assert t.state.match is not None and t.state.match.game.turn == 1


def test_a_board_turn_lists_its_moves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast generator's keys once and the reference generator's steps once (before:
    the keys twice, the engine's can_move and the mover's list each listing them)."""
    t = Table("standard")
    _cold()
    keys = _count(monkeypatch, movegen, "play_keys")
    steps = _count(monkeypatch, movegen, "generic_plays")
    _serve_one_turn(t, "31")
    assert keys == [1] and steps == [1]


def test_a_track_turn_lists_its_moves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    t = Table("plakoto")
    _cold()
    plays = _count(monkeypatch, track._Generator, "all_plays")
    _serve_one_turn(t, "31")
    assert plays == [1]


def test_the_dice_of_the_state_are_the_sets_key() -> None:
    """The engine and the payload ask with the state's Dice: one set, kept."""
    t = Table("standard")
    t.act({"type": "roll", "player": 0, "dice": "53"})
    g = t.state.match.game if t.state.match is not None else None
    assert g is not None and g.dice == Dice(5, 3)
    assert g.position.plays(g.dice) is g.position.plays((g.dice.d1, g.dice.d2))
