"""The analysis of the variants off the backgammon board by their trained nets
(gammon.bots.analysis.variants): a missed pin flagged as a blunder, the luck of a roll,
a whole plakoto match in the backgammon analysis' JSON shape, a tavli match judged game
by game, a variant without a net, and ``gammon analyse`` on these files."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from gammon.bots.analysis import variants
from gammon.bots.analysis.cli import NOT_ANALYSABLE, load_record
from gammon.bots.analysis.model import BLUNDER, SHOWN, MatchAnalysis
from gammon.bots.analysis.variants import (
    NetAnalyzer,
    NotJudgedError,
    analyse_by_game,
    can_analyse_with_net,
    net_variants,
)
from gammon.bots.nets.features import input_size
from gammon.bots.nets.net import Net
from gammon.cli import main
from gammon.dice import ALL_ROLLS, Dice
from gammon.match import Match, Play, Roll, TableOptions
from gammon.match.record import MatchRecord

DATA = Path(__file__).parents[1] / "data" / "analysis"


SIXES = Dice(6, 6)


def _plakoto(*moves: str, last_roll: Dice = SIXES) -> Match:
    """Ann (seat 0) against Bob: Bob wins the roll-off, rolls 65 and leaves two blots on
    his 18 and 19 points (Ann's 7 and 6); Ann rolls ``last_roll`` and plays ``moves``."""
    m = Match(TableOptions(variant="plakoto", match_length=1, cube=False), players=("Ann", "Bob"))
    for action in (Roll(0, Dice(2, 5)), Roll(1, Dice(6, 5)), Play(1, "24/18 24/19")):
        m.push(action)
    m.push(Roll(0, last_roll))
    for move in moves:
        m.push(Play(0, move))
    return m


def test_a_missed_pin_is_a_blunder() -> None:
    # Ann's 66: 24/18 24/6* pins Bob's blot on her 6 point (his 19) in her home board,
    # where it cannot move until she leaves; 24/18(4) pins nothing.  The net values the
    # pin at about +0.82 and the quiet play at about -0.06: a blunder (>= 0.16).
    missed = NetAnalyzer().analyse(_plakoto("24/18(4)").record())
    decision = missed.decisions[-1]
    assert (decision.player, decision.dice, decision.played) == (0, "66", "24/18(4)")
    assert decision.best == "24/18 24/6*"
    assert decision.mark == "blunder" and decision.error >= BLUNDER
    assert 0.6 < decision.error < 1.2, decision.error
    assert math.isclose(decision.error, decision.equity_best - decision.equity_played)
    assert [c.move for c in decision.candidates] == [
        "24/18 24/6*",
        "24/18(4)",
        "24/12(2)",
        "24/18(2) 24/12",
    ]
    assert [c.plies for c in decision.candidates] == [1] * 4
    assert decision.candidates[0].win > decision.candidates[1].win
    assert decision.position_id and decision.xgid == ""
    assert missed.totals[0].blunders == 1 and missed.totals[0].decisions == 1
    assert missed.totals[0].pr == pytest.approx(500 * decision.error)
    pinned = NetAnalyzer().analyse(_plakoto("24/18 24/6*").record())
    good = pinned.decisions[-1]
    assert (good.mark, good.error, good.best) == ("none", 0.0, "24/18 24/6*")
    # the graph: Ann's chance and equity after her move, player 0's side
    point = pinned.games[0].graph[-1]
    assert point.player == 0 and point.equity == pytest.approx(good.equity_played)
    assert point.win == pytest.approx(good.candidates[0].win)


def test_the_graph_is_player_0_s_side_after_every_move() -> None:
    analysis = NetAnalyzer().analyse(_plakoto("24/18(4)").record())
    (game,) = analysis.games
    bob, ann = game.decisions  # Bob's 65 from the start had a choice too (24/13...)
    assert (bob.player, bob.played, ann.player) == (1, "24/19 24/18", 0)
    first, second = game.graph
    assert (first.player, first.ply, second.player, second.ply) == (1, 1, 0, 2)
    assert first.equity == pytest.approx(-bob.equity_played)
    assert first.win == pytest.approx(
        1 - next(c.win for c in bob.candidates if c.move == bob.played)
    )
    assert second.equity == pytest.approx(ann.equity_played)


def test_the_luck_of_a_roll_is_its_equity_less_the_average_of_the_36() -> None:
    analyzer = NetAnalyzer()
    analysis = analyzer.analyse(_plakoto("24/18 24/6*").record())
    lucks = analysis.luck
    assert [(r.player, r.dice, r.opening) for r in lucks] == [(1, "65", False), (0, "66", False)]
    ann = lucks[1]
    position = _plakoto().state.game.position
    values = analyzer.roll_equities(position)
    assert set(values) == set(ALL_ROLLS)
    average = sum(values[r] * r.weight for r in ALL_ROLLS) / 36
    assert ann.equity == pytest.approx(values[Dice(6, 6)])
    assert ann.average == pytest.approx(average)
    assert ann.luck == pytest.approx(ann.equity - average) and ann.luck > 0.2
    assert ann.points == ann.luck  # no cube: luck in points
    # over the 36 rolls the luck averages to nothing
    assert sum((values[r] - average) * r.weight for r in ALL_ROLLS) == pytest.approx(0, abs=1e-9)
    assert analysis.totals[0].luck == pytest.approx(ann.luck)


def _bgsage_shape() -> dict[str, Any]:
    """The keys of the backgammon analysis' JSON, from a tiny bgsage-free analysis."""
    from gammon.bots.analysis import Analyzer
    from gammon.bots.bot import Bot
    from gammon.bots.evaluator import PipCountEvaluator

    m = Match(TableOptions(match_length=3))
    for action in (Roll(0, Dice(3, 1)), Play(0, "24/23 24/21"), Roll(1, Dice(5, 5))):
        m.push(action)
    return Analyzer(bot=Bot(PipCountEvaluator())).analyse(m.record()).to_dict()


def test_a_whole_plakoto_match_in_the_backgammon_analysis_shape() -> None:
    record = load_record(DATA / "plakoto-1.jsonl")
    started = time.process_time()
    analysis = NetAnalyzer().analyse(record)
    seconds = time.process_time() - started
    print(f"\nplakoto-1 ({len(record.actions)} actions): {seconds:.2f} s of CPU")
    assert seconds < 20  # 0.8-1.9 s of CPU on the shared 2-core machine (docs/analysis.md)
    data = analysis.to_dict()
    shape = _bgsage_shape()
    assert set(shape) <= set(data)
    assert set(shape["games"][0]) <= set(data["games"][0])
    assert set(shape["totals"][0]) == set(data["totals"][0])
    assert set(shape["games"][0]["decisions"][0]) == set(data["games"][0]["decisions"][0])
    assert set(shape["games"][0]["luck"][0]) == set(data["games"][0]["luck"][0])
    assert set(shape["games"][0]["graph"][0]) == set(data["games"][0]["graph"][0])
    assert (data["engine"], data["level"], data["plies"], data["luck_unit"]) == (
        "net",
        "net",
        1,
        "points",
    )
    (game,) = analysis.games
    assert (game.variant, game.engine, game.winner, game.points) == ("plakoto", "net", 1, 1)
    plays = [a for a in record.actions if isinstance(a, Play)]
    rolls = [a for a in record.actions if isinstance(a, Roll)]
    assert len(game.graph) == len(rolls) - 1  # every roll but the roll-off: a move or a dance
    assert len(game.luck) == len(rolls) - 1
    assert 0 < len(game.decisions) <= len(plays)
    assert all(d.kind == "checker" and d.cube is None for d in game.decisions)
    assert all(d.error >= 0 and d.candidates[0].move == d.best for d in game.decisions)
    assert all(0 <= p.win <= 1 and -2 <= p.equity <= 2 for p in game.graph)
    for stats in analysis.totals:
        mine = [d for d in game.decisions if d.player == stats.player]
        assert stats.decisions == len(mine) and stats.cube_decisions == 0
        assert stats.pr == pytest.approx(500 * sum(d.error for d in mine) / len(mine))
    adjusted = analysis.luck_adjusted
    assert adjusted and [a.result for a in adjusted] == [-1.0, 1.0]
    assert adjusted[0].luck == pytest.approx(-adjusted[1].luck)
    again = json.loads(json.dumps(data))  # JSON-ready (tuples become lists)
    assert len(again["games"][0]["decisions"]) == len(game.decisions)


def _tavli() -> MatchRecord:
    return load_record(DATA / "tavli-3.jsonl")


def test_tavli_is_judged_game_by_game_and_a_game_without_engine_is_not_analysed() -> None:
    record = _tavli()
    nets = NetAnalyzer()

    def net_games(rec: MatchRecord, games: frozenset[int], report: Any) -> MatchAnalysis:
        return nets.analyse(rec, report, games=games)

    reports: list[tuple[str, int, int]] = []
    analysis = analyse_by_game(
        record,
        {"net": (nets.judges, net_games)},
        lambda *a: reports.append(a),
    )
    assert [(g.number, g.variant, g.engine) for g in analysis.games] == [
        (1, "portes", None),
        (2, "plakoto", "net"),
        (3, "fevga", "net"),
    ]
    portes = analysis.games[0]
    assert portes.decisions == () and portes.graph == () and portes.players[0].decisions == 0
    assert portes.winner == 0 and portes.points == 1
    assert analysis.engine == "mixed" and analysis.luck_adjusted == ()
    assert analysis.totals[0].decisions == sum(g.players[0].decisions for g in analysis.games)
    assert reports and reports[-1][1] == reports[-1][2]
    data = analysis.to_dict()
    assert [g["engine"] for g in data["games"]] == [None, "net", "net"]
    # the nets alone refuse a game they cannot judge
    with pytest.raises(NotJudgedError, match="portes has no trained net"):
        nets.analyse(record)


def test_tavli_with_bgsage_for_portes() -> None:
    pytest.importorskip("bgsage")
    analysis = variants.analyse_with_nets(_tavli(), "expert", threads=1)
    assert [g.engine for g in analysis.games] == ["bgsage", "net", "net"]
    portes = analysis.games[0]
    assert portes.decisions and all(d.kind == "checker" for d in portes.decisions)
    assert portes.luck[0].opening is False  # the roll-off's winner rolled again: not played


def _jacquet() -> MatchRecord:
    m = Match(TableOptions(variant="jacquet", match_length=1, cube=False), players=("Ann", "Bob"))
    m.push(Roll(0, Dice(2, 5)))
    m.push(Roll(1, Dice(6, 5)))
    m.push(Play(1, str(m.state.game.position.legal_moves(Dice(6, 5))[0])))
    return m.record()


def test_a_variant_with_a_net_is_picked_up_without_code_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = _jacquet()
    assert not can_analyse_with_net("jacquet") or "jacquet" in net_variants()
    net = Net.initial(inputs=input_size("jacquet"), hidden=8, seed=3)
    analysis = NetAnalyzer(nets={"jacquet": net}).analyse(record)
    assert analysis.games[0].engine == "net" and len(analysis.luck) == 1
    monkeypatch.setattr(variants, "has_net", lambda name: name == "jacquet")
    assert net_variants() == ("jacquet",) and can_analyse_with_net("jacquet")
    if not NetAnalyzer().judges("jacquet"):
        with pytest.raises(NotJudgedError, match="jacquet has no trained net"):
            NetAnalyzer().analyse(record)


# ---------------------------------------------------------------------- gammon analyse


def test_gammon_analyse_judges_a_plakoto_match_with_its_net(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plakoto = str(DATA / "plakoto-1.jsonl")
    assert main(["analyse", plakoto, "--no-progress", "--top", "2"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith(
        "Analysis of Ann - Bob, 1-point match, plakoto: judged by the plakoto net (1-ply; "
        "luck at 1-ply)"
    )
    assert "  Ann: net PR " in out and "Luck-adjusted result (points, 1 finished game):" in out
    assert "The 2 biggest errors:" in out and "(Position ID)" in out
    out_file = tmp_path / "a.json"
    assert main(["analyse", plakoto, "--no-progress", "--json", "--out", str(out_file)]) == 0
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["engine"] == "net" and data["games"][0]["decisions"]


def test_gammon_analyse_refuses_a_variant_without_a_net_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # acey-deucey as if its net did not ship
    shipped = variants.has_net
    monkeypatch.setattr(variants, "has_net", lambda name: name != "acey-deucey" and shipped(name))
    assert not can_analyse_with_net("acey-deucey")
    path = DATA / "acey-deucey-1.jsonl"
    assert main(["analyse", str(path), "--no-progress"]) == NOT_ANALYSABLE == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(
        "gammon analyse: acey-deucey matches cannot be analysed yet: the analysis judges the games "
        "played on the backgammon board (standard, nackgammon, hypergammon, caucasian, tavla, "
        "portes) and, with their trained nets, "
    )
    assert "plakoto" in err and "tavli" in err and err.endswith(".\n")


def test_an_acey_deucey_match_is_judged_without_listing_its_1_2s() -> None:
    # a 1-2 is judged among the best plays of the nets' staged search and the play made
    record = load_record(DATA / "acey-deucey-1.jsonl")
    net = Net.initial(inputs=input_size("acey-deucey"), hidden=8, seed=3)
    start = time.process_time()
    analysis = NetAnalyzer(nets={"acey-deucey": net}).analyse(record)
    assert time.process_time() - start < 30
    bonus = [d for d in analysis.decisions if d.dice in ("21", "12")]
    assert bonus and len(analysis.luck) > len(analysis.decisions)
    for d in bonus:
        assert 2 <= len(d.candidates) <= SHOWN + 1
        assert d.played in [c.move for c in d.candidates]
        assert d.error >= 0 and d.error == pytest.approx(d.equity_best - d.equity_played)
