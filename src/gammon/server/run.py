"""Running the server: :func:`serve` binds the socket, starts uvicorn, reports the address."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import sys
from collections.abc import Callable

import uvicorn

from gammon.server.app import create_app
from gammon.server.settings import Settings

__all__ = ["bind", "serve"]

log = logging.getLogger(__name__)

#: Largest WebSocket frame uvicorn accepts (bigger ones close the socket with 1009).
WS_MAX_FRAME = 64 * 1024


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (``port`` 0 picks a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def address(sock: socket.socket) -> str:
    """The http:// address of a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


async def _serve(settings: Settings, ready: Callable[[str], None] | None) -> int:
    sock = bind(settings.host, settings.port)
    config = uvicorn.Config(
        create_app(settings),
        log_config=None,
        access_log=settings.access_log,
        ws_max_size=WS_MAX_FRAME,
        proxy_headers=bool(settings.trust_proxy),
        forwarded_allow_ips=list(settings.trust_proxy) or None,
        lifespan="on",
        timeout_graceful_shutdown=5,
        ws_per_message_deflate=settings.ws_compression,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.02)
    if server.started:
        # what was loaded at start (modules, resumed tables) stays: keep it out of the
        # cyclic garbage collector's scans, which shortens its pauses
        gc.collect()
        gc.freeze()
        if ready is not None:
            ready(address(sock))
    await task
    return 0 if server.started else 1


def serve(settings: Settings, ready: Callable[[str], None] | None = None) -> int:
    """Run the site until interrupted; ``ready(address)`` is called once it answers.

    Returns the exit status (1 if it could not start, e.g. a database error).
    """
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    try:
        import uvloop

        factory = uvloop.new_event_loop
    except ImportError:  # pragma: no cover - uvloop is part of the server extra
        factory = None
    # database threads need the GIL briefly and often: let them have it sooner than
    # the default 5 ms while the event loop is busy
    sys.setswitchinterval(0.0005)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(_serve(settings, ready))
