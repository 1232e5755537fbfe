"""Equity under a table's scoring, and cube decisions.

Everything here starts from cubeless :class:`~gammon.bots.evaluator.Probabilities`
of the player on roll ("me") and a :class:`ScoreContext` (cube, score, table
options).  Equities are *normalised*: in money play they are per unit of the
current cube and stake; in match play they are EMG ("equivalent to money game"):
the match winning chance (MWC) mapped linearly so that losing the current cube
value is -1 and winning it is +1.  Dropping a double is therefore always +1 for
the doubler.

>>> from gammon.bots.evaluator import Probabilities
>>> p = Probabilities(0.6, 0.2, 0.01, 0.1, 0.005)
>>> round(cubeless_equity(p, ScoreContext()), 4)
0.305
>>> round(cubeless_equity(p, ScoreContext(jacoby=True)), 4)     # Jacoby: gammons are singles
0.2
>>> round(cubeless_equity(p, ScoreContext(max_result=2)), 4)    # "Mars" table: no backgammons
0.3
>>> cube_decision(Probabilities(0.5), ScoreContext()).action
'no double'
>>> cube_decision(Probabilities(0.9), ScoreContext()).action
'double, pass'

Cube decisions: the method
--------------------------
We use Rick Janowski's cube-life interpolation ("Take-points in money games",
1993), extended to match play and to a capped cube by computing the live-cube
model from the real payoffs.  Written from the published theory; no engine's
code was used.

* *Dead cube*: the cubeless value of the game (no more doubles).
* *Fully live cube*: the position moves continuously, so a value is linear in
  the winning chance ``p`` between the points where a cube action happens.  With
  ``v`` the cube, the breakpoints are ``(0, lose)``, the take point ``(a, drop)``
  where the opponent would double me out, the cash point ``(c, cash)`` where I
  double the opponent out, and ``(1, win)``; ``lose``/``win`` are the average
  payoffs of a lost/won game (gammon rates included), ``drop``/``cash`` the
  payoffs of losing/winning ``v`` points.  ``c`` is where the opponent, owning a
  cube at ``2v``, is indifferent between take and drop (``2v`` state value =
  ``cash``); ``a`` likewise with the roles swapped.  These states are computed
  recursively up to the cube limit (or 2**10 times the cube when unlimited, by
  which the recursion has converged), so a capped cube automatically loses its
  redouble value: with the limit reached, the owner's cube is dead.
* *Real cube*: ``x * live + (1 - x) * dead`` with the cube-life index ``x``
  (:data:`DEFAULT_CUBE_LIFE` = 0.68, Janowski's usual value).

Payoffs are points in money play (gammons capped by the table's maximum result,
and singles while the cube is centred under the Jacoby rule) and MWC from the
match equity table in match play (:meth:`MatchEquityTable.after_game`, which
handles the Crawford and post-Crawford games).  In money play with an unlimited
cube this reproduces Janowski's formulas exactly, for example the live-cube take
point ``(L - 0.5) / (W + L + 0.5)`` (20% without gammons) and the dead-cube one
``(L - 0.5) / (W + L)`` (25%).

The cube is never offered in the Crawford game, past the cube limit, by the
player who does not own it, or when it is *dead* for the doubler in a match
(the current cube already wins the match for them: rules.md D8 and §6.6).
Beavers (money only, within the limit) are taken when they gain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Final, Literal

from gammon.bots.evaluator import Probabilities
from gammon.bots.met import MatchEquityTable

__all__ = [
    "DEFAULT_CUBE_LIFE",
    "CubeAction",
    "CubeDecision",
    "CubeOwner",
    "EquityModel",
    "ScoreContext",
    "cube_decision",
    "cubeful_equity",
    "cubeless_equity",
    "decide",
    "equity_after_move",
    "match_winning_chance",
    "money_equity",
]

#: Who owns the cube, seen from the player the context belongs to.
CubeOwner = Literal["me", "opponent", "centered"]
#: The right cube action for the player on roll (with the opponent's right answer).
CubeAction = Literal[
    "no double",
    "no double, beaver",
    "double, take",
    "double, pass",
    "double, beaver",
    "too good, take",
    "too good, pass",
]
#: Janowski's cube-life index: 0 = dead cube, 1 = fully live.
DEFAULT_CUBE_LIFE: Final = 0.68
#: How many doubles past the current cube an unlimited cube is modelled with.
_UNLIMITED_LEVELS: Final = 10
_CUBE_LIMITS: Final = (2, 4, 8, 16, 32, 64)
_DOUBLE_ACTIONS: Final[dict[str, CubeAction]] = {
    "take": "double, take",
    "pass": "double, pass",
    "beaver": "double, beaver",
}
_FLIP_OWNER: Final[dict[CubeOwner, CubeOwner]] = {
    "me": "opponent",
    "opponent": "me",
    "centered": "centered",
}


def _is_power_of_two(n: object) -> bool:
    return type(n) is int and n >= 1 and n & (n - 1) == 0


@dataclass(frozen=True, slots=True)
class ScoreContext:
    """The cube, the score and the table options, seen from one player ("me").

    * ``cube_value``, ``cube_owner``: the cube as it stands (``"me"``,
      ``"opponent"`` or ``"centered"``).
    * ``match_length``: 0 for money play; otherwise ``away_me`` and ``away_opp``
      are the points each player still needs (1..match length).
    * ``crawford_game``: this game is the Crawford game (no doubling);
      ``post_crawford``: the Crawford game has been played; ``crawford_rule``:
      whether the match uses the Crawford rule at all.
    * ``jacoby``, ``beaver``: money-play options (ignored in matches, rules.md §6.10).
    * ``cube_limit``: None (unlimited) or the largest cube value, 2..64 (rules.md
      D12); ``cube_enabled``: False when the table plays without a cube.
    * ``max_result``: the largest result a game can score, from the table's end
      setting and the variant: 1 (Oin), 2 (Mars) or 3 (Cox, standard).
    * ``stake``: money per point (used only to report amounts).

    >>> ctx = ScoreContext.for_match(7, score_me=4, score_opp=2)
    >>> ctx.away_me, ctx.away_opp, ctx.is_money
    (3, 5, False)
    >>> ctx.flipped().away_me
    5
    >>> ScoreContext(cube_value=3)
    Traceback (most recent call last):
    ...
    ValueError: the cube value must be a power of two, not 3
    """

    cube_value: int = 1
    cube_owner: CubeOwner = "centered"
    match_length: int = 0
    away_me: int = 0
    away_opp: int = 0
    crawford_game: bool = False
    post_crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    cube_limit: int | None = None
    cube_enabled: bool = True
    max_result: int = 3
    stake: int = 1
    crawford_rule: bool = True

    def __post_init__(self) -> None:
        if not _is_power_of_two(self.cube_value):
            raise ValueError(f"the cube value must be a power of two, not {self.cube_value!r}")
        if self.cube_owner not in ("me", "opponent", "centered"):
            raise ValueError(f"unknown cube owner {self.cube_owner!r}")
        if self.cube_limit is not None:
            if self.cube_limit not in _CUBE_LIMITS:
                raise ValueError(f"the cube limit must be None or one of {_CUBE_LIMITS}")
            if self.cube_value > self.cube_limit:
                raise ValueError(f"cube {self.cube_value} is above the limit {self.cube_limit}")
        if self.max_result not in (1, 2, 3):
            raise ValueError(f"max_result must be 1, 2 or 3, not {self.max_result!r}")
        if type(self.stake) is not int or self.stake < 1:
            raise ValueError(f"the stake must be a positive integer, not {self.stake!r}")
        if self.match_length == 0:
            if self.away_me or self.away_opp or self.crawford_game or self.post_crawford:
                raise ValueError("money play (match_length 0) has no away counts or Crawford game")
            return
        if type(self.match_length) is not int or self.match_length < 1:
            raise ValueError(f"bad match length {self.match_length!r}")
        for away in (self.away_me, self.away_opp):
            if type(away) is not int or not 1 <= away <= self.match_length:
                raise ValueError(f"away count {away!r} is not 1..{self.match_length}")
        if self.crawford_game and self.post_crawford:
            raise ValueError("a game cannot be both the Crawford game and post-Crawford")
        if (self.crawford_game or self.post_crawford) and 1 not in (self.away_me, self.away_opp):
            raise ValueError("the Crawford and post-Crawford games need a 1-away player")
        if self.crawford_game and not self.crawford_rule:
            raise ValueError("a Crawford game needs the Crawford rule")

    @classmethod
    def for_match(
        cls,
        match_length: int,
        score_me: int,
        score_opp: int,
        *,
        crawford_game: bool = False,
        post_crawford: bool = False,
        cube_value: int = 1,
        cube_owner: CubeOwner = "centered",
        cube_limit: int | None = None,
        cube_enabled: bool = True,
        max_result: int = 3,
        crawford_rule: bool = True,
    ) -> ScoreContext:
        """A match context from the match length and the scores."""
        return cls(
            cube_value=cube_value,
            cube_owner=cube_owner,
            match_length=match_length,
            away_me=match_length - score_me,
            away_opp=match_length - score_opp,
            crawford_game=crawford_game,
            post_crawford=post_crawford,
            cube_limit=cube_limit,
            cube_enabled=cube_enabled,
            max_result=max_result,
            crawford_rule=crawford_rule,
        )

    @property
    def is_money(self) -> bool:
        """Whether this is money play (not a match)."""
        return self.match_length == 0

    @property
    def jacoby_active(self) -> bool:
        """Whether gammons count as singles now (money, Jacoby on, cube centred)."""
        return self.is_money and self.jacoby and self.cube_owner == "centered"

    @property
    def beaver_allowed(self) -> bool:
        """Whether a double to ``2v`` may be beavered to ``4v`` here (money, within the limit)."""
        return (
            self.is_money
            and self.beaver
            and self.cube_enabled
            and (self.cube_limit is None or 4 * self.cube_value <= self.cube_limit)
        )

    def flipped(self) -> ScoreContext:
        """The same situation seen from the opponent."""
        owner: CubeOwner = _FLIP_OWNER[self.cube_owner]
        return replace(self, cube_owner=owner, away_me=self.away_opp, away_opp=self.away_me)

    def may_double(self) -> bool:
        """Whether the rules let "me" double now (cube on, not Crawford, owner, limit).

        This says nothing about whether the double is useful: see :class:`EquityModel`
        for dead cubes.

        >>> ScoreContext(cube_value=2, cube_owner="opponent").may_double()
        False
        >>> ScoreContext(cube_value=8, cube_owner="me", cube_limit=8).may_double()
        False
        """
        return (
            self.cube_enabled
            and not self.crawford_game
            and self.cube_owner != "opponent"
            and (self.cube_limit is None or 2 * self.cube_value <= self.cube_limit)
        )

    def after_double(self, *, beaver: bool = False) -> ScoreContext:
        """The context after "me" doubles and the opponent takes (or beavers)."""
        factor = 4 if beaver else 2
        return replace(self, cube_value=self.cube_value * factor, cube_owner="opponent")


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The cube decision of the player on roll, with normalised equities.

    ``no_double``, ``double_take`` and ``double_pass`` (always 1.0) are the
    doubler's equities for the three outcomes; ``double_beaver`` is the doubler's
    equity if the opponent beavers (None when a beaver is not allowed).
    ``response`` is the opponent's right answer to a double, ``should_double``
    whether "me" should double now, ``action`` the usual label.
    """

    no_double: float
    double_take: float
    double_pass: float
    double_beaver: float | None
    cubeless: float
    can_double: bool
    should_double: bool
    response: Literal["take", "pass", "beaver"]
    action: CubeAction

    @property
    def equity(self) -> float:
        """The equity of the position for "me" after the right cube action on both sides."""
        if not self.should_double:
            return self.no_double
        return {"take": self.double_take, "pass": self.double_pass}.get(
            self.response, self.double_beaver if self.double_beaver is not None else 0.0
        )


