"""One walk and one assembly for every analyser: the nets' analysis of the variants walks
the record with gammon.bots.analysis.walk and assembles its games with
gammon.bots.analysis.assembly, as bgsage's does (no second copy of either)."""

from __future__ import annotations

from gammon.bots.analysis import analyzer, assembly, variants, walk
from gammon.dice import Dice
from gammon.match import Match, Play, Roll, TableOptions


def test_the_variants_analysis_has_no_walk_of_its_own() -> None:
    for module in (analyzer, variants):
        names = vars(module)
        assert names["walk_record"] is walk.walk_record, module.__name__
        assert names["game_analyses"] is assembly.game_analyses, module.__name__
        assert names["roll_luck"] is assembly.roll_luck, module.__name__
        assert names["match_analysis"] is assembly.match_analysis, module.__name__
        # the twin's tools: replaying a record, its own turn records, its own stats
        assert not {"replay", "_walk", "_Turn", "_Played", "_stats", "_quiet"} & set(names)


def test_a_variant_walks_as_the_backgammon_board() -> None:
    m = Match(TableOptions(variant="plakoto", match_length=1, cube=False))
    for action in (Roll(0, Dice(2, 5)), Roll(1, Dice(6, 5)), Play(1, "24/18 24/19")):
        m.push(action)
    w = walk.walk_record(m.record())
    assert [(g.number, g.variant) for g in w.games] == [(1, "plakoto")]
    assert [(t.player, str(t.dice), t.opening) for t in w.turns] == [
        (1, "65", False)
    ]  # the roll-off winner rolls again
    [checker] = w.checkers
    assert (checker.player, checker.xgid, str(checker.move)) == (1, "", checker.text)
    assert w.cubes == []  # no cube in plakoto
    standard = Match(TableOptions(match_length=3))
    for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5")):
        standard.push(action)
    s = walk.walk_record(standard.record())
    assert s.games[0].variant == "standard" and s.checkers[0].xgid.startswith("XGID=")


def test_a_standard_table_whose_roll_off_winner_rolls_again() -> None:
    """``opening="reroll"`` (issue #32): the roll-off is no turn; the starter's roll is an
    ordinary one (any of the 21 rolls, doubles too), after a cube decision of its own."""
    m = Match(TableOptions(match_length=5, opening="reroll"))
    for action in (Roll(0, Dice(5, 2)), Roll(0, Dice(4, 4)), Play(0, "24/20(2) 13/9(2)")):
        m.push(action)
    w = walk.walk_record(m.record())
    assert [(t.player, str(t.dice), t.opening, t.ply) for t in w.turns] == [(0, "44", False, 0)]
    assert [(c.player, c.played) for c in w.cubes] == [(0, "no double")]
    assert [(c.player, c.text) for c in w.checkers] == [(0, "24/20(2) 13/9(2)")]
