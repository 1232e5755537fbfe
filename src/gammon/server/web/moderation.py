"""The moderators' pages and actions, and the players' reports and blocks
(docs/moderation.md).

Every page under ``/mod`` needs the moderator role (``forbidden`` otherwise, a guest and a
visitor too); every action is a CSRF-checked POST that writes its line of the moderation
log.  Players report an account (its profile page) or a chat line (the table's chat, JSON),
and block an account (no challenges, no chat lines from it).
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.server.infra.clock import now_ms
from gammon.server.protocol import ServerError
from gammon.server.web.common import (
    checked_form,
    context_of,
    form_text,
    format_time,
    json_body,
    need_session,
    redirect_to,
    render_page,
    session_of,
)
from gammon.storage import UserRow
from gammon.storage.moderation import REPORT_REASONS, Sanctions

__all__ = ["moderation_routes"]

#: The longest mute or ban a form may ask, in hours (ten years).
_MAX_HOURS: Final = 24 * 3650


async def _moderator(request: Request) -> UserRow:
    """The signed-in moderator, or ``forbidden``."""
    session = await session_of(request)
    user = session.user if session is not None else None
    if not await context_of(request).community.moderation.is_moderator(user):
        raise ServerError("forbidden", "this page is for moderators")
    assert user is not None
    return user


def _hours(text: str, *, optional: bool = False) -> float | None:
    """A number of hours from a form (``bad_message`` unless 0 < hours <= ten years)."""
    if optional and not text.strip():
        return None
    try:
        hours = float(text)
    except ValueError:
        raise ServerError("bad_message", "hours must be a number") from None
    if not 0 < hours <= _MAX_HOURS:
        raise ServerError("bad_message", f"hours must be more than 0 and at most {_MAX_HOURS}")
    return hours


def _int(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 12:
        raise ServerError("not_found", f"no such {what}")
    return int(text)


async def _target(request: Request) -> Sanctions:
    ctx = context_of(request)
    found = await ctx.infra.db.run(
        ctx.community.moderation.queries.sanctions_by_name, request.path_params["name"]
    )
    if found is None:
        raise ServerError("not_found", "no such player")
    return found


# ---------------------------------------------------------------------- pages


async def queue_page(request: Request) -> Response:
    """``/mod``: the open reports, oldest first, each chat line with the lines around it."""
    await _moderator(request)
    ctx = context_of(request)
    queries = ctx.community.moderation.queries
    reports = await ctx.infra.db.run(queries.reports, "open", 100)
    items = []
    for report in reports:
        context: list[Any] = []
        if report.table_id is not None and report.entry_seq is not None:
            context = await ctx.infra.db.run(
                queries.chat_around, report.table_id, report.entry_seq, 5
            )
        items.append({"r": report, "context": context})
    return await render_page(
        request, "mod/queue.html", {"items": items, "when": format_time, "section": "queue"}
    )


async def flags_page(request: Request) -> Response:
    """``/mod/flags``: the accounts the fair-play check flagged."""
    await _moderator(request)
    ctx = context_of(request)
    flags = await ctx.infra.db.run(ctx.community.moderation.queries.flags, 100)
    return await render_page(
        request, "mod/flags.html", {"flags": flags, "when": format_time, "section": "flags"}
    )


async def log_page(request: Request) -> Response:
    """``/mod/log``: the moderation log, newest first."""
    await _moderator(request)
    ctx = context_of(request)
    lines = await ctx.infra.db.run(ctx.community.moderation.queries.mod_log, 200)
    return await render_page(
        request, "mod/log.html", {"lines": lines, "when": format_time, "section": "log"}
    )


async def user_page(request: Request) -> Response:
    """``/mod/users/{name}``: an account's matches, chat lines, addresses (and the other
    accounts seen there), sanctions and log, with the actions."""
    await _moderator(request)
    ctx = context_of(request)
    queries = ctx.community.moderation.queries
    target = await _target(request)
    uid = target.user_id
    return await render_page(
        request,
        "mod/user.html",
        {
            "target": target,
            "now": now_ms(),
            "matches": await ctx.infra.db.run(queries.matches, uid, 50),
            "chat": await ctx.infra.db.run(queries.chat_of, uid, 50),
            "addresses": await ctx.infra.db.run(queries.addresses, uid, 50),
            "lines": await ctx.infra.db.run(lambda: queries.mod_log(50, target=uid)),
            "when": format_time,
            "section": "user",
        },
    )


async def user_lookup(request: Request) -> Response:
    """``/mod/users?name=``: the search form's answer, the account's page."""
    await _moderator(request)
    name = request.query_params.get("name", "").strip()[:40]
    return redirect_to(f"/mod/users/{quote(name)}" if name else "/mod")


# ---------------------------------------------------------------------- actions


async def user_action(request: Request) -> Response:
    """``POST /mod/users/{name}/{what}``: mute, unmute, ban, unban, ban-address."""
    form = await checked_form(request)
    me = await _moderator(request)
    service = context_of(request).community.moderation
    target = await _target(request)
    what = request.path_params["what"]
    reason = form_text(form, "reason")[:500]
    if what == "mute":
        await service.mute(me, target.user_id, _hours(form_text(form, "hours")) or 0, reason)
    elif what == "unmute":
        await service.mute(me, target.user_id, 0)
    elif what == "ban":
        hours = _hours(form_text(form, "hours"), optional=True)
        await service.ban(me, target.user_id, hours, reason)
    elif what == "unban":
        await service.unban(me, target.user_id)
    else:
        raise ServerError("not_found", "no such action")
    return redirect_to(f"/mod/users/{target.name}")


async def address_action(request: Request) -> Response:
    """``POST /mod/addresses/{what}``: ban or unban an address or network."""
    form = await checked_form(request)
    me = await _moderator(request)
    service = context_of(request).community.moderation
    address = form_text(form, "address")
    what = request.path_params["what"]
    if what == "ban":
        hours = _hours(form_text(form, "hours"), optional=True)
        await service.ban_address(me, address, hours, form_text(form, "reason")[:500])
    elif what == "unban":
        await service.unban_address(me, address)
    else:
        raise ServerError("not_found", "no such action")
    back = form_text(form, "back")
    return redirect_to(back if back.startswith("/mod") else "/mod/log")


async def report_action(request: Request) -> Response:
    """``POST /mod/reports/{id}/{what}``: resolve, dismiss, or ``mute-remove`` (mute the
    reported account 24 hours, remove the reported line, resolve the report)."""
    await checked_form(request)
    me = await _moderator(request)
    ctx = context_of(request)
    service = ctx.community.moderation
    report = await ctx.infra.db.run(
        service.queries.report_row, _int(request.path_params["report_id"], "report")
    )
    if report is None or report.status != "open":
        raise ServerError("not_found", "no such open report")
    what = request.path_params["what"]
    if what == "mute-remove":
        await service.mute(me, report.target_id, 24, f"report {report.id}")
        if report.table_id is not None and report.entry_seq is not None:
            await service.remove_chat(me, report.table_id, report.entry_seq)
        status = "resolved"
    elif what in ("resolve", "dismiss"):
        status = "resolved" if what == "resolve" else "dismissed"
    else:
        raise ServerError("not_found", "no such action")
    await service.query(service.queries.close_report, report.id, status, by=me.id, now=now_ms())
    service.reports_changed()
    return redirect_to("/mod")


async def chat_remove(request: Request) -> Response:
    """``POST /mod/chat/{table_id}/{seq}/remove``: remove one chat line for everyone."""
    form = await checked_form(request)
    me = await _moderator(request)
    table_id = request.path_params["table_id"]
    await context_of(request).community.moderation.remove_chat(
        me, table_id, _int(request.path_params["seq"], "chat line")
    )
    back = form_text(form, "back")
    return redirect_to(back if back.startswith("/mod") else "/mod")


async def table_close(request: Request) -> Response:
    """``POST /mod/tables/{table_id}/close``: end a table, no winner, escrow released."""
    form = await checked_form(request)
    me = await _moderator(request)
    table_id = request.path_params["table_id"]
    await context_of(request).community.moderation.close_table(
        me, table_id, form_text(form, "reason")
    )
    return redirect_to(f"/table/{table_id}")


async def result_void(request: Request) -> Response:
    """``POST /mod/results/{result_id}/void``: void a result, its pool's ratings recomputed."""
    form = await checked_form(request)
    me = await _moderator(request)
    service = context_of(request).community.moderation
    result_id = _int(request.path_params["result_id"], "result")
    table_id = await service.void(me, result_id, form_text(form, "reason")[:500])
    return redirect_to(f"/matches/{table_id}")