_Breaks = tuple[tuple[float, float], ...]


def _interpolate(points: _Breaks, p: float) -> float:
    if p <= points[0][0]:
        return points[0][1]
    for (p0, u0), (p1, u1) in pairwise(points):
        if p <= p1:
            if p1 - p0 < 1e-12:
                return u1
            return u0 + (p - p0) * (u1 - u0) / (p1 - p0)
    return points[-1][1]


def _solve(points: _Breaks, target: float) -> float:
    """The smallest p where the nondecreasing broken line reaches ``target`` (1 if never)."""
    if points[0][1] >= target:
        return points[0][0]
    for (p0, u0), (p1, u1) in pairwise(points):
        if u1 >= target:
            if u1 - u0 < 1e-15:
                return p1
            return p0 + (target - u0) * (p1 - p0) / (u1 - u0)
    return 1.0


class EquityModel:
    """Payoffs and cube theory for one :class:`ScoreContext` (see the module notes).

    Utilities are points per unit stake in money play and match winning chances
    in match play; :meth:`normalise` turns them into the normalised equity.  One
    model can value many positions with the same context (a move choice).

    >>> m = EquityModel(ScoreContext.for_match(5, 3, 3))
    >>> m.value(2), m.value(-2)      # win / lose 2 points from 2-away 2-away
    (1.0, 0.0)
    >>> round(EquityModel(ScoreContext()).take_point(Probabilities(0.5)), 4)   # Janowski, x = 0.68
    0.2137
    """

    def __init__(
        self,
        ctx: ScoreContext,
        met: MatchEquityTable | None = None,
        *,
        cube_life: float = DEFAULT_CUBE_LIFE,
    ) -> None:
        if not 0.0 <= cube_life <= 1.0:
            raise ValueError(f"cube life must be in 0..1, not {cube_life!r}")
        self.ctx: Final = ctx
        self.cube_life: Final = cube_life
        self._met = None if ctx.is_money else (met or MatchEquityTable.default())
        self._values: dict[int, float] = {}
        # the six outcome values by (cube, centered), and the opponent's model: both asked
        # for again and again by an analysis (each position after each move of each roll)
        self._outcomes: dict[tuple[int, bool], tuple[float, ...]] = {}
        self._theirs: EquityModel | None = None
        v = ctx.cube_value
        if not ctx.cube_enabled or ctx.crawford_game:
            self._top = v
        elif ctx.cube_limit is not None:
            self._top = ctx.cube_limit
        elif ctx.is_money:
            self._top = v << _UNLIMITED_LEVELS
        else:  # a cube above both away counts is dead for everyone
            top = v
            while top < max(ctx.away_me, ctx.away_opp):
                top *= 2
            self._top = 2 * top

    # ------------------------------------------------------------------ payoffs

    def value(self, points_won_by_me: int) -> float:
        """The utility of the game ending with ``points_won_by_me`` (negative: lost)."""
        if self._met is None:
            return float(points_won_by_me)
        cached = self._values.get(points_won_by_me)
        if cached is None:
            c = self.ctx
            cached = self._met.after_game(
                c.away_me,
                c.away_opp,
                points_won_by_me,
                crawford_game=c.crawford_game,
                post_crawford=c.post_crawford,
                crawford_rule=c.crawford_rule,
            )
            self._values[points_won_by_me] = cached
        return cached

    def _multipliers(self, centered: bool) -> tuple[int, int]:
        if centered and self.ctx.jacoby_active:
            return 1, 1
        m = self.ctx.max_result
        return min(2, m), min(3, m)

    def _outcome_values(self, v: int, centered: bool) -> tuple[float, ...]:
        found = self._outcomes.get((v, centered))
        if found is None:
            g, b = self._multipliers(centered)
            val = self.value
            found = (val(v), val(g * v), val(b * v), val(-v), val(-g * v), val(-b * v))
            self._outcomes[(v, centered)] = found
        return found

    def cubeless(self, probs: Probabilities, cube: int | None = None) -> float:
        """The cubeless utility of the game at the context's cube (or ``cube``)."""
        v = self.ctx.cube_value if cube is None else cube
        centered = cube is None and self.ctx.cube_owner == "centered"
        values = self._outcome_values(v, centered)
        return sum(p * u for p, u in zip(probs.outcomes(), values, strict=True))

    def normalise(self, utility: float) -> float:
        """Utility to normalised equity: losing the current cube is -1, winning it +1."""
        v = self.ctx.cube_value
        if self._met is None:
            return utility / v
        low, high = self.value(-v), self.value(v)
        if high - low < 1e-12:  # pragma: no cover - a MET is strictly increasing
            return 0.0
        return 2.0 * (utility - low) / (high - low) - 1.0

    def complement(self, utility: float) -> float:
        """The opponent's utility for the same outcome (zero-sum / 1 - MWC)."""
        return -utility if self._met is None else 1.0 - utility

    # ------------------------------------------------------------------ cube theory

    def can_double(self, who: Literal["me", "opponent"], cube: int) -> bool:
        """Whether ``who``, owning (or sharing) a cube at ``cube``, can make a useful double."""
        c = self.ctx
        if not c.cube_enabled or c.crawford_game or 2 * cube > self._top:
            return False
        if c.is_money:
            return True
        away = c.away_me if who == "me" else c.away_opp
        return cube < away  # otherwise the cube already wins the match: dead

    def _live(
        self,
        probs: Probabilities,
        cube: int,
        owner: CubeOwner,
        memo: dict[tuple[int, str], _Breaks],
    ) -> _Breaks:
        key = (cube, owner)
        found = memo.get(key)
        if found is not None:
            return found
        centered = owner == "centered"
        ws, wg, wb, ls, lg, lb = self._outcome_values(cube, centered)
        win, lose = probs.win, probs.lose
        o = probs.outcomes()
        win_value = (o[0] * ws + o[1] * wg + o[2] * wb) / win if win > 1e-9 else ws
        lose_value = (o[3] * ls + o[4] * lg + o[5] * lb) / lose if lose > 1e-9 else ls
        points = [(0.0, lose_value)]
        take = 0.0
        if owner != "me" and self.can_double("opponent", cube):
            take = _solve(self._live(probs, 2 * cube, "me", memo), ls)
            points.append((take, ls))
        if owner != "opponent" and self.can_double("me", cube):
            cash = _solve(self._live(probs, 2 * cube, "opponent", memo), ws)
            points.append((max(cash, take), ws))
        points.append((1.0, max(win_value, points[-1][1])))
        result = tuple(points)
        memo[key] = result
        return result

    def cubeful(
        self,
        probs: Probabilities,
        cube: int,
        owner: CubeOwner,
        memo: dict[tuple[int, str], _Breaks] | None = None,
    ) -> float:
        """The cubeful utility with the cube at ``cube`` owned by ``owner``, "me" on roll."""
        if memo is None:
            memo = {}
        live = _interpolate(self._live(probs, cube, owner, memo), probs.win)
        centered = owner == "centered"
        dead = sum(
            p * u
            for p, u in zip(probs.outcomes(), self._outcome_values(cube, centered), strict=True)
        )
        x = self.cube_life
        return x * live + (1.0 - x) * dead

    def take_point(self, probs: Probabilities) -> float:
        """The opponent's take point if "me" doubles now, as the opponent's winning chance.

        It keeps the gammon rates of ``probs`` (as shares of wins and losses) and
        finds the winning chance at which the opponent is indifferent between take
        and pass, with this model's cube life.  Useful for tests and teaching: in
        money play without gammons it is Janowski's ``0.5 / (2 + 0.5 x)``.
        """
        v = self.ctx.cube_value
        target = self.value(v)
        low, high = 0.0, 1.0
        for _ in range(60):
            mid = (low + high) / 2
            if self.cubeful(probs.with_win(mid), 2 * v, "opponent") < target:
                low = mid
            else:
                high = mid
        return 1.0 - (low + high) / 2

    def decision(self, probs: Probabilities) -> CubeDecision:
        """The cube decision of "me", on roll with ``probs``."""
        c = self.ctx
        v = c.cube_value
        memo: dict[tuple[int, str], _Breaks] = {}
        nd = self.cubeful(probs, v, c.cube_owner, memo)
        dt = self.cubeful(probs, 2 * v, "opponent", memo)
        bv: float | None = None
        if c.beaver_allowed:
            # after a beaver the doubler takes at 4v (opponent owns it) or drops 2v
            bv = max(self.cubeful(probs, 4 * v, "opponent", memo), self.value(-2 * v))
        may = c.may_double() and self.can_double("me", v)
        return decide(self, nd=nd, dt=dt, bv=bv, cubeless=self.cubeless(probs), may=may)

    def after_move(self, probs: Sequence[Probabilities]) -> list[float]:
        """Normalised equities of "me" after a move, for positions with the opponent on roll.

        ``probs`` are each position's probabilities for the opponent (on roll
        there); the opponent's cube action is taken into account.
        """
        theirs = self._their_model()
        return [self.normalise(self.complement(theirs.on_roll(p))) for p in probs]

    def _their_model(self) -> EquityModel:
        """The opponent's model (the same table and cube life), made once."""
        if self._theirs is None:
            self._theirs = EquityModel(self.ctx.flipped(), self._met, cube_life=self.cube_life)
        return self._theirs

    def after_move_cubeless(self, probs: Sequence[Probabilities]) -> list[float]:
        """Like :meth:`after_move`, without the cube (the game's cubeless value for "me")."""
        theirs = self._their_model()
        return [self.normalise(self.complement(theirs.cubeless(p))) for p in probs]

    def on_roll(self, probs: Probabilities) -> float:
        """The utility of "me" on roll, after the right cube action of both players."""
        c = self.ctx
        v = c.cube_value
        memo: dict[tuple[int, str], _Breaks] = {}
        nd = self.cubeful(probs, v, c.cube_owner, memo)
        if not (c.may_double() and self.can_double("me", v)):
            return nd
        best = min(self.value(v), self.cubeful(probs, 2 * v, "opponent", memo))
        if c.beaver_allowed:
            beaver = max(self.cubeful(probs, 4 * v, "opponent", memo), self.value(-2 * v))
            best = min(best, beaver)
        return max(nd, best)


