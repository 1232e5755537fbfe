"""The bot: moves, cube actions and resignations at named strengths.

>>> from gammon import Position
>>> from gammon.bots.evaluator import PipCountEvaluator
>>> bot = Bot(PipCountEvaluator(), "expert")          # a weak test evaluator
>>> p = Position.from_points({2: 1, 1: 1}, {1: 1})    # bear both off now, or lose
>>> [str(m) for m in p.legal_moves((2, 1))]
['2/off 1/off', '2/off']
>>> str(bot.choose_move(p, (2, 1), ScoreContext()))
'2/off 1/off'
>>> q = Position.from_points({1: 2}, {6: 5, 8: 5, 13: 5})
>>> bot.respond_to_double(q, ScoreContext())        # the opponent, on roll, doubles
'drop'

The bot chooses among gammon's own legal moves (so variants whose moves differ
from standard backgammon, such as Caucasian, are played by their rules) and
values each resulting position with the evaluator, then with the table's
scoring (cube, Jacoby, Oin/Mars/Cox cap, match equity: :mod:`gammon.bots.equity`).

Levels (``Bot.with_bgsage(level)`` builds the matching bgsage evaluators):

==============  ==========================================================
level           method
==============  ==========================================================
beginner        bgsage 1-ply, seeded noise (sd 0.06 equity) on every choice
intermediate    bgsage 1-ply, seeded noise (sd 0.03)
expert          bgsage 1-ply (the raw networks)
world-class     bgsage 1-ply ranks every move, the best 5 within 0.08 are
                ranked again at 3-ply; cube and resignation decisions at 3-ply
grandmaster     as world-class with a wider filter (the best 6 within 0.10
                at 3-ply), then the best 3 within 0.04 of the 3-ply best are
                ranked again at 4-ply; cube decisions at 3-ply, and again at
                4-ply when the 3-ply decision is within 0.04 of the other
                action; both cores through bgsage's C++ threads
==============  ==========================================================

Time per decision, measured on a 2-core machine (bgsage 2.0.20260907, 300
positions from random self-play, money play, one process; milliseconds):

==============  =========================  ===================  ====================
level           checker play mean / p95    checker play max     cube decision mean
==============  =========================  ===================  ====================
beginner        2.0 / 6.2                  27                   0.19
intermediate    1.9 / 5.7                  24                   0.16
expert          1.8 / 5.7                  23                   0.15
world-class     31 / 90                    194                  12.8 (max 35)
==============  =========================  ===================  ====================

Grandmaster (``threads=0``, 40 positions of expert self-play in a 7-point match,
``benchmarks/decision_time.py``, measured while other work held the 1-minute load
average at 12.8 on the 2 cores): checker play 617 ms mean, 3.3 s p95, 4.1 s max;
cube decisions 46 ms mean, 130 ms max; 332 ms per decision overall.

With ``threads=1`` (one core per bot, as in a pool of worker processes) the
1-ply levels are unchanged and world-class takes 45 ms on average (p95 144 ms,
max 254 ms) per move and 20 ms per cube decision.  The slowest moves are doubles
with many distinct plays.

Noise is deterministic: it is derived from the seed, the position and the
candidate, so a bot with the same seed makes the same choices in the same
positions, whatever it was asked before.

Whose view: ``position`` is always the position as it stands, seen from the
player on roll; ``ctx`` is always the bot's own :class:`ScoreContext` ("me" is
the bot).  The bot is on roll for :meth:`Bot.choose_move`, :meth:`Bot.should_double`
and :meth:`Bot.resignation_offer`; the doubler is on roll for
:meth:`Bot.respond_to_double`.
"""

from __future__ import annotations

import hashlib
import math
import struct
from dataclasses import dataclass
from typing import Final, Literal

from gammon.bots.endgame import bearoff_probabilities, exact_after_moves, exact_decision
from gammon.bots.equity import (
    DEFAULT_CUBE_LIFE,
    CubeDecision,
    EquityModel,
    ScoreContext,
)
from gammon.bots.evaluator import Evaluator, Probabilities, after_probs
from gammon.bots.met import MatchEquityTable
from gammon.dice import DiceLike
from gammon.errors import IllegalActionError
from gammon.move import Move
from gammon.position import Position

__all__ = ["LEVELS", "SECONDS_NEEDED", "Bot", "Level", "RankedMove", "ScoreContext", "level_within"]

#: Strength names, weakest first.
Level = Literal["beginner", "intermediate", "expert", "world-class", "grandmaster"]
LEVELS: Final[tuple[Level, ...]] = (
    "beginner",
    "intermediate",
    "expert",
    "world-class",
    "grandmaster",
)


