"""Challenge pages and API: ``/challenges`` (pending challenges both ways and the form to
challenge a player or a bot), accepting, declining, withdrawing, and the account setting
that refuses challenges from guests."""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gammon import VARIANTS
from gammon.server.play.challenges import challenge_json
from gammon.server.protocol import ServerError, http_status
from gammon.server.table.bots import BOT_LEVELS, bots_available
from gammon.server.table.forms import table_request
from gammon.server.table.hub import TableRequest
from gammon.server.web.common import (
    checked_form,
    client_address,
    context_of,
    form_text,
    form_values,
    json_body,
    may_create,
    need_session,
    redirect_to,
    render_page,
)
from gammon.server.web.tournaments import MATCH_DEFAULTS
from gammon.storage import UserRow

__all__ = [
    "api_challenge_answer",
    "api_challenges",
    "api_create_challenge",
    "challenge_answer",
    "challenge_settings",
    "challenges_page",
    "create_challenge",
]

#: The challenge form's fields as first shown.
CHALLENGE_DEFAULTS: Final[dict[str, str | bool]] = {
    "against": "player",
    "opponent": "",
    "bot_level": "intermediate",
    **MATCH_DEFAULTS,
    "rated": False,
    "seat": "0",
}

#: The fields of the challenge form that are not table options.
_OWN = ("opponent", "against", "bot_level", "csrf_token")


async def _page(
    request: Request, user: UserRow, data: dict[str, str] | None, error: ServerError | None
) -> Response:
    summary = await context_of(request).play.challenges.summary(user.id)
    values = form_values(CHALLENGE_DEFAULTS, data)
    if data is None:  # /challenges?name=ann: the form ready to challenge ann
        values["opponent"] = request.query_params.get("name", "")[:40]
    return await render_page(
        request,
        "challenges.html",
        {
            "incoming": summary["incoming"],
            "outgoing": summary["outgoing"],
            "variants": sorted(VARIANTS),
            "bot_levels": BOT_LEVELS if bots_available() else (),
            "f": values,
            "error": error,
        },
        http_status(error.code) if error is not None else 200,
    )


async def challenges_page(request: Request) -> Response:
    session = await need_session(request)
    return await _page(request, session.user, None, None)


async def _create(user: UserRow, request: Request, data: dict[str, Any], *, form: bool) -> str:
    """Make a challenge (its id), or the table against a bot (``table:<id>``)."""
    ctx = context_of(request)
    ctx.community.moderation.check_address(client_address(request))  # docs/moderation.md
    options = {k: v for k, v in data.items() if k not in _OWN}
    req = table_request({**options, "private": True}, form=form)
    if data.get("against") == "bot":
        level = str(data.get("bot_level", "intermediate"))
        bot = TableRequest(req.options, req.seat, "bot", level, private=True)
        await may_create(request)  # a table: rationed like the lobby's (kind ``create``)
        state = await ctx.table.hub.create_table(user, bot)
        return f"table:{state.id}"
    opponent = str(data.get("opponent", ""))[:40]
    row = await ctx.play.challenges.create(user, opponent, req, client_address(request))
    return row.id


async def create_challenge(request: Request) -> Response:
    form = await checked_form(request)
    session = await need_session(request)
    data = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    try:
        made = await _create(session.user, request, data, form=True)
    except ServerError as exc:
        return await _page(request, session.user, data, exc)
    if made.startswith("table:"):
        return redirect_to(f"/table/{made[6:]}")
    return redirect_to("/challenges")


async def _answer(request: Request, user: UserRow, what: str) -> str | None:
    challenges = context_of(request).play.challenges
    challenge_id = request.path_params["challenge_id"][:16]
    if what == "accept":
        return await challenges.accept(user, challenge_id)
    if what == "decline":
        await challenges.decline(user, challenge_id)
    elif what == "withdraw":
        await challenges.withdraw(user, challenge_id)
    else:
        raise ServerError("not_found", "no such answer")
    return None


async def challenge_answer(request: Request) -> Response:
    await checked_form(request)
    session = await need_session(request)
    table = await _answer(request, session.user, request.path_params["what"])
    return redirect_to(f"/table/{table}" if table else "/challenges")


async def challenge_settings(request: Request) -> Response:
    form = await checked_form(request)
    session = await need_session(request)
    ctx = context_of(request)
    refuse = form_text(form, "refuse_guests") in ("on", "1", "true")
    await ctx.infra.db.run(ctx.play.challenges.store.set_refuse_guests, session.user.id, refuse)
    return redirect_to("/account")


async def api_challenges(request: Request) -> Response:
    session = await need_session(request)
    summary = await context_of(request).play.challenges.summary(session.user.id)
    return JSONResponse(summary, headers={"Cache-Control": "no-store"})


async def api_create_challenge(request: Request) -> Response:
    data = await json_body(request)
    session = await need_session(request)
    made = await _create(session.user, request, data, form=False)
    if made.startswith("table:"):
        return JSONResponse({"challenge": None, "table": made[6:]}, status_code=201)
    ctx = context_of(request)
    row = await ctx.infra.db.run(ctx.play.challenges.store.challenge, made)
    assert row is not None
    return JSONResponse({"challenge": challenge_json(row), "table": None}, status_code=201)


async def api_challenge_answer(request: Request) -> Response:
    await json_body(request)
    session = await need_session(request)
    table = await _answer(request, session.user, request.path_params["what"])
    return JSONResponse({"table": table})
