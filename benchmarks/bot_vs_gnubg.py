"""gammon's bot against gnubg-nn's 0-ply in money games, with duplicate dice.

    .venv/bin/python benchmarks/bot_vs_gnubg.py --level world-class --pairs 500 --workers 2

Each *pair* plays one dice sequence twice with the sides swapped (gammon's bot
as player 0, then as player 1).  The dice are drawn only when a player rolls,
so both games of a pair see the same rolls in the same order for as long as
they run alike.  The independent unit is the pair: every figure is a mean over
pairs with a 95% confidence interval (normal, from the spread of the pairs).

Two figures of gammon's points per game
    *As played*: the points each game scored.  Duplicate dice cancel only part
    of the luck, because the two games of a pair soon differ, and the cube
    multiplies what is left: with the cube the standard deviation per pair is
    about 2.3 points, so this figure needs tens of thousands of games to tell
    apart bots that differ by 0.1 points per game.

    *Luck-adjusted*: the same points less the luck of every roll, as judged by
    :class:`LuckJudge` (gnubg-nn 0-ply in gammon's cube model).  The luck of a
    roll is the roller's equity after the judge's best play of it less the
    average over the 36 rolls, times the cube, so given everything before the
    roll its expected value is exactly zero, however wrong the judge is: the
    adjusted figure is an unbiased estimate of the same points per game (the
    tests check the zero average in every position they try).  It is the
    variance reduction that gnubg's rollouts and bot tournaments use; here it
    cuts the spread per pair about sevenfold.  The judge being gnubg-nn's own
    evaluator does not favour either side: a judge's errors add noise, not bias.

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

Results (2-core machine, bgsage 2.0.20260907, gnubg-nn 1.1.0a11, 2 worker
processes, 1 C++ thread each; ms are wall-clock per decision; points per game
for gammon with 95% intervals):

============  ========  ==================  =======================  =======================  =============
gammon level  cube      pairs (games)       as played                luck-adjusted            ms gammon/gnubg
============  ========  ==================  =======================  =======================  =============
world-class   cube      500 (1000), seed 1  +0.037 [-0.164, +0.238]  +0.090 [+0.063, +0.118]  52 / 0.27
world-class   cube      500 (1000), seed 2  +0.162 [-0.041, +0.365]  +0.104 [+0.076, +0.131]  53 / 0.27
expert        cube      500 (1000), seed 1  +0.218 [+0.037, +0.399]  +0.030 [+0.005, +0.055]  1.4 / 0.26
world-class   cubeless  500 (1000), seed 2  +0.085 [+0.006, +0.164]  +0.056 [+0.045, +0.067]  66 / 0.34
expert        cubeless  500 (1000), seed 2  +0.058 [-0.017, +0.133]  +0.009 [-0.002, +0.020]  1.1 / 0.33
============  ========  ==================  =======================  =======================  =============

The summaries of these runs, with every pair's points, are in
``benchmarks/results/`` (``--merge FILE`` prints one again).

World-class checker plays took 72 ms and its cube decisions 29 ms on average
(3-ply, with the cube).  It beats gnubg-nn's 0-ply by about 0.1 points per
game with the cube (both seeds together, 1000 pairs: +0.097 [+0.078, +0.116]
luck-adjusted) and 0.056 without; expert (bgsage's raw networks, like
gnubg-nn's 0-ply) is about its equal.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import gnubg_nn  # type: ignore[import-untyped]  # GPL: benchmark opponent only

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gammon.bots.bot import LEVELS, Bot, Level
from gammon.bots.equity import EquityModel, ScoreContext
from gammon.bots.evaluator import Probabilities, terminal_probabilities
from gammon.bots.seat import score_context
from gammon.dice import Dice
from gammon.match import Double, Drop, MatchState, Play, Roll, TableOptions, Take
from gammon.match.engine import allowed_actions, apply, new_match
from gammon.move import Move
from gammon.position import Position
from pair_summary import (  # a sibling module of this script
    GAMMON,
    GNUBG,
    Clock,
    GameResult,
    Interval,
    Summary,
    load_summary,
    merge,
    summarise,
    write_table,
)

#: What the benchmark offers (the summaries' arithmetic lives in pair_summary.py).
__all__ = ["Interval", "LuckJudge", "Summary", "main", "merge", "play_game", "run", "summarise"]


def sage_to_gnu(board: tuple[int, ...]) -> list[list[int]]:
    """gnubg's 2x25 board (player not on roll first) from a sage26 board (formats.md 3.1)."""
    mover = [max(board[i + 1], 0) for i in range(24)] + [board[25]]
    opp = [max(-board[24 - j], 0) for j in range(24)] + [board[0]]
    return [opp, mover]


