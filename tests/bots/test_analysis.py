"""Match analysis: marks, error rates, luck, the JSON layout, .mat input and the command."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
from pathlib import Path

import pytest

pytest.importorskip("bgsage", reason="bgsage is the optional bot engine: pip install 'gammon[bot]'")

from gammon import Position
from gammon.bots import Bot, PipCountEvaluator
from gammon.bots.analysis import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    SCHEMA_VERSION,
    Analyzer,
    Decision,
    MatchAnalysis,
    PlayerStats,
    mark_for,
)
from gammon.bots.analysis.cli import add_arguments, format_report, load_record, run
from gammon.bots.analysis.scorer import SageScorer
from gammon.bots.evaluator import BgsageEvaluator
from gammon.bots.seat import choose_action
from gammon.dice import ALL_ROLLS, Dice
from gammon.match import (
    Abandon,
    Action,
    Beaver,
    Double,
    Drop,
    Match,
    MatchRecord,
    Play,
    Roll,
    TableOptions,
    Take,
    replay,
)
from gammon.sampling import game_positions

DATA = Path(__file__).resolve().parents[1] / "data"

#: A 5-point match, Alice (0) against Bob (1), with known mistakes.
HAND_MADE: list[Action] = [
    # game 1
    Roll(0, Dice(3, 1)),
    Play(0, "8/5 6/5"),
    Roll(1, Dice(6, 2)),
    Play(1, "24/18 13/11"),
    Roll(0, Dice(4, 2)),
    Play(0, "13/11 13/9"),  # 4: blunder: 13/7* hits, this leaves two more blots
    Double(1),  # 6: an early double (no double is right)
    Drop(0),  # 7: a wrong drop: the take is easy
    # game 2: Alice wins the opening and gets her big doubles
    Roll(0, Dice(6, 5)),
    Play(0, "24/13"),
    Roll(1, Dice(2, 1)),
    Play(1, "24/23 13/11"),
    Roll(0, Dice(6, 6)),
    Play(0, "13/7(2) 8/2 8/2*"),
    Roll(1, Dice(6, 2)),  # 14: Bob dances: no decision
    Roll(0, Dice(5, 5)),  # 15: a missed double: double, pass is right
    Play(0, "13/8(2) 6/1 6/1*"),
    Roll(1, Dice(3, 1)),
    Play(1, "bar/22"),  # 18: forced: no decision
    Double(0),  # 19: too good to double: play on for the gammon
    Drop(1),
    # game 3, unfinished
    Roll(0, Dice(2, 6)),
    Play(1, "24/18 13/11"),
]


def hand_made() -> MatchRecord:
    m = Match(TableOptions(match_length=5), players=("Alice", "Bob"))
    for action in HAND_MADE:
        m.push(action)
    return m.record()


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer("expert", threads=2)


@pytest.fixture(scope="module")
def analysis(analyzer: Analyzer) -> MatchAnalysis:
    return analyzer.analyse(hand_made())


def decision_at(analysis: MatchAnalysis, index: int, kind: str | None = None) -> Decision:
    found = [d for d in analysis.decisions if d.action_index == index and kind in (None, d.kind)]
    assert len(found) == 1, found
    return found[0]


def test_marks_follow_the_thresholds() -> None:
    assert (DOUBTFUL, ERROR, BLUNDER) == (0.04, 0.08, 0.16)
    assert [mark_for(x) for x in (0.0, 0.039, 0.04, 0.079, 0.08, 0.159, 0.16, 2.0)] == [
        "none",
        "none",
        "doubtful",
        "doubtful",
        "error",
        "error",
        "blunder",
        "blunder",
    ]


def test_not_hitting_is_a_blunder(analysis: MatchAnalysis) -> None:
    d = decision_at(analysis, 5)
    assert (d.kind, d.player, d.dice, d.played) == ("checker", 0, "42", "13/11 13/9")
    assert d.best == "13/7*" and d.candidates[0].move == "13/7*"
    assert d.mark == "blunder" and d.error >= BLUNDER
    assert d.error == pytest.approx(d.equity_best - d.equity_played)
    assert d.played in [c.move for c in d.candidates]
    assert d.xgid.startswith("XGID=") and d.position_id == Position.from_xgid(d.xgid).position_id()


def test_cube_errors(analysis: MatchAnalysis) -> None:
    early = decision_at(analysis, 6)
    assert (early.kind, early.player, early.played, early.best) == (
        "cube",
        1,
        "double",
        "no double",
    )
    assert early.error >= ERROR
    drop = decision_at(analysis, 7)
    assert (drop.kind, drop.player, drop.played, drop.best) == ("response", 0, "drop", "take")
    assert drop.mark == "blunder" and drop.error > 0.5
    assert drop.equity_played == -1.0  # the responder loses the cube's value
    assert drop.cube is not None and drop.cube.double_pass == 1.0  # the doubler's view
    assert drop.equity_best == pytest.approx(-drop.cube.double_take)
    missed = decision_at(analysis, 15, "cube")
    assert (missed.player, missed.played, missed.best) == (0, "no double", "double")
    assert missed.mark in ("error", "blunder")
    assert missed.cube is not None and missed.cube.action == "double, pass"
    too_good = decision_at(analysis, 19)
    assert (too_good.played, too_good.best) == ("double", "no double")
    assert too_good.cube is not None and too_good.cube.action == "too good, pass"
    right_drop = decision_at(analysis, 20)
    assert (right_drop.played, right_drop.error, right_drop.mark) == ("drop", 0.0, "none")


def test_forced_moves_and_dances_are_no_decision(analysis: MatchAnalysis) -> None:
    indexes = {d.action_index for d in analysis.decisions}
    assert 14 not in indexes and 18 not in indexes
    plays = [
        i
        for i, (state, action) in enumerate(zip(replay(hand_made()), HAND_MADE, strict=False))
        if isinstance(action, Play) and len(state.game.position.legal_moves(state.game.dice)) > 1
    ]
    checker = [d.action_index for d in analysis.decisions if d.kind == "checker"]
    assert checker == plays


def test_error_rates(analysis: MatchAnalysis) -> None:
    alice, bob = analysis.totals
    assert (alice.name, bob.name) == ("Alice", "Bob")
    assert alice.pr > bob.pr > 0
    for p in (alice, bob):
        mine = [d for d in analysis.decisions if d.player == p.player]
        assert p.decisions == len(mine)
        assert p.total_error == pytest.approx(sum(d.error for d in mine))
        assert p.pr == pytest.approx(500 * p.total_error / p.decisions)
        assert p.error_rate == pytest.approx(2 * p.pr)
    assert alice.blunders >= 3  # the play, the drop and the too-good double
    game_sum = sum(g.players[0].checker_error + g.players[0].cube_error for g in analysis.games)
    assert game_sum == pytest.approx(alice.total_error)


def test_luck(analysis: MatchAnalysis, analyzer: Analyzer) -> None:
    rolls = analysis.luck
    # every roll is valued, the roll-off included (it is the opening move's roll)
    assert [r.action_index for r in rolls] == [
        i for i, a in enumerate(HAND_MADE) if isinstance(a, Roll)
    ]
    assert rolls[0].opening and rolls[0].dice == "31"
    for r in rolls:
        assert r.luck == pytest.approx(r.equity - r.average)
    for p in analysis.totals:
        assert p.luck == pytest.approx(sum(r.luck for r in rolls if r.player == p.player))
        assert p.luck == pytest.approx(sum(g.players[p.player].luck for g in analysis.games))
    sixes = next(r for r in rolls if r.action_index == 12)
    assert sixes.dice == "66" and sixes.luck > 0.2
    dance = next(r for r in rolls if r.action_index == 14)
    assert dance.player == 1 and dance.luck < 0
    # the average really is over the 36 rolls: the lucks of all rolls sum to zero
    state = replay(hand_made())[12]
    ctx_position = state.game.position
    from gammon.bots.seat import score_context

    values = analyzer.roll_equities(ctx_position, score_context(state, 0))
    assert set(values) == set(ALL_ROLLS)
    mean = math.fsum(v * r.weight for r, v in values.items()) / 36
    assert mean == pytest.approx(sixes.average)
    assert values[Dice(6, 6)] == pytest.approx(sixes.equity)
    assert math.fsum((v - mean) * r.weight for r, v in values.items()) == pytest.approx(0, abs=1e-9)
    opening = analyzer.roll_equities(
        Position.initial(), score_context(replay(hand_made())[0], 0), opening=True
    )
    assert len(opening) == 15 and all(not r.is_double for r in opening)


def test_luck_adjusted_result_of_a_match(analysis: MatchAnalysis, analyzer: Analyzer) -> None:
    from gammon.bots.met import MatchEquityTable

    first, second = analysis.luck_adjusted
    # games 1 and 2 are finished (1-1), game 3 is not: its rolls do not count
    assert (first.games, second.games) == (2, 2)
    met = MatchEquityTable.default()
    at_1_1 = met.match_winning_chance(4, 4, crawford_game=False, post_crawford=False)
    assert first.result == pytest.approx(at_1_1 - 0.5)
    done = [r for r in analysis.luck if r.game in (1, 2)]
    assert first.luck == pytest.approx(sum(r.points if r.player == 0 else -r.points for r in done))
    assert first.adjusted == pytest.approx(first.result - first.luck)
    assert (second.result, second.luck, second.adjusted) == pytest.approx(
        (-first.result, -first.luck, -first.adjusted)
    )
    # a roll's points are its luck in match winning chance at that roll's score: Alice's
    # 66 at 0-1, where winning the cube (1) makes it 1-1 and losing it 0-2
    sixes = next(r for r in analysis.luck if r.action_index == 12)
    win = met.match_winning_chance(4, 4, crawford_game=False, post_crawford=False)
    lose = met.match_winning_chance(5, 3, crawford_game=False, post_crawford=False)
    assert sixes.points == pytest.approx(sixes.luck * (win - lose) / 2) and sixes.points > 0
    assert "Luck-adjusted result (match winning chance, 2 finished games)" in format_report(
        analysis
    )


def test_luck_adjusted_result_of_a_money_session(analyzer: Analyzer) -> None:
    m = Match(TableOptions(), players=("Ann", "Ben"))
    for action in (
        # game 1: Ben doubles, Ann drops: Ben +1
        Roll(0, Dice(3, 1)),
        Play(0, "8/5 6/5"),
        Double(1),
        Drop(0),
        # game 2: Ben doubles, Ann takes; later Ann redoubles and Ben drops: Ann +2
        Roll(0, Dice(6, 5)),
        Play(0, "24/13"),
        Double(1),
        Take(0),
        Roll(1, Dice(2, 1)),
        Play(1, "24/23 13/11"),
        Roll(0, Dice(6, 6)),
        Play(0, "13/7(2) 8/2 8/2*"),
        Roll(1, Dice(6, 2)),
    ):
        m.push(action)
    if m.legal_moves():
        m.push(Play(1, str(m.legal_moves()[0])))
    m.push(Double(0))
    m.push(Drop(1))
    result = analyzer.analyse(m.record())
    ann, ben = result.luck_adjusted
    assert (ann.games, ann.result, ben.result) == (2, 1.0, -1.0)
    cube_of = {0: 1, 4: 1, 8: 2, 10: 2, 12: 2}  # the cube when each roll was made
    for r in result.luck:
        assert r.points == pytest.approx(r.luck * cube_of[r.action_index])
    assert ann.luck == pytest.approx(
        sum(r.points if r.player == 0 else -r.points for r in result.luck)
    )
    assert ann.adjusted == pytest.approx(ann.result - ann.luck) == pytest.approx(-ben.adjusted)
    report = format_report(result)
    assert "Luck-adjusted result (points, 2 finished games):" in report
    assert f"Ann: {ann.adjusted:+.3f} = {ann.adjusted / 2:+.3f} per game" in report


def test_games_and_graph(analysis: MatchAnalysis) -> None:
    assert [(g.number, g.score, g.winner, g.points) for g in analysis.games] == [
        (1, (0, 0), 1, 1),
        (2, (0, 1), 0, 1),
        (3, (1, 1), None, 0),
    ]
    moves = [
        i for i, a in enumerate(HAND_MADE) if isinstance(a, Play) or i == 14
    ]  # plays and the dance
    points = [p for g in analysis.games for p in g.graph]
    assert [p.action_index for p in points] == moves
    for p in points:
        assert 0.0 <= p.win <= 1.0 and -3.5 < p.equity < 3.5
    game2 = analysis.games[1].graph
    assert [p.ply for p in game2] == list(range(1, len(game2) + 1))
    assert game2[-1].win > 0.75 and game2[-1].equity > 1  # Alice is too good to double


def test_json_layout(analysis: MatchAnalysis) -> None:
    data = json.loads(json.dumps(analysis.to_dict()))
    assert data["schema"] == SCHEMA_VERSION
    assert {
        "players",
        "match_length",
        "variant",
        "level",
        "plies",
        "luck_plies",
        "thresholds",
        "totals",
        "luck_adjusted",
        "games",
    } <= set(data)
    assert data["players"] == ["Alice", "Bob"] and data["luck_plies"] == 1
    stats_fields = {f.name for f in dataclasses.fields(PlayerStats)}
    assert set(data["totals"][0]) == stats_fields
    game = data["games"][0]
    assert {
        "number",
        "variant",
        "engine",
        "score",
        "crawford",
        "winner",
        "points",
        "players",
        "decisions",
        "luck",
        "graph",
    } == set(game)
    assert (game["variant"], game["engine"]) == ("standard", "bgsage")
    assert (data["engine"], data["luck_unit"]) == ("bgsage", "match")
    decision = game["decisions"][0]
    assert set(decision) == {f.name for f in dataclasses.fields(Decision)}
    assert {"move", "equity", "cubeless", "win", "plies"} == set(decision["candidates"][0])
    cube = next(d for d in game["decisions"] if d["kind"] == "response")["cube"]
    assert {
        "no_double",
        "double_take",
        "double_pass",
        "double_beaver",
        "action",
        "win",
        "plies",
    } == set(cube)
    assert {
        "game",
        "action_index",
        "ply",
        "player",
        "dice",
        "opening",
        "equity",
        "average",
        "luck",
        "points",
    } == set(game["luck"][0])
    assert [set(a) for a in data["luck_adjusted"]] == [
        {"player", "games", "result", "luck", "adjusted"}
    ] * 2
    assert {"game", "ply", "action_index", "player", "win", "equity"} == set(game["graph"][0])


def test_mat_input(analyzer: Analyzer) -> None:
    record = load_record(DATA / "tiny.mat")
    assert record.players == ("Alice", "Bob")
    result = analyzer.analyse(record)
    kinds = [(d.player, d.kind, d.played) for d in result.decisions]
    assert (0, "checker", "8/5 6/5") in kinds
    assert (1, "cube", "double") in kinds and (0, "response", "drop") in kinds
    assert [r.dice for r in result.luck] == ["31", "42", "62"]
    assert result.games[0].winner == 1


def test_world_class_reevaluates_deeper() -> None:
    deep = Analyzer("world-class", plies=2, threads=2).analyse(hand_made())
    assert deep.plies == 2 and deep.level == "world-class"
    blunder = decision_at(deep, 5)
    assert blunder.best == "13/7*" and blunder.mark == "blunder"
    assert blunder.candidates[0].plies == 2
    assert all(c.plies in (1, 2) for c in blunder.candidates)
    assert all(d.cube.plies == 2 for d in deep.decisions if d.cube is not None)
    assert decision_at(deep, 7).mark == "blunder"
    assert all(
        r.luck == pytest.approx(r2.luck)
        for r, r2 in zip(deep.luck, Analyzer("expert").analyse(hand_made()).luck, strict=True)
    )


def test_the_bots_own_play_is_not_an_error(analyzer: Analyzer) -> None:
    """Analysing the expert bot's play at expert level finds nothing: same evaluator, same model."""
    rng = random.Random(11)

    class RngDice:
        def roll(self) -> Dice:
            return Dice(rng.randint(1, 6), rng.randint(1, 6))

    bot = Bot.with_bgsage("expert", threads=2)
    m = Match(TableOptions(match_length=3))
    dice = RngDice()
    while not m.state.over:
        m.push(choose_action(m.state, m.to_act()[0], "expert", dice=dice, bot=bot))
    result = analyzer.analyse(m.record())
    assert result.decisions
    assert max(d.error for d in result.decisions) < 1e-9
    assert {p.pr for p in result.totals} == {0.0}


