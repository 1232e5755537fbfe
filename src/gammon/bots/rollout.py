"""Roll out one decision (a checker play or a cube decision) with bgsage, on demand.

:func:`rollout_decision` plays each candidate out many times (bgsage's C++
rollouts: variance reduction, stratified first rolls, both cores) and returns
the cubeful equities with their standard errors.  It reports progress through
a callback and stops when a cancel flag is set, returning what it finished, so
a page or a command line can run it off its event loop and let a person stop it.

>>> import threading
>>> from gammon import Position
>>> from gammon.bots.equity import ScoreContext
>>> cancel = threading.Event()
>>> def progress(done, total):                       # doctest: +SKIP
...     print(f"{done}/{total} trials")
>>> result = rollout_decision(Position.initial(), ScoreContext(), (3, 1),
...                           progress=progress, cancel=cancel)  # doctest: +SKIP
>>> result.moves[0].move, result.cancelled                      # doctest: +SKIP
('8/5 6/5', False)

Equities are the mover's (checker play) or the player on roll's (cube),
normalised: money equity per unit of cube, or in a match the equivalent to
money (bgsage's cubeful rollout equity).  The checker candidates are the best
moves of a 1-ply ranking (``candidates`` of them within ``threshold``; the move
played can be added with ``include``); the others are not rolled out.

Needs bgsage (``pip install 'gammon[bot]'``), imported when a rollout starts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from gammon.bots.equity import ScoreContext
from gammon.dice import DiceLike
from gammon.errors import IllegalActionError
from gammon.position import Position

__all__ = [
    "RolledCube",
    "RolledMove",
    "RolloutResult",
    "RolloutSettings",
    "rollout_decision",
]

#: ``progress(trials_done, trials_total)`` over the whole decision.
RolloutProgress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """How a decision is rolled out.

    ``trials`` games per candidate (a multiple of 36 stratifies the first roll),
    cut ``truncation`` plies in (0: played to the end) and valued there at
    ``truncation_plies``; each play inside a trial is chosen at ``plies``.  The
    checker candidates: the best ``candidates`` moves within ``threshold``
    (normalised equity) of the best at 1-ply.  ``seed`` fixes the dice, so the
    same settings give the same result; ``threads`` is the number of C++
    threads (0 = every core).

    >>> RolloutSettings(trials=10)
    Traceback (most recent call last):
    ...
    ValueError: trials must be 36 or more, not 10
    """

    trials: int = 360
    truncation: int = 7
    plies: int = 1
    truncation_plies: int = 1
    candidates: int = 4
    threshold: float = 0.12
    seed: int = 1
    threads: int = 0

    def __post_init__(self) -> None:
        if self.trials < 36:
            raise ValueError(f"trials must be 36 or more, not {self.trials!r}")
        if self.truncation < 0 or not 1 <= self.plies <= 3 or not 1 <= self.truncation_plies <= 3:
            raise ValueError("truncation must be >= 0 and the plies 1..3")
        if self.candidates < 1 or self.threshold < 0:
            raise ValueError("candidates must be >= 1 and the threshold >= 0")


@dataclass(frozen=True, slots=True)
class RolledMove:
    """One candidate move rolled out: the mover's cubeful and cubeless equity after it."""

    move: str
    equity: float
    std_error: float
    cubeless: float
    #: the mover's chances after the move: win, win gammon, win backgammon, lose gammon,
    #: lose backgammon (cumulative, as gnubg writes them)
    probs: tuple[float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class RolledCube:
    """A cube decision rolled out, from the player on roll (the would-be doubler)."""

    no_double: float
    double_take: float
    double_pass: float
    std_error: float
    should_double: bool
    should_take: bool
    probs: tuple[float, float, float, float, float]

    @property
    def action(self) -> str:
        """The usual label: ``no double``, ``double, take`` or ``double, pass``.

        >>> RolledCube(0.5, 0.4, 1.0, 0.01, False, True, (0.6, 0, 0, 0, 0)).action
        'no double'
        """
        if not self.should_double:
            return "no double"
        return "double, take" if self.should_take else "double, pass"


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """What a rollout found: the candidate moves best first, or the cube decision.

    ``cancelled`` says the cancel flag stopped it: ``moves`` then holds only the
    candidates finished before (best first), and ``cube`` is None.
    """

    kind: str  # "checker" or "cube"
    moves: tuple[RolledMove, ...]
    cube: RolledCube | None
    settings: RolloutSettings
    trials_done: int
    trials_total: int
    cancelled: bool
    seconds: float


_OWNERS: Final = {"centered": "CENTERED", "me": "PLAYER", "opponent": "OPPONENT"}


def _cube_args(cpp: Any, ctx: ScoreContext) -> dict[str, Any]:
    """bgsage's cube arguments for ``ctx`` (the side to act's view)."""
    return {
        "cube_value": ctx.cube_value,
        "owner": getattr(cpp.CubeOwner, _OWNERS[ctx.cube_owner]),
        "away1": ctx.away_me if ctx.match_length else 0,
        "away2": ctx.away_opp if ctx.match_length else 0,
        "is_crawford": ctx.crawford_game,
        "jacoby": ctx.jacoby_active,
        "beaver": ctx.beaver_allowed,
    }


def _strategy(settings: RolloutSettings) -> tuple[Any, Any, Any]:
    """bgbot_cpp, a rollout strategy for ``settings`` and the bear-off data it holds."""
    import bgbot_cpp
    from bgsage.weights import bearoff_db_path, default_weights

    weights = default_weights()
    strategy = bgbot_cpp.create_rollout(
        weights.strategy_type,
        weights.weight_paths_list,
        weights.hidden_sizes_list,
        n_trials=settings.trials,
        truncation_depth=settings.truncation,
        decision_ply=settings.plies,
        truncation_ply=settings.truncation_plies,
        n_threads=settings.threads,
        seed=settings.seed,
    )
    database = bgbot_cpp.BearoffDB()
    if database.load(str(bearoff_db_path())):
        bgbot_cpp.rollout_set_bearoff_db(strategy, database)
    return bgbot_cpp, strategy, database


def _candidates(
    position: Position, dice: DiceLike, ctx: ScoreContext, settings: RolloutSettings, include: str
) -> list[tuple[str, Position]]:
    """The moves to roll out: the best few at 1-ply, and ``include`` if it is legal."""
    from gammon.bots.bot import Bot
    from gammon.bots.evaluator import BgsageEvaluator

    ranked = Bot(BgsageEvaluator(1, threads=settings.threads)).rank_moves(position, dice, ctx)
    best = ranked[0].equity
    chosen = [r for r in ranked[: settings.candidates] if best - r.equity <= settings.threshold] + [
        r for r in ranked[settings.candidates :] if str(r.move) == include
    ]
    return [(str(r.move), r.move.position_after()) for r in chosen]


def rollout_decision(
    position: Position,
    ctx: ScoreContext,
    dice: DiceLike | None = None,
    *,
    settings: RolloutSettings | None = None,
    include: str = "",
    progress: RolloutProgress | None = None,
    cancel: threading.Event | None = None,
) -> RolloutResult:
    """Roll out the decision of the player on roll in ``position``.

    With ``dice``, the checker play of that roll (the candidates of
    :class:`RolloutSettings`, plus the move written ``include`` if given);
    without, the cube decision before rolling.  ``ctx`` is that player's
    :class:`ScoreContext`.  ``progress(done, total)`` is called as trials finish
    (from bgsage's threads, holding the GIL; ``done`` never goes down); setting ``cancel`` stops the rollout at the next
    report and returns the finished candidates with ``cancelled=True``.

    Raises :class:`IllegalActionError` for a finished game or a roll with
    fewer than two legal plays (nothing to decide).
    """
    settings = settings or RolloutSettings()
    if position.is_game_over():
        raise IllegalActionError(f"the game is over in position {position.position_id()}")
    started = time.perf_counter()
    candidates: list[tuple[str, Position]] = []
    if dice is not None:
        if len(position.legal_moves(dice)) < 2:
            raise IllegalActionError(
                "this roll has fewer than two legal plays: nothing to roll out"
            )
        candidates = _candidates(position, dice, ctx, settings, include)
    cpp, strategy, _database = _strategy(settings)
    total = settings.trials * max(1, len(candidates))
    done_before = 0
    done = 0

    def report(completed: int, _total: int) -> None:
        nonlocal done
        # bgsage's threads report out of order: the count only goes up
        done = max(done, done_before + completed)
        if cancel is not None and cancel.is_set():
            strategy.cancel()
        if progress is not None:
            progress(done, total)

    args = _cube_args(cpp, ctx)
    moves: list[RolledMove] = []
    cube: RolledCube | None = None
    cancelled = cancel is not None and cancel.is_set()
    try:
        if cancelled:
            raise cpp.RolloutCancelled("cancelled before it began")
        if dice is None:
            r = strategy.cube_decision(list(position.board), progress=report, **args)
            cube = RolledCube(
                r["equity_nd"],
                r["equity_dt"],
                r["equity_dp"],
                max(r["equity_nd_se"], r["equity_dt_se"]),
                bool(r["should_double"]),
                bool(r["should_take"]),
                tuple(r["probs"]),
            )
        before = list(position.board)
        for text, after in candidates:
            if cancel is not None and cancel.is_set():
                # bgsage's single-threaded rollout ignores strategy.cancel(): stop here at least
                raise cpp.RolloutCancelled("cancelled between candidates")
            r = strategy.cubeful_evaluate_board(
                list(after.flipped().board), before, progress=report, **args
            )
            moves.append(
                RolledMove(
                    text,
                    r["cubeful_equity"],
                    r["cubeful_se"],
                    r["equity"],
                    tuple(r["probs"]),
                )
            )
            done_before += settings.trials
    except cpp.RolloutCancelled:
        cancelled = True
    moves.sort(key=lambda m: (-m.equity, -m.cubeless))
    return RolloutResult(
        kind="cube" if dice is None else "checker",
        moves=tuple(moves),
        cube=cube,
        settings=settings,
        trials_done=total if not cancelled else done_before,
        trials_total=total,
        cancelled=cancelled,
        seconds=time.perf_counter() - started,
    )
