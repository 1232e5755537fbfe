"""One guard per action: what ``allowed_actions`` offers is exactly what ``apply`` accepts.

Random matches under random table options (stakes with balances, beaver, raccoon,
Jacoby, automatic doubles, Crawford, cube limits, clocks, end settings, the draw's last
roll, several variants) are walked with random actions; at every state, for each seat
and each registered action, the action is offered if and only if ``apply`` accepts it
(with a real payload: a legal move, every resignation level).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import Dice
from gammon.errors import IllegalActionError, InsufficientBalanceError, InvalidOptionsError
from gammon.match import (
    ClockSettings,
    MatchState,
    TableOptions,
    allowed_actions,
    apply,
    guard,
    new_match,
)
from gammon.match.actions import (
    ACTIONS,
    Abandon,
    AcceptResign,
    Action,
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
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[TableOptions, tuple[int, int] | None]:
    money = draw(st.booleans())
    kwargs: dict[str, object] = {
        "variant": draw(st.sampled_from(["standard", "standard", "nackgammon", "portes"])),
        "match_length": 0 if money else draw(st.sampled_from([1, 3, 5, 7])),
        "cube": draw(st.booleans() | st.just(True)),
        "cube_limit": draw(st.sampled_from([None, 2, 4, 8, 64])),
        "crawford": draw(st.booleans()),
        "end_setting": draw(st.sampled_from(["oin", "mars", "cox"])),
        "draw_last_roll": draw(st.booleans()),
        "clock": draw(st.sampled_from([None, ClockSettings(), ClockSettings(0, 30, 0)])),
    }
    balances = None
    if money:
        kwargs["jacoby"] = draw(st.booleans())
        kwargs["beaver"] = beaver = draw(st.booleans())
        kwargs["raccoon"] = beaver and draw(st.booleans())
        kwargs["automatic_doubles"] = draw(st.integers(0, 2))
        kwargs["stake"] = stake = draw(st.sampled_from([0, 1, 3]))
        if stake and draw(st.booleans()):
            balances = (draw(st.integers(0, 200)), draw(st.integers(0, 200)))
    try:
        options = TableOptions(**kwargs)  # type: ignore[arg-type]
    except InvalidOptionsError:
        options = TableOptions(match_length=int(kwargs["match_length"]))  # type: ignore[call-overload]
    return options, balances


def _probes(state: MatchState, seat: int, rng: random.Random) -> dict[str, list[Action]]:
    """Real actions of every kind for ``seat`` (every resignation level, a legal move)."""
    g = state.game
    move = "pass"
    if g.phase == "moving" and g.dice is not None:
        moves = g.position.legal_moves(g.dice)
        move = str(rng.choice(moves)) if moves else "pass"
    return {
        "roll": [Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6)))],
        "double": [Double(seat)],
        "move": [Play(seat, move)],
        "take": [Take(seat)],
        "drop": [Drop(seat)],
        "beaver": [Beaver(seat)],
        "raccoon": [Raccoon(seat)],
        "resign": [Resign(seat, level) for level in (1, 2, 3)],
        "accept_resign": [AcceptResign(seat)],
        "reject_resign": [RejectResign(seat)],
        "abandon": [Abandon(seat)],
        "timeout": [Timeout(seat)],
    }


def _accepted(state: MatchState, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalActionError:  # InsufficientBalanceError included
        return False
    return True


def _check(state: MatchState, rng: random.Random) -> dict[int, dict[str, list[Action]]]:
    """Check every seat's offer against ``apply`` and ``guard``; the accepted actions, by
    seat and kind (the walk takes its next step among them)."""
    allowed = allowed_actions(state)
    taken: dict[int, dict[str, list[Action]]] = {}
    for seat in (0, 1):
        offered = set(allowed.get(seat, ()))
        probes = _probes(state, seat, rng)
        assert set(probes) == set(ACTIONS)
        taken[seat] = {}
        for name, actions in probes.items():
            accepted = [a for a in actions if _accepted(state, a)]
            assert bool(accepted) == (name in offered), (name, seat, state.game, state.options)
            for a in actions:  # the guard says exactly what apply does
                assert (guard(state, a) is None) == (a in accepted), (a, state.game)
            if accepted:
                taken[seat][name] = accepted
    return {seat: kinds for seat, kinds in taken.items() if kinds}


@given(tables(), st.integers(0, 2**32 - 1))
def test_every_action_offered_is_accepted_and_no_other(
    table: tuple[TableOptions, tuple[int, int] | None], seed: int
) -> None:
    options, balances = table
    rng = random.Random(seed)
    state = new_match(options)
    if balances is not None:  # a session after some losses: balances below the rule too
        state = replace(state, balances=balances)
    for _ in range(rng.randint(0, 120)):
        accepted = _check(state, rng)  # what is offered, checked, then one of it taken
        if not accepted:
            break
        seat = rng.choice(sorted(accepted))
        kinds = accepted[seat]
        names = [n for n in kinds if n not in ("abandon", "timeout")] or ["abandon"]
        state = apply(state, kinds[rng.choice(names)][0]).state
    _check(state, rng)


def test_a_take_the_balance_cannot_cover_is_not_offered() -> None:
    """Issue 31: balances (3, 1) with 2 needed: seat 1 was offered "take" and refused it."""
    options = TableOptions(stake=1, cube_limit=2, end_setting="oin")
    assert options.required_balance() == 2
    state = replace(new_match(options, (3, 3)), balances=(3, 1))  # seat 1 lost 2 since
    state = apply(state, Roll(0, Dice(3, 1))).state
    state = apply(state, Play(0, "8/5 6/5")).state
    state = apply(state, Roll(1, Dice(4, 2))).state
    state = apply(state, Play(1, "8/4 6/4")).state
    state = apply(state, Double(0)).state
    assert allowed_actions(state)[1] == ("drop", "abandon", "timeout")
    refusal = guard(state, Take(1))
    assert isinstance(refusal, InsufficientBalanceError)
    with pytest.raises(InsufficientBalanceError, match="balance 1"):
        apply(state, Take(1))