# ---------------------------------------------------------------------- functions


def decide(
    model: EquityModel,
    *,
    nd: float,
    dt: float,
    bv: float | None,
    cubeless: float,
    may: bool,
) -> CubeDecision:
    """The cube decision from the doubler's utilities of no double (``nd``), double/take
    (``dt``) and double/beaver (``bv``, None if not allowed); ``may``: a useful double is
    allowed.  Shared by :class:`EquityModel` and :mod:`gammon.bots.endgame`.

    >>> decide(EquityModel(ScoreContext()), nd=0.9, dt=0.95, bv=None, cubeless=0.8, may=True).action
    'double, take'
    """
    dp = model.value(model.ctx.cube_value)
    answers = {"pass": dp, "take": dt}
    if bv is not None:
        answers["beaver"] = bv
    response: Literal["take", "pass", "beaver"] = "pass"
    best = dp
    for name in ("take", "beaver"):
        if name in answers and answers[name] < best - 1e-12:
            best = answers[name]
            response = "take" if name == "take" else "beaver"
    should = may and best > nd + 1e-12
    action: CubeAction
    if not may:
        action = "no double"
    elif should:
        action = _DOUBLE_ACTIONS[response]
    elif nd >= dp and response == "pass":
        action = "too good, pass"
    elif nd > dp:
        action = "too good, take"
    else:
        action = "no double, beaver" if response == "beaver" else "no double"
    n = model.normalise
    return CubeDecision(
        no_double=n(nd),
        double_take=n(dt),
        double_pass=n(dp),
        double_beaver=None if bv is None else n(bv),
        cubeless=n(cubeless),
        can_double=may,
        should_double=should,
        response=response,
        action=action,
    )


