"""Match files: ``.mat`` (Jellyfish / gnubg / eXtreme Gammon), gnubg's SGF, eXtreme
Gammon's ``.xg`` and ``.xgp``, and conversion.

The action log (:func:`gammon.match.write_log`) stays the source of truth; a
``.mat``, SGF or ``.xg`` file is a lossy view of it.  The writers list each game through
:mod:`~gammon.match.formats.transcript`; the readers replay every entry through
the engine with a :class:`~gammon.match.formats.replay.Replayer`, so a record
they return always replays.  What the lenient ``.mat`` reader could not replay
exactly is named in :mod:`~gammon.match.formats.notes` warnings kept in the record.

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
``notes``                 :class:`ImportWarning`: what a reader kept as written
``xg``                    :func:`xg_to_record`, :func:`record_to_xg`, ``.xgp``
``convert``               :func:`convert_file`, :func:`read_match`
``limits``                what reading a file may cost: inflated bytes, members,
                          SGF nesting, digits, seconds (:func:`reading`)
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

from gammon.match.formats.convert import convert_file, read_match
from gammon.match.formats.matread import mat_to_record
from gammon.match.formats.matwrite import match_to_mat
from gammon.match.formats.notes import ImportWarning, import_warnings, unchecked_games
from gammon.match.formats.sgf import match_to_sgf, sgf_to_record
from gammon.match.formats.sgftree import SgfGame, sgf_games
from gammon.match.formats.xg import gnubg_to_xgp, record_to_xg, xg_to_record, xgp_to_gnubg

__all__ = [
    "ImportWarning",
    "SgfGame",
    "convert_file",
    "gnubg_to_xgp",
    "import_warnings",
    "mat_to_record",
    "match_to_mat",
    "match_to_sgf",
    "read_match",
    "record_to_xg",
    "sgf_games",
    "sgf_to_record",
    "unchecked_games",
    "xg_to_record",
    "xgp_to_gnubg",
]
