"""Hypothesis strategies for positions and dice."""

from __future__ import annotations

from hypothesis import strategies as st

from gammon import Dice, Position

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
