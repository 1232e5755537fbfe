from __future__ import annotations

import pytest

from gammon import ALL_ROLLS, Dice, InvalidNotationError


@pytest.mark.parametrize("text", ["31", "3-1", "3 1", "(3, 1)", "3,1", " 31 "])
def test_parse_accepts_common_forms(text: str) -> None:
    assert Dice.parse(text) == Dice(3, 1)


@pytest.mark.parametrize("text", ["", "3", "317", "70", "ab", "3-", "0-1"])
def test_parse_rejects_bad_text(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="invalid dice"):
        Dice.parse(text)


@pytest.mark.parametrize("bad", [(0, 1), (7, 1), (1.0, 2), ("3", 1)])
def test_constructor_validates(bad: tuple[object, object]) -> None:
    with pytest.raises(InvalidNotationError):
        Dice(*bad)  # type: ignore[arg-type]


def test_coerce_and_properties() -> None:
    assert Dice.coerce((2, 5)) == Dice(2, 5)
    assert Dice.coerce("52") == Dice(5, 2)
    assert Dice.coerce(Dice(1, 1)) == Dice(1, 1)
    with pytest.raises(InvalidNotationError):
        Dice.coerce((1, 2, 3))  # type: ignore[arg-type]
    d = Dice(2, 5)
    assert (d.high, d.low, d.is_double, d.pips, d.weight) == (5, 2, False, 7, 2)
    assert Dice(4, 4).pips == 16
    assert d.normalized() == Dice(5, 2)
    assert str(d) == "25" and repr(d) == "Dice(2, 5)"


def test_all_rolls() -> None:
    assert len(ALL_ROLLS) == 21
    assert sum(r.weight for r in ALL_ROLLS) == 36
    assert len(set(ALL_ROLLS)) == 21
    assert all(r.d1 >= r.d2 for r in ALL_ROLLS)
