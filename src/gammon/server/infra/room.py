"""The infra room's services (:class:`InfraRoom`): the settings, the database and its
queries, the bus, the limits, the shared answers and the loop's watchdog, which every
room above runs on.

The server's context (:mod:`gammon.server.context`) builds one room of each kind, lowest
first, starts them in that order and stops them in the reverse one.  A room's service
that only exists once the room is started raises :class:`RuntimeError` before
(:func:`started`).
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

from gammon.server.infra.bus import Bus, make_bus
from gammon.server.infra.limits import Limits, parse_limits
from gammon.server.infra.metrics import ServerMetrics
from gammon.server.infra.settings import Settings
from gammon.server.infra.shared import KeptAnswers, SharedAnswers
from gammon.server.infra.watchdog import LoopWatchdog
from gammon.storage import Database, Store

__all__ = ["InfraRoom", "started"]

T = TypeVar("T")


def started(value: T | None) -> T:
    """A room's service, once the room is started.

    >>> started(3)
    3
    >>> started(None)
    Traceback (most recent call last):
    ...
    RuntimeError: the gammon app is not started (run it under its lifespan)
    """
    if value is None:
        raise RuntimeError("the gammon app is not started (run it under its lifespan)")
    return value


class InfraRoom:
    """What every room runs on: :attr:`settings`, :attr:`metrics`, :attr:`limits`, the
    shared and kept answers, the sockets per address, and once started the
    :attr:`watchdog`, the :attr:`db`, its :attr:`store` and the :attr:`bus`.

    >>> infra = InfraRoom(Settings(database_url="sqlite://"))
    >>> infra.sockets, infra.watchdog
    ({}, None)
    >>> infra.db
    Traceback (most recent call last):
    ...
    RuntimeError: the gammon app is not started (run it under its lifespan)
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: This process's metrics (``/metrics``).
        self.metrics = ServerMetrics()
        #: Every creation (tables, tournaments, challenges, imports, analyses, accounts)
        #: per account and per address, shared across processes through Redis.
        self.limits = Limits(
            create_limit=settings.create_limit,
            overrides=parse_limits(settings.limits),
            site=settings.database_url,
            redis_url=settings.redis_url,
            # and the costly reads (replays, history pages, match pages, downloads, the
            # lists of tables) per address and for the whole site: ``--list-limit``
            list_limit=settings.list_limit,
        )
        #: The lobby's and the watch page's lists, shared by every visitor for a moment.
        self.shared = SharedAnswers()
        #: Answers that never change (an imported match's replay, an ended game's
        #: history), kept by size.
        self.kept = KeptAnswers()
        #: Open WebSockets per client address (``--max-sockets``).
        self.sockets: dict[str, int] = {}
        #: How late the loop runs, and where it was held (started with the room).
        self.watchdog: LoopWatchdog | None = None
        self._db: Database | None = None
        self._store: Store | None = None
        self._bus: Bus | None = None

    @property
    def db(self) -> Database:
        """The database (once started)."""
        return started(self._db)

    @property
    def store(self) -> Store:
        """The queries (once started)."""
        return started(self._store)

    @property
    def bus(self) -> Bus:
        """The events between processes (once started; the hub starts and closes it)."""
        return started(self._bus)

    async def start(self) -> None:
        """Start the watchdog, open the database and migrate it, make the bus."""
        settings = self.settings
        self.watchdog = LoopWatchdog(settings.stall_log, self.metrics.loop_lag.observe)
        self.watchdog.start()
        db = Database(settings.database_url, pool_size=settings.db_pool_size)
        await asyncio.to_thread(db.migrate)
        self._db = db
        self._store = Store(db)
        self._bus = make_bus(settings.redis_url)

    async def stop(self) -> None:
        """Close the limits' connection and the database, stop the watchdog."""
        await self.limits.close()
        if self._db is not None:
            await asyncio.to_thread(self._db.close)
        if self.watchdog is not None:
            await self.watchdog.stop()
