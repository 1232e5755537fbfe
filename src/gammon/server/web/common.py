"""What every HTTP route uses: the context, sessions and CSRF, forms and JSON bodies,
the visitor's language, page rendering, and table listings."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gammon.server.community.auth import CSRF_COOKIE, SESSION_COOKIE, csrf_equal, origin_allowed
from gammon.server.context import CSRF_SLOT, Context
from gammon.server.i18n import LANGUAGES, error_text, translator
from gammon.server.protocol import SERVER_NAME, ServerError, loads_text
from gammon.server.table.actor import TableActor
from gammon.server.table.hub import TABLE_ID
from gammon.server.table.room import TableRoom
from gammon.storage import SessionInfo, TableRow, UserRow

__all__ = [
    "LANG_COOKIE",
    "actor_of",
    "anon_csrf",
    "check_csrf",
    "checked_form",
    "client_address",
    "context_of",
    "csrf_token_of",
    "finished_actor",
    "form_text",
    "form_values",
    "format_time",
    "is_secure",
    "json_body",
    "lang_of",
    "live_summary",
    "lobby_tables",
    "may_create",
    "may_list",
    "may_read",
    "need_session",
    "read_form",
    "redirect_signed_in",
    "redirect_to",
    "render_page",
    "session_of",
    "set_csrf_cookie",
    "set_session_cookie",
    "shared_lists",
    "table_listing",
    "user_json",
    "user_or_guest",
]


#: The language a visitor picked (en, fr, it); otherwise Accept-Language decides.
LANG_COOKIE: Final = "gammon_lang"


def context_of(request: Request) -> Context:
    """The app-wide services (:class:`gammon.server.context.Context`)."""
    ctx: Context = request.app.state.gammon
    return ctx


async def session_of(request: Request) -> SessionInfo | None:
    """The visitor's session, if signed in (looked up once per request)."""
    if "gammon_session" not in request.scope:
        token = request.cookies.get(SESSION_COOKIE)
        request.scope["gammon_session"] = await context_of(request).community.auth.session(token)
    session: SessionInfo | None = request.scope["gammon_session"]
    return session


def is_secure(request: Request) -> bool:
    """Whether cookies get ``Secure`` (``--cookie-secure``, or the request came over HTTPS)."""
    mode = context_of(request).infra.settings.cookie_secure
    return mode == "always" or (mode == "auto" and request.url.scheme == "https")


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    """Set the session cookie on a response."""
    days = context_of(request).infra.settings.session_days
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=days * 86_400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_secure(request),
    )


def anon_csrf(request: Request) -> tuple[str, bool]:
    """The double-submit token of a visitor without a session, and whether it is new."""
    token = request.cookies.get(CSRF_COOKIE)
    if token and 16 <= len(token) <= 64:
        return token, False
    return secrets.token_urlsafe(24), True


def set_csrf_cookie(request: Request, response: Response, token: str) -> None:
    """Set the double-submit CSRF cookie of a visitor without a session."""
    response.set_cookie(
        CSRF_COOKIE, token, path="/", httponly=True, samesite="strict", secure=is_secure(request)
    )


async def csrf_token_of(request: Request) -> tuple[str, bool]:
    """The CSRF token for a visitor's forms, and whether its cookie must be set."""
    session = await session_of(request)
    if session is not None:
        return session.csrf, False
    return anon_csrf(request)


async def check_csrf(request: Request, given: str | None) -> None:
    """Refuse (``csrf``) a state-changing request without the right token or from a foreign origin."""
    ctx = context_of(request)
    if not origin_allowed(
        request.headers.get("origin"),
        request.headers.get("host"),
        ctx.infra.settings.allowed_origins,
    ):
        raise ServerError("csrf", "requests from another site are refused")
    session = await session_of(request)
    expected = session.csrf if session is not None else request.cookies.get(CSRF_COOKIE)
    if not csrf_equal(given, expected):
        raise ServerError("csrf", "missing or wrong CSRF token: reload the page and try again")


async def read_form(request: Request) -> FormData:
    """The request's form fields."""
    try:
        return await request.form(max_files=0, max_fields=64, max_part_size=16 * 1024)
    except Exception:
        raise ServerError("bad_message", "unreadable form") from None


def form_text(form: FormData, name: str) -> str:
    """One form field as text (empty when missing)."""
    value = form.get(name)
    return value if isinstance(value, str) else ""


