"""Exact cube decisions and checker plays in short bear-offs.

When both sides have all their checkers home and have each borne off at least one
(so no gammon is possible), the rest of the game is a finite tree of rolls, plays
and cube actions.  :class:`BearoffSolver` walks that tree exactly: for every
position of both sides it finds the best play of every roll and the best cube
action of both players, at the real score (the match equity table's payoffs,
the Crawford and post-Crawford games, dead cubes in a match, the cube limit,
beavers in money play).  Nothing is estimated: no cube-life index, no network.
The equities are the ones :mod:`gammon.bots.equity` would give if its cube model
were perfect, in the same normalised units.

The walk reads the two-sided bear-off database (:mod:`gammon.bots.bearoff`: every
pair of sides of up to 6 checkers) where it answers exactly: the cubeless race
wherever the cube is dead for both players (the Crawford game, a cube that already
wins the match for its owner, a capped cube, no cube), and the whole of money play
with an unlimited cube and no beavers, so money questions within its range are
answered straight from it and dead cubes end the walk wherever they appear.

The rest of the tree grows with the number of checkers and pips.  A solver is asked
about one position at one score, and gives up (:data:`None`) when the reachable part
of the tree is larger than its budget; the bot and the analysis then take the exact
race from the database where it has the position (:func:`bearoff_probabilities`),
else their evaluator, and the cube-life model.  Short bear-offs (a handful of
checkers each, the last rolls of a race) are within the default budget and are
answered in milliseconds.

Written from the rules; no engine's code was used.

>>> from gammon.bots.equity import ScoreContext
>>> from gammon.position import Position
>>> last_roll = Position.from_points({2: 2}, {1: 2})   # I bear off both, or I lose
>>> d = exact_decision(last_roll, ScoreContext(cube_value=2, cube_owner="me"))
>>> d.action, round(d.cubeless, 4)     # 26 rolls of 36 win; 10 of 36 is a take
('double, take', 0.4444)
>>> d = exact_decision(last_roll, ScoreContext.for_match(7, 3, 0, cube_value=2, cube_owner="me"))
>>> d.action
'double, take'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal

from gammon.bots.bearoff import EMPTY, ROLLS, BearoffDatabase, Side, home_side, plays
from gammon.bots.equity import CubeDecision, EquityModel, ScoreContext, decide
from gammon.bots.evaluator import Probabilities
from gammon.bots.met import MatchEquityTable
from gammon.position import Position

__all__ = [
    "DEFAULT_BUDGET",
    "SUPPORTED_VARIANTS",
    "BearoffSolver",
    "BudgetExceededError",
    "bearoff_probabilities",
    "exact_after_moves",
    "exact_decision",
    "home_side",
]

#: How many values (a pair of sides, a cube state) a solver may work out for one
#: question before it gives up: about a second of work on one core.  A question whose
#: estimated work (:meth:`BearoffSolver.fits`) is larger is not started.
DEFAULT_BUDGET: Final = 40_000

#: The variants whose bear-off follows the standard rules.
SUPPORTED_VARIANTS: Final = frozenset({"standard", "nackgammon", "hypergammon"})

#: Which database a solver reads: the shipped one, another, or none (the walk alone).
DatabaseChoice = BearoffDatabase | Literal["shipped"] | None

_EMPTY: Final = EMPTY
_ROLLS: Final = ROLLS


class BudgetExceededError(ArithmeticError):
    """The position's tree is larger than the solver's budget."""


@lru_cache(maxsize=4096)
def _bound(side: Side, most: int = 15) -> int:
    """How many sides ``side`` can become at most (of at most ``most`` checkers, the
    empty one included): those it dominates, with no more checkers than it on its
    points from any point up, as a checker only moves down or off.

    >>> _bound((0, 2, 0, 0, 0, 0)), _bound((0, 0, 0, 0, 0, 3)), _bound((0, 0, 0, 0, 0, 3), 2)
    (6, 84, 28)
    >>> _bound((1, 0, 0, 0, 0, 1))   # 6-1, 5-1, ..., 1-1, 6, ..., 1, nothing
    13
    """
    ways = {0: 1}  # by the checkers placed on the higher points
    for point in range(5, -1, -1):
        room = min(sum(side[point:]), most)
        nxt: dict[int, int] = {}
        for placed, n in ways.items():
            for total in range(placed, room + 1):
                nxt[total] = nxt.get(total, 0) + n
        ways = nxt
    return sum(ways.values())


class BearoffSolver:
    """Exact cubeful values of a short bear-off at one score (see the module notes).

    ``ctx`` is the context of the player on roll in the position asked about ("me",
    side 0); utilities are match winning chances in a match and points in money
    play, as :class:`~gammon.bots.equity.EquityModel` gives them.

    ``database`` is the two-sided bear-off database read where it answers exactly
    (:mod:`gammon.bots.bearoff`; the shipped one by default, None for the walk alone):
    the cubeless race wherever the cube is dead (no double is left to either player:
    the value is then the cubeless one at the cube's value, the best play the one that
    wins most often), and every value of money play with an unlimited cube and no
    beavers.  The walk covers the rest.

    >>> solver = BearoffSolver(ScoreContext())
    >>> round(solver.win_chance((0, 2, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)), 4)  # 26 of 36
    0.7222
    """

    def __init__(
        self,
        ctx: ScoreContext,
        met: MatchEquityTable | None = None,
        *,
        budget: int = DEFAULT_BUDGET,
        database: DatabaseChoice = "shipped",
    ) -> None:
        self.ctx: Final = ctx
        self.budget: Final = budget
        if met is None and not ctx.is_money:
            met = MatchEquityTable.default()
        self._models: Final = (EquityModel(ctx, met), EquityModel(ctx.flipped(), met))
        #: Money play with no cube limit: a value at cube ``v`` is ``v`` times the value
        #: at 1, so the cube value is left out of the positions remembered.
        self._scaled: Final = ctx.is_money and ctx.cube_limit is None
        self.database: Final = BearoffDatabase.default() if database == "shipped" else database
        #: The database's money equities hold here (an unlimited cube, no beavers).
        self._money: Final = (
            self.database is not None
            and self._scaled
            and ctx.cube_enabled
            and not ctx.beaver_allowed
        )
        self._memo: dict[tuple[int, Side, Side, int, int], float] = {}
        self._chances: dict[tuple[Side, Side], float] = {}

    def _covered(self, me: Side, them: Side) -> bool:
        return self.database is not None and self.database.covers(me, them)

    def live_states(self) -> int:
        """How many cube states (value, owner) the game can reach from the context's in
        which a player may still double (0: the cube is dead from now on).

        >>> BearoffSolver(ScoreContext.for_match(7, 3, 0, cube_value=2, cube_owner="me")).live_states()
        2
        >>> BearoffSolver(ScoreContext()).live_states(), BearoffSolver(ScoreContext(cube_limit=2)).live_states()
        (3, 1)
        """
        c = self.ctx
        start = (c.cube_value, {"centered": -1, "me": 0, "opponent": 1}[c.cube_owner])
        seen = {start}
        todo = [start]
        live = 0
        while todo:
            cube, owner = todo.pop()
            doublers = [side for side in (0, 1) if self._may_double(side, cube, owner)]
            live += bool(doublers)
            for side in doublers:
                for factor in (2, 4) if self._beaver(cube) else (2,):
                    nxt = (1 if self._scaled else factor * cube, 1 - side)
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
        return live

    def fits(self, me: Side, them: Side) -> bool:
        """Whether the work for these sides should be within the budget (a cheap bound).

        Every side can become at most ``_bound`` sides (those it dominates); the walk
        may value each pair of them with either side on roll, before and after the cube
        action, in every live cube state.  Pairs the database answers cost nothing; with
        a dead cube only the race is left to work out.
        """
        pairs = _bound(me) * _bound(them)
        db = self.database
        covered = 0 if db is None else _bound(me, db.checkers) * _bound(them, db.checkers)
        live = self.live_states()
        if live == 0:
            return 2 * (pairs - covered) <= self.budget
        walked = pairs - covered if self._money else pairs
        return 4 * live * walked <= self.budget

    # ------------------------------------------------------------------ rules of the cube

    def _may_double(self, mover: int, cube: int, owner: int) -> bool:
        """Whether ``mover`` may make a useful double (owner: -1 centred, else a side)."""
        c = self.ctx
        if not c.cube_enabled or c.crawford_game or owner == 1 - mover:
            return False
        if c.cube_limit is not None and 2 * cube > c.cube_limit:
            return False
        if c.is_money:
            return True
        away = c.away_me if mover == 0 else c.away_opp
        return cube < away  # otherwise the cube already wins the match: dead (rules.md D8)

    def _beaver(self, cube: int) -> bool:
        c = self.ctx
        return c.beaver_allowed and (c.cube_limit is None or 4 * cube <= c.cube_limit)

    # ------------------------------------------------------------------ values

    def _count(self) -> None:
        if len(self._memo) >= self.budget:
            raise BudgetExceededError(f"more than {self.budget} positions")

    def _dead(self, cube: int, owner: int) -> bool:
        """Whether neither player may double again (the cube stays as it is)."""
        return not (self._may_double(0, cube, owner) or self._may_double(1, cube, owner))

    def _cubeless(self, mover: int, me: Side, them: Side, cube: int) -> float:
        """``mover``'s utility with a dead cube: the race at the cube's value."""
        model = self._models[mover]
        p = self.win_chance(me, them)
        return p * model.value(cube) + (1.0 - p) * model.value(-cube)

    def on_roll(self, mover: int, me: Side, them: Side, cube: int, owner: int) -> float:
        """``mover``'s utility on roll before the cube action, both players playing right."""
        if self._scaled and cube != 1:
            return cube * self.on_roll(mover, me, them, 1, owner)
        if self._money and self.database is not None and self.database.covers(me, them):
            return self.database.equity(me, them, _db_owner(mover, owner))
        if self._dead(cube, owner):
            return self._cubeless(mover, me, them, cube)
        key = (mover, me, them, cube, owner)
        found = self._memo.get(key)
        if found is not None:
            return found
        self._count()
        value = self.no_double(mover, me, them, cube, owner)
        if self._may_double(mover, cube, owner):
            model = self._models[mover]
            answer = min(model.value(cube), self.no_double(mover, me, them, 2 * cube, 1 - mover))
            if self._beaver(cube):
                beavered = max(
                    self.no_double(mover, me, them, 4 * cube, 1 - mover), model.value(-2 * cube)
                )
                answer = min(answer, beavered)
            value = max(value, answer)
        self._memo[key] = value
        return value

    def no_double(self, mover: int, me: Side, them: Side, cube: int, owner: int) -> float:
        """``mover``'s utility if the cube stays as it is this turn (``owner`` -1: centred)."""
        if self._scaled and cube != 1:
            return cube * self.no_double(mover, me, them, 1, owner)
        if self._dead(cube, owner):
            return self._cubeless(mover, me, them, cube)
        if owner == 1 - mover and self._money and self._covered(me, them):
            return self.on_roll(mover, me, them, cube, owner)  # no cube action to take
        key = (2 + mover, me, them, cube, owner)  # 2, 3: no double this turn
        found = self._memo.get(key)
        if found is not None:
            return found
        self._count()
        model = self._models[mover]
        win = model.value(cube)
        total = 0.0
        for (high, low), ways in _ROLLS:
            best = -1e300
            for after in plays(me, high, low):
                if after == _EMPTY:
                    best = win
                    break
                u = model.complement(self.on_roll(1 - mover, them, after, cube, owner))
                best = max(best, u)
            total += ways * best
        value = total / 36.0
        self._memo[key] = value
        return value

    def win_chance(self, me: Side, them: Side) -> float:
        """The cubeless chance that the side on roll bears off first (best race play)."""
        if self.database is not None and self.database.covers(me, them):
            return self.database.win_chance(me, them)
        key = (me, them)
        found = self._chances.get(key)
        if found is not None:
            return found
        if len(self._chances) >= self.budget:
            raise BudgetExceededError(f"more than {self.budget} positions")
        total = 0.0
        for (high, low), ways in _ROLLS:
            best = 0.0
            for after in plays(me, high, low):
                best = 1.0 if after == _EMPTY else max(best, 1.0 - self.win_chance(them, after))
                if best == 1.0:
                    break
            total += ways * best
        value = total / 36.0
        self._chances[key] = value
        return value

    # ------------------------------------------------------------------ answers

    def decision(self, me: Side, them: Side) -> CubeDecision:
        """The cube decision of "me" on roll, with normalised equities (exact)."""
        c = self.ctx
        v = c.cube_value
        owner = {"centered": -1, "me": 0, "opponent": 1}[c.cube_owner]
        model = self._models[0]
        nd = self.no_double(0, me, them, v, owner)
        dt = self.no_double(0, me, them, 2 * v, 1)
        bv: float | None = None
        if c.beaver_allowed:
            bv = max(self.no_double(0, me, them, 4 * v, 1), model.value(-2 * v))
        p = self.win_chance(me, them)
        cubeless = p * model.value(v) + (1.0 - p) * model.value(-v)
        may = c.may_double() and self._may_double(0, v, owner)
        return decide(model, nd=nd, dt=dt, bv=bv, cubeless=cubeless, may=may)

    def after_move(self, me: Side, them: Side) -> tuple[float, float, float]:
        """After a play that left ``me`` (``them`` on roll): the mover's normalised cubeful
        and cubeless equities, and the chance that the side on roll (``them``) wins."""
        c = self.ctx
        v = c.cube_value
        owner = {"centered": -1, "me": 0, "opponent": 1}[c.cube_owner]
        model = self._models[0]
        if me == _EMPTY:
            won = model.normalise(model.value(v))
            return won, won, 0.0
        cubeful = model.complement(self.on_roll(1, them, me, v, owner))
        theirs = self.win_chance(them, me)
        cubeless = (1.0 - theirs) * model.value(v) + theirs * model.value(-v)
        return model.normalise(cubeful), model.normalise(cubeless), theirs


