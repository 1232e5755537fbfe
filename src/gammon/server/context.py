"""The app-wide services every route shares (:class:`Context`), started and stopped
by the app's lifespan: one small context per room of the server (``infra``, ``table``,
``community``, ``play``, ``analysis``, each built in its own package's ``room`` module)
and the pages' templates.

The app (:mod:`gammon.server.app`), the HTTP routes (:mod:`gammon.server.web`) and
the WebSocket endpoint (:mod:`gammon.server.web.ws`) all reach the services through
this one object (``request.app.state.gammon``), so none of them imports another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from pathlib import Path
from typing import Final

import jinja2
from markupsafe import Markup, escape
from starlette.templating import Jinja2Templates

from gammon.server.analysis.room import AnalysisRoom
from gammon.server.community.room import CommunityRoom
from gammon.server.i18n import person
from gammon.server.i18n.plural import match_points, points
from gammon.server.infra.room import InfraRoom
from gammon.server.infra.settings import Settings
from gammon.server.play.room import PlayRoom
from gammon.server.table.room import TableRoom

__all__ = ["TEMPLATES", "Context"]

log = logging.getLogger(__name__)

#: The server-rendered pages' templates.
TEMPLATES: Final = Path(__file__).parent / "templates"


#: Stands for the visitor's CSRF token in HTML shared by every visitor
#: (:class:`~gammon.server.infra.shared.SharedAnswers`): :func:`with_csrf` puts the token in.
CSRF_SLOT: Final = "csrf-slot-" + secrets.token_hex(16)


def with_csrf(html: str, token: str) -> Markup:
    """Shared HTML (rendered with :data:`CSRF_SLOT` as its token) for one visitor.

    >>> str(with_csrf(f'<input value="{CSRF_SLOT}">', "abc"))
    '<input value="abc">'
    """
    return Markup(html.replace(CSRF_SLOT, str(escape(token))))


def compile_templates(env: jinja2.Environment) -> int:
    """Compile (and keep, in ``env``'s cache) every template: how many.

    >>> env = jinja2.Environment(loader=jinja2.DictLoader({"a.html": "{{ 1 + 1 }}"}))
    >>> compile_templates(env)
    1
    """
    names = env.list_templates()
    for name in names:
        env.get_template(name)
    return len(names)


class CompiledTemplates(jinja2.BytecodeCache):
    """The templates' compiled code, kept for the life of the process and shared by every
    :class:`Context` (jinja2 checks each entry against its template's source).

    A site runs one app per process, which compiles its templates once; a second app in
    the same process (the test suite starts over a hundred) takes the code compiled by the
    first instead of parsing and compiling them all again (~140 ms of CPU each).  Every
    environment using it must be built with the same options (:class:`Context` builds them).

    >>> cache = CompiledTemplates()
    >>> def env() -> jinja2.Environment:
    ...     loader = jinja2.DictLoader({"a.html": "{{ 1 + 1 }}"})
    ...     return jinja2.Environment(loader=loader, bytecode_cache=cache)
    >>> env().get_template("a.html").render(), len(cache)
    ('2', 1)
    >>> env().get_template("a.html").render(), len(cache)
    ('2', 1)
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def __len__(self) -> int:
        return len(self._code)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = CompiledTemplates()


class Context:
    """Everything the routes share, started and stopped by the app's lifespan: the
    rooms, lowest first (each may use only the rooms below it: docs/architecture.md),
    and the :attr:`templates`.

    >>> ctx = Context(Settings())
    >>> ctx.infra.settings.database_url
    'sqlite:///./gammon.db'
    >>> ctx.analysis.runner
    Traceback (most recent call last):
    ...
    RuntimeError: the gammon app is not started (run it under its lifespan)
    """

    def __init__(self, settings: Settings) -> None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            # every template is compiled once, at the start (:meth:`start`), and kept: the
            # templates ship with the package, so nothing is checked for changes per page
            cache_size=-1,
            auto_reload=False,
            bytecode_cache=_COMPILED,
        )
        env.filters["person"] = person  # {{ name|person(t) }}: a bot's level translated
        env.filters["with_csrf"] = with_csrf  # {{ shared_html|with_csrf(csrf) }}
        env.filters["points"] = points  # {{ n|points(t) }}: "1 point", "3 points"
        env.filters["match_points"] = match_points  # {{ n|match_points(t) }}
        self.templates = Jinja2Templates(env=env)
        #: Settings, database, bus, limits, metrics, shared answers, watchdog.
        self.infra = InfraRoom(settings)
        #: The hub of table actors, the bots, the click-to-move answers, the sweep.
        self.table = TableRoom(self.infra)
        #: Accounts, user sockets, inboxes, moderation, the sign-in limiter.
        self.community = CommunityRoom(self.infra, self.table)
        #: Challenges, quick pairing, tournaments.
        self.play = PlayRoom(self.infra, self.table, self.community)
        #: Match analyses, deep analyses, downloads, fair-play checks.
        self.analysis = AnalysisRoom(self.infra, self.table)

    async def start(self) -> None:
        """Start the rooms, lowest first (the infra room migrates the database, the table
        room resumes every table in play), compiling the templates on the way."""
        infra = self.infra
        await infra.start()
        # compiling a template holds the loop for tens of milliseconds: all of them now,
        # off the loop, rather than on the first visitor's page
        await asyncio.to_thread(compile_templates, self.templates.env)
        await self.table.start()
        await self.community.start()
        await self.play.start()
        await self.analysis.start()
        settings = infra.settings
        log.info(
            "gammon started (%s, %s)",
            infra.db.dialect,
            "redis" if settings.redis_url else "one process",
        )

    async def stop(self) -> None:
        """Stop the rooms, highest first: the connections, the actors, the workers, the
        database."""
        await self.analysis.stop()
        await self.play.stop()
        await self.community.stop()
        await self.table.stop()
        await self.infra.stop()