def test_sage_batch_agrees_with_the_evaluator() -> None:
    """The batch path gives exactly BgsageEvaluator.evaluate_after_move's numbers."""
    evaluator = BgsageEvaluator(1, threads=2)
    scorer = SageScorer(evaluator, 2)
    rng = random.Random(5)
    jobs = [turn for _ in range(4) for turn in game_positions(rng)][::7][:40]
    for (position, dice), probs in zip(jobs, scorer.score(jobs), strict=True):
        if position.is_game_over():
            continue
        moves = position.legal_moves(dice) or (position.pass_move(dice),)
        expected = evaluator.evaluate_after_move(position, [m.position_after() for m in moves])
        for got, want in zip(probs, expected, strict=True):
            assert got.as_tuple() == pytest.approx(want.as_tuple(), abs=1e-6)


def test_deep_evaluations_do_not_depend_on_the_board_before() -> None:
    """Why the deep pass may use the batch ``evaluate``: at 2-ply routing makes no difference."""
    evaluator = BgsageEvaluator(2, threads=2)
    rng = random.Random(8)
    position, dice = [t for t in game_positions(rng) if len(t[0].legal_moves(t[1])) > 3][5]
    afters = [m.position_after() for m in position.legal_moves(dice)][:4]
    batch = evaluator.evaluate(afters)
    routed = evaluator.evaluate_after_move(position, afters)
    for a, b in zip(batch, routed, strict=True):
        assert a.as_tuple() == pytest.approx(b.as_tuple(), abs=1e-6)


