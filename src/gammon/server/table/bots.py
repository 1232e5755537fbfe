"""Bot seats: ``gammon.bots.seat.choose_action`` run off the event loop.

A bot decision is CPU-bound (up to seconds), so it runs in worker processes
(``--bot-workers``; 0 runs it on one thread of the server process), the tables taking
turns fairly, each decision within a time budget (:data:`BOT_BUDGET`).
A bot's ``Roll`` draws the match's next verifiable dice (and the server checks
that it did), so a bot never chooses dice.
"""

from __future__ import annotations

import importlib.util
import logging
import signal
import threading
from collections.abc import Callable, Hashable
from typing import Any, Final, TypeVar

from gammon.dice import Dice
from gammon.match import Action, MatchState
from gammon.match.fairdice import FixedDice
from gammon.server.infra.workqueue import WorkQueue

__all__ = [
    "BOT_BUDGET",
    "BOT_LEVELS",
    "BotRunner",
    "bots_available",
    "choose_in_worker",
    "warm_up",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: The levels ``choose_action`` knows.
BOT_LEVELS: Final = ("beginner", "intermediate", "expert", "world-class", "grandmaster")
#: Seconds a bot may think about one decision (in a worker process); past them the
#: server plays a safe action for it (``gammon.server.table.actor.autopilot.safe_action``).
#: The grandmaster's search takes about 0.2 s on average and up to about 3 s here.
BOT_BUDGET: Final = 5.0


def bots_available() -> bool:
    """Whether this installation has the bot seat module (``gammon.bots.seat``)."""
    try:
        return importlib.util.find_spec("gammon.bots.seat") is not None
    except ImportError:
        return False


def warm_up() -> None:
    """Load the bots and their evaluator in a worker (its first decision then need not)."""
    if not bots_available():
        return
    from dataclasses import replace

    from gammon.bots.seat import choose_action
    from gammon.match import TableOptions, new_match
    from gammon.position import Position

    try:
        match = new_match(TableOptions(match_length=1))
        dice = Dice(4, 2)
        game = replace(match.game, phase="moving", position=Position.initial(), turn=0, dice=dice)
        choose_action(replace(match, game=game), 0, "expert", dice=FixedDice([dice]))
    except Exception:  # only a head start: the real decisions say what is wrong
        log.warning("the bot worker could not warm up", exc_info=True)


class _OverBudgetError(Exception):
    """A bot's thinking ran past its budget."""


def _over_budget(signum: int, frame: object) -> None:
    raise _OverBudgetError


def choose_in_worker(
    state: MatchState,
    seat: int,
    level: str,
    dice: Dice,
    budget: float | None = None,
    time_left: float | None = None,
) -> Action | None:
    """Run in a worker: the bot's action for ``seat`` in ``state``; a roll gets ``dice``.

    ``budget``: seconds it may think; past them it stops and None is returned (the server
    then plays its safe action).  Only a worker process's main thread can be interrupted
    so; on a thread of the server the bot thinks as long as it takes.  ``time_left``: the
    seconds the table's clock leaves (a slower level falls back to a faster one).
    """
    from gammon.bots.seat import choose_action

    def decide() -> Action:
        return choose_action(state, seat, level, dice=FixedDice([dice]), time_left=time_left)

    if budget is None or threading.current_thread() is not threading.main_thread():
        return decide()
    previous = signal.signal(signal.SIGALRM, _over_budget)
    try:
        signal.setitimer(signal.ITIMER_REAL, budget)
        try:
            return decide()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _OverBudgetError:
        return None
    finally:
        signal.signal(signal.SIGALRM, previous)


class BotRunner:
    """The workers that compute bot decisions (and hints): a :class:`WorkQueue` of
    ``workers`` processes (0: one thread), where the tables take turns, the one that used
    the workers least lately first, plus one quick worker that takes only the tables whose
    decisions lately took under half a second: ten tables of heavy bots (each decision up to
    its budget) cannot hold up another table's quick one."""

    def __init__(self, workers: int, budget: float = BOT_BUDGET) -> None:
        self.workers = workers
        self.budget = budget
        self.queue = WorkQueue(
            "gammon-bot",
            max(1, workers),
            per_key=4,
            processes=workers > 0,
            quick_workers=1,
            warm=warm_up,
        )

    async def choose(
        self,
        state: MatchState,
        seat: int,
        level: str,
        dice: Dice,
        key: Hashable = None,
        time_left: float | None = None,
    ) -> Action | None:
        """The bot's decision at table ``key`` (``dice`` for a roll: the match's next;
        ``time_left``: what the table's clock leaves, None without a clock), or None when
        it ran past its budget."""
        budget = self.budget if time_left is None else max(0.5, min(self.budget, time_left))
        return await self.queue.run(
            key, choose_in_worker, state, seat, level, dice, budget, time_left
        )

    async def run(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """Other bot work (a hint) on the same workers, in table ``key``'s turn."""
        return await self.queue.run(key, fn, *args)

    def close(self) -> None:
        """Stop the workers."""
        self.queue.close(wait=True)
