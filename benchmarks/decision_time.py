"""Time per decision of a bot level, on positions from seeded self-play.

    .venv/bin/python benchmarks/decision_time.py --level grandmaster --positions 60

The positions come from expert-against-expert money games (seeded), so every
level is timed on the same ones: a checker play (with at least two legal
moves) and a cube decision in each.  Prints the mean, p95 and max in
milliseconds with the load average (``os.getloadavg()``) before and after:
on a shared machine the load says how far to trust the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from gammon import Dice, Position
from gammon.bots.bot import LEVELS, Bot, Level
from gammon.bots.equity import ScoreContext


def sample_positions(count: int, seed: int) -> list[tuple[Position, Dice]]:
    """``count`` positions with a roll that has a choice, from expert self-play."""
    rng = random.Random(seed)
    expert = Bot.with_bgsage("expert")
    out: list[tuple[Position, Dice]] = []
    position = Position.initial()
    while len(out) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        moves = position.legal_moves(dice)
        if len(moves) > 1 and rng.random() < 0.3:
            out.append((position, dice))
        move = expert.choose_move(position, dice, ScoreContext()) if moves else None
        position = move.position_after() if move else position.flipped()
        if position.is_game_over():
            position = Position.initial()
    return out


def _summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{name}: mean {statistics.fmean(ms):.0f} ms, p95 {p95:.0f}, max {ms[-1]:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=LEVELS, default="grandmaster")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0, help="C++ threads (0: every core)")
    args = parser.parse_args(argv)
    level: Level = args.level
    positions = sample_positions(args.positions, args.seed)
    bot = Bot.with_bgsage(level, threads=args.threads)
    ctx = ScoreContext.for_match(7, 4, 3)
    before = os.getloadavg()
    checker: list[float] = []
    cube: list[float] = []
    for position, dice in positions:
        start = time.perf_counter()
        bot.choose_move(position, dice, ctx)
        checker.append(1000 * (time.perf_counter() - start))
        start = time.perf_counter()
        bot.cube_decision(position, ctx)
        cube.append(1000 * (time.perf_counter() - start))
    after = os.getloadavg()
    print(f"{level}, {len(positions)} positions, threads={args.threads}")
    print("  " + _summary("checker play", checker))
    print("  " + _summary("cube decision", cube))
    print("  " + _summary("all decisions", checker + cube))
    print(f"  load average before {before[0]:.1f}, after {after[0]:.1f} (1 minute)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
