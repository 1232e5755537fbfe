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
import statistics
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

    # Interleave the two generators so that both see the same machine (clock speed,
    # neighbours); keep each one's best pass and also the ratio of each round.
    best = {"gammon": float("inf"), "gnubg-nn": float("inf")}
    counts = {"gammon": 0, "gnubg-nn": 0}
    ratios = []
    for _ in range(args.repeat):
        took = {}
        for name, fn in (("gammon", ours), ("gnubg-nn", gnubg)):
            start = time.perf_counter()
            counts[name] = fn()
            took[name] = time.perf_counter() - start
            best[name] = min(best[name], took[name])
        ratios.append(took["gnubg-nn"] / took["gammon"])
    results = {name: (n / best[name], counts[name]) for name in best}
    if results["gammon"][1] != results["gnubg-nn"][1]:
        raise SystemExit(f"move counts differ: {results}")
    print(
        f"corpus: {n} positions from {args.games} seeded games, {results['gammon'][1] / n:.1f} moves each"
    )
    for name, (rate, _) in results.items():
        print(f"{name:>9}: {rate:12,.0f} positions/s")
    print(f"    ratio: {results['gammon'][0] / results['gnubg-nn'][0]:.2f}x gnubg-nn (best passes)")
    print(
        f"   rounds: {', '.join(f'{r:.2f}' for r in ratios)} (median {statistics.median(ratios):.2f}x)"
    )


if __name__ == "__main__":
    main()
