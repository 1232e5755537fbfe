"""The fair-play check on the site: every rated match is analysed once it ends, then each
account's play is compared with its own history (:mod:`gammon.bots.fairplay`,
docs/fairplay.md), and a suspicious one is flagged for the moderators (a ``mod_log`` row,
action ``flag``); nothing is done to the account.

When this process writes a table's ``end`` (``Hub.end_listeners``), the table waits in a
bounded line here (:data:`PENDING`; past it the oldest waiting is dropped, with a warning).
One table at a time is analysed at the expert level through the analysis runner's fair
queue, in a line of its own (:data:`SYSTEM_OWNER`): a player asking for an analysis is
served as soon as the system's current one is done, whatever the number of rated matches
waiting, and the analysis runs in the runner's worker, off the event loop.  The analysis
is stored as any other (a player's page shows it at once); the check itself (a few
milliseconds) and its rows run on a database thread.  A match analysed already (a player
asked first) is not analysed again.  Only the bgsage engine's analyses are checked (the
variants on the backgammon board): a variant net's error rates are in another unit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import TYPE_CHECKING, Any, Final

from gammon.bots.fairplay import (
    DEFAULT_PARAMS,
    HISTORY_MATCHES,
    FairPlayResult,
    check_against,
    seat_decisions,
)
from gammon.server.analysis.exports import actions_of, log_bytes
from gammon.server.analysis.registry import analyser_for
from gammon.server.infra.clock import now_ms
from gammon.storage import Standings
from gammon.storage.fairplay import CheckRow, FairPlayChecks
from gammon.variants import VARIANTS

if TYPE_CHECKING:
    from gammon.server.analysis.runner import AnalysisRunner
    from gammon.server.table.hub import Hub
    from gammon.storage import Database

__all__ = [
    "LEVEL",
    "PENDING",
    "SWEEP_DELAY",
    "SWEEP_LIMIT",
    "SWEEP_WINDOW",
    "SYSTEM_OWNER",
    "FairPlay",
    "check_seats",
    "checked_variants",
]

log = logging.getLogger(__name__)

#: The level the checks are made at (the site's default analysis, the profiles' rates).
LEVEL: Final = "expert"
#: Tables waiting for their check in this process, at most.
PENDING: Final = 1000
#: The analysis runner's line for the site's own analyses.
SYSTEM_OWNER: Final = ("system", "fairplay")
#: On start, the rated matches that ended this long before (ms) and were not checked (a
#: process stopped first) are looked for, at most :data:`SWEEP_LIMIT` of them ...
SWEEP_WINDOW: Final = 7 * 24 * 3600 * 1000
SWEEP_LIMIT: Final = 200
#: ... this many seconds after the start (the tables in play resume first).
SWEEP_DELAY: Final = 2.0


def checked_variants() -> list[str]:
    """The variants whose matches are checked: those bgsage analyses (a variant net's
    error rates are in another unit)."""
    return sorted(
        name
        for name in VARIANTS
        if (found := analyser_for(name)) is not None and found.name == "bgsage"
    )


def check_seats(
    db: Database, table_id: str, analysis: dict[str, Any], at: int
) -> list[FairPlayResult]:
    """Check each account of a rated match's ``analysis`` and store the rows (the flags
    in ``mod_log`` too); a seat checked already is left alone.  Runs on a database
    thread: blocking."""
    checks = FairPlayChecks(db)
    accounts = checks.rated_accounts(table_id)
    if accounts is None:
        return []
    done = checks.checked(table_id)
    results = []
    for seat, user_id in enumerate(accounts):
        if user_id is None or user_id in done:
            continue
        past = checks.history(user_id, before=at, limit=HISTORY_MATCHES + DEFAULT_PARAMS.window)
        rows = [(r.decisions, r.error_rate, r.bot_agreement) for r in past]
        result = check_against(seat_decisions(analysis, seat), rows)
        row = CheckRow(
            table_id,
            user_id,
            at,
            result.decisions,
            result.error_rate,
            result.baseline,
            result.agreement,
            result.score,
            result.flagged,
        )
        if checks.record(row, {"reason": "fair-play check", **result.detail()}):
            results.append(result)
            if result.flagged:
                log.info("fair play: table %s, account %d flagged", table_id, user_id)
    return results


class FairPlay:
    """The rated matches ended here that wait for their analysis and check."""

    def __init__(self, hub: Hub, analysis: AnalysisRunner, db: Database) -> None:
        self._hub = hub
        self._analysis = analysis
        self._db = db
        self._waiting: deque[str] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: Tables checked by this process (for /metrics and the tests).
        self.checked = 0

    def table_ended(self, table_id: str) -> None:
        """``Hub.end_listeners``: a table's ``end`` was written here; check it later."""
        if len(self._waiting) >= PENDING:
            dropped = self._waiting.popleft()
            log.warning("fair play: %d tables waiting; %s is not checked", PENDING, dropped)
        self._waiting.append(table_id)
        self._wake.set()

    @property
    def waiting(self) -> int:
        """Tables waiting for their check."""
        return len(self._waiting)

    def start(self) -> None:
        """Start checking, one table at a time, the rated matches not checked first."""
        self._task = asyncio.create_task(self._run(), name="gammon-fairplay")

    async def _sweep(self) -> None:
        """Queue the rated matches of the last :data:`SWEEP_WINDOW` that were not checked
        (this process or another stopped before it checked them)."""
        await asyncio.sleep(SWEEP_DELAY)
        db = self._db
        since = now_ms() - SWEEP_WINDOW
        found = await db.run(FairPlayChecks(db).unchecked, since, checked_variants(), SWEEP_LIMIT)
        for table_id in reversed(found):  # the oldest first
            if table_id not in self._waiting:
                self.table_ended(table_id)
        if found:
            log.info("fair play: %d rated matches were not checked; queued", len(found))

    async def stop(self) -> None:
        """Stop (what waits is not checked: docs/fairplay.md, "Limits")."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        try:
            await self._sweep()
        except Exception:
            log.exception("fair play: the look for rated matches not checked failed")
        while True:
            if not self._waiting:
                self._wake.clear()
                await self._wake.wait()
                continue
            table_id = self._waiting.popleft()
            try:
                await self.check_table(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("fair play: the check of table %s failed", table_id)

    async def check_table(self, table_id: str) -> list[FairPlayResult]:
        """Analyse a finished table (unless it is analysed already) and check each account
        of its rated result; nothing for a table that is not rated or not analysable."""
        db = self._db
        accounts = await db.run(FairPlayChecks(db).rated_accounts, table_id)
        if accounts is None or all(a is None for a in accounts):
            return []
        actor = await self._hub.get(table_id)
        if actor is None or actor.state is None or actor.state.status != "finished":
            return []
        analyser = analyser_for(actor.state.options.variant)
        if analyser is None or analyser.name != "bgsage":
            return []
        data = await self._analysis.stored(table_id, LEVEL)
        if data is None:
            state, actions = actor.state, actions_of(actor.records)
            text = (await asyncio.to_thread(log_bytes, state, actions)).decode()
            data = await self._analysis.analyse(table_id, LEVEL, text, SYSTEM_OWNER)
        if data.get("engine", "bgsage") != "bgsage":
            return []
        totals = data.get("totals") or []
        if len(totals) == 2:  # the profiles' error rates, as when a player asks
            rates = [float(side["error_rate"]) for side in totals]
            await db.run(Standings(db).record_error_rates, table_id, rates)
        results = await db.run(check_seats, db, table_id, data, now_ms())
        self.checked += 1
        return results
