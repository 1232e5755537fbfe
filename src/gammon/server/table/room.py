"""The table room's services (:class:`TableRoom`): the hub of table actors, the bots,
the click-to-move answers and the correspondence tables' deadlines.

It runs on the infra room (:class:`~gammon.server.infra.room.InfraRoom`) alone.
"""

from __future__ import annotations

import asyncio

from gammon.server.infra.room import InfraRoom, started
from gammon.server.table.bots import BotRunner
from gammon.server.table.correspondence import Sweep
from gammon.server.table.hub import Hub
from gammon.server.table.steps import StepAnswers
from gammon.storage.turns import Turns

__all__ = ["TableRoom"]


class TableRoom:
    """The tables in play: :attr:`steps` and once started the :attr:`bots`, the
    :attr:`hub` and the :attr:`sweep`.

    >>> from gammon.server.infra.settings import Settings
    >>> table = TableRoom(InfraRoom(Settings()))
    >>> table.hub
    Traceback (most recent call last):
    ...
    RuntimeError: the gammon app is not started (run it under its lifespan)
    """

    def __init__(self, infra: InfraRoom) -> None:
        self._infra = infra
        #: Click-to-move answers: cached, computed off the loop where they are heavy.
        self.steps = StepAnswers(processes=infra.settings.bot_workers > 0)
        self._bots: BotRunner | None = None
        self._hub: Hub | None = None
        self._sweep: Sweep | None = None

    @property
    def bots(self) -> BotRunner:
        """The bots' workers (once started)."""
        return started(self._bots)

    @property
    def hub(self) -> Hub:
        """The table actors (once started)."""
        return started(self._hub)

    @property
    def sweep(self) -> Sweep:
        """The correspondence tables' deadlines (once started)."""
        return started(self._sweep)

    async def start(self) -> None:
        """Start the bots' workers, the hub (every table in play resumes) and the sweep."""
        infra = self._infra
        settings, db = infra.settings, infra.db
        self._bots = BotRunner(settings.bot_workers)
        self._hub = Hub(settings, db, infra.store, infra.bus, self._bots, infra.metrics)
        await self._hub.start()
        hub = self._hub

        async def wake_table(table_id: str) -> None:
            actor = await hub.get(table_id)
            if actor is not None:
                actor.drive()

        self._sweep = Sweep(Turns(db), db.run, wake_table)
        self._sweep.start()

    async def stop(self) -> None:
        """Stop the sweep, the actors (and the bus) and the bots' workers."""
        if self._sweep is not None:
            await self._sweep.stop()
        if self._hub is not None:
            await self._hub.stop()
        if self._bots is not None:
            await asyncio.to_thread(self._bots.close)
        self.steps.close()
