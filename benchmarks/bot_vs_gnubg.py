"""gammon's bot against gnubg-nn's 0-ply in money games, with duplicate dice.

    .venv/bin/python benchmarks/bot_vs_gnubg.py --level world-class --pairs 500 --workers 2

Each *pair* plays one dice sequence twice with the sides swapped (gammon's bot
as player 0, then as player 1), so the luck of the dice largely cancels.  The
result is gammon's points per game with a 95% confidence interval computed
over the pairs (the independent units), and the mean time per decision of
each side.

The games
    Money play, one game per session: the cube is on (no limit, no Jacoby, no
    beavers), gammons and backgammons count, no resignations (every game is
    played to the end).  ``--cubeless`` plays without the cube.  The rules are
    gammon's for both sides: each side only chooses among ``Position.legal_moves``.

gammon's side
    :class:`gammon.bots.bot.Bot` at ``--level`` (``Bot.with_bgsage``, one C++
    thread per worker process): ``choose_move``, ``should_double`` and
    ``respond_to_double``.

gnubg-nn's side (GPL: imported here only, never by ``src/gammon``)
    Checker play: gnubg-nn's own 0-ply ranking (``best_move(..., list=1)``,
    which evaluates every resulting position with its networks); the first
    ranked position that is one of gammon's legal moves is played (the position
    keys are compared: gnubg's key of the board after its move equals
    ``move.position_after().position_key()``).  Cube (gnubg-nn has no money
    cube decision): its 0-ply pre-roll probabilities go through gammon's own
    cube model (:class:`gammon.bots.equity.EquityModel`, Janowski with cube
    life 0.68), the same model gammon's bot uses; it doubles when that model
    says double and takes unless it says pass.

Decisions timed: checker plays with at least two legal moves, and every cube
decision (double or not when the rules allow a double, take or drop).

Long runs can be split: ``--start-pair N`` plays the seed's pairs from N on,
``--time-limit`` stops starting pairs after that many seconds, and ``--merge
A.json B.json`` pools the summaries of runs of disjoint pairs exactly.

Results (2-core machine shared with other test runs, bgsage 2.0.20260907,
gnubg-nn 1.1.0a11, 2 worker processes, 1 C++ thread each; ms are wall-clock
per decision and grow with the machine's load):

============  ========  ===================  =======================  ==========================
gammon level  cube      pairs (games)        points/game, 95% CI      ms/decision gammon / gnubg
============  ========  ===================  =======================  ==========================
world-class   cube      1000 (2000), seed 1  +0.069 [-0.063, +0.200]  73 / 0.6
world-class   cubeless  500 (1000), seed 5   +0.033 [-0.044, +0.110]  77 / 0.6
expert        cube      2000 (4000), seed 1  -0.043 [-0.134, +0.048]  1.2 / 0.3
expert        cubeless  1000 (2000), seed 3  +0.013 [-0.042, +0.068]  0.8 / 0.3
============  ========  ===================  =======================  ==========================

World-class checker plays took 103 ms and its cube decisions 38 ms on average
(3-ply).  Neither level is measurably stronger than gnubg-nn's 0-ply here.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import gnubg_nn  # type: ignore[import-untyped]  # GPL: benchmark opponent only

from gammon.bots.bot import LEVELS, Bot, Level
from gammon.bots.equity import EquityModel, ScoreContext
from gammon.bots.evaluator import Probabilities
from gammon.bots.seat import score_context
from gammon.dice import Dice
from gammon.match import Double, Drop, MatchState, Play, Roll, TableOptions, Take
from gammon.match.engine import allowed_actions, apply, new_match
from gammon.move import Move
from gammon.position import Position

GAMMON, GNUBG = "gammon", "gnubg"


def sage_to_gnu(board: tuple[int, ...]) -> list[list[int]]:
    """gnubg's 2x25 board (player not on roll first) from a sage26 board (formats.md 3.1)."""
    mover = [max(board[i + 1], 0) for i in range(24)] + [board[25]]
    opp = [max(-board[24 - j], 0) for j in range(24)] + [board[0]]
    return [opp, mover]


