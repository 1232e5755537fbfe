"""How many ``.mat`` files of a folder gammon reads the way GNU Backgammon 1.07 does.

For each ``*.mat`` / ``*.txt`` file of DIR, gnubg's reading (``/usr/games/gnubg``, or the
program ``GAMMON_GNUBG`` names) is compared with gammon's: the match length, and for
each game the score at its start, the winner and the points.  When gnubg is not
installed the expected outcomes come from ``DIR/expected.json`` (written by
``--write-expected``).  Files that gnubg does not read are left out of the count.

Run:  PYTHONPATH=src .venv/bin/python benchmarks/mat_corpus.py DIR [--strict]
      [--write-expected] [--verbose]

It prints one line per file that gammon reads differently, with the reason, then
``N/M files read like gnubg``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from gammon.errors import GammonError
from gammon.match.formats import mat_to_record
from gammon.match.record import replay

GNUBG = Path(os.environ.get("GAMMON_GNUBG", "/usr/games/gnubg"))
SUFFIXES = (".mat", ".txt")

#: Runs inside gnubg's Python: imports each file and writes what gnubg read of it.
_SCRIPT = """
import gnubg, json
gnubg.command("set display off")
out = {}
for name, path in FILES:
    gnubg.command("new session")
    fresh = gnubg.match()
    gnubg.command('import mat "' + path + '"')  # quoted: names may hold spaces
    m = gnubg.match()
    if not m or not m.get("games") or m == fresh:  # unchanged: gnubg did not read it
        out[name] = None
        continue
    games = []
    for g in m["games"]:
        info = g["info"]
        games.append({
            "score": [info["score-X"], info["score-O"]],
            "winner": {"X": 0, "O": 1}.get(info.get("winner")),
            "points": info.get("points-won") or 0,
            "boards": [a["board"] for a in g["game"]
                       if a.get("action") == "move" and a.get("move")],
        })
    length = m["match-info"].get("match-length", 0)
    out[name] = {"length": length, "games": games}
json.dump(out, open(OUT, "w"), indent=1, sort_keys=True)
"""


def files_of(folder: Path) -> list[Path]:
    """The match files of a folder, in name order."""
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix.lower() in SUFFIXES and p.is_file() and not p.name.upper().startswith("README")
    )


def gnubg_outcomes(paths: list[Path], timeout: float = 600, batch: int = 100) -> dict[str, Any]:
    """What gnubg reads of each file: ``{name: {"length", "games": [...]}}``, None when
    it reads no game (or stops on the file: each batch that gnubg does not finish is
    split until the file that stops it is read alone)."""
    result: dict[str, Any] = {}
    pending = [paths[i : i + batch] for i in range(0, len(paths), batch)]
    while pending:
        group = pending.pop(0)
        read = _gnubg_run(group, timeout)
        if read is not None:
            result.update(read)
        elif len(group) == 1:
            result[group[0].name] = None
        else:
            half = len(group) // 2
            pending[:0] = [group[:half], group[half:]]
    return result


def _gnubg_run(paths: list[Path], timeout: float) -> dict[str, Any] | None:
    """One gnubg process over ``paths``; None when it writes no result."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        script = Path(tmp) / "script.py"
        files = [(p.name, str(p.resolve())) for p in paths]
        script.write_text(
            f"FILES = {files!r}\nOUT = {str(out)!r}\n" + textwrap.dedent(_SCRIPT),
            encoding="utf-8",
        )
        try:
            subprocess.run(
                [str(GNUBG), "-t", "-q", "-p", str(script)],
                capture_output=True,
                timeout=timeout,
                cwd=tmp,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return None
        if not out.exists():
            return None
        result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
        return result


def gammon_outcome(path: Path, *, strict: bool = False) -> dict[str, Any]:
    """What gammon reads of a file, in the form of :func:`gnubg_outcomes` (no boards)."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    record = mat_to_record(text, strict=strict)
    states = replay(record)
    games = []
    score = record.start_score
    for outcome in states[-1].games:
        games.append({"score": list(score), "winner": outcome.winner, "points": outcome.points})
        if outcome.winner is not None:
            s = list(score)
            s[outcome.winner] += outcome.points
            score = (s[0], s[1])
    final = states[-1]
    # a game under way: one with an action (a table with no roll-off starts the next
    # game on turn, before anything happens in it)
    begun = len(states) > 1 and states[-2].game.number == final.game.number
    if not final.over and final.game.phase != "opening" and begun:
        games.append({"score": list(score), "winner": None, "points": 0})
    return {"length": record.options.match_length, "games": games}


def compare(expected: dict[str, Any], got: dict[str, Any]) -> str | None:
    """The first difference between two outcomes, or None."""
    if expected["length"] != got["length"]:
        return f"match length {got['length']}, gnubg {expected['length']}"
    want, have = expected["games"], got["games"]
    # a money session's score lines are what the file says (gnubg shows them), not a score
    keys = ("score", "winner", "points") if expected["length"] else ("winner", "points")
    for i, (a, b) in enumerate(zip(want, have, strict=False), start=1):
        for key in keys:
            if a[key] != b[key]:
                return f"game {i}: {key} {b[key]!r}, gnubg {a[key]!r}"
    if len(want) != len(have):
        return f"{len(have)} games, gnubg {len(want)}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--strict", action="store_true", help="gammon's strict reader")
    parser.add_argument(
        "--write-expected", action="store_true", help="write gnubg's outcomes to expected.json"
    )
    parser.add_argument("--verbose", action="store_true", help="also list the matching files")
    args = parser.parse_args(argv)
    paths = files_of(args.folder)
    stored = args.folder / "expected.json"
    if os.access(GNUBG, os.X_OK):
        expected = gnubg_outcomes(paths)
        source = str(GNUBG)
        if args.write_expected:
            stored.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    elif stored.exists():
        expected = json.loads(stored.read_text(encoding="utf-8"))
        source = str(stored)
    else:
        print(f"no gnubg at {GNUBG} and no {stored}", file=sys.stderr)
        return 2
    read = [p for p in paths if expected.get(p.name)]
    same = 0
    for path in read:
        try:
            why = compare(expected[path.name], gammon_outcome(path, strict=args.strict))
        except GammonError as exc:
            why = f"refused: {exc}"
        if why is None:
            same += 1
            if args.verbose:
                print(f"ok    {path.name}")
        else:
            print(f"DIFF  {path.name}: {why}")
    skipped = len(paths) - len(read)
    note = f" ({skipped} that gnubg does not read left out)" if skipped else ""
    print(f"{same}/{len(read)} files read like gnubg (expected from {source}){note}")
    return 0 if same == len(read) else 1


if __name__ == "__main__":
    sys.exit(main())