def _db_owner(mover: int, owner: int) -> Literal["centered", "me", "opponent"]:
    """The owner of the cube (-1: centred, else a side) as the database names it."""
    return "centered" if owner == -1 else "me" if owner == mover else "opponent"


def _sides(position: Position) -> tuple[Side, Side] | None:
    if position.variant.name not in SUPPORTED_VARIANTS or any(position.waiting):
        return None
    me, them = home_side(position.player), home_side(position.opponent)
    if me is None or them is None:
        return None
    return me, them


def exact_decision(
    position: Position,
    ctx: ScoreContext,
    met: MatchEquityTable | None = None,
    *,
    budget: int = DEFAULT_BUDGET,
    database: DatabaseChoice = "shipped",
) -> CubeDecision | None:
    """The exact cube decision of the player on roll, or None outside short bear-offs.

    None when a checker is still outside a home board, a side has borne off nothing
    yet, the variant's bear-off is not the standard one, or the tree is larger than
    ``budget`` positions.  ``database``: as :class:`BearoffSolver` takes it.
    """
    sides = _sides(position)
    if sides is None or _EMPTY in sides:  # not a bear-off, or the game is over
        return None
    solver = BearoffSolver(ctx, met, budget=budget, database=database)
    if not solver.fits(*sides):
        return None
    try:
        return solver.decision(*sides)
    except BudgetExceededError:
        return None


