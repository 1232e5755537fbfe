"""Differential tests against the GNU Backgammon program (Debian's ``gnubg``, 1.07).

gnubg is GPL: it is only run here, as an external program (``gnubg -t -q -p script.py``),
never imported or copied.  Four checks:

* gnubg plays random matches and money sessions against itself (0-ply with noise, so
  there are doubles, beavers, drops, resignations and Crawford games) and exports them
  as ``.mat``; gammon imports every export to gnubg's games, winners, points and moves;
* gnubg imports every ``.mat`` and SGF that gammon writes for random matches of our
  engine to the same games, winners and points;
* ``xgid_to_gnubg_id(..., seat_on_roll=True)`` is what gnubg 1.07's ``set xgid`` gives;
* gnubg reads the dialect corpus (tests/data/mat/dialects/) as ``expected.json`` stores
  it, and gammon reads each of those files as gnubg does.

They skip when ``/usr/games/gnubg`` is missing (``GAMMON_GNUBG`` names another path);
``.ci/run`` installs it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gammon.match import Match, MatchRecord, Play, TableOptions, replay
from gammon.match.formats import mat_to_record, match_to_mat, match_to_sgf
from gammon.notation.matchid import xgid_to_gnubg_id
from strategies import random_action

GNUBG = Path(os.environ.get("GAMMON_GNUBG", "/usr/games/gnubg"))

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(
        not os.access(GNUBG, os.X_OK),
        reason=f"GNU Backgammon is not installed at {GNUBG} (apt-get install gnubg)",
    ),
]

SEAT = {"X": 0, "O": 1}

#: Runs inside gnubg's Python: a helper that writes what gnubg knows of the match.
_DUMP = """
import gnubg, json

def dump():
    m = gnubg.match()
    games = []
    for g in (m or {}).get("games", []):
        info = g["info"]
        moves = [
            [a["player"], sorted(a["dice"]), a["board"]]
            for a in g["game"]
            if a.get("action") == "move" and a.get("move")
        ]
        games.append({
            "score": [info["score-X"], info["score-O"]],
            "winner": info.get("winner"),
            "points": info.get("points-won"),
            "resigned": info.get("resigned"),
            "moves": moves,
        })
    return {"length": (m or {}).get("match-info", {}).get("match-length"), "games": games}
"""


def run_gnubg(body: str, tmp_path: Path, timeout: float = 120) -> Any:
    """Run a script in gnubg (``dump()`` is defined; ``OUT`` is a JSON file path); its JSON."""
    out = tmp_path / "out.json"
    script = tmp_path / "script.py"
    script.write_text(_DUMP + f"OUT = {str(out)!r}\n" + textwrap.dedent(body), encoding="utf-8")
    done = subprocess.run(
        [str(GNUBG), "-t", "-q", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if not out.exists():
        raise AssertionError(
            f"gnubg wrote no result:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        )
    return json.loads(out.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- gnubg's exports


#: (match length, 0 = a money session of three games) for each self-played match.
EXPORTS = [1, 3, 5, 7, 0, 2, 0, 3, 5, 0]

_SELF_PLAY = """
import os
for p in (0, 1):
    gnubg.command(f"set player {p} gnubg")
    for kind in ("chequerplay", "cubedecision"):
        gnubg.command(f"set player {p} {kind} evaluation plies 0")
        gnubg.command(f"set player {p} {kind} evaluation noise 0.25")
        gnubg.command(f"set player {p} {kind} evaluation deterministic off")
gnubg.command("set display off")
gnubg.command("set rng mersenne")
gnubg.command("set beavers 2")  # a beaver and a raccoon at most, as our tables allow
results = []
for i, length in enumerate(LENGTHS):
    gnubg.command(f"set seed {SEED + i}")
    if length:
        gnubg.command(f"new match {length}")
    else:
        gnubg.command("set automatic game off")
        gnubg.command("new session")
        gnubg.command("new game")
        gnubg.command("new game")
        gnubg.command("set automatic game on")
    path = os.path.join(DIR, f"gnubg-{i:02d}.mat")
    gnubg.command(f"export match mat {path}")
    results.append({"file": path, **dump()})