@dataclass(frozen=True, slots=True)
class _Settings:
    noise: float  # standard deviation of the equity noise
    plies: int  # search depth bgsage uses for the final choice
    filter_moves: int  # world-class: candidates kept after the 1-ply pass
    filter_threshold: float  # ... within this much equity of the best
    final_plies: int = 0  # grandmaster: the depth of the last pass (0: none)
    final_moves: int = 0  # ... candidates kept after the deep pass
    final_threshold: float = 0.0  # ... within this much equity of the deep best


_SETTINGS: Final[dict[str, _Settings]] = {
    "beginner": _Settings(0.06, 1, 0, 0.0),
    "intermediate": _Settings(0.03, 1, 0, 0.0),
    "expert": _Settings(0.0, 1, 0, 0.0),
    "world-class": _Settings(0.0, 3, 5, 0.08),
    "grandmaster": _Settings(0.0, 3, 6, 0.10, 4, 3, 0.04),
}
#: The most time one decision of each level can take on a 2-core machine, in seconds
#: (the slowest measured, with room to spare): a table's clock that leaves less
#: plays that decision at a lower level (:func:`level_within`).
SECONDS_NEEDED: Final[dict[str, float]] = {
    "beginner": 0.5,
    "intermediate": 0.5,
    "expert": 0.5,
    "world-class": 2.0,
    "grandmaster": 10.0,
}
#: Grandmaster: a cube decision is searched again at the final depth when the
#: deep one is this close (normalised equity) to the other action.
CLOSE_CUBE: Final = 0.04
#: A resignation is offered when it is within this much normalised equity of
#: playing on (either way: the bot gives away little, a sound opponent loses little).
RESIGN_TOLERANCE: Final = 0.01
#: A resignation is accepted when it is worth at least playing on minus this.
ACCEPT_TOLERANCE: Final = 0.005


@dataclass(frozen=True, slots=True)
class RankedMove:
    """A candidate move with the mover's normalised equity after it.

    ``equity`` is cubeful (the opponent's cube action included), ``cubeless``
    the game's cubeless equity; ``plies`` is the depth of the evaluator that
    gave them (its ``plies`` attribute, 1 if it has none).  World-class
    re-evaluates the best candidates with the deep evaluator and lists them
    first; the others keep their filter equities.
    """

    move: Move
    equity: float
    cubeless: float
    plies: int