def exact_after_moves(
    afters: Sequence[Position],
    ctx: ScoreContext,
    met: MatchEquityTable | None = None,
    *,
    budget: int = DEFAULT_BUDGET,
    database: DatabaseChoice = "shipped",
) -> tuple[list[float], list[float], list[float]] | None:
    """Exact values of the plays of one roll, or None outside short bear-offs.

    ``afters`` are the positions after each play (the opponent on roll), ``ctx`` the
    mover's context.  Returns the mover's normalised cubeful and cubeless equities
    after each play and the opponent's chance of winning from each (cubeless).

    >>> after = Position.from_points({1: 2}, {1: 1})          # the opponent on roll
    >>> exact_after_moves([after], ScoreContext())
    ([-1.0], [-1.0], [1.0])
    """
    pairs = [_sides(a) for a in afters]
    if not pairs or any(p is None for p in pairs):
        return None
    solver = BearoffSolver(ctx, met, budget=budget, database=database)
    sides = [(me, them) for them, me in (p for p in pairs if p is not None)]
    if not all(solver.fits(them, me) for me, them in sides if me != _EMPTY):
        return None
    try:
        values = [solver.after_move(me, them) for me, them in sides]
    except BudgetExceededError:
        return None
    return [v[0] for v in values], [v[1] for v in values], [v[2] for v in values]


def bearoff_probabilities(position: Position) -> Probabilities | None:
    """The exact cubeless chances of the player on roll from the shipped bear-off
    database, or None when the position is not in it.

    For the bot and the analysis where the exact walk gives up (a match with a live
    cube and many checkers): the cube-life model then starts from the exact race.

    >>> p = Position.from_points({2: 2}, {1: 2})
    >>> round(bearoff_probabilities(p).win, 4), bearoff_probabilities(Position.initial())
    (0.7222, None)
    """
    sides = _sides(position)
    if sides is None or _EMPTY in sides:
        return None
    db = BearoffDatabase.default()
    if not db.covers(*sides):
        return None
    return Probabilities(db.win_chance(*sides))
