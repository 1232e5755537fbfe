"""The app-wide services every route shares (:class:`Context`), started and stopped
by the app's lifespan.

The app (:mod:`gammon.server.app`), the HTTP routes (:mod:`gammon.server.web`) and
the WebSocket endpoint (:mod:`gammon.server.ws`) all reach the services through
this one object (``request.app.state.gammon``), so none of them imports another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final, TypeVar

import jinja2
from markupsafe import Markup, escape
from starlette.templating import Jinja2Templates

from gammon.server.analysis import AnalysisRunner
from gammon.server.auth import Auth
from gammon.server.bots import BotRunner
from gammon.server.bus import Bus, make_bus
from gammon.server.challenges import Challenges
from gammon.server.deep import DeepRunner
from gammon.server.exports import Exports
from gammon.server.hub import Hub
from gammon.server.i18n import person
from gammon.server.notify import Notifier
from gammon.server.ratelimit import KeyedLimiter
from gammon.server.settings import Settings
from gammon.server.shared import SharedAnswers
from gammon.server.steps import StepAnswers
from gammon.server.tournaments import Tournaments
from gammon.storage import Database, Standings, Store

__all__ = ["TEMPLATES", "Context"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The server-rendered pages' templates.
TEMPLATES: Final = Path(__file__).parent / "templates"


#: Stands for the visitor's CSRF token in HTML shared by every visitor
#: (:class:`~gammon.server.shared.SharedAnswers`): :func:`with_csrf` puts the token in.
CSRF_SLOT: Final = "csrf-slot-" + secrets.token_hex(16)


def with_csrf(html: str, token: str) -> Markup:
    """Shared HTML (rendered with :data:`CSRF_SLOT` as its token) for one visitor.

    >>> str(with_csrf(f'<input value="{CSRF_SLOT}">', "abc"))
    '<input value="abc">'
    """
    return Markup(html.replace(CSRF_SLOT, str(escape(token))))


class Context:
    """Everything the routes share, started and stopped by the app's lifespan."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        env.filters["person"] = person  # {{ name|person(t) }}: a bot's level translated
        env.filters["with_csrf"] = with_csrf  # {{ shared_html|with_csrf(csrf) }}
        self.templates = Jinja2Templates(env=env)
        self.signin_limiter = KeyedLimiter(rate=0.2, burst=10)
        #: New accounts, guests and tables per client address.
        self.create_limiter = KeyedLimiter(
            rate=settings.create_limit / 60.0, burst=max(1, int(2 * settings.create_limit))
        )
        #: The lists of tables (lobby, watch page, API) per client address: each is shared
        #: (below), but a client looping on them would still hold the event loop.
        self.list_limiter = KeyedLimiter(
            rate=settings.list_limit, burst=max(1, int(4 * settings.list_limit))
        )
        #: Match downloads: built off the event loop, cached, rationed per address.
        self.exports = Exports(processes=settings.bot_workers > 0)
        #: Click-to-move answers: cached, computed off the loop where they are heavy.
        self.steps = StepAnswers(processes=settings.bot_workers > 0)
        #: Grandmaster analyses and rollouts on demand: one job a person, bounded.
        self.deep = DeepRunner(processes=settings.bot_workers > 0)
        #: The lobby's and the watch page's lists, shared by every visitor for a moment.
        self.shared = SharedAnswers()
        #: Open WebSockets per client address (``--max-sockets``).
        self.sockets: dict[str, int] = {}
        self._db: Database | None = None
        self._store: Store | None = None
        self._auth: Auth | None = None
        self._hub: Hub | None = None
        self._bus: Bus | None = None
        self._bots: BotRunner | None = None
        self._analysis: AnalysisRunner | None = None
        self._notifier: Notifier | None = None
        self._challenges: Challenges | None = None
        self._tournaments: Tournaments | None = None

    @staticmethod
    def _need(value: T | None) -> T:
        if value is None:
            raise RuntimeError("the gammon app is not started (run it under its lifespan)")
        return value

    @property
    def db(self) -> Database:
        """The database (once started)."""
        return self._need(self._db)

    @property
    def store(self) -> Store:
        """The queries (once started)."""
        return self._need(self._store)

    @property
    def auth(self) -> Auth:
        """Accounts and sessions (once started)."""
        return self._need(self._auth)

    @property
    def hub(self) -> Hub:
        """The table actors (once started)."""
        return self._need(self._hub)

    @property
    def analysis(self) -> AnalysisRunner:
        """The match analyses (once started)."""
        return self._need(self._analysis)

    @property
    def notifier(self) -> Notifier:
        """The user sockets (once started)."""
        return self._need(self._notifier)

    @property
    def challenges(self) -> Challenges:
        """Challenges (once started)."""
        return self._need(self._challenges)

    @property
    def tournaments(self) -> Tournaments:
        """Tournaments and their scheduler (once started)."""
        return self._need(self._tournaments)

    async def start(self) -> None:
        """Open the database, migrate it, connect the bus, resume every table in play."""
        settings = self.settings
        db = Database(settings.database_url, pool_size=settings.db_pool_size)
        await asyncio.to_thread(db.migrate)
        self._db = db
        self._store = Store(db)
        self._auth = Auth(db, self._store, settings)
        self._bus = make_bus(settings.redis_url)
        self._bots = BotRunner(settings.bot_workers)
        self._analysis = AnalysisRunner(settings.bot_workers, db, self._store)
        self._hub = Hub(settings, db, self._store, self._bus, self._bots)
        await self._hub.start()
        self._notifier = Notifier(settings.redis_url)
        await self._notifier.start()
        self._challenges = Challenges(self._hub, self._notifier)
        standings = Standings(db)

        async def ratings(pool: str, users: Sequence[int]) -> Mapping[int, float]:
            return await db.run(standings.ratings_in, pool, users)

        self._tournaments = Tournaments(self._hub, ratings)
        self._hub.end_listeners.append(self._tournaments.table_ended)
        await self._tournaments.start()
        log.info(
            "gammon started (%s, %s)", db.dialect, "redis" if settings.redis_url else "one process"
        )

    async def stop(self) -> None:
        """Close connections, stop the actors, the bot pool and the database."""
        if self._tournaments is not None:
            await self._tournaments.stop()
        if self._notifier is not None:
            await self._notifier.close()
        if self._auth is not None:
            await self._auth.close()
        if self._hub is not None:
            await self._hub.stop()
        if self._bots is not None:
            await asyncio.to_thread(self._bots.close)
        if self._analysis is not None:
            await asyncio.to_thread(self._analysis.close)
        self.exports.close()
        self.steps.close()
        self.deep.close()
        if self._db is not None:
            await asyncio.to_thread(self._db.close)