class Bot:
    """A backgammon player on top of an :class:`~gammon.bots.evaluator.Evaluator`.

    ``level`` sets the noise (beginner, intermediate) and, for world-class, the
    filtering: ``filter_evaluator`` (a fast evaluator) ranks every move and the
    best few are ranked again with ``evaluator``.  Without a filter evaluator,
    ``evaluator`` ranks every move.  Grandmaster also takes ``final_evaluator``
    (deeper still): the closest of the deep candidates are ranked again with it,
    and close cube decisions are searched again with it.  ``seed`` makes the
    noise reproducible.
    ``met`` is the match equity table (Kazaross-XG2 by default).
    """

    def __init__(
        self,
        evaluator: Evaluator,
        level: Level = "expert",
        *,
        seed: int = 0,
        filter_evaluator: Evaluator | None = None,
        final_evaluator: Evaluator | None = None,
        met: MatchEquityTable | None = None,
        cube_life: float = DEFAULT_CUBE_LIFE,
    ) -> None:
        if level not in _SETTINGS:
            raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        self.evaluator: Final = evaluator
        self.level: Final = level
        self.seed: Final = seed
        self.filter_evaluator: Final = filter_evaluator
        self.final_evaluator: Final = final_evaluator
        self.met: Final = met or MatchEquityTable.default()
        self.cube_life: Final = cube_life
        self._settings = _SETTINGS[level]

    @classmethod
    def with_bgsage(cls, level: Level = "expert", *, seed: int = 0, threads: int = 0) -> Bot:
        """A bot on the bgsage networks at this level (needs ``gammon[bot]``).

        ``threads`` is the number of C++ threads of the deep searches (0 = every core).
        """
        from gammon.bots.evaluator import BgsageEvaluator

        settings = _SETTINGS.get(level)
        if settings is None:
            raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        if settings.plies == 1:
            return cls(BgsageEvaluator(1, threads=threads), level, seed=seed)
        final = (
            BgsageEvaluator(settings.final_plies, threads=threads) if settings.final_plies else None
        )
        return cls(
            BgsageEvaluator(settings.plies, threads=threads),
            level,
            seed=seed,
            filter_evaluator=BgsageEvaluator(1, threads=threads),
            final_evaluator=final,
        )

    def __repr__(self) -> str:
        return f"Bot({self.evaluator!r}, {self.level!r}, seed={self.seed})"

    # ------------------------------------------------------------------ helpers

    def _model(self, ctx: ScoreContext) -> EquityModel:
        return EquityModel(ctx, self.met, cube_life=self.cube_life)

    def _noise(self, *key: object) -> float:
        """A standard normal number fixed by the seed and ``key`` (0 without noise)."""
        sd = self._settings.noise
        if not sd:
            return 0.0
        digest = hashlib.blake2b(repr((self.seed, *key)).encode(), digest_size=8).digest()
        a, b = struct.unpack("<II", digest)
        u1 = (a + 1) / 4294967297.0
        u2 = b / 4294967296.0
        return sd * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def _probabilities(self, position: Position, purpose: str) -> Probabilities:
        """Pre-roll probabilities of the player on roll, with this level's noise."""
        if position.is_game_over():
            raise IllegalActionError(f"the game is over in position {position.position_id()}")
        probs = bearoff_probabilities(position) if not self._settings.noise else None
        if probs is None:
            probs = self.evaluator.evaluate([position])[0]
        shift = self._noise(purpose, position.variant.name, position.position_key()) / 2.0
        if not shift:
            return probs
        win = min(1.0, max(0.0, probs.win + shift))
        return probs.with_win(win)

    # ------------------------------------------------------------------ checker play

    def rank_moves(self, position: Position, dice: DiceLike, ctx: ScoreContext) -> list[RankedMove]:
        """Every legal move with the bot's equity after it, best first.

        Empty when the roll cannot be played.  Noise (beginner, intermediate) is
        included in the equities.

        >>> from gammon.bots.evaluator import PipCountEvaluator
        >>> hit = Position.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {20: 1, 6: 5, 8: 3, 13: 5, 24: 1})
        >>> ranked = Bot(PipCountEvaluator()).rank_moves(hit, (3, 1), ScoreContext())
        >>> ranked[0].move.hits, len(ranked) == len(hit.legal_moves((3, 1)))   # hit the blot
        (1, True)
        """
        if position.is_game_over():
            raise IllegalActionError(f"the game is over in position {position.position_id()}")
        moves = position.legal_moves(dice)
        if not moves:
            return []
        afters = [m.position_after() for m in moves]
        s = self._settings
        exact = None if s.noise else exact_after_moves(afters, ctx, self.met)
        if exact is not None:  # a short bear-off: every play valued exactly
            values, cubeless_values, _theirs = exact
            order = sorted(range(len(moves)), key=lambda i: (-values[i], -cubeless_values[i]))
            deepest = _plies(self.final_evaluator or self.evaluator)
            return [RankedMove(moves[i], values[i], cubeless_values[i], deepest) for i in order]
        model = self._model(ctx)
        races = None if s.noise else [bearoff_probabilities(a) for a in afters]
        if races is not None and all(p is not None for p in races):
            # every play ends in the bear-off database: the exact race, and the cube model
            probs = [p for p in races if p is not None]
            values, cubeless_values = model.after_move(probs), model.after_move_cubeless(probs)
            order = sorted(range(len(moves)), key=lambda i: (-values[i], -cubeless_values[i]))
            deepest = _plies(self.final_evaluator or self.evaluator)
            return [RankedMove(moves[i], values[i], cubeless_values[i], deepest) for i in order]
        first = self.filter_evaluator if s.filter_moves else None
        ranker = self.evaluator if first is None else first
        probs = after_probs(ranker, position, afters)
        equities = model.after_move(probs)
        cubeless = model.after_move_cubeless(probs)
        plies = [_plies(ranker)] * len(moves)
        if s.noise:
            key = (position.variant.name, position.position_key())
            for i, m in enumerate(moves):
                shift = self._noise("move", *key, m.key)
                equities[i] += shift
                cubeless[i] += shift
        deep: set[int] = set()
        if first is not None:
            order = sorted(range(len(moves)), key=lambda i: (-equities[i], -cubeless[i]))
            best = equities[order[0]]
            keep = [i for i in order[: s.filter_moves] if best - equities[i] <= s.filter_threshold]
            again = after_probs(self.evaluator, position, [afters[i] for i in keep])
            for i, e, c in zip(
                keep, model.after_move(again), model.after_move_cubeless(again), strict=True
            ):
                equities[i], cubeless[i], plies[i] = e, c, _plies(self.evaluator)
            deep = set(keep)
        final: set[int] = set()
        if self.final_evaluator is not None and s.final_moves and len(deep) > 1:
            order = sorted(deep, key=lambda i: (-equities[i], -cubeless[i]))
            best = equities[order[0]]
            close = [i for i in order[: s.final_moves] if best - equities[i] <= s.final_threshold]
            if len(close) > 1:
                again = after_probs(self.final_evaluator, position, [afters[i] for i in close])
                for i, e, c in zip(
                    close, model.after_move(again), model.after_move_cubeless(again), strict=True
                ):
                    equities[i], cubeless[i], plies[i] = e, c, _plies(self.final_evaluator)
                final = set(close)
        # deeper evaluations first; ties (say, two moves that both lose the cube
        # at once) are broken by the cubeless equity, then by the generator's order
        order = sorted(
            range(len(moves)),
            key=lambda i: (i not in final, i not in deep, -equities[i], -cubeless[i]),
        )
        return [RankedMove(moves[i], equities[i], cubeless[i], plies[i]) for i in order]

    def choose_move(self, position: Position, dice: DiceLike, ctx: ScoreContext) -> Move:
        """The bot's move: one of ``position.legal_moves(dice)``, or the pass move if none."""
        if position.is_game_over():
            raise IllegalActionError(f"the game is over in position {position.position_id()}")
        moves = position.legal_moves(dice)
        if not moves:
            return position.pass_move(dice)
        if len(moves) == 1:
            return moves[0]
        return self.rank_moves(position, dice, ctx)[0].move

    # ------------------------------------------------------------------ cube

    def _decision(self, position: Position, ctx: ScoreContext, purpose: str) -> CubeDecision:
        """The cube decision of the player on roll (``ctx`` theirs), searched again at the
        final depth when it is close (grandmaster)."""
        if not self._settings.noise:  # a short bear-off is solved exactly (no error to add)
            exact = exact_decision(position, ctx, self.met)
            if exact is not None:
                return exact
        model = self._model(ctx)
        decision = model.decision(self._probabilities(position, purpose))
        if bearoff_probabilities(position) is not None and not self._settings.noise:
            return decision  # the exact race already: no deeper search can improve it
        if self.final_evaluator is not None and _close(decision):
            decision = model.decision(self.final_evaluator.evaluate([position])[0])
        return decision

    def cube_decision(self, position: Position, ctx: ScoreContext) -> CubeDecision:
        """The bot's cube analysis of ``position``, with the bot on roll."""
        return self._decision(position, ctx, "cube")

    def should_double(self, position: Position, ctx: ScoreContext) -> bool:
        """Whether the bot, on roll before rolling, doubles.

        Never in the Crawford game, past the cube limit, without cube access, or
        when the double is dead (the current cube already wins the match).

        >>> from gammon.bots.evaluator import PipCountEvaluator
        >>> bot = Bot(PipCountEvaluator())
        >>> race = Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {1: 3, 2: 3, 3: 3, 4: 3, 10: 3})
        >>> at_limit = ScoreContext(cube_value=2, cube_owner="me", cube_limit=2)
        >>> bot.should_double(race, ScoreContext()), bot.should_double(race, at_limit)
        (True, False)
        """
        model = self._model(ctx)
        if not (ctx.may_double() and model.can_double("me", ctx.cube_value)):
            return False
        return self._decision(position, ctx, "cube").should_double

    def respond_to_double(
        self, position: Position, ctx: ScoreContext
    ) -> Literal["take", "drop", "beaver"]:
        """The bot's answer to a double; ``position`` has the doubler on roll.

        ``ctx`` is the bot's context with the cube as it was before the double.
        A beaver is answered only when the context allows it (money play, beaver
        option, within the cube limit) and it gains.
        """
        doubler = self._decision(position, ctx.flipped(), "take")
        if doubler.response == "pass":
            return "drop"
        if doubler.response == "beaver" and ctx.beaver_allowed:
            return "beaver"
        return "take"

    # ------------------------------------------------------------------ resignations

    def _resign_utility(self, model: EquityModel, level: int, *, by_me: bool) -> float:
        if level not in (1, 2, 3):
            raise ValueError(
                f"a resignation is 1 (single), 2 (gammon) or 3 (backgammon), not {level!r}"
            )
        ctx = model.ctx
        points = 1 if ctx.jacoby_active else min(level, ctx.max_result)
        points *= ctx.cube_value
        return model.value(-points if by_me else points)

    def _play_on(self, position: Position, ctx: ScoreContext, *, bot_on_roll: bool) -> float:
        if bot_on_roll:
            return self._model(ctx).on_roll(self._probabilities(position, "resign"))
        theirs = self._model(ctx.flipped()).on_roll(self._probabilities(position, "resign"))
        return self._model(ctx).complement(theirs)

    def accept_resignation(
        self, position: Position, points: int, ctx: ScoreContext, *, bot_on_roll: bool = False
    ) -> bool:
        """Whether the bot accepts the opponent's resignation of ``points`` (1, 2 or 3).

        ``points`` is the level offered: single, gammon or backgammon; it is
        scored times the cube, with the Jacoby rule and the table's cap.  The
        bot accepts when that is worth at least as much as playing on (less
        :data:`ACCEPT_TOLERANCE`).  ``bot_on_roll`` says whose turn it is in
        ``position`` (by default the resigning opponent's).

        >>> from gammon.bots.evaluator import PipCountEvaluator
        >>> bot = Bot(PipCountEvaluator())
        >>> gammoned = Position.from_points({6: 5, 8: 5, 13: 5}, {1: 1})  # the resigner on roll
        >>> [bot.accept_resignation(gammoned, level, ScoreContext()) for level in (1, 2, 3)]
        [False, True, True]
        """
        model = self._model(ctx)
        offered = model.normalise(self._resign_utility(model, points, by_me=False))
        play = model.normalise(self._play_on(position, ctx, bot_on_roll=bot_on_roll))
        return offered >= play - ACCEPT_TOLERANCE

    def resignation_offer(self, position: Position, ctx: ScoreContext) -> int | None:
        """The level (1, 2 or 3) the bot resigns at, or None to play on; the bot is on roll.

        The bot offers the smallest level whose value is within
        :data:`RESIGN_TOLERANCE` of playing on, which only happens in clearly
        lost games: it then gives away almost nothing, and a sound opponent
        loses almost nothing by accepting.

        >>> from gammon.bots.evaluator import PipCountEvaluator
        >>> bot = Bot(PipCountEvaluator())
        >>> gammoned = Position.from_points({6: 5, 8: 5, 13: 5}, {1: 1})
        >>> bot.resignation_offer(gammoned, ScoreContext())
        2
        >>> bot.resignation_offer(Position.initial(), ScoreContext()) is None
        True
        """
        model = self._model(ctx)
        play = model.normalise(self._play_on(position, ctx, bot_on_roll=True))
        for level in (1, 2, 3):
            resign = model.normalise(self._resign_utility(model, level, by_me=True))
            if resign <= play + RESIGN_TOLERANCE:
                return level if resign >= play - RESIGN_TOLERANCE else None
        return None


