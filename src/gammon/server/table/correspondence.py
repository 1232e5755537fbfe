"""Correspondence play: days per move, many games at once, no actor kept waiting
(docs/notifications.md).

A correspondence table has a clock with ``correspondence`` set: 1 to 7 days per move and
no reserve.  While its running decision is a person's (:func:`wake`), every journal
entry also writes the decision's deadline and that person's id on the table's row
(``tables.wake_at``, ``tables.turn_user``), in the entry's transaction.  The actor may
then be forgotten like an idle one (:func:`dormant`), and a restart does not load it:
:class:`Sweep` asks the database every :data:`SWEEP_INTERVAL` seconds for the tables
whose deadline has come (an indexed query) and loads them, and their autopilot times the
late player out.  The deadline comes from the journal alone (the clock's start and
delay), so it survives restarts, and loading a table never restarts its clock (no
``resume`` entry, no grace).  10,000 such tables cost a row each, nothing in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Final

from gammon.match import TableOptions
from gammon.server.infra.clock import now_ms
from gammon.server.table.state import TableState, auto_roll_due, clock_deadline
from gammon.storage.turns import Turns

__all__ = ["SWEEP_BATCH", "SWEEP_INTERVAL", "Sweep", "dormant", "is_correspondence", "wake"]

log = logging.getLogger(__name__)

#: Seconds between two looks for the correspondence tables due.
SWEEP_INTERVAL: Final = 30.0
#: Tables a sweep loads at most (the next sweep takes the rest).
SWEEP_BATCH: Final = 32


def is_correspondence(options: TableOptions) -> bool:
    """Whether a table is played by correspondence (days per move)."""
    return options.clock is not None and options.clock.correspondence


def wake(state: TableState) -> tuple[int, int] | None:
    """``(deadline ms, user id)`` when a correspondence table in play waits on a person
    (an account's decision, nothing the server does by itself due); else None."""
    if not is_correspondence(state.options):
        return None
    deadline = clock_deadline(state)
    seat = state.clock_seat
    if deadline is None or seat is None or auto_roll_due(state):
        return None
    who = state.seats[seat]
    if who is None or who.kind == "bot" or who.user_id is None:
        return None
    return deadline, who.user_id


def dormant(state: TableState | None) -> bool:
    """Whether a table in play may be forgotten while it waits (:func:`wake`)."""
    return state is not None and state.status == "playing" and wake(state) is not None


class Sweep:
    """Loads the correspondence tables whose deadline came (their autopilot acts)."""

    def __init__(
        self,
        turns: Turns,
        run: Callable[..., Awaitable[list[str]]],
        load: Callable[[str], Awaitable[object]],
    ) -> None:
        self.turns = turns
        self._run = run
        self._load = load
        #: Seconds between sweeps (tests shorten it).
        self.interval = SWEEP_INTERVAL
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Sweep in the background."""
        self._task = asyncio.create_task(self._loop(), name="gammon-correspondence")

    async def stop(self) -> None:
        """Stop sweeping."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        last = -math.inf
        while True:
            if time.monotonic() - last >= self.interval:  # read each time: tests shorten it
                last = time.monotonic()
                try:
                    await self.sweep()
                except Exception as exc:
                    log.warning("correspondence sweep failed: %s", exc)
            await asyncio.sleep(min(1.0, self.interval))

    async def sweep(self) -> int:
        """Load the tables due now (at most :data:`SWEEP_BATCH`); how many."""
        due = await self._run(self.turns.due, now_ms(), SWEEP_BATCH)
        for table_id in due:
            try:
                await self._load(table_id)  # loading drives it: the late seat times out
            except Exception as exc:
                log.warning("correspondence table %s not loaded: %s", table_id, exc)
        return len(due)