class GnubgSide:
    """gnubg-nn 0-ply: its own move ranking, and its probabilities in gammon's cube model."""

    def probabilities(self, position: Position) -> Probabilities:
        """gnubg-nn's 0-ply pre-roll probabilities of the player on roll."""
        raw = gnubg_nn.probabilities(sage_to_gnu(position.board), 0)
        return Probabilities.from_sequence(raw)

    def choose_move(self, position: Position, dice: Dice) -> Move:
        """gnubg-nn's best move among gammon's legal moves."""
        moves = position.legal_moves(dice)
        by_key = {m.position_after().position_key(): m for m in moves}
        ranked = gnubg_nn.best_move(sage_to_gnu(position.board), dice.d1, dice.d2, list=1)[1]
        for key, *_ in ranked:
            if key in by_key:
                return by_key[key]
        # gnubg lists none of gammon's moves (rules differ): evaluate gammon's moves itself
        return max(moves, key=lambda m: -self.probabilities(m.position_after()).equity)

    def should_double(self, position: Position, ctx: ScoreContext) -> bool:
        """Double when gammon's cube model, fed gnubg's probabilities, says so."""
        model = EquityModel(ctx)
        if not (ctx.may_double() and model.can_double("me", ctx.cube_value)):
            return False
        return model.decision(self.probabilities(position)).should_double

    def respond_to_double(self, position: Position, ctx: ScoreContext) -> str:
        """Take unless the model says pass (``position`` has the doubler on roll)."""
        doubler = EquityModel(ctx.flipped()).decision(self.probabilities(position))
        return "drop" if doubler.response == "pass" else "take"


@dataclass
class Clock:
    """Time spent and decisions made by one side."""

    checker_s: float = 0.0
    checker_n: int = 0
    cube_s: float = 0.0
    cube_n: int = 0

    def add(self, other: Clock) -> None:
        self.checker_s += other.checker_s
        self.checker_n += other.checker_n
        self.cube_s += other.cube_s
        self.cube_n += other.cube_n


@dataclass
class GameResult:
    """One game: gammon's points (negative: lost) and each side's clock."""

    points: int
    gammon_seat: int
    #: 1 single, 2 gammon, 3 backgammon
    result: int
    clocks: dict[str, Clock] = field(default_factory=dict)


class RollStream:
    """The dice of one sequence: the k-th roll is the same in both games of a pair."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self) -> Dice:
        return Dice(self._rng.randint(1, 6), self._rng.randint(1, 6))


#: The worker process's bot (built once per process by the pool's initializer).
_WORKER: dict[str, Bot] = {}
_GNUBG = GnubgSide()


def _init_worker(level: Level) -> None:
    _WORKER["bot"] = Bot.with_bgsage(level, threads=1)


def play_game(bot: Bot, gammon_seat: int, dice_seed: int, *, cube: bool) -> GameResult:
    """One money game; ``gammon_seat`` is gammon's bot's seat, gnubg has the other."""
    state: MatchState = new_match(TableOptions(cube=cube))
    dice = RollStream(dice_seed)
    clocks = {GAMMON: Clock(), GNUBG: Clock()}
    while not state.games:
        g = state.game
        if g.phase == "opening":
            state = apply(state, Roll(0, dice.roll())).state
            continue
        assert g.turn is not None
        seat = g.turn if g.phase != "doubled" else 1 - g.turn
        side = GAMMON if seat == gammon_seat else GNUBG
        ctx = score_context(state, seat)
        clock = clocks[side]
        if g.phase == "turn":
            action: Any = Roll(seat, dice.roll())
            if "double" in allowed_actions(state).get(seat, ()):
                start = time.perf_counter()
                if side == GAMMON:
                    double = bot.should_double(g.position, ctx)
                else:
                    double = _GNUBG.should_double(g.position, ctx)
                clock.cube_s += time.perf_counter() - start
                clock.cube_n += 1
                if double:
                    action = Double(seat)
        elif g.phase == "moving":
            assert g.dice is not None
            moves = g.position.legal_moves(g.dice)
            start = time.perf_counter()
            if len(moves) == 1:
                move = moves[0]
            elif side == GAMMON:
                move = bot.choose_move(g.position, g.dice, ctx)
            else:
                move = _GNUBG.choose_move(g.position, g.dice)
            if len(moves) > 1:
                clock.checker_s += time.perf_counter() - start
                clock.checker_n += 1
            action = Play(seat, str(move))
        elif g.phase == "doubled":
            start = time.perf_counter()
            answer: str
            if side == GAMMON:
                answer = bot.respond_to_double(g.position, ctx)
            else:
                answer = _GNUBG.respond_to_double(g.position, ctx)
            clock.cube_s += time.perf_counter() - start
            clock.cube_n += 1
            action = Drop(seat) if answer == "drop" else Take(seat)
        else:  # pragma: no cover - no beavers, raccoons or resignations at this table
            raise RuntimeError(f"unexpected phase {g.phase}")
        state = apply(state, action).state
    outcome = state.games[0]
    points = outcome.points if outcome.winner == gammon_seat else -outcome.points
    return GameResult(points, gammon_seat, outcome.result, clocks)


def play_pair(task: tuple[int, int, bool]) -> tuple[int, list[GameResult]]:
    """Both games of one dice sequence (worker process), with the pair's number."""
    seed, pair, cube = task
    dice_seed = seed * 1_000_003 + pair
    return pair, [play_game(_WORKER["bot"], seat, dice_seed, cube=cube) for seat in (0, 1)]


