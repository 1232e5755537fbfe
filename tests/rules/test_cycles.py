"""The rules leave no reference cycles behind: everything they build is freed as soon
as it is dropped, never by the cyclic garbage collector.

A server lists and reads moves on every action; cyclic garbage made there (a recursive
helper's closure refers to itself) piled up at ~50,000 objects a second at 200
matches and made the collector pause every table.  Each variant's positions, with
every roll, go through the listing, the texts, the parser (full and kept), click to move
and applying moves, and a collection afterwards must find nothing to free.
"""

from __future__ import annotations

import gc
import random

import pytest

from gammon import Dice, Position
from gammon.sampling import game_positions
from gammon.variants import VARIANTS

ROLLS = [Dice(a, b) for a in range(1, 7) for b in range(a, 7)]


def _positions(variant: str, n: int, rng: random.Random) -> list[Position]:
    turns = [position for position, _ in game_positions(rng, games=2, variant=variant)]
    return rng.sample(turns, min(n, len(turns)))


def _work(positions: list[Position]) -> None:
    for p in positions:
        for dice in ROLLS:
            if p.rules.lazy_plays(p, dice) is None:
                for text, move in list(p.move_texts(dice).items())[:3]:
                    assert p.parse_move(text, dice) == move
                    assert p.parse_move(" ".join(reversed(text.split())), dice) == move
                    p.step_options(dice, move.steps[:1])
                    p.apply(move)
            else:  # acey-deucey's 1-2: searched, never listed
                move = p.first_legal_move(dice)
                assert move is not None
                assert p.parse_move(str(move), dice) == move
                p.step_options(dice, move.steps[:1])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_moves_leave_no_cyclic_garbage(variant: str) -> None:
    positions = _positions(variant, 12, random.Random(variant))
    gc.collect()
    gc.disable()
    try:
        _work(positions)
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0
