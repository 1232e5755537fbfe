"""Reading and replaying ``.mat`` files: gammon against GNU Backgammon 1.07 in the same run.

    .venv/bin/python benchmarks/replay.py [FOLDER] [--src SRC ...] [--rounds 3]

For every ``*.mat`` file of FOLDER (default: the repository's ``tests/data/mat``, searched
recursively), times

* gammon's lenient reader (``mat_to_record``: the text parsed and every game replayed by
  the rules engine, each move checked against the legal ones), then ``replay`` of the
  record it made (what a server does when it loads a table's journal);
* gnubg's ``import mat`` of the same files, in one gnubg process (its start-up left out);

and prints the seconds of each (the best of ``--rounds``) and their ratio.  Each
``--src`` (e.g. an older commit's ``src``, checked out with ``git worktree add``) runs
the gammon side from that source, so that two commits compare in one run; the default is
this checkout's.  Without ``/usr/games/gnubg`` the reference is left out.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GNUBG = Path(os.environ.get("GAMMON_GNUBG", "/usr/games/gnubg"))

#: Runs in a fresh interpreter on the source under test: prints its timings as JSON.
GAMMON_SIDE = """
import json, sys, time
from gammon.match.formats.matread import mat_to_record
from gammon.match.record import replay
texts = [open(p, encoding="utf-8", errors="replace").read() for p in sys.argv[2:]]
best_read = best_replay = float("inf")
actions = 0
for _ in range(int(sys.argv[1])):
    try:
        from gammon.position import forget_plays
        forget_plays()  # every round starts without the kept play sets
    except ImportError:
        pass
    records = []
    t = time.perf_counter()
    for text in texts:
        try:
            records.append(mat_to_record(text))
        except ValueError:
            pass
    best_read = min(best_read, time.perf_counter() - t)
    t = time.perf_counter()
    for record in records:
        replay(record)
    best_replay = min(best_replay, time.perf_counter() - t)
    actions = sum(len(r.actions) for r in records)
print(json.dumps({"read": best_read, "replay": best_replay, "records": len(records),
                  "actions": actions}))
"""

#: Runs inside gnubg's Python: imports every file, prints the best round's seconds.
GNUBG_SIDE = """
import gnubg, json, time
gnubg.command("set display off")
paths = json.load(open(%r))
best = float("inf")
for _ in range(%d):
    t = time.perf_counter()
    for path in paths:
        gnubg.command("new session")
        gnubg.command('import mat "' + path + '"')
    best = min(best, time.perf_counter() - t)
print("GNUBG-SECONDS", best)
"""


def gammon_times(src: Path, paths: list[Path], rounds: int) -> dict[str, float]:
    """gammon's read and replay seconds (best of ``rounds``) from the source ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", GAMMON_SIDE, str(rounds), *map(str, paths)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def gnubg_seconds(paths: list[Path], rounds: int) -> float | None:
    """gnubg's seconds to import every file (best of ``rounds``), None without gnubg."""
    if not GNUBG.exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "paths.json"
        listing.write_text(json.dumps([str(p) for p in paths]))
        script = Path(tmp) / "run.py"
        script.write_text(GNUBG_SIDE % (str(listing), rounds))
        done = subprocess.run(
            [str(GNUBG), "-t", "-q", "-p", str(script)],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
            cwd=tmp,
        )
    for line in done.stdout.splitlines():
        if line.startswith("GNUBG-SECONDS"):
            return float(line.split()[1])
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "tests" / "data" / "mat")
    parser.add_argument(
        "--src",
        action="append",
        type=Path,
        help="run gammon from this source folder (repeat to compare commits)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="the best of this many rounds")
    args = parser.parse_args(argv)
    paths = sorted(args.folder.rglob("*.mat"))
    if not paths:
        parser.error(f"no .mat file under {args.folder}")
    print(f"{len(paths)} .mat files under {args.folder}, best of {args.rounds} rounds")
    reference = gnubg_seconds(paths, args.rounds)
    if reference is None:
        print("gnubg 1.07: not installed (no reference)")
    else:
        print(f"gnubg 1.07 import mat: {reference:.2f} s")
    for src in args.src or [ROOT / "src"]:
        t = gammon_times(src, paths, args.rounds)
        line = (
            f"gammon ({src}): {t['records']:.0f} records, {t['actions']:.0f} actions; "
            f"read {t['read']:.2f} s, replay {t['replay']:.2f} s "
            f"({1e3 * t['replay'] / max(1.0, t['actions']):.3f} ms an action)"
        )
        if reference is not None:
            line += f"; read / gnubg: {t['read'] / reference:.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
