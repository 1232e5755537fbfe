"""Match files: ``.mat`` (Jellyfish / gnubg / eXtreme Gammon), gnubg's SGF, and conversion.

The action log (:func:`gammon.match.write_log`) stays the source of truth; a
``.mat`` or SGF file is a lossy view of it.  The writers list each game through
:mod:`~gammon.match.formats.transcript`; the readers replay every entry through
the engine with a :class:`~gammon.match.formats.replay.Replayer`, so a record
they return always replays.

========================  ==============================================
module                    what it holds
========================  ==============================================
``transcript``            a record's games as the formats see them
``replay``                what a file wrote, replayed into actions
``matlayout``             the ``.mat`` columns and tags; its parser
``matwrite``              :func:`match_to_mat`
``matread``               :func:`mat_to_record`
``sgftree``               SGF game trees: :func:`sgf_games`
``sgf``                   :func:`match_to_sgf`, :func:`sgf_to_record`
``convert``               :func:`convert_file`
========================  ==============================================

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, TableOptions
>>> m = Match(TableOptions(match_length=3), players=("Alice", "Bob"))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(6, 1))):
...     _ = m.push(action)
>>> Match.from_record(mat_to_record(match_to_mat(m.record()))).state.game.plies
1
>>> Match.from_record(sgf_to_record(match_to_sgf(m.record()))).state.game.plies
1
"""

from gammon.match.formats.convert import convert_file
from gammon.match.formats.matread import mat_to_record
from gammon.match.formats.matwrite import match_to_mat
from gammon.match.formats.sgf import match_to_sgf, sgf_to_record
from gammon.match.formats.sgftree import SgfGame, sgf_games

__all__ = [
    "SgfGame",
    "convert_file",
    "mat_to_record",
    "match_to_mat",
    "match_to_sgf",
    "sgf_games",
    "sgf_to_record",
]
