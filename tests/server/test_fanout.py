"""What a table's connections are sent, counted per event type (issue #20: events carry
what changed; the mover's legal moves go to the mover only, and only when they change).

The fan-out runs here against a table of its own (a journal folded by
``gammon.server.table.state.reduce``, as the actor does) and connections that only record what
they are sent, so every byte is counted without a server.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the server extra")

from gammon.match import TableOptions
from gammon.server.table.actor.fanout import Fanout
from gammon.server.table.actor.host import Record
from gammon.server.table.state import TableState, initial_state, reduce
from gammon.server.table.views import moves_payload, state_view
from serverkit import run_async


@dataclass(eq=False)
class Conn:
    """A joined connection that keeps what it is sent."""

    user_id: int | None
    name: str | None = None
    joined: bool = True
    moves_key: object = None
    #: The accounts its user blocks (docs/moderation.md).
    blocked: frozenset[int] = frozenset()
    sent: list[dict[str, Any]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    @property
    def user(self) -> Any:
        return SimpleNamespace(name=self.name) if self.user_id is not None else None

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))
        self.sizes.append(len(text.encode()))

    def send_json(self, obj: Any) -> None:
        self.send(json.dumps(obj))


@dataclass(eq=False)
class FakeTable:
    """What the fan-out sees of an actor: its state, journal and connections."""

    id: str = "T1"
    state: TableState | None = None
    records: list[Record] = field(default_factory=list)
    conns: set[Any] = field(default_factory=set)

    def seat(self, conn: Any) -> int | None:
        assert self.state is not None
        return self.state.seat_of(conn.user_id)


class Table:
    """A table in play between users 1 (seat 0) and 2 (seat 1), with a spectator (3)."""

    def __init__(self) -> None:
        options = TableOptions(match_length=3)
        self.at = 1_000
        self.table = FakeTable(state=initial_state("T1", {"options": options.to_dict()}, self.at))
        self.fanout = Fanout(self.table, lambda state: None)  # type: ignore[arg-type]
        self.mover, self.other, self.watcher = Conn(1, "ann"), Conn(2, "bob"), Conn(3, "cy")
        self.table.conns = {self.mover, self.other, self.watcher}
        self.add("sit", {"seat": 0, "name": "ann", "kind": "user", "user": 1})
        self.add("sit", {"seat": 1, "name": "bob", "kind": "user", "user": 2})
        self.add("start", {"match_id": "T1", "commitment": "0" * 64, "players": ["ann", "bob"]})
        self.clear()

    def add(self, kind: str, data: dict[str, Any]) -> None:
        """Commit one more entry and fan it out."""
        assert self.table.state is not None
        self.at += 100
        new, events = reduce(self.table.state, kind, data, self.at)
        self.table.state = new
        record = Record(new.version, kind, data, self.at, tuple(events))
        self.table.records.append(record)
        self.fanout.broadcast(record)

    def act(self, action: dict[str, Any]) -> None:
        self.add("action", {"action": action, "by": "player", "reason": None})

    def clear(self) -> None:
        for conn in (self.mover, self.other, self.watcher):
            conn.sent.clear()
            conn.sizes.clear()


def _moves_of(msg: dict[str, Any]) -> Any:
    state = msg.get("state") or msg
    return (state.get("match") or {}).get("moves")


def test_the_mover_is_sent_its_moves_once_per_decision() -> None:
    t = Table()
    t.act({"type": "roll", "player": 0, "dice": "31"})  # the roll-off: seat 0 moves a 3-1
    assert t.table.state is not None and t.table.state.match is not None
    assert t.table.state.match.game.phase == "moving" and t.table.state.match.game.turn == 0
    (rolled,) = t.mover.sent
    moves = _moves_of(rolled)
    assert moves and all(set(m) == {"move", "steps"} for m in moves)  # text and steps only
    assert rolled["state"]["match"]["step_options"] is None  # the moves' steps answer clicks
    assert "moves_kept" not in rolled["state"]["match"]
    full = t.mover.sizes[0]
    # nobody else is sent them
    for conn in (t.other, t.watcher):
        (msg,) = conn.sent
        assert msg["state"]["match"]["moves"] is None
        assert msg["state"]["match"]["step_options"] is None
        assert "moves_kept" not in msg["state"]["match"]
    t.clear()

    # an entry that leaves the decision as it was (the server came back): no moves again
    t.add("resume", {"grace": 30_000})
    (resumed,) = t.mover.sent
    match = resumed["state"]["match"]
    assert match["moves_kept"] is True and match["moves"] is None
    assert match["game"]["dice"] == [3, 1] and resumed["state"]["you"]["allowed"]
    moves_bytes = len(json.dumps(moves, separators=(",", ":")))
    assert t.mover.sizes[0] <= full - moves_bytes  # the event is smaller by the whole list
    assert (
        _moves_of(t.other.sent[0]) is None and "moves_kept" not in t.other.sent[0]["state"]["match"]
    )
    t.clear()

    # a chat line goes alone: no state at all, one small text for everyone
    t.add("chat", {"name": "bob", "seat": 1, "text": "gl", "html": "gl", "user": 2})
    for conn in (t.mover, t.other, t.watcher):
        (line,) = conn.sent
        assert "state" not in line and line["data"]["text"] == "gl"
        assert conn.sizes[0] < 200
    t.clear()

    # the move: the next decision is seat 1's roll; nobody is sent moves
    t.act({"type": "move", "player": 0, "move": rolled["state"]["match"]["moves"][0]["move"]})
    for conn in (t.mover, t.other, t.watcher):
        (msg,) = conn.sent
        assert _moves_of(msg) is None and "moves_kept" not in msg["state"]["match"]
    t.clear()

    # seat 1 rolls: its moves come once, to seat 1 only
    t.act({"type": "roll", "player": 1, "dice": "64"})
    assert _moves_of(t.other.sent[0])
    assert _moves_of(t.mover.sent[0]) is None and _moves_of(t.watcher.sent[0]) is None


def test_a_snapshot_always_lists_the_moves() -> None:
    t = Table()
    t.act({"type": "roll", "player": 0, "dice": "31"})
    t.add("resume", {"grace": 30_000})
    t.clear()
    # the mover's page reloads: a snapshot (welcome + state) lists them again
    t.fanout.welcome(t.mover, 0)
    state = t.mover.sent[-1]
    assert state["type"] == "state" and state["match"]["moves"]
    assert "moves_kept" not in state["match"]
    # and a connection resuming 2 versions back gets them with the last missed event
    fresh = Conn(1, "ann")
    t.table.conns.add(fresh)
    assert t.table.state is not None
    t.fanout.welcome(fresh, t.table.state.version - 2)
    last = fresh.sent[-1]
    assert last["type"] == "event" and last["state"]["match"]["moves"]
    # after which an unchanged decision keeps them on both
    t.clear()
    fresh.sent.clear()
    t.add("resume", {"grace": 30_000})
    assert t.mover.sent[0]["state"]["match"]["moves_kept"] is True
    assert fresh.sent[0]["state"]["match"]["moves_kept"] is True


def test_a_decision_left_and_come_back_to_lists_the_moves_again() -> None:
    """A resignation offered and rejected returns to the same position and dice: the
    mover was sent a state without moves meanwhile, so they come again."""
    t = Table()
    t.act({"type": "roll", "player": 0, "dice": "31"})
    t.act({"type": "resign", "player": 0, "level": 1})
    assert _moves_of(t.mover.sent[-1]) is None
    t.clear()
    t.act({"type": "reject_resign", "player": 1})
    match = t.mover.sent[0]["state"]["match"]
    assert match["game"]["phase"] == "moving" and match["moves"]
    assert "moves_kept" not in match


def test_presence_is_one_small_message() -> None:
    async def run() -> list[int]:
        t = Table()
        t.clear()
        t.fanout.presence_changed()
        await asyncio.sleep(0.3)
        return [size for conn in (t.mover, t.other, t.watcher) for size in conn.sizes]

    sizes = run_async(run)
    assert len(sizes) == 3 and all(size < 200 for size in sizes)


def test_the_state_sent_is_state_view_for_each_viewer() -> None:
    """The fan-out builds each viewer's state from pieces shared by every viewer (one
    serialisation per version): what it sends is exactly ``state_view`` for that viewer."""
    t = Table()
    t.act({"type": "roll", "player": 0, "dice": "31"})
    state = t.table.state
    assert state is not None and state.match is not None
    g = state.match.game
    assert g.dice is not None
    moves = moves_payload(g.position, (g.dice.d1, g.dice.d2))
    for conn, seat in ((t.mover, 0), (t.other, 1), (t.watcher, None)):
        expected = state_view(
            state,
            seat,
            signed_in=True,
            online=t.fanout.online(),
            moves=moves,
            spectators=t.fanout.spectators(),
            chat=False,
        )
        assert conn.sent[-1]["state"] == expected
    t.clear()
    t.fanout.welcome(t.watcher, None)  # a snapshot, with the chat
    assert t.watcher.sent[-1] == {
        "type": "state",
        "now": t.watcher.sent[-1]["now"],
        **state_view(
            state,
            None,
            signed_in=True,
            online=t.fanout.online(),
            moves=None,
            spectators=t.fanout.spectators(),
        ),
    }
