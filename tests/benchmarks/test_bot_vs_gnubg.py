"""The strength benchmark's own arithmetic: luck, the adjusted result, summaries.

The benchmark is the evidence that the world-class bot beats gnubg-nn, so its
variance reduction must not be able to bias the result: the luck of a roll must
average exactly zero over the 36 rolls, whatever the position.
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gnubg_nn", reason="gnubg-nn is installed by the dev extra")

from gammon import Position
from gammon.bots.bot import Bot
from gammon.bots.equity import EquityModel, ScoreContext
from gammon.bots.evaluator import PipCountEvaluator
from gammon.dice import Dice

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "bot_vs_gnubg.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot_vs_gnubg", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_vs_gnubg"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _positions(count: int, seed: int) -> list[Position]:
    """Positions from random play (both sides on roll, contact, races, bear-offs)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        p = Position.initial()
        while not p.is_game_over() and len(out) < count:
            out.append(p)
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            moves = p.legal_moves(dice)
            p = p.apply(rng.choice(moves) if moves else p.pass_move(dice))
    return out


def test_the_36_rolls_are_the_21_with_weights(bench: ModuleType) -> None:
    assert len(bench.ROLLS) == 21
    assert sum(w for _, _, w in bench.ROLLS) == 36


CONTEXTS = [
    ScoreContext(),
    ScoreContext(cube_value=2, cube_owner="opponent"),
    ScoreContext(cube_value=4, cube_owner="me", jacoby=True),
    ScoreContext(cube_enabled=False),
    ScoreContext.for_match(7, 3, 5),
]


@pytest.mark.parametrize("ctx", CONTEXTS, ids=repr)
def test_luck_averages_to_zero_in_every_position(bench: ModuleType, ctx: ScoreContext) -> None:
    judge = bench.LuckJudge()
    for position in _positions(40, seed=5):
        mean = sum(w * judge.luck(position, a, b, ctx) for a, b, w in bench.ROLLS) / 36
        assert abs(mean) < 1e-9, position.position_id()


def test_values_are_equities_even_with_a_single_legal_play(bench: ModuleType) -> None:
    # gnubg-nn ranks nothing when there is one legal play, and its list then holds
    # garbage numbers: the judge must value that play itself
    judge = bench.LuckJudge()
    ctx = ScoreContext()
    singles = 0
    for position in _positions(300, seed=9):
        for a, b, _ in bench.ROLLS:
            value = judge.after_roll(position, a, b, ctx)
            assert -3.0 <= value <= 3.0, (position.position_id(), a, b, value)
            moves = position.legal_moves((a, b))
            if len(moves) == 1:
                singles += 1
                alone = judge.probabilities(moves[0].position_after())
                assert value == pytest.approx(EquityModel(ctx).after_move([alone])[0])
    assert singles > 20


def test_without_the_cube_values_are_cubeless_equities(bench: ModuleType) -> None:
    judge = bench.LuckJudge()
    start = Position.initial()
    value = judge.after_roll(start, 3, 1, ScoreContext(cube_enabled=False))
    assert value == pytest.approx(-judge.probabilities_after(start, 3, 1).equity)


def test_a_finished_game_is_valued_exactly(bench: ModuleType) -> None:
    judge = bench.LuckJudge()
    p = Position.from_points({1: 1, 2: 1}, {6: 5, 13: 5, 8: 5})
    for ctx in CONTEXTS[:4]:
        assert judge.after_roll(p, 2, 1, ctx) == pytest.approx(2.0)  # bears off both: a gammon
    assert judge.probabilities(p.legal_moves((2, 1))[0].position_after()).lose_gammon == 1.0


def test_opening_luck_is_the_starters_equity(bench: ModuleType) -> None:
    judge = bench.LuckJudge()
    start, ctx = Position.initial(), ScoreContext()
    assert judge.opening_luck(start, 3, 3, ctx) == 0.0
    assert judge.opening_luck(start, 3, 1, ctx) == judge.after_roll(start, 3, 1, ctx) > 0.1


def test_a_pair_is_played_and_summarised(bench: ModuleType, tmp_path: Path) -> None:
    bot = Bot(PipCountEvaluator(), "expert")  # fast; gnubg-nn beats it
    results = {
        n: [bench.play_game(bot, seat, 1000 + n, cube=True) for seat in (0, 1)] for n in range(3)
    }
    for pair in results.values():
        for game in pair:
            assert game.points != 0
            assert abs(game.points) % game.result == 0
            assert math.isfinite(game.adjusted)
    first = bench.summarise("expert", {0: results[0], 1: results[1]}, 1.0, True, 7)
    second = bench.summarise("expert", {2: results[2]}, 1.0, True, 7)
    whole = bench.summarise("expert", results, 2.0, True, 7)
    path = tmp_path / "first.json"
    path.write_text(json.dumps(first.to_json()))
    merged = bench.merge([bench.Summary.from_json(json.loads(path.read_text())), second])
    assert merged.pair_points == whole.pair_points
    assert merged.raw == whole.raw
    assert merged.adjusted == whole.adjusted
    assert merged.spans() == "0-2"
    assert "luck-adjusted" in merged.text()
    with pytest.raises(SystemExit, match="overlap"):
        bench.merge([first, whole])


def test_the_interval_of_known_numbers(bench: ModuleType) -> None:
    interval = bench.Interval.of([1.0, -1.0, 1.0, -1.0])
    assert interval.mean == 0.0
    assert interval.sd_pair == pytest.approx(math.sqrt(4 / 3))
    assert interval.high == pytest.approx(1.96 * math.sqrt(4 / 3) / 2)


def test_the_opponents(bench: ModuleType) -> None:
    with pytest.raises(SystemExit, match="unknown opponent"):
        bench.opponent_side("gnubg-nn-9ply")
    assert bench.opponent_side("gnubg-nn-2ply").plies == 2


def test_append_resumes_and_table_writes_the_page(bench: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("bgsage", reason="the benchmark's bot needs bgsage")
    saved = tmp_path / "calibration-expert-run.json"
    argv = ["--level", "expert", "--opponent", "intermediate", "--pairs", "1", "--workers", "1"]
    argv += ["--cubeless"]
    assert bench.main([*argv, "--append", str(saved)]) == 0
    assert bench.main([*argv, "--append", str(saved)]) == 0  # the next pair, not the same one
    summary = bench.Summary.from_json(json.loads(saved.read_text()))
    assert sorted(summary.pair_points) == [0, 1] and summary.games == 4
    assert summary.opponent == "intermediate" and len(summary.loads) == 2
    assert summary.ms_per_decision["gnubg"]["checker_n"] > 0  # the opponent's side
    page = tmp_path / "bots.md"
    page.write_text("# Bots\n\nbefore\n")
    pair_summary = sys.modules["pair_summary"]
    pair_summary.write_table(str(page), str(tmp_path / "calibration-*.json"))
    pair_summary.write_table(str(page), str(tmp_path / "calibration-*.json"))  # replaced, once
    text = page.read_text()
    assert text.count("| expert | intermediate | cubeless, seed 1 | 2 |") == 1
    assert text.startswith("# Bots\n\nbefore\n") and text.count("calibration table: start") == 1
