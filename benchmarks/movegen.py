"""Legal-move throughput of ``Position.legal_moves`` against gnubg-nn's generator.

Both generators get the same fixed, seeded corpus of (position, dice) pairs taken
from random games (contact, races, bear-offs, hits).  Each position is distinct
enough that no cache helps.  gnubg-nn's input boards are built before timing, and
our moves are materialised (a list of Move objects) so that both sides do the
whole job.

Run:  .venv/bin/python benchmarks/movegen.py [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time

import gnubg_nn

from gammon import Position
from gammon.sampling import game_positions


def corpus(games: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    return [(p, (d.d1, d.d2)) for p, d in game_positions(rng, games)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="random games in the corpus")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best is kept")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args()

    items = corpus(args.games, args.seed)
    boards = [([list(p.opponent[1:26]), list(p.player[1:26])], d1, d2) for p, (d1, d2) in items]
    n = len(items)

    def ours() -> int:
        total = 0
        for position, dice in items:
            total += len(position.legal_moves(dice))
        return total

    def gnubg() -> int:
        total = 0
        moves = gnubg_nn.moves
        for board, d1, d2 in boards:
            total += len(moves(board, d1, d2))
        return total

    results = {}
    for name, fn in (("gammon", ours), ("gnubg-nn", gnubg)):
        best = float("inf")
        count = 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            count = fn()
            best = min(best, time.perf_counter() - start)
        results[name] = (n / best, count)
    if results["gammon"][1] != results["gnubg-nn"][1]:
        raise SystemExit(f"move counts differ: {results}")
    print(
        f"corpus: {n} positions from {args.games} seeded games, {results['gammon'][1] / n:.1f} moves each"
    )
    for name, (rate, _) in results.items():
        print(f"{name:>9}: {rate:12,.0f} positions/s")
    print(f"    ratio: {results['gammon'][0] / results['gnubg-nn'][0]:.2f}x gnubg-nn")


if __name__ == "__main__":
    main()