def test_any_evaluator_through_a_bot() -> None:
    pips = PipCountEvaluator()
    bot = Bot(pips, "world-class", filter_evaluator=pips)
    result = Analyzer(bot=bot).analyse(hand_made())
    assert result.plies == 1 and result.level == "world-class"
    assert decision_at(result, 7).best == "take"


def test_money_beaver_is_judged() -> None:
    m = Match(TableOptions(beaver=True), players=("A", "B"))
    for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Double(1), Beaver(0), Take(1)):
        m.push(action)
    result = Analyzer("expert", threads=2).analyse(m.record())
    beaver = decision_at(result, 3)
    assert (beaver.kind, beaver.played) == ("response", "beaver")
    assert beaver.cube is not None and beaver.cube.double_beaver is not None
    assert decision_at(result, 2).best == "no double"
    assert result.match_length == 0


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        Analyzer("master")  # type: ignore[arg-type]


# ---------------------------------------------------------------------- the command


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gammon analyse")
    add_arguments(parser)
    return parser.parse_args(list(argv))


def test_cli_prints_a_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "match.jsonl"
    m = Match(TableOptions(match_length=5), players=("Alice", "Bob"))
    for action in HAND_MADE:
        m.push(action)
    log.write_text(m.to_log(), encoding="utf-8")
    assert run(parse(str(log))) == 0
    out = capsys.readouterr().out
    assert "Analysis of Alice - Bob, 5-point match: expert (1-ply; luck at 1-ply)" in out
    assert "Game 1: Alice 0, Bob 0 - Bob wins 1 point" in out
    assert "13/11 13/9" in out and "13/7*" in out and "blunder" in out
    assert "biggest errors" in out and "PR" in out and "luck" in out
    assert "Game 3: Alice 1, Bob 1 - unfinished" in out


