"""Positions seen from the player on roll, and everything the rules say about them.

:class:`Position` is defined in :mod:`gammon.model` together with :class:`gammon.Move`
(each refers to the other); its rules come from :mod:`gammon.rules`.

>>> start = Position.initial()
>>> start.position_id(), start.pip_count()
('4HPwATDgc/ABMA', (167, 167))
>>> [str(m) for m in Position.initial("plakoto").legal_moves("21")]
['24/21', '24/23 24/22']
"""

from __future__ import annotations

from gammon.model import GameResult, Position, StepOptions

__all__ = ["GameResult", "Position", "StepOptions"]
