"""Play now: the quick-pairing routes (docs/protocol.md, "HTTP"; docs/server.md, "Quick
pairing").  The service is :mod:`gammon.server.play.pairing`; these only read and check the
requests: ``GET /api/pairing`` (the players waiting per pool, and the visitor's seek),
``POST /api/pairing/seek`` (wait in a pool), ``DELETE /api/pairing/seek`` (stop waiting)
and ``POST /api/pairing/bot`` (the bot instead, at the pool's options)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.server.play.pairing import CLOCKS, LENGTHS, Pool
from gammon.server.protocol import ServerError
from gammon.server.table.bots import BOT_LEVELS, bots_available
from gammon.server.web.common import (
    client_address,
    context_of,
    json_body,
    may_create,
    may_list,
    need_session,
    session_of,
)
from gammon.variants import ROTATIONS, VARIANTS

__all__ = ["pairing_routes", "play_now"]

_NO_STORE = {"Cache-Control": "no-store"}


def play_now() -> dict[str, Any]:
    """What the lobby's Play now section shows: the variants, clocks and lengths."""
    return {
        "pool_variants": sorted([*VARIANTS, *ROTATIONS]),
        "pool_clocks": tuple(CLOCKS),
        "pool_lengths": LENGTHS,
    }


def _pool(data: dict[str, Any], allowed: frozenset[str]) -> Pool:
    extra = set(data) - allowed
    if extra:
        raise ServerError("bad_message", f"unknown fields: {', '.join(sorted(extra))[:200]}")
    return Pool.parse(data.get("pool"))


async def api_pairing(request: Request) -> Response:
    """The players waiting per pool; the visitor's seek and the table it was paired at."""
    await may_list(request)
    ctx = context_of(request)
    answer: dict[str, Any] = {"pools": await ctx.play.pairing.counts()}
    session = await session_of(request)
    if session is not None:
        answer.update(await ctx.play.pairing.status(session.user))
    else:
        answer.update({"seek": None, "table": None, "bot_after": ctx.play.pairing.bot_after})
    return JSONResponse(answer, headers=_NO_STORE)


async def api_seek(request: Request) -> Response:
    """Wait in a pool (``{"pool": key}``): 200 with the seek, or the table if paired at once."""
    data = await json_body(request)
    session = await need_session(request, "POST /api/guest or sign in first")
    pool = _pool(data, frozenset({"pool"}))
    ctx = context_of(request)
    address = client_address(request)
    ctx.community.moderation.check_address(address)  # docs/moderation.md
    answer = await ctx.play.pairing.seek(session.user, pool, address)
    return JSONResponse(answer, headers=_NO_STORE)


async def api_cancel_seek(request: Request) -> Response:
    """Stop waiting: ``{"cancelled": whether a seek was waiting}``."""
    data = await json_body(request)
    if data:
        raise ServerError("bad_message", "the body is {}")
    session = await need_session(request)
    cancelled = await context_of(request).play.pairing.cancel(session.user)
    return JSONResponse({"cancelled": cancelled}, headers=_NO_STORE)


async def api_pairing_bot(request: Request) -> Response:
    """The bot instead (``{"pool": key, "bot_level": level}``): 201 ``{"table": id}``."""
    data = await json_body(request)
    session = await need_session(request)
    pool = _pool(data, frozenset({"pool", "bot_level"}))
    level = data.get("bot_level", "intermediate")
    if level not in BOT_LEVELS:
        raise ServerError("bad_message", f"bot_level must be one of {', '.join(BOT_LEVELS)}")
    if not bots_available():
        raise ServerError("not_available", "this build has no bot (gammon.bots.seat)")
    await may_create(request)
    table = await context_of(request).play.pairing.bot(session.user, pool, str(level))
    return JSONResponse({"table": table}, status_code=201)


def pairing_routes() -> list[Route]:
    """The routes of this module."""
    return [
        Route("/api/pairing", api_pairing, methods=["GET"]),
        Route("/api/pairing/seek", api_seek, methods=["POST"]),
        Route("/api/pairing/seek", api_cancel_seek, methods=["DELETE"]),
        Route("/api/pairing/bot", api_pairing_bot, methods=["POST"]),
    ]