def form_values(
    defaults: Mapping[str, str | bool], data: Mapping[str, str] | None, width: int = 40
) -> dict[str, str | bool]:
    """A form's values as shown: the defaults, or what was sent (to show it again, with a
    checkbox that was not sent unticked).

    >>> form_values({"name": "", "cube": True}, {"name": "Friday"})
    {'name': 'Friday', 'cube': False}
    """
    if data is None:
        return dict(defaults)
    return {
        name: (name in data and data[name] not in ("", "off"))
        if isinstance(default, bool)
        else str(data.get(name, default))[:width]
        for name, default in defaults.items()
    }


async def checked_form(request: Request) -> FormData:
    """A form's fields, once its CSRF token is checked."""
    form = await read_form(request)
    await check_csrf(request, form_text(form, "csrf_token"))
    return form


async def need_session(request: Request, hint: str = "sign in first") -> SessionInfo:
    """The visitor's session, or ``auth_required`` (with ``hint``)."""
    session = await session_of(request)
    if session is None:
        raise ServerError("auth_required", hint)
    return session


def redirect_signed_in(request: Request, url: str, token: str | None) -> Response:
    """A redirect after a form that may have made a guest (``token``: its new session)."""
    response = redirect_to(url)
    if token is not None:
        set_session_cookie(request, response, token)
    return response


async def json_body(request: Request) -> dict[str, Any]:
    """A JSON request's object body (``application/json``; else ``bad_json``)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ServerError("csrf", "JSON requests must have Content-Type: application/json")
    await check_csrf(request, request.headers.get("x-csrf-token"))
    body = await request.body()
    try:
        data = loads_text(body or b"{}")
    except (ValueError, RecursionError) as exc:
        detail = "holds a lone UTF-16 surrogate" if "surrogate" in str(exc) else "is not valid JSON"
        raise ServerError("bad_json", f"the body {detail}") from None
    if not isinstance(data, dict):
        raise ServerError("bad_json", "the body is a JSON object")
    return data


async def may_create(request: Request, kind: str = "create") -> None:
    """Take one of ``kind``'s allowance (:data:`gammon.server.infra.limits.KINDS`: tables,
    guests, tournaments, challenges, imports, analyses) from the visitor's account (when
    signed in) and client address, or refuse (``rate_limited``, with ``retry_after``); a
    banned address is refused (``banned``: docs/moderation.md)."""
    context_of(request).community.moderation.check_address(client_address(request))
    session = await session_of(request)
    user_id = session.user.id if session is not None else None
    await context_of(request).infra.limits.need(kind, user_id, client_address(request))


async def may_list(request: Request) -> None:
    """Take one of the client address's requests for the lists of tables, and one of the
    site's (every address together: many cannot do many times more), or refuse
    (``rate_limited``); shared across processes (``ctx.infra.limits``, kind ``list``)."""
    await may_read(request, "list")


async def may_read(request: Request, kind: str) -> None:
    """Take one of the client address's and one of the site's costly reads of ``kind``
    (:data:`gammon.server.infra.limits.RATIONS`: replays, match pages, downloads, the lists),
    or refuse (``rate_limited``): asked before anything, a refusal costs next to nothing."""
    await context_of(request).infra.limits.need(kind, None, client_address(request))


async def user_or_guest(request: Request) -> tuple[UserRow, str | None]:
    """The signed-in user, or a new guest (with the token of its new session)."""
    session = await session_of(request)
    if session is not None:
        return session.user, None
    ctx = context_of(request)
    await may_create(request)
    user = await ctx.community.auth.new_guest()
    token, _csrf = await ctx.community.auth.open_session(user.id)
    return user, token


def lang_of(request: Request) -> str:
    """The visitor's language: ``?lang=``, its cookie, else ``Accept-Language``."""
    asked = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
    if asked in LANGUAGES:
        return asked
    header = request.headers.get("accept-language", "")
    best, best_q = "en", 0.0
    for part in header.split(",")[:20]:
        piece = part.strip().split(";")
        code = piece[0].strip().lower()[:2]
        q = 1.0
        for param in piece[1:]:
            if param.strip().startswith("q="):
                try:
                    q = float(param.strip()[2:])
                except ValueError:
                    q = 0.0
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best


def format_time(ms: int | None) -> str:
    """A time in ms as shown on pages (UTC)."""
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


async def render_page(
    request: Request, name: str, context: Mapping[str, Any], status: int = 200
) -> Response:
    """A server-rendered page in the visitor's language."""
    session = await session_of(request)
    token, new = await csrf_token_of(request)
    lang = lang_of(request)
    full = {
        "user": session.user if session is not None else None,
        "csrf": token,
        "lang": lang,
        "languages": LANGUAGES,
        "t": translator(lang),
        "error_text": lambda message: error_text(lang, message),
        "server": SERVER_NAME,
        # the header's Moderation link, for moderators only (docs/moderation.md)
        "mod_header": await context_of(request).community.moderation.header(
            session.user if session is not None else None
        ),
        **context,
    }
    response = context_of(request).templates.TemplateResponse(
        request, name, full, status_code=status
    )
    if new:
        set_csrf_cookie(request, response, token)
    if request.query_params.get("lang") in LANGUAGES:  # a choice of language is remembered
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86_400, path="/", samesite="lax")
    response.headers["Cache-Control"] = "no-store"
    return response