def test_cli_json_and_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "analysis.json"
    assert (
        run(parse(str(DATA / "tiny.mat"), "--json", "--out", str(out_file), "--no-progress")) == 0
    )
    assert capsys.readouterr().out == ""
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["schema"] == SCHEMA_VERSION and data["match_length"] == 3
    assert data["games"][0]["decisions"]


def test_cli_reads_mat_without_suffix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "match"
    copy.write_text((DATA / "tiny.mat").read_text(encoding="utf-8"), encoding="utf-8")
    assert run(parse(str(copy), "--no-progress")) == 0
    assert "Game 1: Alice 0, Bob 0 - Bob wins 1 point" in capsys.readouterr().out


def test_cli_reads_sgf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gammon.match.formats import match_to_sgf

    sgf = tmp_path / "match.sgf"
    sgf.write_text(match_to_sgf(load_record(DATA / "tiny.mat")), encoding="utf-8")
    nameless = tmp_path / "match"  # read by its content
    nameless.write_text(sgf.read_text(encoding="utf-8"), encoding="utf-8")
    for path in (sgf, nameless):
        assert run(parse(str(path), "--no-progress")) == 0
        assert "Game 1: Alice 0, Bob 0 - Bob wins 1 point" in capsys.readouterr().out


def test_cli_reads_xg(tmp_path: Path) -> None:
    from gammon.match.formats import record_to_xg

    record = load_record(DATA / "tiny.mat")
    xg = tmp_path / "match.xg"
    xg.write_bytes(record_to_xg(record))
    nameless = tmp_path / "match"  # read by its content
    nameless.write_bytes(xg.read_bytes())
    for path in (xg, nameless):
        assert load_record(path).actions == record.actions


