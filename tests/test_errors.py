from __future__ import annotations

import pytest

from gammon import errors


@pytest.mark.parametrize(
    "cls",
    [
        errors.InvalidNotationError,
        errors.IllegalMoveError,
        errors.AmbiguousMoveError,
        errors.InvalidPositionError,
        errors.IllegalActionError,
    ],
)
def test_hierarchy(cls: type[errors.GammonError]) -> None:
    assert issubclass(cls, errors.GammonError)
    assert issubclass(cls, ValueError)


def test_codes_are_distinct() -> None:
    classes = [
        errors.GammonError,
        errors.InvalidNotationError,
        errors.IllegalMoveError,
        errors.AmbiguousMoveError,
        errors.InvalidPositionError,
        errors.IllegalActionError,
    ]
    assert len({c.code for c in classes}) == len(classes)
