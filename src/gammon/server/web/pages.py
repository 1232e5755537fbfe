"""The server-rendered pages and their forms: lobby, accounts, tables (docs/protocol.md,
"HTTP", pages)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gammon import VARIANTS
from gammon.match.options import CUBE_LIMITS
from gammon.server.community.auth import SESSION_COOKIE
from gammon.server.protocol import PROTOCOL_VERSION, ServerError, http_status
from gammon.server.table.bots import BOT_LEVELS, bots_available
from gammon.server.table.forms import table_request
from gammon.server.table.views import table_summary
from gammon.server.web.common import (
    actor_of,
    checked_form,
    client_address,
    context_of,
    form_text,
    form_values,
    lang_of,
    may_create,
    may_list,
    need_session,
    redirect_signed_in,
    redirect_to,
    render_page,
    session_of,
    set_session_cookie,
    shared_lists,
    user_or_guest,
)
from gammon.server.web.inbox import your_turns
from gammon.server.web.pairing import play_now
from gammon.server.web.players import account_extras, group_ledger
from gammon.server.web.rulestext import option_help
from gammon.storage import ConflictError
from gammon.variants import ROTATIONS, rotation

__all__ = [
    "FORM_DEFAULTS",
    "account",
    "create_table",
    "healthz",
    "leave",
    "lobby",
    "lobby_lists",
    "lobby_page",
    "signin",
    "signin_page",
    "signout",
    "signup",
    "signup_page",
    "sit",
    "table_page",
    "verify_page",
    "watch",
]


#: The create-table form's fields as first shown (checkboxes: checked or not).
FORM_DEFAULTS: Final[dict[str, str | bool]] = {
    "variant": "standard",
    "match_length": "5",
    "stake": "0",
    "end_setting": "cox",
    "first_move": "",
    "draw_last_roll": False,
    "cube": True,
    "cube_limit": "",
    "crawford": True,
    "jacoby": False,
    "beaver": False,
    "raccoon": False,
    "automatic_doubles": "0",
    "clock": True,  # clocks on by default (docs/server.md, "Quick pairing")
    "clock_delay": "12",
    "clock_reserve_base": "60",
    "clock_reserve_per_point": "60",
    "seat": "0",
    "opponent": "human",
    "bot_level": "intermediate",
    "private": False,
    "rated": False,
    "spectator_chat": True,
}


async def lobby(
    request: Request,
    form: Mapping[str, str] | None = None,
    error: ServerError | None = None,
) -> Response:
    lists = await shared_lists(context_of(request), "_lobby_lists.html", lang_of(request), 50)
    session = await session_of(request)
    return await render_page(
        request,
        "lobby.html",
        {
            "lists": lists,
            # the games waiting for the visitor's move, first (the inbox's query)
            "turns": await your_turns(request, session.user.id) if session is not None else [],
            "variants": sorted([*VARIANTS, *ROTATIONS]),
            "cubeless": [
                name for name in [*VARIANTS, *ROTATIONS] if not all(v.cube for v in rotation(name))
            ],
            "cube_limits": CUBE_LIMITS,
            "bot_levels": BOT_LEVELS,
            "bots": bots_available(),
            "f": form_values(FORM_DEFAULTS, form),
            "error": error,
            # the sentence beside each table option (gammon.server.web.rulestext)
            "option_help": lambda key: option_help(lang_of(request), key),
            **play_now(),  # the quick-pairing pools, first (web/pairing.py)
        },
        http_status(error.code) if error is not None else 200,
    )


async def lobby_page(request: Request) -> Response:
    await may_list(request)
    return await lobby(request)


async def lobby_lists(request: Request) -> Response:
    """The lobby's two lists as an HTML fragment: the lobby page swaps it in every few seconds."""
    await may_list(request)
    lists = await shared_lists(context_of(request), "_lobby_lists.html", lang_of(request), 50)
    return await render_page(request, "_shared.html", {"lists": lists})


async def watch(request: Request) -> Response:
    await may_list(request)
    lists = await shared_lists(context_of(request), "_watch_list.html", lang_of(request), 200)
    return await render_page(request, "watch.html", {"lists": lists})


async def signup_page(request: Request) -> Response:
    return await render_page(request, "signup.html", {"error": None, "name": ""})


async def signin_page(request: Request) -> Response:
    return await render_page(request, "signin.html", {"error": None, "name": ""})