@dataclass
class Summary:
    """The figures of a run."""

    level: str
    pairs: int
    games: int
    ppg: float
    ci_low: float
    ci_high: float
    sd_pair: float
    wins: int
    gammons: int
    backgammons: int
    ms_per_decision: dict[str, dict[str, float]]
    seconds: float
    cube: bool
    seed: int
    #: The pairs played are ``ranges`` of pair numbers of the seed's sequence.
    ranges: list[list[int]] = field(default_factory=list)

    def text(self) -> str:
        spans = ", ".join(f"{a}-{b - 1}" for a, b in self.ranges)
        lines = [
            f"gammon {self.level} vs gnubg-nn 0-ply, money"
            f"{'' if self.cube else ' (cubeless)'}, seed {self.seed}, pairs {spans}: "
            f"{self.pairs} pairs = {self.games} games in {self.seconds:.0f} s",
            f"  points per game for gammon: {self.ppg:+.3f}  "
            f"95% CI [{self.ci_low:+.3f}, {self.ci_high:+.3f}]  (sd per pair {self.sd_pair:.3f})",
            f"  gammon won {self.wins} of {self.games} games "
            f"({self.gammons} gammons, {self.backgammons} backgammons among all results)",
        ]
        for side, ms in self.ms_per_decision.items():
            lines.append(
                f"  {side:>6}: {ms['all']:.2f} ms/decision "
                f"(checker {ms['checker']:.2f} over {ms['checker_n']:.0f}, "
                f"cube {ms['cube']:.2f} over {ms['cube_n']:.0f})"
            )
        return "\n".join(lines)


def summarise(
    level: str,
    results: list[list[GameResult]],
    seconds: float,
    cube: bool,
    seed: int,
    ranges: list[list[int]],
) -> Summary:
    """Points per game with a 95% CI over pairs, and each side's time per decision."""
    pair_means = [sum(g.points for g in pair) / len(pair) for pair in results]
    n = len(pair_means)
    mean = sum(pair_means) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in pair_means) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    games = [g for pair in results for g in pair]
    clocks = {GAMMON: Clock(), GNUBG: Clock()}
    for game in games:
        for side, clock in game.clocks.items():
            clocks[side].add(clock)
    ms: dict[str, dict[str, float]] = {}
    for side, c in clocks.items():
        n_all = c.checker_n + c.cube_n
        ms[side] = {
            "all": 1000 * (c.checker_s + c.cube_s) / n_all if n_all else 0.0,
            "checker": 1000 * c.checker_s / c.checker_n if c.checker_n else 0.0,
            "cube": 1000 * c.cube_s / c.cube_n if c.cube_n else 0.0,
            "checker_n": float(c.checker_n),
            "cube_n": float(c.cube_n),
        }
    return Summary(
        level=level,
        pairs=n,
        games=len(games),
        ppg=mean,
        ci_low=mean - half,
        ci_high=mean + half,
        sd_pair=math.sqrt(var),
        wins=sum(1 for g in games if g.points > 0),
        gammons=sum(1 for g in games if g.result == 2),
        backgammons=sum(1 for g in games if g.result == 3),
        ms_per_decision=ms,
        seconds=seconds,
        cube=cube,
        seed=seed,
        ranges=ranges,
    )


