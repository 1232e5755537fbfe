from __future__ import annotations

from typing import Any

import pytest

from conftest import load_json
from gammon import InvalidNotationError, InvalidPositionError, Position
from gammon.notation.position_id import decode_position_key, encode_position_key

VECTORS = load_json("format-vectors.json")["position_id"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vectors(vector: dict[str, Any]) -> None:
    variant = "hypergammon" if "hyper" in vector["name"] else "standard"
    position = Position.from_board(vector["sage26"], variant)
    assert position.position_id() == vector["position_id"]
    assert position.position_key() == vector["gnubg_key20"]
    assert Position.from_position_id(vector["position_id"], variant) == position
    gnu = [list(position.opponent[1:26]), list(position.player[1:26])]
    assert gnu == vector["gnu2x25"]
    player, opponent = decode_position_key(vector["gnubg_key20"], position.variant.checkers)
    assert (player, opponent) == (position.player, position.opponent)
    assert encode_position_key(player, opponent) == vector["gnubg_key20"]


def test_not_on_roll_is_encoded_first() -> None:
    # formats.md: XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8 -> ewMAAD4gAAAAAA
    p = Position.from_xgid("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8")
    assert p.position_id() == "ewMAAD4gAAAAAA"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "4HPwATDgc/ABM",
        "4HPwATDgc/ABMAA",
        "4HPwATDgc/ABM=",
        "4HPwATDgc/ABM-",
        "é" * 14,
        None,
        42,
    ],
)
def test_malformed_ids(text: object) -> None:
    with pytest.raises(InvalidNotationError, match="invalid Position ID"):
        Position.from_position_id(text)  # type: ignore[arg-type]


def test_too_many_checkers_and_trailing_bits() -> None:
    # 16 checkers on the 1-point of the side not on roll
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        Position.from_position_id("//8AAAAAAAAAAA")
    # what gnubg writes for a 16-checker side cannot be decoded (formats.md)
    with pytest.raises(InvalidNotationError, match="ends inside"):
        Position.from_position_id("4HPwATDg5+ADYA")
    with pytest.raises(InvalidNotationError, match="ends inside"):
        Position.from_position_id("//////////////")
    with pytest.raises(InvalidNotationError, match="bits set after"):
        Position.from_position_id("AAAAAAAAAAAA/w")
    with pytest.raises(InvalidNotationError):
        decode_position_key("OAHDPAABDAOAHDPAABDZ")