class GnubgSide:
    """gnubg-nn at ``plies`` (gnubg's count: 0 = the raw networks, 2 = XG's 3-ply): its own
    move ranking, and its probabilities in gammon's cube model."""

    def __init__(self, plies: int = 0) -> None:
        self.plies = plies

    def probabilities(self, position: Position) -> Probabilities:
        """gnubg-nn's pre-roll probabilities of the player on roll."""
        raw = gnubg_nn.probabilities(sage_to_gnu(position.board), self.plies)
        return Probabilities.from_sequence(raw)

    def choose_move(self, position: Position, dice: Dice, ctx: ScoreContext) -> Move:
        """gnubg-nn's best move among gammon's legal moves (cubeless: ``ctx`` is unused)."""
        moves = position.legal_moves(dice)
        by_key = {m.position_after().position_key(): m for m in moves}
        board = sage_to_gnu(position.board)
        ranked = gnubg_nn.best_move(board, dice.d1, dice.d2, n=self.plies, list=1)[1]
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


#: The 21 distinct rolls with their chances out of 36.
ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)


class LuckJudge:
    """The luck of each roll, judged by gnubg-nn's 0-ply in gammon's cube model.

    The luck of a roll is the roller's equity after the judge's best play of it,
    less the average of that over all 36 rolls.  Given everything before the
    roll, its expected value is exactly zero whatever the judge's errors, so
    ``points - sum(cube x luck)`` is an unbiased estimate of a game's points
    with a much smaller spread (the usual "luck-adjusted result"; gnubg's
    rollouts use the same idea for variance reduction).

    Equities are cubeful: gnubg-nn's probabilities of the position after the
    play go through :meth:`gammon.bots.equity.EquityModel.after_move` in the
    roller's :class:`ScoreContext` (without the cube, that is the cubeless
    equity), so a roll that turns a take into a pass counts in full.  They are
    normalised to the cube, which is fixed before the roll; the caller
    multiplies by it.
    """

    def __init__(self) -> None:
        self._probs: dict[tuple[str, int, int], Probabilities] = {}
        self._average: dict[tuple[str, ScoreContext], float] = {}

    def clear(self) -> None:
        """Forget what was judged (positions rarely recur across dice sequences)."""
        self._probs.clear()
        self._average.clear()

    def probabilities_after(self, position: Position, d1: int, d2: int) -> Probabilities:
        """The opponent's chances, on roll after the judge's best play of ``d1-d2``."""
        key = (position.position_key(), min(d1, d2), max(d1, d2))
        probs = self._probs.get(key)
        if probs is None:
            moves = position.legal_moves((d1, d2))
            if len(moves) > 1:
                # gnubg-nn's list gives the opponent's chances after each play.  (With
                # a single legal play it ranks nothing and its list holds garbage.)
                ranked = gnubg_nn.best_move(sage_to_gnu(position.board), d1, d2, list=1)[1]
                probs = Probabilities.from_sequence(ranked[0][2])
            else:  # one play, or none: the opponent is on roll in the same position
                probs = self.probabilities(
                    moves[0].position_after() if moves else position.flipped()
                )
            self._probs[key] = probs
        return probs

    @staticmethod
    def probabilities(position: Position) -> Probabilities:
        """The chances of the player on roll (exact when the game is over)."""
        done = terminal_probabilities(position)
        if done is not None:
            return done
        return Probabilities.from_sequence(gnubg_nn.probabilities(sage_to_gnu(position.board), 0))

    def after_roll(self, position: Position, d1: int, d2: int, ctx: ScoreContext) -> float:
        """The roller's equity (per unit of cube) after the judge's best play of ``d1-d2``."""
        return EquityModel(ctx).after_move([self.probabilities_after(position, d1, d2)])[0]

    def luck(self, position: Position, d1: int, d2: int, ctx: ScoreContext) -> float:
        """The roller's luck in rolling ``d1-d2`` in ``position`` (roller on roll, ``ctx`` theirs)."""
        key = (position.position_key(), ctx)
        average = self._average.get(key)
        if average is None:
            model = EquityModel(ctx)
            probs = [self.probabilities_after(position, a, b) for a, b, _ in ROLLS]
            values = model.after_move(probs)
            average = sum(w * v for (_, _, w), v in zip(ROLLS, values, strict=True)) / 36.0
            self._average[key] = average
        return self.after_roll(position, d1, d2, ctx) - average

    def opening_luck(self, position: Position, d1: int, d2: int, ctx: ScoreContext) -> float:
        """The starter's luck in an opening roll ``d1-d2`` (doubles are rolled again: 0).

        Over the opening rolls each side starts equally often with each roll,
        so the average is zero and the luck is the starter's equity itself.
        """
        if d1 == d2:
            return 0.0
        return self.after_roll(position, d1, d2, ctx)


