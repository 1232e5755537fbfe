"""Bot seats: ``gammon.bots.seat.choose_action`` run off the event loop.

A bot decision is CPU-bound (up to about a second), so it runs in worker
processes (``--bot-workers``; 0 runs it on one thread of the server process).
A bot's ``Roll`` draws the match's next verifiable dice (and the server checks
that it did), so a bot never chooses dice.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Final

from gammon.dice import Dice
from gammon.match import Action, MatchState
from gammon.match.fairdice import FixedDice

__all__ = ["BOT_LEVELS", "BotRunner", "bots_available", "choose_in_worker"]

log = logging.getLogger(__name__)

#: The levels ``choose_action`` knows.
BOT_LEVELS: Final = ("beginner", "intermediate", "expert", "world-class", "grandmaster")


def bots_available() -> bool:
    """Whether this installation has the bot seat module (``gammon.bots.seat``)."""
    try:
        return importlib.util.find_spec("gammon.bots.seat") is not None
    except ImportError:
        return False


def choose_in_worker(
    state: MatchState, seat: int, level: str, dice: Dice, time_left: float | None = None
) -> Action:
    """Run in a worker: the bot's action for ``seat`` in ``state``; a roll gets ``dice``.

    ``time_left``: the seconds the table's clock leaves (a slower level falls back).
    """
    from gammon.bots.seat import choose_action

    return choose_action(state, seat, level, dice=FixedDice([dice]), time_left=time_left)


class BotRunner:
    """The pool that computes bot decisions (started on first use)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers > 0:
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn")
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="gammon-bot")
        return self._executor

    async def choose(
        self, state: MatchState, seat: int, level: str, dice: Dice, time_left: float | None = None
    ) -> Action:
        """The bot's decision, computed in the pool (``dice`` for a roll: the match's next;
        ``time_left``: what the table's clock leaves, None without a clock)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool(), choose_in_worker, state, seat, level, dice, time_left
        )

    def close(self) -> None:
        """Stop the workers."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
