"""The actions of a match: what a player (or the server for a player) does.

Every action names the seat (0 or 1) that acts.  Actions are frozen values and
turn into JSON-ready dicts for the action log.

>>> action_from_dict({"type": "roll", "player": 0, "dice": "31"})
Roll(player=0, dice=Dice(3, 1))
>>> action_to_dict(Resign(1, 2))
{'type': 'resign', 'player': 1, 'level': 2}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from gammon.dice import Dice
from gammon.errors import InvalidNotationError

__all__ = [
    "ACTIONS",
    "Abandon",
    "AcceptResign",
    "Action",
    "ActionField",
    "ActionName",
    "ActionSpec",
    "Beaver",
    "Double",
    "Drop",
    "Play",
    "Raccoon",
    "RejectResign",
    "Resign",
    "Roll",
    "Take",
    "Timeout",
    "action_from_dict",
    "action_name",
    "action_to_dict",
]


@dataclass(frozen=True, slots=True)
class _Base:
    player: int

    def __post_init__(self) -> None:
        if self.player not in (0, 1) or type(self.player) is not int:
            raise InvalidNotationError(f"player must be seat 0 or 1, got {self.player!r}")


@dataclass(frozen=True, slots=True)
class Roll(_Base):
    """Roll the dice.  In the opening roll-off ``dice.d1`` is player 0's die and ``d2`` player 1's."""

    dice: Dice


@dataclass(frozen=True, slots=True)
class Play(_Base):
    """Play a move, written in any notation :meth:`gammon.Position.parse_move` reads (``pass`` when none)."""

    move: str


@dataclass(frozen=True, slots=True)
class Double(_Base):
    """Offer a double (before rolling)."""


@dataclass(frozen=True, slots=True)
class Take(_Base):
    """Accept the cube offered (or the beaver, or the raccoon)."""


@dataclass(frozen=True, slots=True)
class Drop(_Base):
    """Refuse the cube: the game ends at the value before the offer."""


@dataclass(frozen=True, slots=True)
class Beaver(_Base):
    """Money play: redouble at once when doubled, keeping the cube."""


@dataclass(frozen=True, slots=True)
class Raccoon(_Base):
    """Money play: after a beaver, the doubler redoubles again at once."""


@dataclass(frozen=True, slots=True)
class Resign(_Base):
    """Offer to resign a single (1), gammon (2) or backgammon (3); the opponent accepts or not."""

    level: int

    def __post_init__(self) -> None:
        _Base.__post_init__(self)
        if self.level not in (1, 2, 3) or type(self.level) is not int:
            raise InvalidNotationError(f"resignation level must be 1, 2 or 3, got {self.level!r}")


@dataclass(frozen=True, slots=True)
class AcceptResign(_Base):
    """Accept the resignation offered."""


@dataclass(frozen=True, slots=True)
class RejectResign(_Base):
    """Reject the resignation offered: play goes on."""


@dataclass(frozen=True, slots=True)
class Abandon(_Base):
    """ "Abandonner": end the game now, scored from the board under the end setting."""


@dataclass(frozen=True, slots=True)
class Timeout(_Base):
    """The player's clock ran out: scored like an abandon."""


Action = (
    Roll
    | Play
    | Double
    | Take
    | Drop
    | Beaver
    | Raccoon
    | Resign
    | AcceptResign
    | RejectResign
    | Abandon
    | Timeout
)

#: Every action's name in logs and the protocol (``ACTIONS`` has one entry for each).
ActionName = Literal[
    "roll",
    "move",
    "double",
    "take",
    "drop",
    "beaver",
    "raccoon",
    "resign",
    "accept_resign",
    "reject_resign",
    "abandon",
    "timeout",
]


