"""Perft-like tables: legal move counts from the opening position for each of the 21 rolls,
and positions reached ply by ply from every variant's start (tests/data/perft-variants.json)."""

from __future__ import annotations

import pytest

from conftest import load_json
from gammon import ALL_ROLLS, VARIANTS, Position
from perft import perft

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


VARIANT_TABLE = load_json("perft-variants.json")["variants"]


def test_variant_table_covers_every_variant() -> None:
    assert sorted(VARIANT_TABLE) == sorted(VARIANTS)


@pytest.mark.parametrize("variant", sorted(VARIANT_TABLE))
def test_variant_perft(variant: str) -> None:
    """Distinct positions after each ply for a fixed roll sequence (regenerate the table
    with tests/data/make_perft_variants.py)."""
    row = VARIANT_TABLE[variant]
    assert len(row["counts"]) == len(row["rolls"]) >= 4
    assert perft(variant, row["rolls"]) == row["counts"]