class RollStream:
    """The dice of one sequence: the k-th roll is the same in both games of a pair."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self) -> Dice:
        return Dice(self._rng.randint(1, 6), self._rng.randint(1, 6))


#: The opponents ``--opponent`` names besides gammon's own levels.
GNUBG_OPPONENTS: dict[str, int] = {"gnubg-nn-0ply": 0, "gnubg-nn-2ply": 2}


class BotSide:
    """One of gammon's own levels as the opponent (the level-against-level rows)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def choose_move(self, position: Position, dice: Dice, ctx: ScoreContext) -> Move:
        return self.bot.choose_move(position, dice, ctx)

    def should_double(self, position: Position, ctx: ScoreContext) -> bool:
        return self.bot.should_double(position, ctx)

    def respond_to_double(self, position: Position, ctx: ScoreContext) -> str:
        return self.bot.respond_to_double(position, ctx)


def opponent_side(name: str, threads: int = 1) -> GnubgSide | BotSide:
    """The opponent ``--opponent`` names: gnubg-nn at a depth, or one of gammon's levels."""
    if name in GNUBG_OPPONENTS:
        return GnubgSide(GNUBG_OPPONENTS[name])
    if name in LEVELS:
        return BotSide(Bot.with_bgsage(name, threads=threads, seed=1))  # type: ignore[arg-type]
    raise SystemExit(f"unknown opponent {name!r}")


#: The worker process's bot and opponent (built once per process by the pool's initializer).
_WORKER: dict[str, Bot] = {}
_OPPONENT: dict[str, GnubgSide | BotSide] = {}
_JUDGE = LuckJudge()


def _init_worker(level: Level, opponent: str = "gnubg-nn-0ply", threads: int = 1) -> None:
    _WORKER["bot"] = Bot.with_bgsage(level, threads=threads)
    _OPPONENT["side"] = opponent_side(opponent, threads)


def play_game(bot: Bot, gammon_seat: int, dice_seed: int, *, cube: bool) -> GameResult:
    """One money game; ``gammon_seat`` is gammon's bot's seat, the opponent has the other."""
    opponent = _OPPONENT.setdefault("side", GnubgSide())
    state: MatchState = new_match(TableOptions(cube=cube))
    dice = RollStream(dice_seed)
    clocks = {GAMMON: Clock(), GNUBG: Clock()}
    luck = 0.0  # gammon's, in points (times the cube)
    while not state.games:
        g = state.game
        if g.phase == "opening":
            roll = dice.roll()
            if roll.d1 != roll.d2:
                starter = 0 if roll.d1 > roll.d2 else 1
                sign = 1 if starter == gammon_seat else -1
                ctx = score_context(state, starter)
                luck += sign * g.cube.value * _JUDGE.opening_luck(g.position, roll.d1, roll.d2, ctx)
            state = apply(state, Roll(0, roll)).state
            continue
        assert g.turn is not None
        seat = g.turn if g.phase != "doubled" else 1 - g.turn
        side = GAMMON if seat == gammon_seat else GNUBG
        ctx = score_context(state, seat)
        clock = clocks[side]
        if g.phase == "turn":
            double = False
            if "double" in allowed_actions(state).get(seat, ()):
                start = time.perf_counter()
                if side == GAMMON:
                    double = bot.should_double(g.position, ctx)
                else:
                    double = opponent.should_double(g.position, ctx)
                clock.cube_s += time.perf_counter() - start
                clock.cube_n += 1
            if double:
                action: Any = Double(seat)
            else:  # the dice are drawn only when rolled: both games of a pair stay in step
                roll = dice.roll()
                action = Roll(seat, roll)
        elif g.phase == "moving":
            assert g.dice is not None
            moves = g.position.legal_moves(g.dice)
            start = time.perf_counter()
            if len(moves) == 1:
                move = moves[0]
            elif side == GAMMON:
                move = bot.choose_move(g.position, g.dice, ctx)
            else:
                move = opponent.choose_move(g.position, g.dice, ctx)
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
                answer = opponent.respond_to_double(g.position, ctx)
            clock.cube_s += time.perf_counter() - start
            clock.cube_n += 1
            action = Drop(seat) if answer == "drop" else Take(seat)
        else:  # pragma: no cover - no beavers, raccoons or resignations at this table
            raise RuntimeError(f"unexpected phase {g.phase}")
        state = apply(state, action).state
        if isinstance(action, Roll):
            sign = 1 if seat == gammon_seat else -1
            luck += sign * g.cube.value * _JUDGE.luck(g.position, roll.d1, roll.d2, ctx)
    outcome = state.games[0]
    points = outcome.points if outcome.winner == gammon_seat else -outcome.points
    return GameResult(points, gammon_seat, points - luck, outcome.result, clocks)


