"""The action registry (``gammon.match.actions.ACTIONS``) and the engine event registry
(``gammon.match.events``) are the one list of each, and the engine keeps to them."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import get_args

import pytest

from gammon.dice import Dice
from gammon.errors import InvalidNotationError
from gammon.match import Match, TableOptions, action_from_dict, action_to_dict, allowed_actions
from gammon.match.actions import (
    ACTIONS,
    AcceptResign,
    Action,
    ActionName,
    Play,
    Resign,
    Roll,
    Timeout,
    action_name,
)
from gammon.match.events import ENGINE_EVENTS, EventKind

ENGINE = Path(__file__).resolve().parents[2] / "src" / "gammon" / "match" / "engine.py"

SAMPLES: dict[str, Action] = {
    "roll": Roll(0, Dice(6, 5)),
    "move": Play(1, "24/18 13/8"),
    "resign": Resign(1, 3),
}


def _sample(name: str) -> Action:
    return SAMPLES.get(name) or ACTIONS[name].cls(1)


def test_action_names_are_one_list() -> None:
    assert tuple(ACTIONS) == get_args(ActionName)
    assert len({spec.cls for spec in ACTIONS.values()}) == len(ACTIONS)


@pytest.mark.parametrize("name", list(ACTIONS))
def test_each_action_round_trips(name: str) -> None:
    action = _sample(name)
    data = action_to_dict(action)
    assert data["type"] == name == action_name(action)
    assert set(data) == {"type", "player", *(f.name for f in ACTIONS[name].fields)}
    assert action_from_dict(data) == action


@pytest.mark.parametrize("name", list(ACTIONS))
def test_each_action_refuses_foreign_fields(name: str) -> None:
    with pytest.raises(InvalidNotationError, match="unexpected fields"):
        action_from_dict({**action_to_dict(_sample(name)), "colour": "red"})


def test_field_kinds_are_checked() -> None:
    with pytest.raises(InvalidNotationError, match="roll needs dice like '31', got 31"):
        action_from_dict({"type": "roll", "player": 0, "dice": 31})
    with pytest.raises(InvalidNotationError, match="resignation level must be 1, 2 or 3"):
        action_from_dict({"type": "resign", "player": 0, "level": 4})
    assert action_from_dict({"type": "accept_resign", "player": 1}) == AcceptResign(1)
    assert not ACTIONS["timeout"].client and action_name(Timeout(0)) == "timeout"


def test_allowed_actions_are_registered_names() -> None:
    rng = random.Random(15)
    for _ in range(20):
        m = Match(TableOptions(match_length=3, cube_limit=8))
        while not m.state.over and m.state.version < 400:
            allowed = allowed_actions(m.state)
            for names in allowed.values():
                assert set(names) <= set(ACTIONS)
            g = m.state.game
            if g.phase == "moving":
                assert g.dice is not None
                action: Action = Play(g.turn or 0, str(rng.choice(g.position.legal_moves(g.dice))))
            else:
                options = {
                    seat: [n for n in names if n not in ("abandon", "timeout")]
                    for seat, names in allowed.items()
                }
                seat = rng.choice([s for s, names in options.items() if names])
                choice = rng.choice(options[seat])
                data: dict[str, object] = {"type": choice, "player": seat}
                if choice == "roll":
                    data["dice"] = f"{rng.randint(1, 6)}{rng.randint(1, 6)}"
                if choice == "resign":
                    data["level"] = 3
                action = action_from_dict(data)
            for event in m.push(action).events:
                assert event.kind in ENGINE_EVENTS


def test_the_engine_makes_only_registered_events() -> None:
    """Every engine event goes through ``events.event`` (so mypy checks its kind), and
    every registered kind is one the engine makes."""
    tree = ast.parse(ENGINE.read_text(encoding="utf-8"))
    made: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id != "Event", f"line {node.lineno}: use event(), not Event()"
            if node.func.id == "event":
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    made.add(first.value)
                elif isinstance(first, ast.IfExp):
                    for branch in (first.body, first.orelse):
                        assert isinstance(branch, ast.Constant)
                        made.add(branch.value)
    assert made == set(ENGINE_EVENTS) == set(get_args(EventKind))
