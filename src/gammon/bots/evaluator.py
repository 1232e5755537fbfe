"""Evaluators: cubeless win, gammon and backgammon chances of positions.

An :class:`Evaluator` maps positions to :class:`Probabilities` for the player
on roll of each position, before that player rolls.  Two implementations:

* :class:`BgsageEvaluator`: the bgsage neural networks (optional extra
  ``gammon[bot]``), at 1-ply (raw networks, XG's "1-ply") or deeper.
* :class:`PipCountEvaluator`: a deterministic pip-count formula.  It is a weak
  **test double** (it knows nothing of blots, primes or timing); use it to test
  code that needs an evaluator without installing bgsage, never to play.

>>> from gammon import Position
>>> won = Position.from_points({1: 1}, {6: 5, 13: 5, 8: 5})   # one checker left
>>> [round(p.win, 3) for p in PipCountEvaluator().evaluate([won, won.flipped()])]
[1.0, 0.0]
>>> Probabilities(0.6, 0.2, 0.01, 0.1, 0.005).flipped()
Probabilities(win=0.4, win_gammon=0.1, win_backgammon=0.005, lose_gammon=0.2, lose_backgammon=0.01)

Perspective is the thing to get right: bgsage evaluates *post-move* boards, from
the side that has just moved.  A position with X on roll is, seen from O, the
board O has just left; :class:`BgsageEvaluator` therefore evaluates the flipped
board and flips the answer back.  The tests check this on won, lost and
symmetric positions.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, runtime_checkable

from gammon.position import Position

__all__ = [
    "BgsageEvaluator",
    "Evaluator",
    "MoveEvaluator",
    "PipCountEvaluator",
    "Probabilities",
    "after_probs",
    "impossible_results_removed",
    "terminal_probabilities",
]

_EPS: Final = 1e-9


@dataclass(frozen=True, slots=True)
class Probabilities:
    """Cubeless chances for the player on roll, cumulative as in gnubg and bgsage.

    ``win`` is the chance to win; ``win_gammon`` to win a gammon or better
    (backgammons included); ``win_backgammon`` to win a backgammon; the two
    ``lose_*`` fields likewise for losing.  The chance to lose is ``1 - win``.

    >>> p = Probabilities(0.5, 0.15, 0.01, 0.12, 0.005)
    >>> round(p.equity, 3), round(p.lose, 3)
    (0.035, 0.5)
    >>> Probabilities(0.5, 0.6)
    Traceback (most recent call last):
    ...
    ValueError: inconsistent probabilities: win_gammon 0.6 > win 0.5
    """

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0

    def __post_init__(self) -> None:
        for name in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not -_EPS <= value <= 1 + _EPS:
                raise ValueError(f"probability {name}={value!r} is not a number in 0..1")
        for small, big, big_value in (
            ("win_gammon", "win", self.win),
            ("win_backgammon", "win_gammon", self.win_gammon),
            ("lose_gammon", "lose", 1.0 - self.win),
            ("lose_backgammon", "lose_gammon", self.lose_gammon),
        ):
            if getattr(self, small) > big_value + _EPS:
                raise ValueError(
                    f"inconsistent probabilities: {small} {getattr(self, small)!r} > {big} {big_value!r}"
                )

    @classmethod
    def from_sequence(cls, values: Iterable[float]) -> Probabilities:
        """From five numbers ``[win, win_gammon, win_backgammon, lose_gammon, lose_backgammon]``.

        Engine outputs are clamped into 0..1 and made consistent (a gammon
        chance never above the win or loss chance), so slightly noisy network
        outputs are accepted.

        >>> Probabilities.from_sequence([1.0000001, 0.3, 0.31, 0.0, 0.0])
        Probabilities(win=1.0, win_gammon=0.3, win_backgammon=0.3, lose_gammon=0.0, lose_backgammon=0.0)
        """
        v = [min(1.0, max(0.0, float(x))) for x in values]
        if len(v) != 5:
            raise ValueError(f"expected 5 probabilities, got {len(v)}")
        win = v[0]
        wg = min(v[1], win)
        wb = min(v[2], wg)
        lg = min(v[3], 1.0 - win)
        lb = min(v[4], lg)
        if cls is Probabilities:  # consistent by construction: no need to check again
            return _trusted(win, wg, wb, lg, lb)
        return cls(win, wg, wb, lg, lb)

    @classmethod
    def certain(cls, *, won: bool, points: int = 1) -> Probabilities:
        """A known result: won or lost, as a single (1), gammon (2) or backgammon (3).

        >>> Probabilities.certain(won=False, points=2)
        Probabilities(win=0.0, win_gammon=0.0, win_backgammon=0.0, lose_gammon=1.0, lose_backgammon=0.0)
        """
        if points not in (1, 2, 3):
            raise ValueError(f"a game result is 1, 2 or 3 points, not {points!r}")
        g = 1.0 if points >= 2 else 0.0
        b = 1.0 if points >= 3 else 0.0
        return cls(1.0, g, b, 0.0, 0.0) if won else cls(0.0, 0.0, 0.0, g, b)

    @property
    def lose(self) -> float:
        """The chance to lose, ``1 - win``."""
        return 1.0 - self.win

    def flipped(self) -> Probabilities:
        """The same chances seen from the other player."""
        # consistent chances stay consistent seen from the other side: not checked again
        # (the analysis flips hundreds of thousands of them)
        return _trusted(
            1.0 - self.win,
            self.lose_gammon,
            self.lose_backgammon,
            self.win_gammon,
            self.win_backgammon,
        )

    def with_win(self, win: float) -> Probabilities:
        """Another winning chance, with the same gammon and backgammon shares of wins and losses.

        >>> [round(x, 3) for x in Probabilities(0.5, 0.25, 0.0, 0.1, 0.0).with_win(0.8).as_tuple()]
        [0.8, 0.4, 0.0, 0.04, 0.0]
        """
        lose = 1.0 - win
        w = self.win if self.win > 1e-12 else 1.0
        lo = self.lose if self.lose > 1e-12 else 1.0
        return Probabilities.from_sequence(
            (
                win,
                win * self.win_gammon / w,
                win * self.win_backgammon / w,
                lose * self.lose_gammon / lo,
                lose * self.lose_backgammon / lo,
            )
        )

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        """``(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)``."""
        return (
            self.win,
            self.win_gammon,
            self.win_backgammon,
            self.lose_gammon,
            self.lose_backgammon,
        )

    def outcomes(self) -> tuple[float, float, float, float, float, float]:
        """Exclusive chances: win single, gammon, backgammon; lose single, gammon, backgammon.

        >>> [round(x, 2) for x in Probabilities(0.6, 0.2, 0.05, 0.1, 0.0).outcomes()]
        [0.4, 0.15, 0.05, 0.3, 0.1, 0.0]
        """
        return (
            self.win - self.win_gammon,
            self.win_gammon - self.win_backgammon,
            self.win_backgammon,
            self.lose - self.lose_gammon,
            self.lose_gammon - self.lose_backgammon,
            self.lose_backgammon,
        )

    @property
    def equity(self) -> float:
        """Cubeless money equity: single 1, gammon 2, backgammon 3 (no cap, no Jacoby)."""
        return (
            2.0 * self.win
            - 1.0
            + self.win_gammon
            - self.lose_gammon
            + self.win_backgammon
            - self.lose_backgammon
        )


def _trusted(win: float, wg: float, wb: float, lg: float, lb: float) -> Probabilities:
    """Probabilities known to be consistent, made without checking them again."""
    made = _new(Probabilities)
    _set(made, "win", win)
    _set(made, "win_gammon", wg)
    _set(made, "win_backgammon", wb)
    _set(made, "lose_gammon", lg)
    _set(made, "lose_backgammon", lb)
    return made


_new: Final = object.__new__
_set: Final = object.__setattr__


def terminal_probabilities(position: Position) -> Probabilities | None:
    """The exact probabilities of a finished game, or None while it goes on.

    >>> from gammon import Position
    >>> terminal_probabilities(Position.from_points({}, {6: 15}).flipped())
    Probabilities(win=0.0, win_gammon=0.0, win_backgammon=0.0, lose_gammon=1.0, lose_backgammon=0.0)
    """
    result = position.result()
    if result is None:
        return None
    return Probabilities.certain(won=result.winner == "player", points=result.points)


def impossible_results_removed(position: Position, probs: Probabilities) -> Probabilities:
    """``probs`` without the results the rules already exclude in ``position``.

    A side that has borne off a checker cannot lose a gammon; in a race, a side
    with no checker on the bar or in the other side's home board cannot lose a
    backgammon.  Neural networks sometimes give such results a chance.

    >>> from gammon import Position
    >>> p = Position.from_points({1: 2}, {6: 5, 8: 5})        # both sides have checkers off
    >>> impossible_results_removed(p, Probabilities(0.9, 0.3, 0.1, 0.05, 0.01))
    Probabilities(win=0.9, win_gammon=0.0, win_backgammon=0.0, lose_gammon=0.0, lose_backgammon=0.0)
    """
    wg, wb, lg, lb = (
        probs.win_gammon,
        probs.win_backgammon,
        probs.lose_gammon,
        probs.lose_backgammon,
    )
    opponent, player = position.opponent, position.player
    # whether it is a race is asked only where it matters (it is the costly part)
    race: bool | None = None
    if opponent[0]:
        wb = wg = 0.0
    elif not any(opponent[19:26]):
        race = position.is_race()
        if race:
            wb = 0.0
    if player[0]:
        lb = lg = 0.0
    elif not any(player[19:26]) and (race if race is not None else position.is_race()):
        lb = 0.0
    if (wg, wb, lg, lb) == (
        probs.win_gammon,
        probs.win_backgammon,
        probs.lose_gammon,
        probs.lose_backgammon,
    ):
        return probs
    return Probabilities(probs.win, wg, wb, lg, lb)


@runtime_checkable
class Evaluator(Protocol):
    """Anything that gives cubeless probabilities of positions.

    ``evaluate`` returns, for each position, the probabilities of the player on
    roll of that position, before the roll.  Implementations must return exact
    values for finished games (see :func:`terminal_probabilities`).
    """

    def evaluate(self, positions: Sequence[Position]) -> list[Probabilities]:
        """Probabilities of each position for its player on roll."""
        ...


@runtime_checkable
class MoveEvaluator(Evaluator, Protocol):
    """An evaluator that can rank the moves of one position together.

    ``evaluate_after_move(origin, positions)`` is ``evaluate(positions)`` for
    positions reached from ``origin`` by one move, which lets an engine route
    every candidate through the same networks (bgsage picks its networks from
    the position before the move when it chooses a move).
    """

    def evaluate_after_move(
        self, origin: Position, positions: Sequence[Position]
    ) -> list[Probabilities]:
        """Probabilities of each position (opponent of ``origin`` on roll) for its player on roll."""
        ...


def after_probs(
    evaluator: Evaluator, origin: Position, positions: Sequence[Position]
) -> list[Probabilities]:
    """Probabilities of positions reached from ``origin`` by one move, through
    :meth:`MoveEvaluator.evaluate_after_move` when the evaluator has it (as the bot and
    the analysis both rank moves)."""
    if isinstance(evaluator, MoveEvaluator):
        return evaluator.evaluate_after_move(origin, positions)
    return evaluator.evaluate(positions)


class PipCountEvaluator:
    """A weak, deterministic **test double**: chances from pip counts only.

    The race formula gives the player on roll about 8 pips for being on roll
    and a spread that grows with the length of the race; gammon chances appear
    when the loser has borne off nothing and is far behind.  It is exact for
    finished games.  Never use it to play: it ignores everything but pips.

    >>> from gammon import Position
    >>> p = PipCountEvaluator().evaluate([Position.initial()])[0]
    >>> 0.5 < p.win < 0.7, p.win_gammon < 0.2
    (True, True)
    """

    def evaluate(self, positions: Sequence[Position]) -> list[Probabilities]:
        """Probabilities of each position for its player on roll."""
        return [self._one(p) for p in positions]

    @staticmethod
    def _one(position: Position) -> Probabilities:
        done = terminal_probabilities(position)
        if done is not None:
            return done
        mine, theirs = position.pip_count()
        spread = 2.0 + math.sqrt(mine + theirs)
        win = _logistic((theirs - mine + 8.0) / spread)
        win_gammon = win * _gammon_chance(theirs - mine, position.opponent[0])
        lose_gammon = (1.0 - win) * _gammon_chance(mine - theirs, position.player[0])
        return Probabilities.from_sequence((win, win_gammon, 0.0, lose_gammon, 0.0))


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def _gammon_chance(lead: float, loser_off: int) -> float:
    if loser_off:
        return 0.0
    return _logistic((lead - 60.0) / 15.0)


class BgsageEvaluator:
    """The bgsage networks (``pip install gammon[bot]``), at a given search depth.

    ``plies=1`` (or ``"1ply"``, bgsage's name) is the raw networks (XG "1-ply",
    the fastest: tens of thousands of positions a second); ``2``, ``3`` and ``4``
    search the replies.
    Exact one-sided bear-off data replace the networks where they apply.
    ``threads`` is the number of C++ threads of the batch paths (0 = every core).

    It uses bgsage's batch C++ entry points with strategies built once (building
    them reads the weight files, about 50 ms), never ``BgBotAnalyzer.cube_action``,
    which reloads every weight file on each call.  Calls on one instance are
    serialised by a lock; use one instance per worker for parallel play.

    bgsage knows only standard backgammon: positions of other variants are
    evaluated as if they were standard (the bot still plays only the variant's
    own legal moves), and fewer than 15 checkers count the rest as borne off.
    """

    def __init__(
        self, plies: int | str = 1, *, threads: int = 0, bearoff_database: bool = True
    ) -> None:
        levels = {1: 1, 2: 2, 3: 3, 4: 4, "1ply": 1, "2ply": 2, "3ply": 3, "4ply": 4}
        depth = levels.get(plies) if isinstance(plies, (int, str)) else None
        if depth is None or isinstance(plies, bool):
            raise ValueError(f"plies must be 1, 2, 3 or 4 (or '1ply'..'4ply'), not {plies!r}")
        try:
            import bgbot_cpp
            from bgsage.weights import bearoff_db_path, default_weights
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("BgsageEvaluator needs bgsage: pip install 'gammon[bot]'") from exc
        self._cpp: Any = bgbot_cpp
        #: The search depth: 1 = the raw networks.
        self.plies: Final[int] = depth
        self.threads: Final = threads
        self._lock = threading.Lock()
        weights = default_weights()
        args = (weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list)
        base: Any = bgbot_cpp.create_strategy(*args)
        database: Any = None
        if bearoff_database:
            database = bgbot_cpp.BearoffDB()
            if database.load(str(bearoff_db_path())):
                base = bgbot_cpp.BearoffStrategy(base, database)
            else:  # pragma: no cover - the wheel ships the file
                database = None
        # keep every C++ object alive: the strategies hold raw pointers to them
        self._database: Any = database
        self._base: Any = base
        self._strategy: Any = base
        self._deep = depth > 1
        if self._deep:
            search: Any = bgbot_cpp.create_multipy(
                *args,
                n_plies=depth,
                parallel_evaluate=threads != 1,
                parallel_threads=threads,
            )
            if database is not None:
                bgbot_cpp.multipy_set_bearoff_db(search, database)
            self._strategy = search
        self._centered: Any = bgbot_cpp.CubeOwner.CENTERED

    def __repr__(self) -> str:
        return f"BgsageEvaluator(plies={self.plies}, threads={self.threads})"

    def evaluate(self, positions: Sequence[Position]) -> list[Probabilities]:
        """Pre-roll probabilities of each position for its player on roll (C++ batch path)."""
        out: list[Probabilities | None] = [terminal_probabilities(p) for p in positions]
        todo = [i for i, done in enumerate(out) if done is None]
        if todo:
            # the side NOT on roll has just moved: evaluate its post-move board, flip back
            jobs = [(list(positions[i].flipped().board), self._centered) for i in todo]
            with self._lock:
                raw = self._cpp.batch_evaluate_post_move(jobs, self._strategy, self.threads)
                if self._deep:
                    self._strategy.clear_cache()
            for i, r in zip(todo, raw, strict=True):
                probs = Probabilities.from_sequence(r["probs"]).flipped()
                out[i] = impossible_results_removed(positions[i], probs)
        return [p for p in out if p is not None]

    def evaluate_after_move(
        self, origin: Position, positions: Sequence[Position]
    ) -> list[Probabilities]:
        """Like :meth:`evaluate`, for positions reached from ``origin`` by one move.

        Each candidate is routed from the board before the move, as bgsage's own
        checker play does, so that all candidates are judged by the same networks.
        """
        before = list(origin.board)
        out: list[Probabilities] = []
        with self._lock:
            evaluate_board = self._strategy.evaluate_board
            for p in positions:
                done = terminal_probabilities(p)
                if done is None:
                    r = evaluate_board(list(p.flipped().board), before)
                    probs = Probabilities.from_sequence(r["probs"]).flipped()
                    done = impossible_results_removed(p, probs)
                out.append(done)
            if self._deep:
                self._strategy.clear_cache()
        return out