def _plies(evaluator: Evaluator) -> int:
    """The search depth an evaluator reports (``plies``), 1 if it does not say."""
    plies = getattr(evaluator, "plies", 1)
    return plies if isinstance(plies, int) else 1


def level_within(level: Level, seconds: float | None) -> Level:
    """The strongest level, ``level`` or a deeper one's fallback, that decides within ``seconds``.

    Grandmaster falls back to world-class and then expert when the time left (a
    table's clock) is shorter than :data:`SECONDS_NEEDED`; expert and the levels
    below it always fit (``None``: no clock).

    >>> level_within("grandmaster", None), level_within("grandmaster", 5.0)
    ('grandmaster', 'world-class')
    >>> level_within("world-class", 1.0), level_within("beginner", 0.1)
    ('expert', 'beginner')
    """
    if seconds is None:
        return level
    chain: tuple[Level, ...] = ("grandmaster", "world-class", "expert")
    if level not in chain:
        return level
    for fallback in chain[chain.index(level) :]:
        if SECONDS_NEEDED[fallback] <= seconds:
            return fallback
    return "expert"


def _close(decision: CubeDecision) -> bool:
    """Whether a cube decision is within :data:`CLOSE_CUBE` of another action.

    >>> from gammon.bots.equity import cube_decision
    >>> from gammon.bots.evaluator import Probabilities
    >>> _close(cube_decision(Probabilities(0.5, 0.1, 0.0, 0.1, 0.0), ScoreContext()))  # no double
    False
    >>> _close(cube_decision(Probabilities(0.79), ScoreContext()))  # take or pass?
    True
    """
    if not decision.can_double:
        return False
    doubled = decision.double_pass if decision.response == "pass" else decision.double_take
    return (
        abs(doubled - decision.no_double) < CLOSE_CUBE
        or abs(decision.double_take - decision.double_pass) < CLOSE_CUBE
    )
