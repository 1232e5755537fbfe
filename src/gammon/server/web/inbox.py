"""The inbox: ``/inbox`` (the player's notices and the correspondence games where it is
their move), marking notices read, ``/api/inbox`` (docs/notifications.md), and the lobby's
"Your turn" list (``/lobby/turns``, the same query as the inbox's)."""

from __future__ import annotations

import json
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.server.protocol import ServerError
from gammon.server.web.common import (
    checked_form,
    context_of,
    form_text,
    json_body,
    need_session,
    redirect_to,
    render_page,
    session_of,
)
from gammon.storage.turns import Turns

__all__ = [
    "api_inbox",
    "api_inbox_read",
    "inbox_page",
    "inbox_read",
    "inbox_routes",
    "lobby_turns",
    "your_turns",
]

#: Correspondence games listed at most on the "Your turn" list.
TURNS_SHOWN: Final = 100


async def your_turns(request: Request, user_id: int) -> list[dict[str, Any]]:
    """The correspondence tables where it is the user's move, the most urgent first: the
    "Your turn" list of /inbox, /api/inbox and the lobby."""
    ctx = context_of(request)
    rows = await ctx.infra.db.run(Turns(ctx.infra.db).waiting_on, user_id, TURNS_SHOWN)
    turns = []
    for row in rows:
        seats = json.loads(row.seats)
        names = [s["name"] for s in seats if isinstance(s, dict)]
        turns.append({"table": row.id, "players": names, "deadline": row.wake_at})
    return turns


async def inbox_page(request: Request) -> Response:
    """``/inbox``: the notices, newest first, and the "Your turn" list."""
    session = await need_session(request)
    ctx = context_of(request)
    items = await ctx.community.notices.items(session.user.id)
    turns = await your_turns(request, session.user.id)
    return await render_page(request, "inbox.html", {"items": items, "turns": turns})


async def lobby_turns(request: Request) -> Response:
    """``GET /lobby/turns``: the lobby's "Your turn" list as an HTML fragment (empty when
    no game waits for the visitor's move, or for a visitor with no session): the lobby page
    swaps it in as it does its lists (static/lobby.js)."""
    session = await session_of(request)
    turns = await your_turns(request, session.user.id) if session is not None else []
    return await render_page(request, "_lobby_turns.html", {"turns": turns})


def _ids(value: Any) -> list[int] | None:
    """The notices named (None: every one); ``bad_message`` unless ids."""
    if value is None or value == "":
        return None
    values = value if isinstance(value, list) else [value]
    if len(values) > 200:
        raise ServerError("bad_message", "at most 200 notices at once")
    try:
        ids = [int(v) for v in values if not isinstance(v, bool)]
    except (TypeError, ValueError):
        raise ServerError("bad_message", "notices are named by their ids") from None
    if len(ids) != len(values):
        raise ServerError("bad_message", "notices are named by their ids")
    return ids


async def inbox_read(request: Request) -> Response:
    """``POST /inbox/read``: mark one notice (``id``) or all read."""
    form = await checked_form(request)
    session = await need_session(request)
    await context_of(request).community.notices.mark_read(
        session.user.id, _ids(form_text(form, "id"))
    )
    return redirect_to("/inbox")


async def api_inbox(request: Request) -> Response:
    """``GET /api/inbox``: ``{"unread", "items", "turns"}``."""
    session = await need_session(request)
    ctx = context_of(request)
    items = await ctx.community.notices.items(session.user.id)
    body = {
        "unread": sum(1 for i in items if not i["read"]),
        "items": items,
        "turns": await your_turns(request, session.user.id),
    }
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def api_inbox_read(request: Request) -> Response:
    """``POST /api/inbox/read`` with ``{"ids": [...]}`` (or none: all): how many."""
    data = await json_body(request)
    session = await need_session(request)
    changed = await context_of(request).community.notices.mark_read(
        session.user.id, _ids(data.get("ids"))
    )
    return JSONResponse({"read": changed})


def inbox_routes() -> list[Route]:
    """The inbox's routes."""
    return [
        Route("/inbox", inbox_page, methods=["GET"]),
        Route("/inbox/read", inbox_read, methods=["POST"]),
        Route("/api/inbox", api_inbox, methods=["GET"]),
        Route("/api/inbox/read", api_inbox_read, methods=["POST"]),
        Route("/lobby/turns", lobby_turns, methods=["GET"]),
    ]
