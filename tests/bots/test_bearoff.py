"""The two-sided bear-off database (gammon.bots.bearoff) against independent oracles.

* An exact race enumeration written here, with its own bear-off rules on checker
  lists (not the database's side counts), over every pair it reaches from a random
  sample of pairs: the stored win chances must be its values.
* One roll of the rules engine (``Position.legal_moves``, itself checked against
  gnubg) from random pairs across the whole range, 6 checkers a side included: every
  stored value must be what the best play of each roll leads to, by the stored values
  after it (the equations of the module notes), so the table is consistent everywhere.
* The shipped file is what the builder makes (a small build, pair by pair).

GNU Backgammon's own database is the oracle of tests/oracle/test_gnubg_bearoff.py.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from pathlib import Path

import pytest

from gammon.bots.bearoff import (
    EMPTY,
    BearoffDatabase,
    BearoffFormatError,
    Side,
    build,
    home_side,
    main,
)
from gammon.position import Position

DB = BearoffDatabase.default()
#: The 21 rolls with their number of ways out of 36.
ROLLS = [((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)]

Checkers = tuple[int, ...]  # the points of a side's checkers, highest first


def _checkers(side: Side) -> Checkers:
    return tuple(sorted((p + 1 for p, n in enumerate(side) for _ in range(n)), reverse=True))


def _steps(checkers: Checkers, die: int) -> set[Checkers]:
    """Every way to play one die: a checker moves down ``die`` points, leaves from
    exactly ``die``, or from below ``die`` when it is the highest checker."""
    out = set()
    for i, point in enumerate(checkers):
        if point > die or point == die or i == 0:
            rest = checkers[:i] + checkers[i + 1 :]
            if point > die:
                rest = (*rest, point - die)
            out.add(tuple(sorted(rest, reverse=True)))
    return out


def _rolls(checkers: Checkers, a: int, b: int) -> set[Checkers]:
    orders = [(a, a, a, a)] if a == b else [(a, b), (b, a)]
    ends: set[Checkers] = set()
    for dice in orders:
        front = {checkers}
        for die in dice:
            front = {s for c in front for s in (_steps(c, die) if c else {c})}
        ends |= front
    return ends


@cache
def _race(me: Checkers, them: Checkers) -> float:
    """The chance that ``me`` (on roll) bears off first: the enumeration."""
    total = 0.0
    for (a, b), ways in ROLLS:
        total += ways * max(1.0 if not s else 1.0 - _race(them, s) for s in _rolls(me, a, b))
    return total / 36.0


def _position(me: Side, them: Side) -> Position:
    return Position.from_points(
        {p + 1: n for p, n in enumerate(me) if n}, {p + 1: n for p, n in enumerate(them) if n}
    )


def test_the_rules_here_are_the_engines() -> None:
    """The enumeration's bear-off rules give the engine's plays (so it is a fair oracle)."""
    for side in [s for s in DB.sides if s != EMPTY][::23]:
        pos = _position(side, (1, 0, 0, 0, 0, 0))
        for (a, b), _ways in ROLLS:
            engine = set()
            for move in pos.legal_moves((a, b)):
                after = home_side(move.position_after().opponent)
                engine.add(_checkers(after) if after is not None else ())
            assert _rolls(_checkers(side), a, b) == engine, (side, a, b)


def test_the_win_chances_are_an_exact_enumeration() -> None:
    """300 random pairs whose sides keep to three points or two checkers (so that the
    enumeration, which visits every pair they reach, takes a second)."""
    small = [s for s in DB.sides if s != EMPTY and (sum(s) <= 2 or not any(s[3:]))]
    rng = random.Random(31)
    pairs = [(rng.choice(small), rng.choice(small)) for _ in range(300)]
    assert max(sum(a) for a, _ in pairs) == 6
    for me, them in pairs:
        want = _race(_checkers(me), _checkers(them))
        assert DB.win_chance(me, them) == pytest.approx(want, abs=2e-10), (me, them)


def test_every_stored_value_follows_from_one_roll_of_the_rules_engine() -> None:
    """At 300 random pairs over the whole range: the win chance and the three cubeful
    money equities are what the best play of each roll (the engine's legal moves) and
    the stored values after it give, with the cube actions written out."""
    rng = random.Random(6)
    everyone = [s for s in DB.sides if s != EMPTY]
    for _ in range(300):
        me, them = rng.choice(everyone), rng.choice(everyone)
        pos = _position(me, them)
        p = nd_c = nd_o = nd_x = 0.0
        for dice, ways in ROLLS:
            best = [-9.0] * 4
            for move in pos.legal_moves(dice):
                after = home_side(move.position_after().opponent)
                assert after is not None
                if after == EMPTY:
                    values = [1.0] * 4
                else:
                    e = DB.entry(them, after)
                    values = [1.0 - e.win, -e.centred, -e.opponent_owns, -e.owned]
                best = [max(x, y) for x, y in zip(best, values, strict=True)]
            p += ways * best[0] / 36
            nd_c += ways * best[1] / 36
            nd_o += ways * best[2] / 36
            nd_x += ways * best[3] / 36
        got = DB.entry(me, them)
        double = min(1.0, 2.0 * nd_x)  # the opponent passes, or takes a cube at 2
        assert got.win == pytest.approx(p, abs=1e-9), (me, them)
        assert got.opponent_owns == pytest.approx(nd_x, abs=4e-5), (me, them)
        assert got.centred == pytest.approx(max(nd_c, double), abs=8e-5), (me, them)
        assert got.owned == pytest.approx(max(nd_o, double), abs=8e-5), (me, them)


def test_the_shipped_file_is_what_the_builder_makes() -> None:
    small = build(3)
    assert len(small) == 84 * 84
    again = BearoffDatabase.from_bytes(small.to_bytes())
    for me, them in itertools.product(small.sides, repeat=2):
        assert DB.entry(me, them) == small.entry(me, them) == again.entry(me, them)


def test_known_values() -> None:
    """Last rolls: 26 of 36 rolls bear off two checkers from the 2-point; 27 of 36 bear
    off a checker from the 6-point (a sum of 6, or a double above 1-1); a checker on the
    ace always leaves."""
    two, ace2, six, ace = (
        (0, 2, 0, 0, 0, 0),
        (2, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 1),
        (1,) + (0,) * 5,
    )
    assert DB.win_chance(two, ace2) == pytest.approx(26 / 36)
    last = DB.entry(two, ace2)
    # centred or owned, a double is taken (26/36 - 10/36 = 0.444 for one; 0.889 for two)
    assert last.centred == pytest.approx(2 * 16 / 36, abs=2e-5)
    assert last.owned == pytest.approx(2 * 16 / 36, abs=2e-5)
    assert last.opponent_owns == pytest.approx(16 / 36, abs=2e-5)
    assert DB.win_chance(ace, six) == 1.0
    assert DB.win_chance(six, ace) == pytest.approx(27 / 36)
    assert DB.entry(six, ace).centred == pytest.approx(1.0, abs=2e-5)  # double/take is 1 too
    assert DB.covers(six, ace) and not DB.covers((7, 0, 0, 0, 0, 0), ace)


def test_a_file_that_is_not_a_database_is_refused() -> None:
    data = build(1).to_bytes()
    with pytest.raises(BearoffFormatError, match="damaged"):
        BearoffDatabase.from_bytes(data[:-10])
    with pytest.raises(BearoffFormatError, match="format 9"):
        BearoffDatabase.from_bytes(data[:16] + b"\x09" + data[17:])
    with pytest.raises(KeyError, match="up to 6 checkers"):
        DB.win_chance((7, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))


def test_the_command_builds_a_file_and_shows_a_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "two.bin"
    assert main(["build", "--checkers", "2", "--output", str(out)]) == 0
    assert BearoffDatabase.load(out).entry((0, 2, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)) == DB.entry(
        (0, 2, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)
    )
    assert main(["show", "020000", "200000"]) == 0
    assert "win=0.7222" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="six digits"):
        main(["show", "02", "200000"])
