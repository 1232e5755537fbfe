"""Acey-deucey's 1-2: time the generator of ``Position.legal_moves`` on 1-2 positions.

The 1-2 is played in full (the 1 and the 2), then a double of the player's choice four
times, so one 1-2 can have tens of thousands of legal moves.  ``reference_plays`` is the
former generator (one search of each double from each board the 1 and the 2 leave), kept
as the slow reference: the test suite checks the fast one against it
(``tests/test_acey_deucey_bonus.py``), and this benchmark prints both times.

Run:  PYTHONPATH=src .venv/bin/python benchmarks/acey_deucey.py [--games N] [--positions P]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gammon import Position
from gammon.rules import track
from gammon.sampling import game_positions

# the generator's board and a play's raw steps (gammon.rules.track's private types)
State = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]
Raw = tuple[int, ...]


def reference_plays(gen: track._Generator, st: State) -> dict[int, Raw]:
    """The 1-2 as the former generator played it: every 1-2 play, then each double searched
    on its own from the board it leaves; a board keeps its longest play, the first found."""
    first = gen.plays(st, 2, 1)
    if any(len(raw) < 8 for raw in first.values()):
        return first
    out: dict[int, Raw] = {}
    for key, raw in first.items():
        mid = track._unpack(key)
        for n in range(1, 7):
            more = gen.plays(mid, n, n)
            if not more:
                out.setdefault(key, raw)
            for k2, raw2 in more.items():
                old = out.get(k2)
                if old is None or len(raw) + len(raw2) > len(old):
                    out[k2] = raw + raw2
    return out


def positions(games: int, count: int, seed: int) -> list[Position]:
    """Distinct positions of random acey-deucey games, ``count`` of them drawn at random."""
    rng = random.Random(seed)
    seen: dict[str, Position] = {}
    for position, _ in game_positions(rng, games, variant="acey-deucey"):
        seen.setdefault(position.position_id(), position)
    found = list(seen.values())
    return random.Random(seed + 1).sample(found, min(count, len(found)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="random games to draw from")
    parser.add_argument("--positions", type=int, default=40, help="1-2 positions timed")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    sample = positions(args.games, args.positions, args.seed)
    gen = track._Generator(sample[0].variant)
    times: dict[str, list[float]] = {"before": [], "after": []}
    cpu: dict[str, list[float]] = {"before": [], "after": []}
    sizes: list[int] = []
    for position in sample:
        st = track._state(position)
        got = {}
        for name, run in (("before", reference_plays), ("after", _generator)):
            track._all_plays.cache_clear()
            w, c = time.perf_counter(), time.process_time()
            got[name] = run(gen, st)
            cpu[name].append(1000 * (time.process_time() - c))
            times[name].append(1000 * (time.perf_counter() - w))
        if got["before"] != got["after"] or list(got["before"]) != list(got["after"]):
            raise SystemExit(f"the generators differ on {position.position_id()}")
        sizes.append(len(got["after"]))
    print(
        f"{len(sample)} acey-deucey positions rolling 1-2, legal moves: "
        f"median {statistics.median(sizes):.0f}, max {max(sizes)}"
    )
    print("ms per 1-2 position (wall clock; CPU time of this process in brackets, which a")
    print("machine shared with other work does not inflate):")
    for name, label in (("before", "before (reference)"), ("after", "after (generator)")):
        w, c = times[name], cpu[name]
        print(
            f"{label:>20}: mean {statistics.fmean(w):.1f} [{statistics.fmean(c):.1f}], "
            f"median {statistics.median(w):.1f} [{statistics.median(c):.1f}], "
            f"max {max(w):.1f} [{max(c):.1f}]"
        )


def _generator(gen: track._Generator, st: State) -> dict[int, Raw]:
    return gen.all_plays(st, 2, 1)


if __name__ == "__main__":
    main()
