"""The grandmaster level: its final pass, its cube recheck, its time, and the clock fallback."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import pytest

from gammon import Dice, Position
from gammon.bots.bot import LEVELS, SECONDS_NEEDED, Bot, level_within
from gammon.bots.equity import CubeDecision, ScoreContext
from gammon.bots.evaluator import PipCountEvaluator, Probabilities
from gammon.match import TableOptions, new_match
from gammon.match.actions import Play
from gammon.match.fairdice import FixedDice


class Counting:
    """A pip-count evaluator that says how deep it is and counts what it was asked."""

    def __init__(self, plies: int, shift: float = 0.0) -> None:
        self.plies = plies
        self.shift = shift
        self.asked: list[Position] = []
        self._inner = PipCountEvaluator()

    def evaluate(self, positions: Sequence[Position]) -> list[Probabilities]:
        self.asked.extend(positions)
        out = self._inner.evaluate(positions)
        if not self.shift:
            return out
        return [p if p.win in (0.0, 1.0) else p.with_win(min(1.0, p.win + self.shift)) for p in out]


def _bot(final_shift: float = 0.0) -> tuple[Bot, Counting, Counting, Counting]:
    one, deep, final = Counting(1), Counting(3), Counting(4, final_shift)
    return Bot(deep, "grandmaster", filter_evaluator=one, final_evaluator=final), one, deep, final


MIDGAME = Position.from_points({24: 2, 13: 4, 8: 3, 6: 4, 5: 2}, {24: 2, 13: 5, 8: 2, 6: 4, 4: 2})


def test_the_final_pass_ranks_the_closest_deep_candidates_again() -> None:
    bot, one, deep, final = _bot()
    ranked = bot.rank_moves(MIDGAME, (4, 2), ScoreContext())
    legal = MIDGAME.legal_moves((4, 2))
    assert len(ranked) == len(legal) and len(one.asked) == len(legal)
    assert 1 < len(deep.asked) <= 6
    assert 1 < len(final.asked) <= 3
    # the moves searched at 4 plies come first, then those at 3, then the rest
    plies = [r.plies for r in ranked]
    assert plies == sorted(plies, reverse=True) and plies[0] == 4
    assert sum(p == 4 for p in plies) == len(final.asked)
    deep_best = max(r.equity for r in ranked if r.plies == 3) if 3 in plies else None
    assert deep_best is None or all(r.plies == 4 for r in ranked[: len(final.asked)])


def test_world_class_has_no_final_pass() -> None:
    one, deep = Counting(1), Counting(3)
    ranked = Bot(deep, "world-class", filter_evaluator=one).rank_moves(
        MIDGAME, (4, 2), ScoreContext()
    )
    assert {r.plies for r in ranked} <= {1, 3}


def test_a_close_cube_decision_is_searched_again_and_a_clear_one_is_not() -> None:
    bot, _, deep, final = _bot(final_shift=0.05)
    opening = Position.initial()
    decision = bot.cube_decision(opening, ScoreContext())
    assert isinstance(decision, CubeDecision) and not decision.should_double
    assert deep.asked == [opening] and final.asked == []  # nowhere near a double
    race = Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {1: 3, 2: 3, 3: 3, 4: 3, 10: 3})
    closest = min(
        (race, *(Position.from_points({i: 2, 20: 1}, {6: 3, 3: 2}) for i in range(1, 7))),
        key=lambda p: _margin(Bot(PipCountEvaluator()).cube_decision(p, ScoreContext())),
    )
    bot.cube_decision(closest, ScoreContext())
    close = _margin(Bot(PipCountEvaluator()).cube_decision(closest, ScoreContext())) < 0.04
    assert (final.asked == [closest]) == close


def _margin(d: CubeDecision) -> float:
    doubled = d.double_pass if d.response == "pass" else d.double_take
    return min(abs(doubled - d.no_double), abs(d.double_take - d.double_pass))


def test_level_within_the_clock() -> None:
    assert LEVELS[-1] == "grandmaster"
    assert level_within("grandmaster", None) == "grandmaster"
    assert level_within("grandmaster", SECONDS_NEEDED["grandmaster"]) == "grandmaster"
    assert level_within("grandmaster", SECONDS_NEEDED["grandmaster"] - 0.1) == "world-class"
    assert level_within("grandmaster", SECONDS_NEEDED["world-class"] - 0.1) == "expert"
    assert level_within("world-class", 0.0) == "expert"
    assert level_within("intermediate", 0.0) == "intermediate"


def test_the_seat_falls_back_when_the_clock_is_short(monkeypatch: pytest.MonkeyPatch) -> None:
    from gammon.bots import seat

    asked: list[str] = []

    def fake(level: str, seed: int = 0) -> Bot:
        asked.append(level)
        return Bot(PipCountEvaluator(), "expert")

    monkeypatch.setattr(seat, "bot_for_level", fake)
    state = new_match(TableOptions(match_length=3))
    game = replace(state.game, phase="moving", position=MIDGAME, turn=0, starter=0, dice=Dice(4, 2))
    state = replace(state, game=game)
    for left, level in ((None, "grandmaster"), (60.0, "grandmaster"), (3.0, "world-class")):
        action = seat.choose_action(state, 0, "grandmaster", dice=FixedDice([]), time_left=left)
        assert isinstance(action, Play) and asked[-1] == level
    seat.choose_action(state, 0, "grandmaster", dice=FixedDice([]), time_left=0.2)
    assert asked[-1] == "expert"


# ---------------------------------------------------------------------- on bgsage


@pytest.fixture(scope="module")
def grandmaster() -> Bot:
    pytest.importorskip("bgsage", reason="the bot needs bgsage (the dev and bot extras)")
    return Bot.with_bgsage("grandmaster", seed=3)


POSITIONS = [
    (Position.initial(), (4, 3)),
    (MIDGAME, (6, 6)),
    (
        Position.from_points({20: 1, 13: 4, 8: 3, 6: 5, 5: 2}, {21: 2, 13: 4, 8: 3, 6: 4, 4: 2}),
        (5, 2),
    ),
]


@pytest.mark.parametrize(("position", "dice"), POSITIONS, ids=["opening 43", "66", "52"])
def test_grandmaster_decisions_are_legal_deterministic_and_in_time(
    grandmaster: Bot, position: Position, dice: tuple[int, int]
) -> None:
    ctx = ScoreContext.for_match(7, 4, 3)
    start = time.perf_counter()
    move = grandmaster.choose_move(position, dice, ctx)
    seconds = time.perf_counter() - start
    assert move in position.legal_moves(dice)
    assert seconds < SECONDS_NEEDED["grandmaster"]
    again = Bot.with_bgsage("grandmaster", seed=3).choose_move(position, dice, ctx)
    assert again == move
    ranked = grandmaster.rank_moves(position, dice, ctx)
    assert ranked[0].move == move and ranked[0].plies >= 3
    # cubeful: the equities after the move include the opponent's cube in the match
    decision = grandmaster.cube_decision(position, ctx)
    assert decision.can_double and decision.no_double != decision.cubeless


def test_analyse_cancelled_by_ctrl_c_says_how_far_it_got(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse
    from pathlib import Path

    from gammon.bots.analysis import cli

    def interrupted(record: object, level: str, **kwargs: object) -> None:
        progress = kwargs["progress"]
        assert callable(progress)
        progress("cube", 40, 40)
        progress("deep", 12, 150)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "analyse_match", interrupted)
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    mat = Path(__file__).parents[1] / "data" / "mat" / "corpus" / "online_server_7pt.mat"
    args = parser.parse_args([str(mat), "--level", "grandmaster", "--no-progress"])
    assert cli.run(args) == 130
    err = capsys.readouterr().err
    assert "analysis cancelled at grandmaster" in err
    assert "cube decisions: 40 of 40" in err and "best moves again: 12 of 150" in err


def test_grandmaster_analysis_goes_to_the_final_depth() -> None:
    pytest.importorskip("bgsage", reason="the analysis needs bgsage (the dev and bot extras)")
    from gammon.bots.analysis import Analyzer

    analyzer = Analyzer("grandmaster")
    assert analyzer.plies == 4 and analyzer.chunk < 64
    assert Analyzer("grandmaster", plies=3).plies == 3
    assert Analyzer("world-class").plies == 3


def test_gammon_analyse_at_grandmaster_shows_progress_and_stops_on_ctrl_c() -> None:
    """The real command in a terminal: the progress bar shows the stages as they advance,
    and Ctrl-C (SIGINT) stops it within a couple of seconds with status 130 and how far it
    got (the analysis runs in C++ chunks, so Python sees the interrupt between them)."""
    pytest.importorskip("bgsage", reason="the analysis needs bgsage (the dev and bot extras)")
    import os
    import pty
    import select
    import signal
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parents[2]
    match = root / "tests" / "data" / "analysis" / "standard-7.jsonl"
    main, secondary = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(root / "src"), "COLUMNS": "120", "TERM": "xterm"}
    cmd = [sys.executable, "-m", "gammon", "analyse", str(match), "--level", "grandmaster"]
    proc = subprocess.Popen(
        cmd, stdin=secondary, stdout=subprocess.DEVNULL, stderr=secondary, env=env
    )
    os.close(secondary)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"cube decisions" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                seen += os.read(main, 4096)
        assert b"cube decisions" in seen, seen[-500:]  # the bar, on standard error
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        # Keep reading the terminal as a real one would: the bar redraws ten times a
        # second, and an unread pseudo-terminal fills (a few KB) and blocks its writer.
        try:
            while time.monotonic() < stopped + 30:
                ready, _, _ = select.select([main], [], [], 0.2)
                if ready:
                    seen += os.read(main, 4096)
                elif proc.poll() is not None:
                    break
        except OSError:  # the terminal closed with the process
            pass
        status = proc.wait(timeout=1)
        took = time.monotonic() - stopped
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    assert status == 130
    assert took < 10, took
    assert b"analysis cancelled at grandmaster: cube decisions:" in seen, seen[-500:]
