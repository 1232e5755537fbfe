"""Rules objects: what the rules say about a position, one object per family and variant.

:class:`gammon.Position` is one frozen type for every variant; it asks the rules
object of its variant's family (scalachess's ``variant.validMoves``) for what differs:

* :class:`~gammon.rules.board.BoardRules`: the backgammon board (standard,
  nackgammon, hypergammon, Caucasian, tavla, portes) through the fast
  :mod:`gammon.movegen`;
* :class:`~gammon.rules.track.TrackRules`: plakoto, fevga, long nardy, jacquet and
  acey-deucey, through their own generator.

Both follow :class:`~gammon.rules.base.Rules`.  A new variant is a new
:class:`gammon.Variant` value; a new family is a new rules class here.

>>> rules_for("standard"), rules_for("fevga")
(BoardRules(get_variant('standard')), TrackRules(get_variant('fevga')))
>>> rules_for("standard") is rules_for("standard")
True
"""

from __future__ import annotations

from gammon.rules.base import GameResult, PositionLike, Rules, StepSearch
from gammon.rules.board import BoardRules
from gammon.rules.track import TrackRules
from gammon.variants import Variant, get_variant

__all__ = [
    "BoardRules",
    "GameResult",
    "PositionLike",
    "Rules",
    "StepSearch",
    "TrackRules",
    "rules_for",
]

_BY_VARIANT: dict[Variant, Rules] = {}


def rules_for(variant: str | Variant) -> Rules:
    """The rules object of a variant (one per variant value, shared)."""
    v = get_variant(variant)
    rules = _BY_VARIANT.get(v)
    if rules is None:
        rules = _BY_VARIANT[v] = BoardRules(v) if v.family == "board" else TrackRules(v)
    return rules