def redirect_to(url: str) -> RedirectResponse:
    """A redirect after a form (303: see other)."""
    return RedirectResponse(url, status_code=303)


async def actor_of(request: Request, table_id: str) -> TableActor:
    """The actor of a table (``not_found`` when there is none)."""
    actor = (
        await context_of(request).table.hub.get(table_id) if TABLE_ID.fullmatch(table_id) else None
    )
    if actor is not None and actor.stopped:  # evicted just now: load it again
        actor = await context_of(request).table.hub.get(table_id)
    if actor is None or actor.state is None:
        raise ServerError("not_found", "no such table")
    return actor


async def finished_actor(request: Request) -> TableActor:
    """The actor of the path's finished match (a match in play is not analysed: it would be
    a hint): ``not_started`` / ``not_finished`` otherwise."""
    actor = await actor_of(request, request.path_params["table_id"])
    state = actor.state
    assert state is not None
    if state.match is None:
        raise ServerError("not_started", "the match has not started")
    if state.status != "finished":
        raise ServerError("not_finished", "a match is analysed once it is finished")
    return actor


def table_listing(row: TableRow) -> dict[str, Any]:
    """A table row as the lobby and the JSON API list it."""
    options = json.loads(row.options)
    seats = json.loads(row.seats)
    return {
        "id": row.id,
        "status": row.status,
        "options": options,
        "seats": seats,
        "created_at": row.created_at,
    }


def live_summary(table: TableRoom, row: TableRow) -> dict[str, Any] | None:
    """A live table for the lobby with its score (from the table's actor when this process
    has it), or None for a game against the bot that its person has left: nobody is
    playing there (it goes on, and ends, when they come back)."""
    # no score when this process does not hold the table (a dormant correspondence game, one
    # another process plays): listed without it
    listing = {**table_listing(row), "score": None, "game": None}
    actor = table.hub.actors.get(row.id)
    state = actor.state if actor is not None else None
    if actor is None or state is None:
        return listing
    if state.status != "playing":
        return None
    match = state.match
    if match is not None:
        listing["score"] = list(match.score)
        listing["game"] = match.game.number
    if any(seat is not None and seat.kind == "bot" for seat in state.seats) and not all(
        actor.online()
    ):
        return None  # the person left the bot alone
    return listing


async def lobby_tables(ctx: Context, limit: int) -> dict[str, list[dict[str, Any]]]:
    """The lobby's two lists: open tables and live games (up to ``limit`` each), shared by
    every visitor for a moment (:class:`~gammon.server.infra.shared.SharedAnswers`)."""

    async def work() -> dict[str, list[dict[str, Any]]]:
        waiting = await ctx.infra.db.run(
            lambda: ctx.infra.store.list_tables(["waiting"], limit=limit)
        )
        playing = await ctx.infra.db.run(
            lambda: ctx.infra.store.list_tables(["playing"], limit=limit)
        )
        live = [
            item for item in (live_summary(ctx.table, row) for row in playing) if item is not None
        ]
        return {"open": [table_listing(t) for t in waiting], "live": live}

    return await ctx.infra.shared.get(("tables", limit), ctx.table.hub.listings, work)


async def shared_lists(ctx: Context, template: str, lang: str, limit: int) -> str:
    """:func:`lobby_tables` rendered by ``template`` in ``lang``, shared by every visitor
    for a moment: the visitor's CSRF token is :data:`~gammon.server.context.CSRF_SLOT`
    there (a page puts it in with the ``with_csrf`` filter)."""

    async def work() -> str:
        tables = await lobby_tables(ctx, limit)
        return ctx.templates.env.get_template(template).render(
            t=translator(lang),
            csrf=CSRF_SLOT,
            open_tables=tables["open"],
            live_tables=tables["live"],
        )

    return await ctx.infra.shared.get(("html", template, lang, limit), ctx.table.hub.listings, work)


def client_address(request: Request) -> str:
    """The client's address (for the rate limits)."""
    return request.client.host if request.client is not None else "unknown"


def user_json(user: UserRow) -> dict[str, Any]:
    """A user as the JSON API shows it."""
    return {"name": user.name, "guest": user.guest, "balance": user.balance, "held": user.held}