def merge(parts: list[Summary]) -> Summary:
    """One summary of several runs of disjoint pairs (same level, seed and cube setting).

    The pooled mean and variance over pairs are exact (from each run's count,
    mean and standard deviation), so bounded runs add up to one long run.
    """
    first = parts[0]
    for p in parts[1:]:
        if (p.level, p.seed, p.cube) != (first.level, first.seed, first.cube):
            raise SystemExit("merge: the runs differ in level, seed or cube setting")
    spans = sorted(tuple(r) for p in parts for r in (p.ranges or [[0, p.pairs]]))
    for (_, end), (start, _) in itertools.pairwise(spans):
        if start < end:
            raise SystemExit(f"merge: the runs overlap (pairs {start}-{end - 1})")
    n = sum(p.pairs for p in parts)
    mean = sum(p.pairs * p.ppg for p in parts) / n
    ss = sum((p.pairs - 1) * p.sd_pair**2 + p.pairs * (p.ppg - mean) ** 2 for p in parts)
    sd = math.sqrt(ss / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    ms: dict[str, dict[str, float]] = {}
    for side in (GAMMON, GNUBG):
        cn = sum(p.ms_per_decision[side]["checker_n"] for p in parts)
        un = sum(p.ms_per_decision[side]["cube_n"] for p in parts)
        cs = sum(
            p.ms_per_decision[side]["checker"] * p.ms_per_decision[side]["checker_n"] for p in parts
        )
        us = sum(p.ms_per_decision[side]["cube"] * p.ms_per_decision[side]["cube_n"] for p in parts)
        ms[side] = {
            "all": (cs + us) / (cn + un) if cn + un else 0.0,
            "checker": cs / cn if cn else 0.0,
            "cube": us / un if un else 0.0,
            "checker_n": cn,
            "cube_n": un,
        }
    return Summary(
        level=first.level,
        pairs=n,
        games=sum(p.games for p in parts),
        ppg=mean,
        ci_low=mean - half,
        ci_high=mean + half,
        sd_pair=sd,
        wins=sum(p.wins for p in parts),
        gammons=sum(p.gammons for p in parts),
        backgammons=sum(p.backgammons for p in parts),
        ms_per_decision=ms,
        seconds=sum(p.seconds for p in parts),
        cube=first.cube,
        seed=first.seed,
        ranges=[list(r) for r in spans],
    )


def run(
    level: Level,
    pairs: int,
    seed: int,
    workers: int,
    cube: bool,
    time_limit: float | None,
    start_pair: int = 0,
) -> Summary:
    """Play pairs ``start_pair``.. in ``workers`` processes (stopping early past ``time_limit`` s)."""
    start = time.perf_counter()
    results: list[list[GameResult]] = []
    numbers: list[int] = []
    tasks: Iterator[tuple[int, int, bool]] = (
        (seed, i, cube) for i in range(start_pair, start_pair + pairs)
    )
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(level,)) as pool:
        for number, pair in pool.imap_unordered(play_pair, tasks, chunksize=1):
            results.append(pair)
            numbers.append(number)
            done = len(results)
            elapsed = time.perf_counter() - start
            if done % 10 == 0 or done == pairs:
                partial = summarise(level, results, elapsed, cube, seed, [])
                print(
                    f"\r{done}/{pairs} pairs, {elapsed:.0f} s, ppg {partial.ppg:+.3f} "
                    f"[{partial.ci_low:+.3f}, {partial.ci_high:+.3f}]",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            if time_limit is not None and elapsed > time_limit:
                pool.terminate()
                break
    print(file=sys.stderr)
    # pairs finish out of order: a run stopped early has played a set of pair numbers
    ranges: list[list[int]] = []
    for number in sorted(numbers):
        if ranges and ranges[-1][1] == number:
            ranges[-1][1] = number + 1
        else:
            ranges.append([number, number + 1])
    return summarise(level, results, time.perf_counter() - start, cube, seed, ranges)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=LEVELS, default="world-class")
    parser.add_argument("--pairs", type=int, default=500, help="dice sequences (2 games each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--cubeless", action="store_true", help="play without the cube")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop starting pairs after this long and report what finished",
    )
    parser.add_argument(
        "--start-pair",
        type=int,
        default=0,
        metavar="N",
        help="play the seed's pairs from number N (to extend an earlier run)",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the summary as JSON")
    parser.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="play nothing: pool the summaries of earlier runs of disjoint pairs",
    )
    args = parser.parse_args(argv)
    if args.merge:
        parts = []
        for path in args.merge:
            with open(path, encoding="utf-8") as handle:
                parts.append(Summary(**json.load(handle)))
        summary = merge(parts)
    else:
        summary = run(
            args.level,
            args.pairs,
            args.seed,
            args.workers,
            not args.cubeless,
            args.time_limit,
            args.start_pair,
        )
    print(summary.text())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(summary.__dict__, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