async def _account_form(request: Request, signup: bool) -> Response:
    ctx = context_of(request)
    form = await checked_form(request)
    name = form_text(form, "username").strip()
    password = form_text(form, "password")
    template = "signup.html" if signup else "signin.html"
    if ctx.community.signin_limiter.blocked(client_address(request)):
        return await render_page(
            request,
            template,
            {
                "error": ServerError("rate_limited", "too many attempts; wait a minute"),
                "name": name,
            },
            429,
        )
    session = await session_of(request)
    if signup and await ctx.infra.limits.allow("signup", None, client_address(request)) is not None:
        return await render_page(
            request,
            template,
            {
                "error": ServerError(
                    "rate_limited", "too many new accounts from here; wait a minute"
                ),
                "name": name,
            },
            429,
        )
    try:
        ctx.community.moderation.check_address(
            client_address(request)
        )  # before any account is made
        if signup:
            user = await ctx.community.auth.sign_up(
                name, password, session.user if session else None
            )
        else:
            user = await ctx.community.auth.sign_in(name, password)
        # a banned account or address is refused (docs/moderation.md)
        await ctx.community.moderation.check_sign_in(user, client_address(request))
    except (ServerError, ConflictError) as exc:
        ctx.community.signin_limiter.allow(
            client_address(request)
        )  # failed attempts use up the allowance
        # the form again, with the name typed and the reason (a taken name too)
        error = exc if isinstance(exc, ServerError) else ServerError(exc.code, str(exc))
        return await render_page(
            request, template, {"error": error, "name": name}, http_status(error.code)
        )
    old = request.cookies.get(SESSION_COOKIE)
    await ctx.community.auth.close_session(old)
    await ctx.community.notifier.signed_out(old)  # its user sockets close, in every process
    token, _csrf = await ctx.community.auth.open_session(user.id)
    response = redirect_to("/")
    set_session_cookie(request, response, token)
    return response


async def signup(request: Request) -> Response:
    return await _account_form(request, signup=True)


async def signin(request: Request) -> Response:
    return await _account_form(request, signup=False)


async def signout(request: Request) -> Response:
    await checked_form(request)
    token = request.cookies.get(SESSION_COOKIE)
    await context_of(request).community.auth.close_session(token)
    await context_of(request).community.notifier.signed_out(
        token
    )  # its user sockets close, everywhere
    response = redirect_to("/")
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def account(request: Request) -> Response:
    session = await session_of(request)
    if session is None:
        return redirect_to("/signin")
    ctx = context_of(request)
    lines = await ctx.infra.db.run(ctx.infra.store.ledger, session.user.id, 200)
    user = await ctx.infra.db.run(ctx.infra.store.user, session.user.id)
    return await render_page(
        request,
        "account.html",
        {
            "account": user,
            "ledger": group_ledger(lines),
            **await account_extras(request, session.user.id),
            "refuse_guests": await ctx.infra.db.run(
                ctx.play.challenges.store.refuses_guests, session.user.id
            ),
        },
    )


async def create_table(request: Request) -> Response:
    form = await checked_form(request)
    data = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    try:
        req = table_request(data, form=True)
        # the table's allowance first: a refused guest then leaves nothing
        await may_create(request)
        user, token = await user_or_guest(request)
        state = await context_of(request).table.hub.create_table(user, req)
    except ServerError as exc:
        # the form again, as it was filled in, with the reason above it
        return await lobby(request, data, exc)
    return redirect_signed_in(request, f"/table/{state.id}", token)


async def sit(request: Request) -> Response:
    form = await checked_form(request)
    table_id = request.path_params["table_id"]
    actor = await actor_of(request, table_id)
    seat_text = form_text(form, "seat")
    if seat_text not in ("0", "1"):
        raise ServerError("bad_message", "seat must be 0 or 1")
    user, token = await user_or_guest(request)
    await actor.call(lambda: actor.seating.sit_user(user, int(seat_text)))
    return redirect_signed_in(request, f"/table/{table_id}", token)


async def leave(request: Request) -> Response:
    await checked_form(request)
    session = await need_session(request)
    actor = await actor_of(request, request.path_params["table_id"])
    await actor.call(lambda: actor.seating.leave_user(session.user))
    return redirect_to("/")


async def table_page(request: Request) -> Response:
    actor = await actor_of(request, request.path_params["table_id"])
    assert actor.state is not None
    return await render_page(request, "game.html", {"table": table_summary(actor.state)})


async def verify_page(request: Request) -> Response:
    actor = await actor_of(request, request.path_params["table_id"])
    assert actor.state is not None
    return await render_page(request, "verify.html", {"table": table_summary(actor.state)})


async def healthz(_request: Request) -> Response:
    return JSONResponse({"ok": True, "protocol": PROTOCOL_VERSION})