def money_equity(probs: Probabilities, *, max_result: int = 3, jacoby: bool = False) -> float:
    """Cubeless money equity per point: gammons and backgammons capped by ``max_result``.

    ``jacoby=True`` counts them as singles (the Jacoby rule with a centred cube).

    >>> p = Probabilities(0.7, 0.3, 0.1, 0.1, 0.0)
    >>> money_equity(p), round(money_equity(p, max_result=1), 6), round(money_equity(p, jacoby=True), 6)
    (0.7, 0.4, 0.4)
    """
    ctx = ScoreContext(max_result=max_result, jacoby=jacoby)
    return EquityModel(ctx).cubeless(probs)


def match_winning_chance(
    probs: Probabilities, ctx: ScoreContext, met: MatchEquityTable | None = None
) -> float:
    """The cubeless chance of winning the match once this game is over, at ``ctx``'s cube.

    In the Crawford game at 1-away 2-away, a win takes the match and a loss
    leads to 1-away 1-away (0.5), so an even game is worth 0.75:

    >>> ctx = ScoreContext.for_match(5, 4, 3, crawford_game=True)
    >>> round(match_winning_chance(Probabilities(0.5), ctx), 5)
    0.75
    """
    if ctx.is_money:
        raise ValueError("match winning chances need a match context")
    return EquityModel(ctx, met).cubeless(probs)


