"""The two-sided bear-off database: build time, size, lookups, and the solver's reach.

    .venv/bin/python benchmarks/bearoff.py [--per-size 6] [--before 3326ee0] [--no-gnubg]

Prints, on one core:

* building the 6-checker database (``gammon.bots.bearoff.build``) and writing its file
  (compression), its size, and reading it back; GNU Backgammon's ``makebearoff -t 6x6``
  building its own (same 853,776 pairs) in the same run, with its file size;
* lookups per second: a win chance, a full entry, and ``exact_decision`` of money play
  straight from the database (6 checkers a side);
* the solver's reach: for each score and each number of checkers a side (1..8),
  ``--per-size`` random bear-offs (both sides that many checkers, each on a random home
  point), how many ``exact_decision`` answers within its budget (40,000 values) and the
  mean time of an answer, without the database and with it; with ``--before REF``,
  also the solver of that commit (read with ``git show``), as it was before the database.
  "Largest" is the most checkers a side at which every sampled position was answered.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from gammon.bots import bearoff, endgame
from gammon.bots.equity import ScoreContext
from gammon.bots.met import MatchEquityTable
from gammon.position import Position

SCORES = {
    "money centred": ScoreContext(),
    "money owned 2": ScoreContext(cube_value=2, cube_owner="me"),
    "money beaver": ScoreContext(beaver=True),
    "money limit 2": ScoreContext(cube_limit=2),
    "7pt 3-0 owned 2": ScoreContext.for_match(7, 3, 0, cube_value=2, cube_owner="me"),
    "5pt 3-3 centred": ScoreContext.for_match(5, 3, 3),
    "7pt 4-6 post-Crawford": ScoreContext.for_match(7, 4, 6, post_crawford=True),
    "9pt 5-1 opp owns 2": ScoreContext.for_match(9, 5, 1, cube_value=2, cube_owner="opponent"),
}
MET = MatchEquityTable.default()


def _timed(work: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def build_and_size(gnubg: bool) -> None:
    took, db = _timed(lambda: bearoff.build(bearoff.MAX_CHECKERS))
    assert isinstance(db, bearoff.BearoffDatabase)
    wrote, data = _timed(db.to_bytes)
    assert isinstance(data, bytes)
    read, _ = _timed(lambda: bearoff.BearoffDatabase.from_bytes(data))
    print(f"gammon build (6 checkers, {len(db):,} pairs): {took:.1f} s; compress {wrote:.1f} s")
    print(f"gammon file: {len(data):,} bytes; read back in {read * 1000:.0f} ms")
    maker = shutil.which("makebearoff") or "/usr/games/makebearoff"
    if gnubg and Path(maker).exists():
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "ts.bd"
            took, _ = _timed(
                lambda: subprocess.run(
                    [maker, "-t", "6x6", "-f", str(out)], capture_output=True, check=True
                )
            )
            print(f"gnubg makebearoff -t 6x6: {took:.1f} s; file {out.stat().st_size:,} bytes")
    elif gnubg:
        print("gnubg's makebearoff not found: apt-get install gnubg")


def lookups() -> None:
    db = bearoff.BearoffDatabase.default()
    rng = random.Random(1)
    everyone = [s for s in db.sides if s != bearoff.EMPTY]
    pairs = [(rng.choice(everyone), rng.choice(everyone)) for _ in range(20_000)]
    took, _ = _timed(lambda: [db.win_chance(a, b) for a, b in pairs])
    print(f"win chance lookups: {len(pairs) / took:,.0f} per second")
    took, _ = _timed(lambda: [db.entry(a, b) for a, b in pairs])
    print(f"entry lookups: {len(pairs) / took:,.0f} per second")
    big = [p for p in pairs if sum(p[0]) == 6 and sum(p[1]) == 6][:200]
    positions = [_position(a, b) for a, b in big]
    took, got = _timed(lambda: [endgame.exact_decision(p, ScoreContext()) for p in positions])
    assert isinstance(got, list) and None not in got
    print(f"exact_decision, money, 6 checkers a side: {took / len(positions) * 1000:.2f} ms each")


def _position(me: bearoff.Side, them: bearoff.Side) -> Position:
    return Position.from_points(
        {p + 1: n for p, n in enumerate(me) if n}, {p + 1: n for p, n in enumerate(them) if n}
    )


def _random_side(rng: random.Random, checkers: int) -> bearoff.Side:
    counts = [0] * 6
    for _ in range(checkers):
        counts[rng.randrange(6)] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


def _before(ref: str) -> ModuleType:
    """The solver module of commit ``ref``."""
    source = subprocess.run(
        ["git", "show", f"{ref}:src/gammon/bots/endgame.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spec = importlib.util.spec_from_loader("_endgame_before", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["_endgame_before"] = module
    exec(compile(source, f"{ref}:endgame.py", "exec"), module.__dict__)
    return module


def reach(per_size: int, before: str | None) -> None:
    solvers: dict[str, Callable[[Position, ScoreContext], object]] = {}
    if before:
        old = _before(before)
        solvers[f"{before} (before)"] = lambda p, c: old.exact_decision(p, c, MET)
    solvers["no database"] = lambda p, c: endgame.exact_decision(p, c, MET, database=None)
    solvers["database"] = lambda p, c: endgame.exact_decision(p, c, MET)
    rng = random.Random(31)
    sizes = range(1, 9)
    samples = {
        n: [_position(_random_side(rng, n), _random_side(rng, n)) for _ in range(per_size)]
        for n in sizes
    }
    width = max(len(s) for s in solvers)
    for score, ctx in SCORES.items():
        print(f"\n{score}: answered of {per_size} (mean ms per answer), by checkers a side")
        for name, solve in solvers.items():
            cells = []
            largest = 0
            for n in sizes:
                answered = 0
                spent = 0.0
                for pos in samples[n]:
                    start = time.perf_counter()
                    got = solve(pos, ctx)
                    took = time.perf_counter() - start
                    if got is not None:
                        answered += 1
                        spent += took
                mean = f"{spent / answered * 1000:.0f}" if answered else "-"
                cells.append(f"{n}:{answered}({mean})")
                if answered == per_size and largest == n - 1:
                    largest = n
            print(f"  {name:<{width}}  largest {largest}  " + " ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-size", type=int, default=6)
    parser.add_argument("--before", help="a commit whose solver to compare (git show)")
    parser.add_argument("--no-gnubg", action="store_true", help="skip gnubg's makebearoff")
    args = parser.parse_args()
    build_and_size(not args.no_gnubg)
    lookups()
    reach(args.per_size, args.before)


if __name__ == "__main__":
    main()
