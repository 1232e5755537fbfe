"""rules-catalogue.json as a data table: every case, compared as sets of resulting positions."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import load_json
from gammon import Position

CATALOGUE = load_json("rules-catalogue.json")["cases"]


def _position(case: dict[str, Any]) -> Position:
    x, o = case["X_on_roll"], case["O"]
    return Position.from_points(
        {int(p): n for p, n in x["points"].items()},
        {int(p): n for p, n in o["points"].items()},
        player_bar=x["bar"],
        opponent_bar=o["bar"],
        variant=case["rules"],
    )


def test_catalogue_has_every_case() -> None:
    assert len(CATALOGUE) == 44
    assert {c["rules"] for c in CATALOGUE} == {"standard", "caucasian"}


@pytest.mark.parametrize("case", CATALOGUE, ids=[c["id"] for c in CATALOGUE])
def test_catalogue_case(case: dict[str, Any]) -> None:
    position = _position(case)
    assert position.position_id() == case["position_id"]
    moves = position.legal_moves(tuple(case["dice"]))
    got = {m.position_after().position_id() for m in moves}
    expected = {p["result_position_id"] for p in case["expected_plays"]}
    assert got == expected, f"{case['id']}: {sorted(map(str, moves))}"
    assert len(moves) == len(got), "two moves reach the same position"
    if case["no_legal_move"]:
        assert moves == ()
        assert position.pass_move(tuple(case["dice"])).position_after() == position.flipped()
    # every notation the catalogue gives for a play parses to that play
    for play in case["expected_plays"]:
        for text in play["equivalent_notations"]:
            move = position.parse_move(text, tuple(case["dice"]))
            assert move.position_after().position_id() == play["result_position_id"], text
