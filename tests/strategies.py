"""Hypothesis strategies for positions, dice and matches; random self-play actions."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from gammon import Dice, Position
from gammon.match import (
    Abandon,
    AcceptResign,
    Beaver,
    Double,
    Drop,
    Match,
    MatchRecord,
    MatchState,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    TableOptions,
    Take,
    Timeout,
    allowed_actions,
)
from gammon.match.actions import Action

dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))
variants = st.sampled_from(["standard", "caucasian", "nackgammon"])


@st.composite
def positions(draw: st.DrawFn, variant: str | None = None) -> Position:
    """Any valid position: checkers spread over free points, the bars, and off."""
    name = draw(variants) if variant is None else variant
    sides: list[list[int]] = []
    taken: set[int] = set()  # in the player's numbering
    for owner in ("opponent", "player"):
        counts = [0] * 26
        n = draw(st.integers(0, 15))
        free = [p for p in range(1, 25) if (25 - p if owner == "opponent" else p) not in taken]
        spots = draw(st.lists(st.sampled_from([*free, 25]), min_size=1, max_size=8))
        for _ in range(n):
            counts[draw(st.sampled_from(spots))] += 1
        counts[0] = 15 - n
        for p in range(1, 25):
            if counts[p]:
                taken.add(25 - p if owner == "opponent" else p)
        sides.append(counts)
    opponent, player = sides
    if player[0] == 15 and opponent[0] == 15:
        player[0], player[6] = 14, 1
    return Position(tuple(player), tuple(opponent), name)  # type: ignore[arg-type]


@st.composite
def games(draw: st.DrawFn, variant: str = "standard") -> list[tuple[Position, Dice]]:
    """The (position, dice) turns of a game whose moves Hypothesis chooses."""
    position = Position.initial(variant)
    turns = []
    for _ in range(draw(st.integers(0, 60))):
        if position.is_game_over():
            break
        roll = draw(dice)
        turns.append((position, roll))
        moves = position.legal_moves(roll)
        move = draw(st.sampled_from(moves)) if moves else position.pass_move(roll)
        position = position.apply(move)
    return turns


#: How often random self-play picks each kind of action.
WEIGHTS = {
    "roll": 50,
    "move": 50,
    "double": 4,
    "take": 5,
    "drop": 2,
    "beaver": 2,
    "raccoon": 2,
    "resign": 1,
    "accept_resign": 1,
    "reject_resign": 1,
    "abandon": 0.05,
    "timeout": 0.05,
}


#: The actions that need only the seat, by their name in ``allowed_actions``.
SIMPLE_ACTIONS: dict[str, type[Action]] = {
    "double": Double,
    "take": Take,
    "drop": Drop,
    "beaver": Beaver,
    "raccoon": Raccoon,
    "accept_resign": AcceptResign,
    "reject_resign": RejectResign,
    "abandon": Abandon,
    "timeout": Timeout,
}


def random_action(state: MatchState, rng: random.Random) -> Action:
    """A random allowed action (dice and moves drawn from ``rng``)."""
    allowed = allowed_actions(state)
    choices = [(seat, name) for seat, names in allowed.items() for name in names]
    seat, name = rng.choices(choices, weights=[WEIGHTS[n] for _, n in choices])[0]
    if name == "roll":
        return Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    if name == "move":
        g = state.game
        assert g.dice is not None
        return Play(seat, str(rng.choice(g.position.legal_moves(g.dice))))
    if name == "resign":
        return Resign(seat, rng.randint(state.game.rejected[seat] + 1, 3))
    action: Action = SIMPLE_ACTIONS[name](seat)
    return action


#: Drawn once in 150 decisions (a double once in 30 turns); otherwise the game goes on.
_RARE = frozenset({"resign", "abandon", "timeout"})


@st.composite
def match_records(draw: st.DrawFn, options: TableOptions) -> MatchRecord:
    """A short match of random legal actions: Hypothesis draws the dice and the choices."""
    match = Match(options)
    for _ in range(draw(st.integers(0, 300))):
        state = match.state
        if state.over:
            break
        allowed = [(seat, name) for seat, names in allowed_actions(state).items() for name in names]
        doubles = [(seat, name) for seat, name in allowed if name == "double"]
        rare = [(seat, name) for seat, name in allowed if name in _RARE]
        common = [(seat, name) for seat, name in allowed if name not in _RARE and name != "double"]
        if doubles and draw(st.integers(0, 29)) == 17:
            pool = doubles
        elif rare and (not common or draw(st.integers(0, 149)) == 75):
            pool = rare
        else:
            pool = common
        seat, name = draw(st.sampled_from(pool))
        g = state.game
        action: Action
        if name == "roll":
            action = Roll(seat, Dice(draw(st.integers(1, 6)), draw(st.integers(1, 6))))
        elif name == "move":
            assert g.dice is not None
            moves = g.position.legal_moves(g.dice)
            action = Play(seat, str(moves[draw(st.integers(0, len(moves) - 1))]))
        elif name == "resign":
            if g.rejected[seat] >= 3:
                continue
            action = Resign(seat, draw(st.integers(g.rejected[seat] + 1, 3)))
        else:
            action = SIMPLE_ACTIONS[name](seat)
        match.push(action)
    return match.record()
