"""Steps (one checker, one die) and moves (a whole turn).

:class:`Move` and :class:`Step` are defined in :mod:`gammon.model` together with
:class:`gammon.Position` (a move remembers the position it is played from).

>>> from gammon import Position
>>> start = Position.initial()
>>> move = start.parse_move("13/11 24/18", (6, 2))
>>> str(move), [str(step) for step in move]
('24/18 13/11', ['24/18', '13/11'])
>>> move.dice, len(move), move.hits
(Dice(6, 2), 2, 0)
"""

from __future__ import annotations

from gammon.model import BAR, OFF, Move, Step, point_text

__all__ = ["BAR", "OFF", "Move", "Step", "point_text"]
