"""The exact bear-off cube (``gammon.bots.endgame``) against GNU Backgammon's own.

gnubg 1.07 values a bear-off of up to six checkers a side on the six home points from
its two-sided bear-off database, which holds exact money equities with the cube
centred and owned (built at install by Debian's package; gnubg-nn ships the same
file).  Its values are also read straight from the file with gnubg's ``bearoffdump``
and compared with gammon's own database (``gammon.bots.bearoff``).  gnubg is run as an
external program (``gnubg -t -q -p script.py``), never imported: for a sample of short
bear-offs, with the cube centred and owned by the side on roll, its cubeful equities of
no double and double/take, and its proper action, must be ours.
"""

from __future__ import annotations

import itertools
import os
import random
import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from gammon.bots.endgame import exact_decision
from gammon.bots.equity import ScoreContext
from gammon.notation.xgid import format_xgid
from gammon.position import Position

GNUBG = Path(os.environ.get("GAMMON_GNUBG", "/usr/games/gnubg"))

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(
        not os.access(GNUBG, os.X_OK),
        reason=f"GNU Backgammon is not installed at {GNUBG} (apt-get install gnubg)",
    ),
]

_SCRIPT = """
import gnubg
gnubg.command("new session")
gnubg.command("set evaluation cubedecision eval plies 0")
for xgid in {xgids!r}:
    print("@@ " + xgid)
    gnubg.command("set xgid " + xgid)
    gnubg.command("hint")
"""

_LINE = re.compile(r"^\d\. (No double|Double, take|Double, pass)\s+([+-]\d+\.\d+)", re.M)
_PROPER = re.compile(r"^Proper cube action: (.+)$", re.M)


def _sides(most: int) -> list[dict[int, int]]:
    out = []
    for n in range(1, most + 1):
        for points in itertools.combinations_with_replacement(range(1, 7), n):
            side: dict[int, int] = {}
            for p in points:
                side[p] = side.get(p, 0) + 1
            out.append(side)
    return out


def _gnubg(xgids: list[str], tmp_path: Path) -> dict[str, str]:
    script = tmp_path / "cube.py"
    script.write_text(textwrap.dedent(_SCRIPT.format(xgids=xgids)), encoding="utf-8")
    run = subprocess.run(
        [str(GNUBG), "-t", "-q", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    blocks = run.stdout.split("@@ ")[1:]
    return {b.split("\n", 1)[0].strip(): b for b in blocks}


def test_short_bearoff_cube_decisions_are_gnubgs(tmp_path: Path) -> None:
    sides = _sides(4)
    pairs = list(itertools.product(sides, sides))[::97]
    cases: list[tuple[str, Position, ScoreContext]] = []
    for mine, theirs in pairs:
        pos = Position.from_points(mine, theirs)
        for value, owner, xgid_owner in ((1, "centered", 0), (2, "me", 1)):
            ctx = ScoreContext(cube_value=value, cube_owner=owner)  # type: ignore[arg-type]
            if exact_decision(pos, ctx) is None:
                continue
            xgid = format_xgid(pos, cube_value=value, cube_owner=xgid_owner, max_cube=1024)
            cases.append((xgid, pos, ctx))
    assert len(cases) >= 150
    answers = _gnubg([x for x, _, _ in cases], tmp_path)
    for xgid, pos, ctx in cases:
        block = answers[xgid]
        equities = {name: float(value) for name, value in _LINE.findall(block)}
        ours = exact_decision(pos, ctx)
        assert ours is not None
        assert ours.no_double == pytest.approx(equities["No double"], abs=0.0015), xgid
        assert ours.double_take == pytest.approx(equities["Double, take"], abs=0.0015), xgid
        proper = _PROPER.search(block)
        assert proper is not None, block
        action = proper.group(1).lower().replace("redouble", "double")
        # where two actions are worth the same (a sure win: no double = double/pass) either
        # label is right
        ties = (ours.double_take - ours.no_double, ours.double_take - 1, ours.no_double - 1)
        if min(abs(t) for t in ties) >= 0.002:
            assert ours.should_double == action.startswith("double"), (xgid, ours, action)
            if ours.should_double:
                assert ("take" in action) == (ours.response == "take"), (xgid, ours, action)


BEAROFFDUMP = GNUBG.parent / "bearoffdump"
_DUMP_LINE = re.compile(
    r"^(Cubeless equity|Owned cube|Centered cube|Opponent owns cube)\s*:\s*([+-]\d+\.\d+)", re.M
)


def _gnubg_database() -> Path | None:
    """gnubg's two-sided database: Debian's (built at install), else gnubg-nn's copy."""
    debian = Path("/var/lib/gnubg/gnubg_ts0.bd")
    if debian.exists():
        return debian
    import importlib.util

    spec = importlib.util.find_spec("gnubg_nn")
    if spec is None or spec.origin is None:
        return None
    packaged = Path(spec.origin).parent / "data" / "gnubg_ts0.bd"
    return packaged if packaged.exists() else None


def test_the_database_is_gnubgs_database() -> None:
    """300 random pairs of up to 6 checkers a side: gnubg's cubeless equity is ``2p - 1``
    of our win chance, and its cubeful money equities ours.  gnubg stores, for each
    cube state, the equity when the side on roll does not double now (``ND``); ours is
    after the best cube action, so its are turned into ours with the double written
    out: ``max(ND, min(1, 2 ND_opponent_owns))``.  Both are 16-bit: 4e-4 apart at most."""
    from gammon.bots.bearoff import EMPTY, BearoffDatabase

    path = _gnubg_database()
    assert path is not None, "gnubg's gnubg_ts0.bd (Debian's gnubg or gnubg-nn)"
    db = BearoffDatabase.default()
    rng = random.Random(924)
    everyone = [s for s in db.sides if s != EMPTY]
    worst = 0.0
    for _ in range(300):
        me, them = rng.choice(everyone), rng.choice(everyone)
        pos = Position.from_points(
            {p + 1: n for p, n in enumerate(me) if n}, {p + 1: n for p, n in enumerate(them) if n}
        )
        out = subprocess.run(
            [str(BEAROFFDUMP), str(path), "-p", pos.position_id()],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
        g = {name: float(value) for name, value in _DUMP_LINE.findall(out)}
        assert len(g) == 4, out
        double = min(1.0, 2.0 * g["Opponent owns cube"])
        ours = db.entry(me, them)
        pairs = [
            (2.0 * ours.win - 1.0, g["Cubeless equity"]),
            (ours.opponent_owns, g["Opponent owns cube"]),
            (ours.centred, max(g["Centered cube"], double)),
            (ours.owned, max(g["Owned cube"], double)),
        ]
        for got, want in pairs:
            assert got == pytest.approx(want, abs=4e-4), (me, them, out)
            worst = max(worst, abs(got - want))
    print(f"largest difference from gnubg's database: {worst:.5f}")
