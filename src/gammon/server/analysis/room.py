"""The analysis room's services (:class:`AnalysisRoom`): the match analyses, the
grandmaster's deep work, the downloads and the fair-play checks.

It runs on the infra and table rooms: an analysis stored gives its training puzzles,
a rated table that ends is checked (``Hub.end_listeners``).
"""

from __future__ import annotations

from functools import partial

from gammon.server.analysis.deep import DeepRunner
from gammon.server.analysis.exports import Exports
from gammon.server.analysis.fairplay import FairPlay
from gammon.server.analysis.runner import AnalysisRunner
from gammon.server.analysis.training import harvest_analysis
from gammon.server.infra.room import InfraRoom, started
from gammon.server.table.room import TableRoom

__all__ = ["AnalysisRoom"]


class AnalysisRoom:
    """Reviewing play: the :attr:`exports` and :attr:`deep` work, and once started the
    :attr:`runner` of match analyses and the :attr:`fairplay` checks.

    >>> from gammon.server.infra.settings import Settings
    >>> infra = InfraRoom(Settings())
    >>> AnalysisRoom(infra, TableRoom(infra)).runner
    Traceback (most recent call last):
    ...
    RuntimeError: the gammon app is not started (run it under its lifespan)
    """

    def __init__(self, infra: InfraRoom, table: TableRoom) -> None:
        self._infra = infra
        self._table = table
        processes = infra.settings.bot_workers > 0
        #: Match downloads: built off the event loop, cached, rationed per address.
        self.exports = Exports(processes=processes, limits=infra.limits)
        #: Grandmaster analyses and rollouts on demand: one job a person, bounded.
        self.deep = DeepRunner(processes=processes)
        self._runner: AnalysisRunner | None = None
        self._fairplay: FairPlay | None = None

    @property
    def runner(self) -> AnalysisRunner:
        """The match analyses (once started)."""
        return started(self._runner)

    @property
    def fairplay(self) -> FairPlay:
        """The fair-play checks of rated matches (once started)."""
        return started(self._fairplay)

    async def start(self) -> None:
        """Start the analyses (each stored one gives its puzzles: docs/training.md) and
        the fair-play checks of every rated match ended here (docs/fairplay.md)."""
        infra, hub = self._infra, self._table.hub
        db = infra.db
        self._runner = AnalysisRunner(infra.settings.bot_workers, db, infra.store)
        self._runner.stored_listeners.append(partial(harvest_analysis, db))
        self._fairplay = FairPlay(hub, self._runner, db)
        hub.end_listeners.append(self._fairplay.table_ended)
        self._fairplay.start()

    async def stop(self) -> None:
        """Stop the fair-play checks, the analyses' workers, the downloads and the deep
        work."""
        if self._fairplay is not None:
            await self._fairplay.stop()
        if self._runner is not None:
            self._runner.close()  # on the loop: its queues cancel their callers' futures
        self.exports.close()
        self.deep.close()
