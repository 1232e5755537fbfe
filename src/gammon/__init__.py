"""gammon: backgammon rules, notation and tools.

The core (this package, :mod:`gammon.notation`) uses only the standard library.

>>> import gammon
>>> position = gammon.Position.from_position_id("4HPwATDgc/ABMA")
>>> moves = position.legal_moves((6, 5))
>>> [str(m) for m in moves]
['24/18 13/8', '24/18 8/3', '24/13', '13/8 13/7', '13/7 8/3', '13/2', '8/3 8/2']
>>> position.apply(position.parse_move("24/13", "65")).position_id()
'4HPwAyDgc/ABMA'
"""

from gammon.dice import ALL_ROLLS, Dice
from gammon.errors import (
    AmbiguousMoveError,
    GammonError,
    IllegalActionError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionsError,
    InvalidPositionError,
)
from gammon.move import BAR, OFF, Move, Step
from gammon.position import GameResult, Position, StepOptions
from gammon.variants import VARIANTS, Variant, get_variant

__all__ = [
    "ALL_ROLLS",
    "BAR",
    "OFF",
    "VARIANTS",
    "AmbiguousMoveError",
    "Dice",
    "GameResult",
    "GammonError",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidOptionsError",
    "InvalidPositionError",
    "Move",
    "Position",
    "Step",
    "StepOptions",
    "Variant",
    "get_variant",
]

__version__ = "0.1.0"
