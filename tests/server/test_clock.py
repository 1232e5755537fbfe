"""Clocks: a delay per decision, then a reserve; running out submits ``timeout``."""

from __future__ import annotations

from collections.abc import Callable

from gammon.match import ClockSettings, TableOptions
from gammon.server.table.state import clock_deadline, initial_state, reduce
from serverkit import Player, play_move, start_pair, wait_state

Make = Callable[[], Player]


def test_running_out_of_time_loses(players: Make) -> None:
    clock = {"delay": 0.3, "reserve_base": 0.4, "reserve_per_point": 0.0}
    pair = start_pair(players, match_length=1, clock=clock)
    state = pair.ws(0).state
    assert state is not None
    seat = pair.to_act()
    view = state["clock"]
    assert view["delay"] == 0.3 and view["reserve"] == [0.4, 0.4] and view["running"] == seat
    assert view["deadline"] == view["since"] + 700
    final = wait_state(pair.ws(0), lambda s: s["table"]["status"] == "finished", timeout=10)
    timeouts = [
        m for m in pair.ws(0).seen if m.get("kind") == "action" and m["data"]["reason"] == "timeout"
    ]
    assert timeouts and timeouts[0]["data"]["action"] == {"type": "timeout", "player": seat}
    assert final["table"]["result"]["winner"] == 1 - seat


def test_moving_in_time_keeps_the_reserve(players: Make) -> None:
    pair = start_pair(
        players,
        match_length=3,
        clock={"delay": 30.0, "reserve_base": 10.0, "reserve_per_point": 10.0},
    )
    state = pair.ws(0).state
    assert state is not None and state["clock"]["reserve"] == [40.0, 40.0]
    play_move(pair)
    after = pair.ws(0).state
    assert after is not None and after["clock"]["reserve"] == [40.0, 40.0]
    assert after["clock"]["running"] == pair.to_act()


def test_clock_arithmetic_is_replayed_from_timestamps() -> None:
    options = TableOptions(match_length=1, clock=ClockSettings(2.0, 10.0, 0.0))
    t = initial_state("t", {"by": "a", "options": options.to_dict()}, 0)
    for seat in (0, 1):
        sit = {"seat": seat, "name": f"p{seat}", "kind": "user", "user": seat + 1, "level": None}
        t, _ = reduce(t, "sit", sit, 0)
    start = {"commitment": "c", "players": ["p0", "p1"], "balances": None}
    t, _ = reduce(t, "start", start, 1000)
    roll = {"action": {"type": "roll", "player": 0, "dice": "31"}, "by": "server", "reason": None}
    t, _ = reduce(t, "action", roll, 1000)
    assert t.clock_seat == 0 and clock_deadline(t) == 1000 + 2000 + 10000
    move = {
        "action": {"type": "move", "player": 0, "move": "8/5 6/5"},
        "by": "player",
        "reason": None,
    }
    t, _ = reduce(t, "action", move, 1000 + 2000 + 3500)  # 3.5 s past the delay
    assert t.reserves == (6500, 10000) and t.clock_seat == 1
