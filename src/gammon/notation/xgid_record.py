"""An XGID read into a :class:`gammon.Position` and its other fields.

>>> rec = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:3:0:7:10")
>>> rec.cube_value, rec.cube_owner, rec.turn, rec.score_bottom, rec.score_top, rec.match_length
(2, 1, 1, 2, 3, 7)
>>> rec.position.position_id()
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from gammon.notation.xgid import XGIDFields, read_xgid
from gammon.position import Position
from gammon.variants import Variant

__all__ = ["XGIDRecord", "parse_xgid"]


@dataclass(frozen=True, slots=True)
class XGIDRecord(XGIDFields):
    """Every field of an XGID, and :attr:`position`, seen from the player on roll."""

    position: Position


def parse_xgid(text: str, variant: str | Variant = "standard") -> XGIDRecord:
    """Parse an XGID (the ``XGID=`` prefix is optional), position included.

    >>> parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:7")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid XGID 'XGID=-b----E-C---eE---c-e----B-:0:0:1:7': expected 10 fields separated by ':', got 5
    """
    read = read_xgid(text, variant)
    position = Position.from_xgid(text, read.variant)
    return XGIDRecord(**{f.name: getattr(read, f.name) for f in fields(read)}, position=position)
