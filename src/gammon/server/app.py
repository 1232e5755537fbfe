"""The ASGI application: :func:`create_app` builds it from :class:`Settings`.

Nothing is created at import time: the database, the event bus, the bot pool and
the table actors are started by the application's lifespan (migrations first)
and stopped with it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gammon.server.context import Context
from gammon.server.infra.metrics import HttpMetrics
from gammon.server.infra.settings import Settings
from gammon.server.web import exception_handlers
from gammon.server.web import routes as http_routes
from gammon.server.web.staticfiles import static_files
from gammon.server.web.user_ws import user_socket
from gammon.server.web.ws import table_socket

__all__ = ["Context", "create_app"]

HERE: Final = Path(__file__).parent
#: Largest HTTP request body accepted (but ``POST /import``'s: ``--import-limit`` and the
#: form around the file, :mod:`gammon.server.web.imports`).
MAX_BODY: Final = 64 * 1024

_SECURITY_HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; connect-src 'self' ws: wss:; "
        "img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    ),
}


class _SecurityHeaders:
    """Adds the security headers to every HTTP response (plain ASGI, cheap)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in _SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(settings: Settings | None = None) -> Starlette:
    """The gammon web application for ``settings`` (default: from ``GAMMON_*``)."""
    ctx = Context(settings if settings is not None else Settings.from_env())

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await ctx.start()
        # the first streamed response would otherwise load anyio's asyncio backend on the
        # event loop (45 ms, measured as a stall at an attack's first second)
        async with anyio.create_task_group():
            pass
        try:
            yield
        finally:
            await ctx.stop()

    routes = [
        *http_routes(),
        WebSocketRoute("/ws/table/{table_id}", table_socket),
        WebSocketRoute("/ws/user", user_socket),
        Mount("/static", app=static_files(HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(HttpMetrics, metrics=ctx.infra.metrics),
            Middleware(_SecurityHeaders),
        ],
        exception_handlers=exception_handlers(),
        max_body_size=MAX_BODY,
    )
    app.state.gammon = ctx
    return app