def cubeless_equity(
    probs: Probabilities, ctx: ScoreContext, met: MatchEquityTable | None = None
) -> float:
    """Normalised cubeless equity: money points per cube, or EMG in a match."""
    model = EquityModel(ctx, met)
    return model.normalise(model.cubeless(probs))


def cube_decision(
    probs: Probabilities,
    ctx: ScoreContext,
    met: MatchEquityTable | None = None,
    *,
    cube_life: float = DEFAULT_CUBE_LIFE,
) -> CubeDecision:
    """The cube decision of the player on roll (see the module notes for the method).

    >>> d = cube_decision(Probabilities(0.78), ScoreContext())
    >>> d.action, round(d.double_take, 3)
    ('double, take', 0.97)
    >>> cube_decision(Probabilities(0.9), ScoreContext.for_match(5, 4, 2, crawford_game=True)).action
    'no double'
    """
    return EquityModel(ctx, met, cube_life=cube_life).decision(probs)


def cubeful_equity(
    probs: Probabilities,
    ctx: ScoreContext,
    met: MatchEquityTable | None = None,
    *,
    cube_life: float = DEFAULT_CUBE_LIFE,
) -> float:
    """Normalised cubeful equity of the player on roll, after the right cube action."""
    model = EquityModel(ctx, met, cube_life=cube_life)
    return model.normalise(model.on_roll(probs))


def equity_after_move(
    probs: Probabilities,
    ctx: ScoreContext,
    met: MatchEquityTable | None = None,
    *,
    cube_life: float = DEFAULT_CUBE_LIFE,
) -> float:
    """The mover's normalised cubeful equity after a move.

    ``probs`` are the probabilities of the position after the move for the
    player then on roll (the opponent), as an evaluator returns them; ``ctx`` is
    the mover's context.  The opponent's cube action is taken into account.
    """
    return EquityModel(ctx, met, cube_life=cube_life).after_move([probs])[0]
