"""Advice off the backgammon board: the best moves of a variant bgsage cannot evaluate.

:func:`variant_advice` ranks the legal moves with the variant's trained net where one ships
(:func:`gammon.bots.nets.has_net`: equities, the mover's expected points per game), else
with the hand-made :class:`~gammon.bots.variant_bot.VariantBot` at 1 ply, whose numbers are
its own score, not equities.  The web table's hints (:mod:`gammon.server.table.hints`) and the
terminal's ``hint`` use it.

>>> from gammon import Position
>>> advice = variant_advice(Position.initial("plakoto"), (6, 5))
>>> advice.engine, advice.measure, len(advice.moves) <= 5
('net', 'equity', True)
>>> variant_advice(Position.initial("acey-deucey"), (6, 5), count=2).measure in ("equity", "score")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gammon.bots.variant_bot import VariantBot
from gammon.dice import DiceLike
from gammon.move import Move
from gammon.position import Position

__all__ = ["Advice", "variant_advice"]


@dataclass(frozen=True, slots=True)
class Advice:
    """The best moves, best first, with their values; who valued them and in what measure."""

    engine: Literal["net", "variant-bot"]
    measure: Literal["equity", "score"]
    moves: tuple[tuple[float, Move], ...]


def variant_advice(position: Position, dice: DiceLike, count: int = 5) -> Advice:
    """The best ``count`` moves of ``dice`` in ``position`` (a variant off the backgammon
    board): by its trained net where one ships (numpy, from the ``bot`` extra), else by the
    hand-made bot."""
    try:
        from gammon.bots.nets import NetBot, has_net
    except ImportError:  # pragma: no cover - numpy comes with the bot extra
        pass
    else:
        if has_net(position.variant.name):
            return Advice("net", "equity", tuple(NetBot().rank(position, dice)[:count]))
    return Advice("variant-bot", "score", tuple(VariantBot(plies=1).rank(position, dice)[:count]))
