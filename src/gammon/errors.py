"""The single error hierarchy of gammon.

Every error raised by gammon derives from :class:`GammonError`.  Errors about bad
input (a malformed ID, an illegal move, an impossible position) also derive from
:class:`ValueError`, so code that already catches ``ValueError`` keeps working.

>>> from gammon.errors import IllegalMoveError, GammonError
>>> issubclass(IllegalMoveError, ValueError) and issubclass(IllegalMoveError, GammonError)
True
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "DiceExhaustedError",
    "GammonError",
    "IllegalActionError",
    "IllegalMoveError",
    "InsufficientBalanceError",
    "InvalidNotationError",
    "InvalidOptionsError",
    "InvalidPositionError",
    "InvalidSeedError",
]


class GammonError(Exception):
    """Base class of every error raised by gammon."""

    #: A short stable identifier, used by the server as an error code.
    code: str = "error"


class InvalidPositionError(GammonError, ValueError):
    """A position that cannot occur: wrong checker count, a shared point, both finished."""

    code = "invalid_position"


class InvalidNotationError(GammonError, ValueError):
    """Text that does not parse: a malformed Position ID, XGID, dice or move."""

    code = "invalid_notation"


class IllegalMoveError(GammonError, ValueError):
    """A well-formed move that the rules do not allow in this position."""

    code = "illegal_move"


class AmbiguousMoveError(GammonError, ValueError):
    """Move text that matches more than one legal move."""

    code = "ambiguous_move"


class InvalidOptionsError(GammonError, ValueError):
    """Table options that do not go together, such as a beaver in a match."""

    code = "invalid_options"


class IllegalActionError(GammonError, ValueError):
    """An action that is not allowed now: doubling after rolling, acting out of turn."""

    code = "illegal_action"


class InsufficientBalanceError(IllegalActionError):
    """A cube taken (or beavered, raccooned) by a player whose balance does not cover
    the table's largest loss in one game (seed 004's admission rule)."""

    code = "insufficient_balance"


class InvalidSeedError(GammonError, ValueError):
    """Input the verifiable dice cannot use: a server seed, client seed, match id or count."""

    code = "invalid_seed"


class DiceExhaustedError(GammonError):
    """A fixed dice sequence was asked for more rolls than it was given."""

    code = "dice_exhausted"