json.dump(results, open(OUT, "w"))
"""


def our_moves(record: MatchRecord) -> list[list[list[Any]]]:
    """Each game's checker plays as gnubg lists them: player, sorted dice, the Position ID
    before the move (from the mover's side)."""
    games: dict[int, list[list[Any]]] = {}
    for before, action in zip(replay(record), record.actions, strict=False):
        if isinstance(action, Play):
            g = before.game
            assert g.dice is not None
            games.setdefault(g.number, []).append(
                ["XO"[action.player], sorted((g.dice.d1, g.dice.d2)), g.position.position_id()]
            )
    return [games[n] for n in sorted(games)]


def test_gammon_imports_every_mat_gnubg_exports(tmp_path: Path) -> None:
    results = run_gnubg(
        f"LENGTHS = {EXPORTS!r}\nSEED = 1000\nDIR = {str(tmp_path)!r}\n" + _SELF_PLAY, tmp_path
    )
    assert len(results) == len(EXPORTS)
    failures = []
    seen: set[str] = set()
    for result in results:
        path = Path(result["file"])
        text = path.read_text(encoding="utf-8")
        seen |= {word for word in ("Doubles", "Takes", "Drops", "Beavers") if word in text}
        seen |= {"resigned" for g in result["games"] if g["resigned"]}
        seen |= {"gammon" for g in result["games"] if not g["resigned"] and g["points"] >= 2}
        try:
            record = mat_to_record(text)
        except ValueError as exc:
            failures.append(f"{path.name}: {exc}")
            continue
        final = replay(record)[-1]
        theirs = [(SEAT[g["winner"]], g["points"]) for g in result["games"]]
        ours = [(o.winner, o.points) for o in final.games]
        if ours != theirs:
            failures.append(f"{path.name}: games {ours}, gnubg {theirs}")
        mine, gnubgs = our_moves(record), [g["moves"] for g in result["games"]]
        if mine != gnubgs:
            where = (
                next(
                    (i, a, b) for i, (a, b) in enumerate(zip(mine, gnubgs, strict=False)) if a != b
                )
                if len(mine) == len(gnubgs)
                else (len(mine), len(gnubgs))
            )
            failures.append(f"{path.name}: the moves differ: {str(where)[:600]}")
        last = result["games"][-1]
        score = [
            last["score"][s] + (last["points"] if SEAT[last["winner"]] == s else 0) for s in (0, 1)
        ]
        if record.options.is_match:
            score = [min(s, record.options.match_length) for s in score]
        if list(final.score) != score:
            failures.append(f"{path.name}: score {final.score}, gnubg {score}")
    assert not failures, "\n".join(failures)
    print(f"{len(results)} gnubg exports imported; they show {sorted(seen)}")
    assert seen >= {"Doubles", "Takes", "Drops", "resigned"}, seen


# --------------------------------------------------------------------------- what gammon writes

#: Tables gnubg can hold: standard variant, Crawford matches, money with and without Jacoby.
TABLES = [
    TableOptions(match_length=1),
    TableOptions(match_length=3),
    TableOptions(match_length=5),
    TableOptions(match_length=4),
    TableOptions(),
    TableOptions(jacoby=True),
    TableOptions(beaver=True),
    TableOptions(match_length=3, crawford=False),
    # the roll-off's winner rolls again: games may start with a double (issue #32)
    TableOptions(match_length=3, opening="reroll"),
]


def random_record(options: TableOptions, seed: int) -> MatchRecord:
    rng = random.Random(seed)
    match = Match(options, players=("Ann", "Bob"))
    for _ in range(4000):
        state = match.state
        if state.over or (not options.is_match and len(state.games) >= 3):
            break
        match.push(random_action(state, rng))
    return match.record()


_IMPORT = """
results = []
for path in FILES:
    gnubg.command("new session")
    if path.endswith(".sgf"):
        gnubg.command(f"load match {path}")
    else:
        gnubg.command(f"import mat {path}")
    results.append({"file": path, **dump()})
json.dump(results, open(OUT, "w"))
"""


def test_gnubg_imports_every_mat_and_sgf_gammon_writes(tmp_path: Path) -> None:
    expected: dict[str, list[tuple[int | None, int]]] = {}
    files = []
    for i in range(16):
        record = random_record(TABLES[i % len(TABLES)], 500 + i)
        games = [(o.winner, o.points) for o in replay(record)[-1].games]
        for suffix, text in ((".mat", match_to_mat(record)), (".sgf", match_to_sgf(record))):
            path = tmp_path / f"gammon-{i:02d}{suffix}"
            path.write_text(text, encoding="utf-8")
            files.append(str(path))
            expected[str(path)] = games
    results = run_gnubg(f"FILES = {files!r}\n" + _IMPORT, tmp_path)
    failures = []
    for result in results:
        theirs = [
            (SEAT[g["winner"]], g["points"])
            for g in result["games"]
            if g["winner"] in SEAT  # a game still going on has no winner
        ]
        ours = expected[result["file"]]
        if theirs != ours:
            failures.append(f"{Path(result['file']).name}: gammon {ours}, gnubg {theirs}")
    assert len(results) == len(files)
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------- XGID

XGIDS = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10",
    "XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8",
    "XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:2:3:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:3:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:2:-1:-1:31:4:1:0:9:10",
]


