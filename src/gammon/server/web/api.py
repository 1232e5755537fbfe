"""The JSON API (docs/protocol.md, "JSON API")."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gammon.server.protocol import PROTOCOL_VERSION, SERVER_NAME, ServerError
from gammon.server.table.forms import table_request
from gammon.server.table.views import table_summary
from gammon.server.web.common import (
    actor_of,
    context_of,
    csrf_token_of,
    json_body,
    lobby_tables,
    may_create,
    may_list,
    need_session,
    session_of,
    set_csrf_cookie,
    set_session_cookie,
    user_json,
)

__all__ = [
    "api_create_table",
    "api_guest",
    "api_leave",
    "api_ledger",
    "api_protocol",
    "api_session",
    "api_sit",
    "api_table",
    "api_tables",
]


async def api_protocol(_request: Request) -> Response:
    return JSONResponse({"protocol": PROTOCOL_VERSION, "server": SERVER_NAME})


async def api_session(request: Request) -> Response:
    session = await session_of(request)
    token, new = await csrf_token_of(request)
    body = {"user": user_json(session.user) if session else None, "csrf": token}
    response = JSONResponse(body, headers={"Cache-Control": "no-store"})
    if new:
        set_csrf_cookie(request, response, token)
    return response


async def api_guest(request: Request) -> Response:
    await json_body(request)
    session = await session_of(request)
    if session is not None:
        return JSONResponse({"user": user_json(session.user), "csrf": session.csrf})
    ctx = context_of(request)
    await may_create(request)
    user = await ctx.community.auth.new_guest()
    token, csrf = await ctx.community.auth.open_session(user.id)
    response = JSONResponse({"user": user_json(user), "csrf": csrf})
    set_session_cookie(request, response, token)
    return response


async def api_ledger(request: Request) -> Response:
    session = await need_session(request)
    ctx = context_of(request)
    lines = await ctx.infra.db.run(ctx.infra.store.ledger, session.user.id, 200)
    user = await ctx.infra.db.run(ctx.infra.store.user, session.user.id)
    return JSONResponse(
        {
            "balance": user.balance if user else 0,
            "held": user.held if user else 0,
            "ledger": [
                {
                    "at": line.at,
                    "amount": line.amount,
                    "balance": line.balance,
                    "held": line.held,
                    "reason": line.reason,
                    "table": line.table_id,
                    "game": line.game,
                }
                for line in lines
            ],
        }
    )


async def api_tables(request: Request) -> Response:
    await may_list(request)
    return JSONResponse(await lobby_tables(context_of(request), 100))


async def api_table(request: Request) -> Response:
    actor = await actor_of(request, request.path_params["table_id"])
    assert actor.state is not None
    return JSONResponse(table_summary(actor.state))


async def api_create_table(request: Request) -> Response:
    data = await json_body(request)
    session = await need_session(request, "POST /api/guest or sign in first")
    req = table_request(data, form=False)
    await may_create(request)
    state = await context_of(request).table.hub.create_table(session.user, req)
    return JSONResponse({"table": table_summary(state)}, status_code=201)


async def api_sit(request: Request) -> Response:
    data = await json_body(request)
    session = await need_session(request, "POST /api/guest or sign in first")
    seat = data.get("seat")
    if seat not in (0, 1) or type(seat) is not int or set(data) - {"seat"}:
        raise ServerError("bad_message", 'the body is {"seat": 0 or 1}')
    actor = await actor_of(request, request.path_params["table_id"])
    await actor.call(lambda: actor.seating.sit_user(session.user, seat))
    assert actor.state is not None
    return JSONResponse({"table": table_summary(actor.state)})


async def api_leave(request: Request) -> Response:
    data = await json_body(request)
    if data:
        raise ServerError("bad_message", "the body is {}")
    session = await need_session(request)
    actor = await actor_of(request, request.path_params["table_id"])
    await actor.call(lambda: actor.seating.leave_user(session.user))
    assert actor.state is not None
    return JSONResponse({"table": table_summary(actor.state)})
