"""The position page's IDs are gnubg's (GNU Backgammon run as an external program,
``gnubg -t -q -p script.py``, never imported): for a sample of random positions (random
plays from the start), dice or none, cube value and owner, money or match scores and either
side on roll, the XGID ``gammon.server.analysis.positions.Setup`` writes is given to gnubg
(``set xgid``); gnubg's Position ID is ours, its Match ID ours (with the seats swapped
when the top player is on roll: gnubg 1.07 seats the player on roll as player 1), and our
reading of gnubg's ``PositionID:MatchID`` is the same setup.
"""

from __future__ import annotations

import os
import random
import subprocess
import textwrap
from pathlib import Path

import pytest

from gammon.notation.matchid import decode_match_id
from gammon.position import Position
from gammon.server.analysis.positions import Setup, setup_from_gnuid

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
for xgid in {xgids!r}:
    gnubg.command("set xgid " + xgid)
    print("@@", xgid, gnubg.positionid(), gnubg.matchid())
"""


def _setups(n: int) -> list[Setup]:
    rng = random.Random(32)
    out: list[Setup] = []
    while len(out) < n:
        pos = Position.initial()
        for _ in range(rng.randrange(0, 30)):
            moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
            if not moves:
                break
            after = rng.choice(moves).position_after()
            if after.is_game_over():
                break
            pos = after
        length = rng.choice((0, 0, 3, 5, 7))
        score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
        cube = rng.choice((1, 2, 4, 8))
        owner = None if cube == 1 else rng.choice((0, 1))
        # the larger die first, as gnubg writes them (an XGID may say 13 or 31)
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        dice = rng.choice((None, (max(a, b), min(a, b))))
        crawford = bool(length) and length - 1 in score and rng.random() < 0.5
        if crawford:  # nobody doubles in the Crawford game (Setup refuses a cube there)
            cube, owner = 1, None
        out.append(Setup(pos, rng.choice((0, 1)), dice, cube, owner, length, score, crawford))
    return out


def test_the_ids_of_random_setups_are_gnubgs(tmp_path: Path) -> None:
    setups = _setups(60)
    by_xgid = {s.xgid(): s for s in setups}
    script = tmp_path / "ids.py"
    script.write_text(textwrap.dedent(_SCRIPT.format(xgids=list(by_xgid))), encoding="utf-8")
    run = subprocess.run(
        [str(GNUBG), "-t", "-q", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    answers = [line.split()[1:] for line in run.stdout.splitlines() if line.startswith("@@ ")]
    assert len(answers) == len(by_xgid), run.stdout[-2000:]
    for xgid, pid, mid in answers:
        setup = by_xgid[xgid]
        assert setup.position_id() == pid, xgid
        if setup.seat == 0:  # the bottom player on roll: gnubg's seats are ours
            assert setup.match_id() == mid, xgid
            assert setup_from_gnuid(f"{pid}:{mid}").xgid() == setup.xgid(), xgid
            continue
        # the top player on roll: gnubg 1.07 seats it as player 1, so the seats swap
        ours, theirs = decode_match_id(setup.match_id()), decode_match_id(mid)
        assert theirs.score == ours.score[::-1], xgid
        assert theirs.player_on_roll == 1 - ours.player_on_roll, xgid
        flip = None if ours.cube_owner is None else 1 - ours.cube_owner
        assert theirs.cube_owner == flip, xgid
        for field in ("cube_value", "dice", "match_length", "crawford", "jacoby"):
            assert getattr(ours, field) == getattr(theirs, field), (xgid, field)
