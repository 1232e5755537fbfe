"""The perft table of tests/data/perft-variants.json, recounted with gnubg-nn's generator.

gnubg-nn knows the backgammon board without hitter rules: standard, nackgammon,
hypergammon and portes (their rolls and start positions differ, the rules do not).
"""

from __future__ import annotations

import pytest

from conftest import load_json
from gammon import Dice, Position
from gammon.notation.position_id import decode_position_key

gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn is installed by the dev extra")

pytestmark = pytest.mark.oracle

TABLE = load_json("perft-variants.json")["variants"]
Sides = tuple[tuple[int, ...], tuple[int, ...]]


def gnubg_perft(variant: str, rolls: list[str]) -> list[int]:
    start = Position.initial(variant)
    checkers = start.variant.checkers
    level: set[Sides] = {(start.player, start.opponent)}
    counts = []
    for roll in rolls:
        d = Dice.parse(roll)
        following: set[Sides] = set()
        for player, opponent in level:
            keys = gnubg_nn.moves([list(opponent[1:26]), list(player[1:26])], d.d1, d.d2)
            for key in keys:
                # gnubg's key is the board after the move seen by the mover: turn it round
                mover, other = decode_position_key(key, checkers)
                following.add((other, mover))
            if not keys:
                following.add((opponent, player))
        level = following
        counts.append(len(level))
    return counts


@pytest.mark.parametrize("variant", ["hypergammon", "nackgammon", "portes", "standard"])
def test_perft_counts_equal_gnubg(variant: str) -> None:
    row = TABLE[variant]
    assert gnubg_perft(variant, row["rolls"]) == row["counts"]