# ---------------------------------------------------------------------- players


async def _report(
    request: Request, me: UserRow, data: dict[str, Any]
) -> tuple[int, str | None, int | None]:
    """File a report from ``data``: ``user`` (a name) or ``table`` and ``seq`` (a chat
    line); ``reason`` and ``text``.  Returns (report id, table, seq)."""
    ctx = context_of(request)
    queries = ctx.community.moderation.queries
    reason = data.get("reason") or "abuse"
    text = data.get("text") or ""
    if not isinstance(reason, str) or reason not in REPORT_REASONS:
        raise ServerError("bad_message", f"reason is one of {', '.join(REPORT_REASONS)}")
    if not isinstance(text, str):
        raise ServerError("bad_message", "text is text")
    table_id, seq = data.get("table"), data.get("seq")
    if table_id is not None or seq is not None:
        if not isinstance(table_id, str) or type(seq) is not int or len(table_id) > 16:
            raise ServerError("bad_message", "a chat line is named by table and seq")
        line = await ctx.infra.db.run(queries.chat_line, table_id, seq)
        if line is None or line.user is None:
            raise ServerError("not_found", "no such chat line")
        target_id = line.user
    else:
        name = data.get("user")
        target = await ctx.infra.db.run(
            queries.sanctions_by_name, name if isinstance(name, str) else ""
        )
        if target is None:
            raise ServerError("not_found", "no such player")
        target_id = target.user_id
    report_id: int = await ctx.community.moderation.query(
        queries.report,
        me.id,
        target_id,
        reason,
        text[:500],
        now_ms(),
        table_id=table_id,
        entry_seq=seq,
    )
    return report_id, table_id, seq