@dataclass(frozen=True, slots=True)
class ActionField:
    """A field an action carries besides ``player``, as written in a dict.

    ``kind`` says how it is written: ``dice`` as text like ``"31"``, ``text`` as a
    string of at most ``longest`` characters, ``int`` as an integer from ``low`` to
    ``high``.  ``from_client`` is False for what the server fills in (the dice).
    """

    name: str
    kind: Literal["dice", "text", "int"]
    from_client: bool = True
    longest: int = 0
    low: int = 0
    high: int = 0


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One registered action: its name, its class and the fields it carries.

    ``client`` is False for an action only the server submits (``timeout``).
    """

    name: ActionName
    cls: Callable[..., Action]
    fields: tuple[ActionField, ...] = ()
    client: bool = True


def _spec(name: ActionName, cls: Callable[..., Action], *fields: ActionField) -> ActionSpec:
    return ActionSpec(name, cls, fields, client=name != "timeout")


#: The registry of actions, by name: the only list of them.  Everything else
#: (:func:`action_to_dict`, :func:`action_from_dict`, the engine's allowed actions, the
#: server's client messages, docs/protocol.md's check) is derived from it.
#:
#: >>> [name for name, spec in ACTIONS.items() if not spec.client]
#: ['timeout']
#: >>> [f.name for f in ACTIONS["move"].fields]
#: ['move']
ACTIONS: Final[Mapping[str, ActionSpec]] = MappingProxyType(
    {
        spec.name: spec
        for spec in (
            _spec("roll", Roll, ActionField("dice", "dice", from_client=False)),
            _spec("move", Play, ActionField("move", "text", longest=200)),
            _spec("double", Double),
            _spec("take", Take),
            _spec("drop", Drop),
            _spec("beaver", Beaver),
            _spec("raccoon", Raccoon),
            _spec("resign", Resign, ActionField("level", "int", low=1, high=3)),
            _spec("accept_resign", AcceptResign),
            _spec("reject_resign", RejectResign),
            _spec("abandon", Abandon),
            _spec("timeout", Timeout),
        )
    }
)
_BY_CLASS: Final[Mapping[object, ActionSpec]] = MappingProxyType(
    {spec.cls: spec for spec in ACTIONS.values()}
)


def action_name(action: Action) -> ActionName:
    """The action's type name in logs and the protocol (``roll``, ``move``, ``double``, ...).

    >>> action_name(Double(0))
    'double'
    """
    return _BY_CLASS[type(action)].name


def _write(field: ActionField, value: Any) -> Any:
    if field.kind == "dice":
        return f"{value.d1}{value.d2}"
    return value


def _read(spec: ActionSpec, field: ActionField, value: Any) -> Any:
    if field.kind == "dice":
        if not isinstance(value, str):
            raise InvalidNotationError(f"{spec.name} needs dice like '31', got {value!r}"[:200])
        return Dice.parse(value)
    if field.kind == "text" and not isinstance(value, str):
        raise InvalidNotationError(f"{spec.name} needs text, got {value!r}"[:200])
    return value  # an int: the action checks its range itself


def action_to_dict(action: Action) -> dict[str, Any]:
    """A JSON-ready dict of an action."""
    spec = _BY_CLASS[type(action)]
    data: dict[str, Any] = {"type": spec.name, "player": action.player}
    for field in spec.fields:
        data[field.name] = _write(field, getattr(action, field.name))
    return data


def action_from_dict(data: Any) -> Action:
    """Read an action from a dict such as :func:`action_to_dict` writes.

    Raises :class:`InvalidNotationError` for anything else.

    >>> action_from_dict({"type": "fly", "player": 0})
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: unknown action type 'fly'
    >>> action_from_dict({"type": "move", "player": 1, "move": 8})
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: move needs text, got 8
    """
    if not isinstance(data, dict):
        raise InvalidNotationError(f"an action is an object, got {data!r}"[:200])
    kind = data.get("type")
    spec = ACTIONS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise InvalidNotationError(f"unknown action type {kind!r}"[:200])
    extra = set(data) - {"type", "player"} - {field.name for field in spec.fields}
    if extra:
        raise InvalidNotationError(
            f"unexpected fields for {kind}: {', '.join(sorted(map(str, extra)))}"[:200]
        )
    values = [_read(spec, field, data.get(field.name)) for field in spec.fields]
    return spec.cls(data.get("player"), *values)
