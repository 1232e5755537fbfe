"""Differential test: our legal moves equal gnubg-nn's on many seeded positions.

gnubg-nn is GPL and a dev dependency only; it is imported here, never from src/.
The number of positions per family is GAMMON_ORACLE_POSITIONS (default 4,000 for
a quick local run; .ci/run sets 26,000, over 100,000 in all).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator

import pytest

from gammon import Dice, Move, Position
from gammon.sampling import game_positions, random_bearoff, random_dice, random_placement

gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn is installed by the dev extra")

pytestmark = pytest.mark.oracle

PER_FAMILY = int(os.environ.get("GAMMON_ORACLE_POSITIONS", "4000"))


def _gnubg_moves(position: Position, dice: Dice) -> set[str]:
    board = [list(position.opponent[1:26]), list(position.player[1:26])]
    return set(gnubg_nn.moves(board, dice.d1, dice.d2))


def _our_moves(position: Position, dice: Dice) -> dict[str, Move]:
    # gnubg keys the board after the move from the mover's side (opponent block first)
    return {m.position_after().flipped().position_key(): m for m in position.legal_moves(dice)}


def _games(seed: int, hit_bias: float) -> Iterator[tuple[Position, Dice]]:
    rng = random.Random(seed)
    while True:
        yield from game_positions(rng, 1, hit_bias=hit_bias)


def _sampled(
    seed: int, make: Callable[[random.Random], Position]
) -> Iterator[tuple[Position, Dice]]:
    rng = random.Random(seed)
    while True:
        yield make(rng), random_dice(rng)


FAMILIES: dict[str, Callable[[], Iterator[tuple[Position, Dice]]]] = {
    "random games": lambda: _games(1001, 0.0),
    "hit-heavy games": lambda: _games(1002, 0.8),
    "bear-offs": lambda: _sampled(1003, random_bearoff),
    "placements with bar checkers": lambda: _sampled(1004, random_placement),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_legal_moves_equal_gnubg(family: str) -> None:
    failures = []
    source = FAMILIES[family]()
    for _ in range(PER_FAMILY):
        position, dice = next(source)
        ours = _our_moves(position, dice)
        theirs = _gnubg_moves(position, dice)
        if set(ours) != theirs:
            extra = sorted(str(ours[k]) for k in set(ours) - theirs)
            missing = sorted(theirs - set(ours))
            failures.append(
                f"{position.position_id()} dice {dice}: extra {extra}, missing (gnubg keys) {missing}"
            )
    assert not failures, f"{len(failures)} of {PER_FAMILY} differ:\n" + "\n".join(failures[:20])