def play_pair(task: tuple[int, int, bool]) -> tuple[int, list[GameResult]]:
    """Both games of one dice sequence (worker process), with the pair's number."""
    seed, pair, cube = task
    dice_seed = seed * 1_000_003 + pair
    _JUDGE.clear()
    return pair, [play_game(_WORKER["bot"], seat, dice_seed, cube=cube) for seat in (0, 1)]


def run(
    level: Level,
    pairs: int,
    seed: int,
    workers: int,
    cube: bool,
    time_limit: float | None,
    start_pair: int = 0,
    *,
    opponent: str = "gnubg-nn-0ply",
    threads: int = 1,
    checkpoint: Callable[[Summary], None] | None = None,
) -> Summary:
    """Play pairs ``start_pair``.. in ``workers`` processes (stopping early past ``time_limit`` s).

    ``checkpoint`` gets the summary so far after every pair (``--append`` saves it).
    """
    start = time.perf_counter()
    results: dict[int, list[GameResult]] = {}
    tasks: Iterator[tuple[int, int, bool]] = (
        (seed, i, cube) for i in range(start_pair, start_pair + pairs)
    )
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")

    def so_far() -> Summary:
        elapsed = time.perf_counter() - start
        return summarise(level, results, elapsed, cube, seed, opponent)

    with ctx.Pool(workers, initializer=_init_worker, initargs=(level, opponent, threads)) as pool:
        for number, pair in pool.imap_unordered(play_pair, tasks, chunksize=1):
            results[number] = pair
            done = len(results)
            elapsed = time.perf_counter() - start
            if checkpoint is not None:
                checkpoint(so_far())  # every pair: a slow run loses nothing when stopped
            if done % 10 == 0 or done == pairs:
                partial = so_far()
                raw, adjusted = partial.raw, partial.adjusted
                print(
                    f"\r{done}/{pairs} pairs, {elapsed:.0f} s, ppg {raw.mean:+.3f} "
                    f"[{raw.low:+.3f}, {raw.high:+.3f}], luck-adjusted {adjusted.mean:+.3f} "
                    f"[{adjusted.low:+.3f}, {adjusted.high:+.3f}]",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            if time_limit is not None and elapsed > time_limit:
                pool.terminate()
                break
    print(file=sys.stderr)
    final = so_far()
    if checkpoint is not None:
        checkpoint(final)
    return final


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=LEVELS, default="world-class")
    parser.add_argument(
        "--opponent",
        choices=(*GNUBG_OPPONENTS, *LEVELS),
        default="gnubg-nn-0ply",
        help="gnubg-nn at 0 or 2 plies (gnubg's count), or one of gammon's levels",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="bgsage C++ threads per worker (0: every core)"
    )
    parser.add_argument(
        "--append",
        metavar="JSON",
        help="continue the run saved in JSON (its level, opponent, seed, cube) from its next "
        "pair, saving after every pair",
    )
    parser.add_argument(
        "--table",
        metavar="MARKDOWN",
        help="play nothing: write the calibration table of benchmarks/results/calibration-*.json "
        "into this page (docs/bots.md)",
    )
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
    if args.table:
        write_table(args.table)
        return 0
    if args.merge:
        parts = [load_summary(path) for path in args.merge]
        summary = merge(parts)
    else:
        earlier: Summary | None = None
        start_pair = args.start_pair
        if args.append and os.path.exists(args.append):
            earlier = load_summary(args.append)
            args.level, args.opponent, args.seed = earlier.level, earlier.opponent, earlier.seed
            args.cubeless = not earlier.cube
            start_pair = max(earlier.pair_points, default=-1) + 1

        def save(partial: Summary) -> None:
            whole = merge([earlier, partial]) if earlier is not None else partial
            with open(args.append, "w", encoding="utf-8") as handle:
                json.dump(whole.to_json(), handle, indent=1)

        summary = run(
            args.level,
            args.pairs,
            args.seed,
            args.workers,
            not args.cubeless,
            args.time_limit,
            start_pair,
            opponent=args.opponent,
            threads=args.threads,
            checkpoint=save if args.append else None,
        )
        if earlier is not None:
            summary = merge([earlier, summary])
    print(summary.text())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(summary.to_json(), handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
