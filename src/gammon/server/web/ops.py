"""The operators' routes: ``/metrics`` (Prometheus, behind a bearer token) and
``/readyz`` (the database, its schema and Redis answer).  ``/healthz`` (liveness: the
process answers, nothing else is asked) is in :mod:`gammon.server.web.pages`.

``/metrics`` answers 404 unless ``--metrics-token`` is set, then 401 to a request
without ``Authorization: Bearer <token>`` (compared in constant time).  ``/readyz``
answers 200 when this process can serve (the database answers, its schema is at the
newest migration, Redis answers if configured) and 503 otherwise; its checks are made
at most once a second for every caller together, so a visitor looping on it costs one
query a second.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import time
from collections.abc import Iterator
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from gammon.server.infra.metrics import CONTENT_TYPE
from gammon.server.infra.workqueue import WorkQueue

if TYPE_CHECKING:
    from gammon.server.context import Context
    from gammon.server.infra.room import InfraRoom

__all__ = ["READY_CACHE", "READY_TIMEOUT", "collect", "ops_routes", "schema_head"]

log = logging.getLogger(__name__)

#: Seconds a readiness answer is kept (every caller in that time gets it).
READY_CACHE: Final = 1.0
#: Seconds each readiness check (database, Redis) may take before it counts as failed.
READY_TIMEOUT: Final = 3.0


def _queues(owner: object, depth: int = 2) -> Iterator[WorkQueue]:
    """The work queues a service holds (in its attributes, their dicts and tuples, and the
    small objects they hold, ``depth`` levels down): read when scraped, whatever shape each
    service gives its queues."""
    if isinstance(owner, WorkQueue):
        yield owner
        return
    if depth < 0 or owner is None or isinstance(owner, str | bytes | int | float):
        return
    if isinstance(owner, dict):
        children: list[object] = list(owner.values())[:64]
    elif isinstance(owner, tuple | list):
        children = list(owner)[:64]
    else:
        attributes = getattr(owner, "__dict__", None)
        slots = [getattr(owner, s, None) for s in getattr(type(owner), "__slots__", ())]
        children = [*(attributes.values() if isinstance(attributes, dict) else ()), *slots]
    for child in children:
        yield from _queues(child, depth - 1)


def collect(ctx: Context) -> None:
    """Set the gauges read when ``/metrics`` is scraped: sockets, queues, jobs, database
    writes, live tables."""
    m = ctx.infra.metrics
    m.sockets.set("table", value=sum(ctx.infra.sockets.values()))
    m.sockets.set("user", value=sum(ctx.community.notifier.per_address.values()))
    hub = ctx.table.hub
    m.live_tables.set(value=len(hub.actors))
    for gauge in (m.queue_waiting, m.queue_busy, m.queue_workers):
        gauge.clear()
    seen: set[int] = set()
    for service in (
        hub,
        hub.bots,
        ctx.analysis.runner,
        ctx.analysis.exports,
        ctx.table.steps,
        ctx.analysis.deep,
    ):
        for queue in _queues(service):
            if id(queue) in seen:
                continue
            seen.add(id(queue))
            m.queue_waiting.set(queue.name, value=queue.waiting)
            m.queue_busy.set(queue.name, value=queue.busy)
            m.queue_workers.set(queue.name, value=queue.workers + queue.quick_workers)
    for work, service in (("analysis", ctx.analysis.runner), ("deep", ctx.analysis.deep)):
        jobs = getattr(service, "jobs", None)
        if isinstance(jobs, int):
            m.jobs.set(work, value=jobs)
    m.db_writes.set_total("now", total=ctx.infra.db.writes_now)
    m.db_writes.set_total("deferred", total=ctx.infra.db.writes_deferred)


async def metrics(request: Request) -> Response:
    """``GET /metrics``: this process's metrics, for the bearer of the metrics token."""
    ctx: Context = request.app.state.gammon
    token = ctx.infra.settings.metrics_token
    if token is None:
        raise HTTPException(404)
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode("utf-8", "replace"), token.encode()
    ):
        return PlainTextResponse(
            "unauthorized: /metrics needs the header Authorization: Bearer <metrics token>",
            status_code=401,
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
        )
    collect(ctx)
    return Response(ctx.infra.metrics.render(), media_type=CONTENT_TYPE)


@functools.cache
def schema_head() -> str:
    """The newest migration's revision (what a ready database is at): read once from the
    installed migrations."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    location = resources.files("gammon.storage") / "migrations"
    config.set_main_option("script_location", str(location))
    return ",".join(sorted(ScriptDirectory.from_config(config).get_heads()))


_Answer = tuple[bool, dict[str, str]]


class _Readiness:
    """The last readiness answer, kept :data:`READY_CACHE` seconds, and the check under
    way (one at a time, whoever asks)."""

    def __init__(self) -> None:
        self.answer: _Answer | None = None
        self.until = 0.0
        self.running: asyncio.Task[_Answer] | None = None

    def keep(self, task: asyncio.Task[_Answer]) -> None:
        if not task.cancelled() and task.exception() is None:
            self.answer, self.until = task.result(), time.monotonic() + READY_CACHE

    async def get(self, infra: InfraRoom) -> _Answer:
        if self.answer is not None and time.monotonic() < self.until:
            return self.answer
        if self.running is None or self.running.done():
            self.running = asyncio.create_task(_check(infra), name="gammon-readyz")
            self.running.add_done_callback(self.keep)
        return await asyncio.shield(self.running)


async def _database(infra: InfraRoom) -> tuple[bool, str]:
    db = infra.db
    head = await asyncio.to_thread(schema_head)
    try:
        revision = await asyncio.wait_for(db.run(db.schema_revision), READY_TIMEOUT)
    except Exception as exc:  # unreachable, timed out: not ready, said once here
        log.warning("readyz: the database did not answer: %s", type(exc).__name__)
        return False, "unreachable"
    if revision != head:
        return False, f"schema at {revision}, not at {head}"
    return True, f"ok ({revision})"


async def _redis(infra: InfraRoom) -> tuple[bool, str]:
    url = infra.settings.redis_url
    if not url:
        return True, "not used"
    import redis.asyncio as aioredis

    client: Any = aioredis.Redis.from_url(
        url, socket_timeout=READY_TIMEOUT, socket_connect_timeout=READY_TIMEOUT
    )
    try:
        await asyncio.wait_for(client.ping(), READY_TIMEOUT)
    except Exception as exc:
        log.warning("readyz: Redis did not answer: %s", type(exc).__name__)
        return False, "unreachable"
    finally:
        await client.aclose()
    return True, "ok"


async def _check(infra: InfraRoom) -> _Answer:
    (db_ok, db_text), (redis_ok, redis_text) = await asyncio.gather(_database(infra), _redis(infra))
    return db_ok and redis_ok, {"database": db_text, "redis": redis_text}


async def readyz(request: Request) -> Response:
    """``GET /readyz``: 200 when this process can serve, 503 otherwise (with what failed)."""
    ctx: Context = request.app.state.gammon
    state = getattr(request.app.state, "gammon_readiness", None)
    if not isinstance(state, _Readiness):
        state = request.app.state.gammon_readiness = _Readiness()
    ready, checks = await state.get(ctx.infra)
    return JSONResponse(
        {"ready": ready, "checks": checks},
        status_code=200 if ready else 503,
        headers={"Cache-Control": "no-store"},
    )


def ops_routes() -> list[Route]:
    """``/metrics`` and ``/readyz``."""
    return [
        Route("/metrics", metrics, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
    ]
