"""The WebSocket endpoint ``/ws/table/{id}`` (docs/protocol.md).

The reader loop here applies the per-connection limits (size, rate), parses
every message completely, answers ``ping``, ``steps`` and ``history`` itself (they
change nothing), and hands everything else to the table's actor.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import TYPE_CHECKING, Final

from starlette.websockets import WebSocket

from gammon.errors import GammonError
from gammon.server.community.auth import SESSION_COOKIE, origin_allowed
from gammon.server.infra.clock import now_ms
from gammon.server.infra.ratelimit import TokenBucket
from gammon.server.protocol import (
    PROTOCOL_VERSION,
    ClientMessage,
    ServerError,
    error_code,
    parse_client_message,
)
from gammon.server.table.connection import Connection, dumps, finish, limit_buffers
from gammon.server.table.hints import hint_for
from gammon.storage import UserRow

if TYPE_CHECKING:
    from gammon.server.community.room import CommunityRoom
    from gammon.server.context import Context
    from gammon.server.infra.room import InfraRoom
    from gammon.server.table.actor import TableActor
    from gammon.server.table.room import TableRoom

__all__ = ["table_socket"]

log = logging.getLogger(__name__)

#: Rate-limit violations after which a connection is closed (4429).
MAX_VIOLATIONS: Final = 50
#: Seconds a connection's session is trusted before an action checks it again in the
#: database (so a socket opened before signing out stops acting as that user): a
#: sign-out in this process stops it at once (``Auth.closed_here``), one in another
#: process or an expiry within this time.
SESSION_RECHECK: Final = 15.0


def checked_mark(now: float) -> float:
    """What ``Connection.checked_at`` is set to after a check at ``now``: up to half of
    :data:`SESSION_RECHECK` earlier, at random, so the next check comes 7.5-15 s later.
    Sockets opened together (a tournament round, a server restart) would otherwise all
    ask the database in the same second, every 15 s, and their players' actions would
    wait behind those queries (seen as 200-500 ms stalls at 200 matches).

    >>> marks = [checked_mark(100.0) for _ in range(50)]
    >>> all(100.0 - SESSION_RECHECK / 2 <= m <= 100.0 for m in marks), len(set(marks)) > 1
    (True, True)
    """
    return now - random.uniform(0.0, SESSION_RECHECK / 2)


async def table_socket(websocket: WebSocket) -> None:
    """Serve one client of one table until it goes away."""
    ctx: Context = websocket.app.state.gammon
    settings = ctx.infra.settings
    if not origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=4403)  # before accept: the handshake gets HTTP 403
        return
    token = websocket.cookies.get(SESSION_COOKIE)
    session = await ctx.community.auth.session(token)
    await websocket.accept()
    address = websocket.client.host if websocket.client is not None else "unknown"
    if ctx.infra.sockets.get(address, 0) >= settings.max_sockets:
        await websocket.send_json(
            {
                "type": "error",
                "id": None,
                "code": "rate_limited",
                "message": f"too many connections from your address (at most "
                f"{settings.max_sockets}): close some tables",
                "version": 0,
            }
        )
        await websocket.close(code=4429)
        return
    ctx.infra.sockets[address] = ctx.infra.sockets.get(address, 0) + 1
    try:
        await _serve(ctx, websocket, session.user if session is not None else None, token)
    finally:
        left = ctx.infra.sockets.get(address, 1) - 1
        if left > 0:
            ctx.infra.sockets[address] = left
        else:
            ctx.infra.sockets.pop(address, None)


async def _serve(
    ctx: Context, websocket: WebSocket, user: UserRow | None, token: str | None
) -> None:
    table_id = websocket.path_params.get("table_id", "")
    actor = await ctx.table.hub.get(table_id)
    if actor is None:
        await websocket.send_json(
            {
                "type": "error",
                "id": None,
                "code": "not_found",
                "message": "no such table",
                "version": 0,
            }
        )
        await websocket.close(code=4404)
        return
    conn = Connection(websocket, user)
    if user is not None:  # docs/moderation.md: blocked authors' chat, the address seen
        conn.blocked = await ctx.community.moderation.blocked_by(user)
        address = websocket.client.host if websocket.client is not None else "unknown"
        await ctx.community.moderation.seen(user.id, address)
    limit_buffers(websocket)
    conn.checked_at = checked_mark(time.monotonic())
    writer = asyncio.create_task(conn.writer(), name="gammon-ws-writer")
    try:
        await _read(ctx, actor, conn, websocket, token)
    finally:
        actor.part(conn)
        await finish(conn, writer)


def _error(conn: Connection, actor: TableActor, msg_id: str | int | None, exc: GammonError) -> None:
    version = actor.state.version if actor.state is not None else 0
    conn.send_json(
        {
            "type": "error",
            "id": msg_id,
            "code": error_code(exc),
            "message": str(exc)[:500],
            "version": version,
        }
    )


def _still_signed_in(
    community: CommunityRoom, conn: Connection, actor: TableActor, token: str | None
) -> bool:
    """Whether the session this socket was opened with is still live as far as this
    process knows: one it closed is refused at once; otherwise, at most every
    :data:`SESSION_RECHECK` seconds, the database is asked in the background
    (:meth:`Auth.recheck`), and a session found gone closes the socket then."""
    if conn.user is None:
        return True
    if community.auth.closed_here(token):
        return False
    now = time.monotonic()
    if now - conn.checked_at >= SESSION_RECHECK:
        conn.checked_at = checked_mark(now)
        community.auth.recheck(token, conn.user.id, lambda: _signed_out(conn, actor, None))
    return True


def _signed_out(conn: Connection, actor: TableActor, msg_id: str | int | None) -> None:
    _error(conn, actor, msg_id, ServerError("auth_required", "you signed out: reconnect to go on"))
    conn.close(4401, "signed out")


async def _read(
    ctx: Context, actor: TableActor, conn: Connection, websocket: WebSocket, token: str | None
) -> None:
    settings = ctx.infra.settings
    bucket = TokenBucket(settings.rate_limit, settings.rate_burst)
    violations = 0
    last_warning = 0.0
    while not conn.closing:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        if not bucket.take():
            violations += 1
            if violations > MAX_VIOLATIONS:
                conn.close(4429, "too many messages")
                return
            now = time.monotonic()
            if now - last_warning >= 1.0:
                last_warning = now
                _error(
                    conn,
                    actor,
                    None,
                    ServerError("rate_limited", "too many messages: this one was dropped"),
                )
            continue
        msg_id = None
        try:
            parsed = parse_client_message(raw, settings.max_message_bytes)
            msg_id = parsed.id
            if not conn.joined:
                if parsed.type != "hello":
                    raise ServerError("hello_required", "the first message must be hello")
                if parsed.fields["protocol"] != PROTOCOL_VERSION:
                    _error(
                        conn,
                        actor,
                        msg_id,
                        ServerError(
                            "protocol_version",
                            f"this server speaks protocol {PROTOCOL_VERSION}, "
                            f"not {parsed.fields['protocol']}",
                        ),
                    )
                    conn.close(4400, "unsupported protocol version")
                    return
                conn.joined = True
                actor.join(
                    conn, parsed.fields.get("last_version"), parsed.fields.get("client_seed")
                )
                continue
            if parsed.type == "hello":
                raise ServerError("bad_message", "hello was already said")
            if parsed.type != "ping" and not _still_signed_in(ctx.community, conn, actor, token):
                _signed_out(conn, actor, msg_id)
                return
            if parsed.type == "ping":
                conn.send_json({"type": "pong", "id": msg_id, "now": now_ms()})
            elif parsed.type == "steps":
                await _steps(ctx.table, actor, conn, parsed)
            elif parsed.type == "hint":
                await _hint(actor, conn, parsed)
            elif parsed.type == "history":
                await _history(ctx.infra, actor, conn, websocket, msg_id, parsed.fields["game"])
            else:
                if parsed.type == "chat":  # a muted account's line is refused here
                    await ctx.community.moderation.check_chat(conn.user)
                actor.submit(conn, parsed)
        except GammonError as exc:
            if msg_id is None and isinstance(exc, ServerError):
                msg_id = exc.msg_id
            _error(conn, actor, msg_id, exc)
        except Exception:  # a bug: say so, keep the connection
            log.exception("table %s: a message could not be handled", actor.id)
            _error(conn, actor, msg_id, ServerError("internal", "internal error; nothing changed"))


async def _history(
    infra: InfraRoom,
    actor: TableActor,
    conn: Connection,
    websocket: WebSocket,
    msg_id: str | int | None,
    game: int,
) -> None:
    """Answer a ``history`` message (one earlier game's entries): rationed per address and
    for every address together, across processes (``infra.limits``: ``rate_limited``); an
    ended game's page, which never changes, is worked out once and kept (``infra.kept``)
    for every spectator."""
    address = websocket.client.host if websocket.client is not None else "unknown"
    await infra.limits.need("history", None, address)
    state = actor.state
    fanout = actor.fanout
    games = fanout.games()
    if state is None or not 1 <= game < games:  # the game in play (or none): as it is now
        fanout.history(conn, msg_id, game)
        return
    key = ("history", actor.id, game)
    page = infra.kept.peek(key)
    if not isinstance(page, str):
        page = dumps(fanout.page(game))
        infra.kept.keep(key, page)
    head = dumps({"type": "history", "id": msg_id, "version": state.version, "game": game})
    conn.send(f'{head[:-1]},"games":{games},"history":{page}}}')


async def _hint(actor: TableActor, conn: Connection, message: ClientMessage) -> None:
    """The bot's advice (gammon.server.table.hints): casual games and games against the bot only."""
    state = actor.state
    seat = state.seat_of(conn.user_id) if state is not None else None
    answer = await hint_for(state, seat, actor.host.bots, actor.id)
    conn.send_json(
        {"type": "hint", "id": message.id, "version": state.version if state else 0, **answer}
    )


async def _steps(
    table: TableRoom, actor: TableActor, conn: Connection, message: ClientMessage
) -> None:
    """Click-to-move: the steps that may follow ``played`` (``gammon.server.table.steps``)."""
    state = actor.state  # an immutable snapshot
    if state is None or state.match is None or state.status != "playing":
        raise ServerError("not_started", "no match is being played at this table")
    seat = state.seat_of(conn.user_id)
    if seat is None:
        raise ServerError("not_seated", "you are not seated at this table")
    g = state.match.game
    if g.phase != "moving" or g.turn != seat or g.dice is None:
        raise ServerError("illegal_action", "it is not your turn to move")
    played = tuple((int(f), int(t), int(d)) for f, t, d in message.fields["played"])
    answer = await table.steps.answer(actor.id, g.position, g.dice, played)
    conn.send_json({"type": "steps", "id": message.id, "version": state.version, **answer})