def test_cli_errors(tmp_path: Path) -> None:
    from gammon.errors import GammonError

    with pytest.raises(GammonError, match="cannot read"):
        run(parse(str(tmp_path / "missing.jsonl")))


def test_a_variant_off_the_backgammon_board_is_refused_in_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gammon.bots.analysis import NotAnalysableError, analyse_match, can_analyse, variants
    from gammon.bots.analysis.cli import NOT_ANALYSABLE
    from gammon.bots.analysis.variants import can_analyse_with_net
    from gammon.cli import main

    plakoto = str(DATA / "analysis" / "plakoto-1.jsonl")
    acey = str(DATA / "analysis" / "acey-deucey-1.jsonl")
    # acey-deucey as if its net did not ship
    shipped = variants.has_net
    monkeypatch.setattr(variants, "has_net", lambda name: name != "acey-deucey" and shipped(name))
    assert not can_analyse_with_net("acey-deucey")
    assert main(["analyse", acey, "--no-progress"]) == NOT_ANALYSABLE == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "gammon analyse: acey-deucey matches cannot be analysed yet: the analysis judges the "
        "games played on the backgammon board (standard, nackgammon, hypergammon, caucasian, "
        "tavla, portes) and, with their trained nets, plakoto, fevga, long-nardy, jacquet, "
        "tavli.\n"
    )
    # bgsage's own analysis refuses the variants off its board (the nets judge plakoto)
    assert [v for v in ("tavla", "portes", "plakoto", "fevga") if can_analyse(v)] == [
        "tavla",
        "portes",
    ]
    with pytest.raises(NotAnalysableError):
        analyse_match(load_record(plakoto))
    # tavla and portes are analysed (the same board; no cube in these variants)
    portes = Analyzer("expert", threads=1).analyse(
        load_record(DATA / "analysis" / "portes-3.jsonl")
    )
    assert portes.variant == "portes" and portes.decisions
    assert all(d.kind == "checker" for d in portes.decisions)


def test_report_lists_the_worst_first(analysis: MatchAnalysis) -> None:
    text = format_report(analysis, top=2)
    assert "The 2 biggest errors:" in text
    first = text.index("1. game 1, before move 4, Alice: drop")
    assert text.index(" 2. game", first) > first


def test_a_one_point_match_has_a_luck_adjusted_result(analyzer: Analyzer) -> None:
    m = Match(TableOptions(match_length=1), players=("Ann", "Ben"))
    for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(6, 4))):
        m.push(action)
    m.push(Play(1, str(m.legal_moves()[0])))
    m.push(Abandon(1))
    result = analyzer.analyse(m.record())
    ann, ben = result.luck_adjusted
    assert (ann.games, ann.result, ben.result) == (1, 0.5, -0.5)  # from 50% to the match
    assert ann.adjusted == pytest.approx(-ben.adjusted)
