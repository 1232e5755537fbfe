"""Running the server: :func:`serve` binds the socket, starts uvicorn, reports the address."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
import sys
import time
from collections.abc import Callable, Iterator
from typing import Final

import uvicorn

from gammon.server.app import create_app
from gammon.server.infra.settings import Settings

__all__ = [
    "GC_FULL_EVERY",
    "GC_THRESHOLDS",
    "SWITCH_INTERVAL",
    "bind",
    "collect_old",
    "serve",
    "serving_runtime",
]

log = logging.getLogger(__name__)

#: Largest WebSocket frame uvicorn accepts (bigger ones close the socket with 1009).
WS_MAX_FRAME = 64 * 1024

#: The cyclic garbage collector's thresholds while serving: a young collection every 700
#: new objects as usual, but what survives one is left for :func:`collect_old`.  A
#: server's objects mostly live as long as their table (its journal, state and cached
#: views), and with the default thresholds the collector scanned them again and again:
#: at 200 matches, pauses of 20-30 ms a few times a second and of 60-140 ms every few
#: seconds, on every table at once (``benchmarks/server_load.py``: action p99 ~120-230 ms
#: with the defaults, ~60 ms with these).
GC_THRESHOLDS: Final = (700, 1_000_000, 1_000_000)
#: Seconds between full collections, which free reference cycles among older objects
#: (a closed connection's, say): memory is never more than two minutes' cycles behind,
#: and a pause of ~100 ms per 200 tables every two minutes touches under 0.1% of actions.
GC_FULL_EVERY: Final = 120.0
#: Seconds a thread waiting for the interpreter lock waits before it asks the running one
#: to let go (``sys.setswitchinterval``; Python's default is 0.005).  The database thread
#: lets go of the lock around every SQLite call and must get it back after each one, while
#: the event loop keeps it whenever it is busy: with the default, every statement of a
#: journal append could wait 5 ms for the loop, and appends queue behind each other on the
#: one SQLite thread (at 200 matches: an append's wait p50 10.9 ms with the default,
#: 6.0 ms with this; docs/server.md).
SWITCH_INTERVAL: Final = 0.0005


@contextlib.contextmanager
def serving_runtime() -> Iterator[None]:
    """The interpreter's settings while serving (:data:`GC_THRESHOLDS`,
    :data:`SWITCH_INTERVAL`), put back as they were afterwards.

    >>> before = sys.getswitchinterval()
    >>> with serving_runtime():
    ...     sys.getswitchinterval() == SWITCH_INTERVAL and gc.get_threshold() == GC_THRESHOLDS
    True
    >>> sys.getswitchinterval() == before
    True
    """
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)


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


async def collect_old(every: float = GC_FULL_EVERY) -> None:
    """Every ``every`` seconds, a full collection (the only one :data:`GC_THRESHOLDS`
    leaves), logged with its pause.  Runs until cancelled."""
    while True:
        await asyncio.sleep(every)
        start = time.perf_counter()
        freed = gc.collect()
        log.info(
            "full garbage collection: %d objects freed in %.0f ms",
            freed,
            (time.perf_counter() - start) * 1000,
        )


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
        with serving_runtime():
            collector = asyncio.create_task(collect_old(), name="gammon-gc")
            if ready is not None:
                ready(address(sock))
            try:
                await task
            finally:
                collector.cancel()
        return 0
    await task
    return 1


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
