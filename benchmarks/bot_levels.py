"""gammon's bot levels against each other in 1-point matches, with duplicate dice: the
calibration of the bots' fixed ratings (docs/ratings.md, "The bots' ratings").

    .venv/bin/python benchmarks/bot_levels.py --levels beginner expert --pairs 300

Each *pair* plays one dice sequence twice with the sides swapped, so both levels get
the same luck as far as the two games run alike.  A 1-point match is one game (the cube
is dead at double match point), which is what the FIBS formula's ``N = 1`` describes:
the first level's match-win rate ``p`` over the games is turned into a FIBS rating
difference ``D = 2000 * log10(p / (1 - p))`` (the formula, solved for ``D``), with the
95% interval of ``p`` (normal, from the spread of the pairs) turned the same way.

World-class is about 50 times slower per decision than the other levels (3-ply), so
``--time-limit`` keeps such runs short; the others play about 10 games a second.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass

from gammon.bots.bot import LEVELS, Bot, Level
from gammon.bots.seat import score_context
from gammon.dice import Dice
from gammon.match import Double, Drop, MatchState, Play, Roll, TableOptions, Take
from gammon.match.engine import allowed_actions, apply, new_match

_BOTS: dict[Level, Bot] = {}


def fibs_difference(p: float) -> float:
    """The rating difference at which the FIBS formula gives a 1-point match win rate ``p``.

    >>> round(fibs_difference(0.5), 6), round(fibs_difference(0.6), 1)
    (0.0, 352.2)
    """
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 2000.0 * math.log10(p / (1.0 - p))


def _init(levels: tuple[Level, Level]) -> None:
    for level in levels:
        _BOTS[level] = Bot.with_bgsage(level, threads=1)


def play_match(levels: tuple[Level, Level], first_seat: int, dice_seed: int) -> int:
    """One 1-point match; ``levels[0]`` sits in ``first_seat``.  1 if it won, else 0."""
    state: MatchState = new_match(TableOptions(match_length=1))
    rng = random.Random(dice_seed)
    seat_level = {first_seat: levels[0], 1 - first_seat: levels[1]}
    while not state.over:
        g = state.game
        if g.phase == "opening":
            state = apply(state, Roll(0, Dice(rng.randint(1, 6), rng.randint(1, 6)))).state
            continue
        assert g.turn is not None
        seat = g.turn if g.phase != "doubled" else 1 - g.turn
        bot, ctx = _BOTS[seat_level[seat]], score_context(state, seat)
        action: Roll | Double | Play | Take | Drop
        if g.phase == "turn":
            may = "double" in allowed_actions(state).get(seat, ())
            if may and bot.should_double(g.position, ctx):
                action = Double(seat)
            else:
                action = Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6)))
        elif g.phase == "moving":
            assert g.dice is not None
            moves = g.position.legal_moves(g.dice)
            move = moves[0] if len(moves) == 1 else bot.choose_move(g.position, g.dice, ctx)
            action = Play(seat, str(move))
        elif g.phase == "doubled":
            answer = bot.respond_to_double(g.position, ctx)
            action = Drop(seat) if answer == "drop" else Take(seat)
        else:  # pragma: no cover - no resignations here
            raise RuntimeError(f"unexpected phase {g.phase}")
        state = apply(state, action).state
    return 1 if state.winner == first_seat else 0


def play_pair(task: tuple[tuple[Level, Level], int, int]) -> int:
    """Both matches of one dice sequence: how many of the two the first level won."""
    levels, seed, pair = task
    dice_seed = seed * 1_000_003 + pair
    return sum(play_match(levels, seat, dice_seed) for seat in (0, 1))


@dataclass(frozen=True)
class Calibration:
    """A run's figures: the first level's wins out of ``2 * pairs`` matches."""

    levels: tuple[Level, Level]
    pairs: int
    wins: int
    sd_pair: float
    seconds: float

    @property
    def rate(self) -> float:
        """The first level's match-win rate."""
        return self.wins / (2 * self.pairs)

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the win rate (pairs are the independent unit)."""
        return 1.96 * self.sd_pair / 2 / math.sqrt(self.pairs) if self.pairs else 0.0

    def text(self) -> str:
        low, high = self.rate - self.half_width, self.rate + self.half_width
        return (
            f"{self.levels[0]} vs {self.levels[1]}: {self.pairs} pairs = {2 * self.pairs} "
            f"1-point matches in {self.seconds:.0f} s\n"
            f"  {self.levels[0]} won {self.wins}: {self.rate:.3f} [{low:.3f}, {high:.3f}]\n"
            f"  FIBS difference: {fibs_difference(self.rate):+.0f} "
            f"[{fibs_difference(low):+.0f}, {fibs_difference(high):+.0f}]"
        )


def run(
    levels: tuple[Level, Level], pairs: int, seed: int, workers: int, time_limit: float | None
) -> Calibration:
    """Play up to ``pairs`` pairs in ``workers`` processes (fewer past ``time_limit`` s)."""
    start = time.perf_counter()
    scores: list[int] = []
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    tasks = ((levels, seed, i) for i in range(pairs))
    with ctx.Pool(workers, initializer=_init, initargs=(levels,)) as pool:
        for score in pool.imap_unordered(play_pair, tasks, chunksize=4):
            scores.append(score)
            if time_limit is not None and time.perf_counter() - start > time_limit:
                pool.terminate()
                break
    n = len(scores)
    mean = sum(scores) / n if n else 0.0
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    return Calibration(levels, n, sum(scores), math.sqrt(var), time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs=2, choices=LEVELS, default=["beginner", "expert"])
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS")
    args = parser.parse_args(argv)
    levels = (args.levels[0], args.levels[1])
    print(run(levels, args.pairs, args.seed, args.workers, args.time_limit).text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