async def api_report(request: Request) -> Response:
    """``POST /api/reports`` (JSON): report a player or a chat line."""
    data = await json_body(request)
    session = await need_session(request, "sign in to report")
    report_id, _table, _seq = await _report(request, session.user, data)
    return JSONResponse({"report": report_id}, status_code=201)


async def player_report(request: Request) -> Response:
    """``POST /@/{name}/report`` (the profile's form)."""
    form = await checked_form(request)
    session = await need_session(request, "sign in to report")
    name = request.path_params["name"]
    data = {"user": name, "reason": form_text(form, "reason"), "text": form_text(form, "text")}
    await _report(request, session.user, data)
    return redirect_to(f"/@/{name}?reported=1")


async def player_block(request: Request) -> Response:
    """``POST /@/{name}/block`` (the profile's form): ``on`` 1 blocks, 0 unblocks."""
    form = await checked_form(request)
    session = await need_session(request, "sign in to block")
    ctx = context_of(request)
    name = request.path_params["name"]
    target = await ctx.infra.db.run(ctx.community.moderation.queries.sanctions_by_name, name)
    if target is None:
        raise ServerError("not_found", "no such player")
    on = form_text(form, "on") != "0"
    await ctx.community.moderation.block(session.user, target.user_id, on)
    return redirect_to(f"/@/{target.name}?blocked={int(on)}")


def moderation_routes() -> list[Route]:
    """The moderation routes (docs/moderation.md)."""
    return [
        Route("/mod", queue_page, methods=["GET"]),
        Route("/mod/flags", flags_page, methods=["GET"]),
        Route("/mod/log", log_page, methods=["GET"]),
        Route("/mod/users", user_lookup, methods=["GET"]),
        Route("/mod/users/{name}", user_page, methods=["GET"]),
        Route("/mod/users/{name}/{what}", user_action, methods=["POST"]),
        Route("/mod/addresses/{what}", address_action, methods=["POST"]),
        Route("/mod/reports/{report_id}/{what}", report_action, methods=["POST"]),
        Route("/mod/chat/{table_id}/{seq}/remove", chat_remove, methods=["POST"]),
        Route("/mod/tables/{table_id}/close", table_close, methods=["POST"]),
        Route("/mod/results/{result_id}/void", result_void, methods=["POST"]),
        Route("/api/reports", api_report, methods=["POST"]),
        Route("/@/{name}/report", player_report, methods=["POST"]),
        Route("/@/{name}/block", player_block, methods=["POST"]),
    ]
