"""One guard per action: why an action may not be applied to a match state now.

:func:`guard` is the only place the engine's conditions live: :func:`gammon.match.apply`
raises what it returns, :func:`allowed_actions` lists the actions it lets through, and
the bots and the server's autopilot choose from that list, so an action offered is
an action accepted.  A guard looks at who acts, the phase, the table's options (cube,
Crawford, limit, beaver, raccoon), the resignations already refused and the balances of
a staked match; the legality of a move's checkers is the rules' (``Position.parse_move``),
and the dice come with the roll.

>>> from gammon.match.engine import new_match
>>> from gammon.match.actions import Double, Roll
>>> from gammon.dice import Dice
>>> guard(new_match(), Roll(1, Dice(3, 1))) is None
True
>>> print(guard(new_match(), Double(0)))
player 0 cannot double now: a double is offered only at the start of your own turn, before rolling (game 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gammon.dice import Dice
from gammon.errors import IllegalActionError, InsufficientBalanceError
from gammon.match.actions import (
    Abandon,
    AcceptResign,
    Action,
    ActionName,
    Beaver,
    Double,
    Drop,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    Take,
    Timeout,
    action_name,
)
from gammon.match.state import MatchState

__all__ = ["allowed_actions", "dead_cube", "guard", "to_act"]

_PHASE_TEXT: Final = {
    "opening": "the opening roll",
    "turn": "{p}'s turn to roll or double",
    "moving": "{p}'s turn to move",
    "doubled": "{p} to answer a double",
    "beavered": "{p} to answer a beaver",
    "raccooned": "{p} to answer a raccoon",
    "resigning": "{p} to answer a resignation",
    "over": "the match is over",
}

_ANSWERING: Final = ("doubled", "beavered", "raccooned")


def to_act(state: MatchState) -> tuple[int, ...]:
    """The seats whose decision it is now (both during the roll-off, none once over)."""
    g = state.game
    if g.phase == "over":
        return ()
    if g.phase == "opening":
        return (0, 1)
    assert g.turn is not None
    if g.phase in ("turn", "moving", "beavered"):
        return (g.turn,)
    if g.phase in ("doubled", "raccooned"):
        return (1 - g.turn,)
    assert g.resigned_by is not None
    return (1 - g.resigned_by,)


def dead_cube(state: MatchState) -> bool:
    """Whether the site offers no double although the rules allow one: in a 1-point match
    a double changes nothing (the first game decides the match), so a server rolls for
    the player and shows no Double button.  The rules still accept the double (rules.md
    D8: dead-cube doubles are legal), so a match file that has one replays.

    >>> from gammon.match.engine import new_match
    >>> from gammon.match.options import TableOptions
    >>> dead_cube(new_match(TableOptions(match_length=1))), dead_cube(new_match(TableOptions(match_length=3)))
    (True, False)
    """
    return state.options.match_length == 1


def _refuse(state: MatchState, action: Action, why: str | None = None) -> IllegalActionError:
    g = state.game
    seats = to_act(state)
    who = f"player {seats[0]}" if len(seats) == 1 else "either player"
    reason = why or "it is " + _PHASE_TEXT[g.phase].format(p=who)
    return IllegalActionError(
        f"player {action.player} cannot {action_name(action)} now: {reason} (game {g.number})"
    )


def _balance(state: MatchState, action: Action) -> IllegalActionError | None:
    """Seed 004's admission rule, in a match built with balances: a player may take,
    beaver or raccoon only with a balance covering stake x cube limit x end coefficient."""
    if state.balances is None:
        return None
    seat = action.player
    need = state.options.required_balance()
    if state.balances[seat] >= need:
        return None
    return InsufficientBalanceError(
        f"player {seat} cannot {action_name(action)}: the balance {state.balances[seat]} "
        f"does not cover stake x cube limit x end coefficient = {need}"
    )


def _roll(state: MatchState, action: Action) -> IllegalActionError | None:
    g = state.game
    if g.phase == "opening" or (g.phase == "turn" and g.turn == action.player):
        return None
    return _refuse(state, action)


def _play(state: MatchState, action: Action) -> IllegalActionError | None:
    g = state.game
    return None if g.phase == "moving" and g.turn == action.player else _refuse(state, action)


def _double(state: MatchState, action: Action) -> IllegalActionError | None:
    g, opts, seat = state.game, state.options, action.player
    why = None
    if g.phase != "turn" or g.turn != seat:
        why = "a double is offered only at the start of your own turn, before rolling"
    elif not opts.cube:
        why = "this table plays without the cube"
    elif g.last_roll:
        why = "no cube on the last roll"
    elif g.crawford:
        why = "no doubling in the Crawford game"
    elif g.cube.owner not in (None, seat):
        why = f"the cube is owned by player {g.cube.owner}"
    elif g.cube.value * 2 > opts.cube_max:
        why = f"the cube is at the table limit ({opts.cube_max})"
    return None if why is None else _refuse(state, action, why)


def _answer(state: MatchState, action: Action, phases: tuple[str, ...] = _ANSWERING) -> bool:
    return state.game.phase in phases and action.player in to_act(state)


def _take(state: MatchState, action: Action) -> IllegalActionError | None:
    return _balance(state, action) if _answer(state, action) else _refuse(state, action)


def _drop(state: MatchState, action: Action) -> IllegalActionError | None:
    return None if _answer(state, action) else _refuse(state, action)


def _beaver(state: MatchState, action: Action) -> IllegalActionError | None:
    g, opts = state.game, state.options
    if not _answer(state, action, ("doubled",)):
        return _refuse(state, action)
    if not opts.beaver:
        return _refuse(state, action, "beavers are not allowed at this table")
    if g.cube.value * 4 > opts.cube_max:
        return _refuse(state, action, f"a beaver would pass the cube limit ({opts.cube_max})")
    return _balance(state, action)


def _raccoon(state: MatchState, action: Action) -> IllegalActionError | None:
    g, opts = state.game, state.options
    if not _answer(state, action, ("beavered",)):
        return _refuse(state, action)
    if not opts.raccoon:
        return _refuse(state, action, "raccoons are not allowed at this table")
    if g.cube.value * 2 > opts.cube_max:
        return _refuse(state, action, f"a raccoon would pass the cube limit ({opts.cube_max})")
    return _balance(state, action)


def _resign(state: MatchState, action: Action) -> IllegalActionError | None:
    assert isinstance(action, Resign)
    g = state.game
    if g.phase not in ("turn", "moving") or g.turn != action.player or g.last_roll:
        return _refuse(state, action, "a resignation is offered on your own turn")
    refused = g.rejected[action.player]
    if action.level <= refused:
        return _refuse(
            state,
            action,
            f"a resignation at level {refused} was rejected this game; "
            "offer a higher level or play on",
        )
    return None


def _resignation_answer(state: MatchState, action: Action) -> IllegalActionError | None:
    return None if _answer(state, action, ("resigning",)) else _refuse(state, action)


def _abandon(state: MatchState, action: Action) -> IllegalActionError | None:
    return None  # either player, at any moment of a match in play


def _timeout(state: MatchState, action: Action) -> IllegalActionError | None:
    if action.player not in to_act(state):
        return _refuse(state, action, "only the player whose decision it is can run out of time")
    if state.game.phase == "opening":
        return _refuse(state, action, "no clock runs during the opening roll")
    return None


_Guard = Callable[[MatchState, Action], IllegalActionError | None]

#: Each action's guard.
_GUARDS: Final[dict[type[Action], _Guard]] = {
    Roll: _roll,
    Play: _play,
    Double: _double,
    Take: _take,
    Drop: _drop,
    Beaver: _beaver,
    Raccoon: _raccoon,
    Resign: _resign,
    AcceptResign: _resignation_answer,
    RejectResign: _resignation_answer,
    Abandon: _abandon,
    Timeout: _timeout,
}


def guard(state: MatchState, action: Action) -> IllegalActionError | None:
    """Why ``action`` cannot be applied to ``state`` now (an error to raise), or None.

    The error is an :class:`~gammon.errors.InsufficientBalanceError` when only the
    balance stands in the way.  A move's checkers are not looked at (the rules do that).
    """
    check = _GUARDS.get(type(action))
    if check is None:
        return IllegalActionError(f"unknown action {action!r}"[:200])
    if state.game.phase == "over":
        return IllegalActionError(
            f"the match is over; player {action.player} cannot {action_name(action)}"
        )
    return check(state, action)


def _probes(state: MatchState, seat: int) -> tuple[tuple[ActionName, Action], ...]:
    """One action of each kind for ``seat``, in the order :func:`allowed_actions` lists them
    (a resignation at the lowest level not yet refused)."""
    level = min(3, state.game.rejected[seat] + 1)
    return (
        ("roll", Roll(seat, Dice(2, 1))),
        ("double", Double(seat)),
        ("move", Play(seat, "pass")),
        ("take", Take(seat)),
        ("drop", Drop(seat)),
        ("beaver", Beaver(seat)),
        ("raccoon", Raccoon(seat)),
        ("accept_resign", AcceptResign(seat)),
        ("reject_resign", RejectResign(seat)),
        ("resign", Resign(seat, level)),
        ("abandon", Abandon(seat)),
        ("timeout", Timeout(seat)),
    )


def allowed_actions(state: MatchState) -> dict[int, tuple[str, ...]]:
    """For each seat that may act now, the names of the actions :func:`guard` lets through
    (registered names, :data:`gammon.match.actions.ACTIONS`).

    >>> from gammon.match.engine import new_match
    >>> allowed_actions(new_match())
    {0: ('roll', 'abandon'), 1: ('roll', 'abandon')}
    """
    result: dict[int, tuple[str, ...]] = {}
    for seat in (0, 1):
        names = tuple(name for name, probe in _probes(state, seat) if guard(state, probe) is None)
        if names:
            result[seat] = names
    return result
