"""The WebSocket endpoint ``/ws/user``: a signed-in visitor's news (docs/protocol.md,
"The user socket").  The client only listens (it may send ``{"type": "ping"}``); what it
is sent comes from :class:`gammon.server.community.notify.Notifier`."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket

from gammon.server.community.auth import SESSION_COOKIE, origin_allowed
from gammon.server.infra.clock import now_ms
from gammon.server.infra.ratelimit import TokenBucket
from gammon.server.table.connection import Connection, finish

if TYPE_CHECKING:
    from gammon.server.context import Context

__all__ = ["user_socket"]


async def user_socket(websocket: WebSocket) -> None:
    """``/ws/user``: a signed-in visitor's news (closed with 4401 without a session)."""
    ctx: Context = websocket.app.state.gammon
    settings = ctx.infra.settings
    if not origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=4403)
        return
    token = websocket.cookies.get(SESSION_COOKIE)
    session = await ctx.community.auth.session(token)
    await websocket.accept()
    if session is None:
        await websocket.close(code=4401)
        return
    notifier = ctx.community.notifier
    address = websocket.client.host if websocket.client is not None else "unknown"
    if notifier.per_address.get(address, 0) >= settings.max_sockets:
        await websocket.close(code=4429)
        return
    notifier.per_address[address] = notifier.per_address.get(address, 0) + 1
    conn = Connection(websocket, session.user)
    writer = asyncio.create_task(conn.writer(), name="gammon-user-writer")
    notifier.add(conn, token)
    try:
        if ctx.community.auth.closed_here(token):  # signed out while this socket was opening
            conn.close(4401, "signed out")
            return
        conn.send_json(await ctx.play.challenges.summary(session.user.id))
        conn.send_json(await ctx.community.notices.summary(session.user.id))  # the bell's count
        bucket = TokenBucket(settings.rate_limit, settings.rate_burst)
        while not conn.closing:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not bucket.take():
                conn.close(4429, "too many messages")
                return
            if message.get("text") == '{"type":"ping"}':
                conn.send_json({"type": "pong", "now": now_ms()})
    finally:
        notifier.remove(conn)
        left = notifier.per_address.get(address, 1) - 1
        if left > 0:
            notifier.per_address[address] = left
        else:
            notifier.per_address.pop(address, None)
        await finish(conn, writer)
