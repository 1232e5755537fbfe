"""Perft-like table: legal move counts from the opening position for each of the 21 rolls."""

from __future__ import annotations

import pytest

from conftest import load_json
from gammon import ALL_ROLLS, Position

TABLE = load_json("perft-opening.json")


def test_table_covers_all_21_rolls() -> None:
    assert sorted(TABLE["counts"]) == sorted(f"{r.d1}{r.d2}" for r in ALL_ROLLS)


@pytest.mark.parametrize(("roll", "count"), sorted(TABLE["counts"].items()))
def test_opening_move_count(roll: str, count: int) -> None:
    position = Position.from_position_id(TABLE["position_id"])
    moves = position.legal_moves(roll)
    assert len(moves) == count
    assert len({m.position_after() for m in moves}) == count
    # the order is stable: the same call gives the same sequence
    assert [str(m) for m in moves] == [str(m) for m in position.legal_moves(roll)]