def test_xgid_seat_on_roll_is_what_gnubg_107_sets(tmp_path: Path) -> None:
    body = f"""
    ids = {{}}
    for x in {XGIDS!r}:
        gnubg.command("set xgid " + x)
        ids[x] = gnubg.positionid(gnubg.board()) + ":" + gnubg.matchid()
    json.dump(ids, open(OUT, "w"))
    """
    theirs = run_gnubg(body, tmp_path)
    ours = {x: xgid_to_gnubg_id(x, seat_on_roll=True) for x in XGIDS}
    assert ours == theirs
    # the fixed seats differ from gnubg 1.07 exactly when the top player is on roll
    for x in XGIDS:
        assert (xgid_to_gnubg_id(x) == theirs[x]) == (x.split(":")[3] == "1"), x


# --------------------------------------------------------------------------- our corpus

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mat" / "corpus"


def test_gnubg_reads_the_corpus_as_gammon_does(tmp_path: Path) -> None:
    files = sorted(str(p) for p in CORPUS.glob("*.mat"))
    results = run_gnubg(f"FILES = {files!r}\n" + _IMPORT, tmp_path)
    failures = []
    for result in results:
        record = mat_to_record(Path(result["file"]).read_bytes().decode("utf-8"))
        ours = [(o.winner, o.points) for o in replay(record)[-1].games]
        theirs = [(SEAT[g["winner"]], g["points"]) for g in result["games"] if g["winner"] in SEAT]
        if ours != theirs:
            failures.append(f"{Path(result['file']).name}: gammon {ours}, gnubg {theirs}")
        mine, gnubgs = our_moves(record), [g["moves"] for g in result["games"]]
        for number, (a, b) in enumerate(zip(mine, gnubgs, strict=False), start=1):
            winner = ours[number - 1][0] if number <= len(ours) else None
            # gnubg keeps a move that the loser wrote before resigning off roll; our rules
            # take the resignation after that move's roll and leave the move out
            resigned_after_move = (
                a == b[:-1] and winner is not None and b[-1][0] == "XO"[1 - winner]
            )
            if a != b and not resigned_after_move:
                failures.append(f"{Path(result['file']).name} game {number}: the moves differ")
    assert len(results) == len(files)
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------- the dialect corpus

DIALECTS = Path(__file__).resolve().parents[1] / "data" / "mat" / "dialects"


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "mat_corpus.py"
    spec = importlib.util.spec_from_file_location("mat_corpus", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mat_corpus", module)
    spec.loader.exec_module(module)
    return module


def test_gnubg_reads_the_dialects_as_stored_and_so_do_we(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """gnubg's reading of tests/data/mat/dialects/ is what ``expected.json`` stores (the
    test that runs without gnubg checks against it), and gammon reads every file the same
    way (``benchmarks/mat_corpus.py``, issue #16's measure)."""
    bench = _bench()
    paths = bench.files_of(DIALECTS)
    stored = json.loads((DIALECTS / "expected.json").read_text(encoding="utf-8"))
    assert bench.gnubg_outcomes(paths) == stored
    assert bench.main([str(DIALECTS)]) == 0
    assert capsys.readouterr().out.endswith(
        f"{len(paths)}/{len(paths)} files read like gnubg (expected from {GNUBG})\n"
    )
