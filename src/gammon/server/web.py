"""HTTP routes: the server-rendered pages and the JSON API (docs/protocol.md, "HTTP").

Every state-changing request is CSRF-checked: forms carry ``csrf_token``, JSON
requests the ``X-CSRF-Token`` header (and must be ``application/json``); a
foreign ``Origin`` is refused as well.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from markupsafe import Markup
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from gammon import VARIANTS, Position
from gammon.errors import GammonError
from gammon.match import Roll, action_from_dict
from gammon.match.options import CUBE_LIMITS
from gammon.match.record import DiceRecord, MatchRecord, write_log
from gammon.server.actor import TableActor
from gammon.server.analysis import ANALYSIS_LEVELS, analysis_available
from gammon.server.auth import CSRF_COOKIE, SESSION_COOKIE, csrf_equal
from gammon.server.bots import BOT_LEVELS, bots_available
from gammon.server.forms import table_request
from gammon.server.hub import TABLE_ID, TableRequest
from gammon.server.i18n import LANGUAGES, error_text, translator
from gammon.server.protocol import (
    PROTOCOL_VERSION,
    SERVER_NAME,
    ServerError,
    http_status,
    loads_text,
)
from gammon.server.table import DICE_SCHEME
from gammon.server.views import table_summary
from gammon.server.ws import origin_allowed
from gammon.storage import ConflictError, SessionInfo, TableRow, UserRow

if TYPE_CHECKING:
    from gammon.server.app import Context

__all__ = ["exception_handlers", "match_record", "routes"]

log = logging.getLogger(__name__)

_LANGS: Final = LANGUAGES
#: The language a visitor picked (en, fr, it); otherwise Accept-Language decides.
LANG_COOKIE: Final = "gammon_lang"
Handler = Callable[[Request], Awaitable[Response]]


# ---------------------------------------------------------------------- helpers


def _ctx(request: Request) -> Context:
    ctx: Context = request.app.state.gammon
    return ctx


async def _session(request: Request) -> SessionInfo | None:
    if "gammon_session" not in request.scope:
        token = request.cookies.get(SESSION_COOKIE)
        request.scope["gammon_session"] = await _ctx(request).auth.session(token)
    session: SessionInfo | None = request.scope["gammon_session"]
    return session


def _secure(request: Request) -> bool:
    mode = _ctx(request).settings.cookie_secure
    return mode == "always" or (mode == "auto" and request.url.scheme == "https")


def _set_session_cookie(request: Request, response: Response, token: str) -> None:
    days = _ctx(request).settings.session_days
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=days * 86_400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )


def _anon_csrf(request: Request) -> tuple[str, bool]:
    """The double-submit token of a visitor without a session, and whether it is new."""
    token = request.cookies.get(CSRF_COOKIE)
    if token and 16 <= len(token) <= 64:
        return token, False
    return secrets.token_urlsafe(24), True


def _set_csrf_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        CSRF_COOKIE, token, path="/", httponly=True, samesite="strict", secure=_secure(request)
    )


async def _csrf_token(request: Request) -> tuple[str, bool]:
    session = await _session(request)
    if session is not None:
        return session.csrf, False
    return _anon_csrf(request)


async def _check_csrf(request: Request, given: str | None) -> None:
    ctx = _ctx(request)
    if not origin_allowed(
        request.headers.get("origin"), request.headers.get("host"), ctx.settings.allowed_origins
    ):
        raise ServerError("csrf", "requests from another site are refused")
    session = await _session(request)
    expected = session.csrf if session is not None else request.cookies.get(CSRF_COOKIE)
    if not csrf_equal(given, expected):
        raise ServerError("csrf", "missing or wrong CSRF token: reload the page and try again")


async def _form(request: Request) -> FormData:
    try:
        return await request.form(max_files=0, max_fields=64, max_part_size=16 * 1024)
    except Exception:
        raise ServerError("bad_message", "unreadable form") from None


def _form_text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


async def _json_body(request: Request) -> dict[str, Any]:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ServerError("csrf", "JSON requests must have Content-Type: application/json")
    await _check_csrf(request, request.headers.get("x-csrf-token"))
    body = await request.body()
    try:
        data = loads_text(body or b"{}")
    except (ValueError, RecursionError) as exc:
        detail = "holds a lone UTF-16 surrogate" if "surrogate" in str(exc) else "is not valid JSON"
        raise ServerError("bad_json", f"the body {detail}") from None
    if not isinstance(data, dict):
        raise ServerError("bad_json", "the body is a JSON object")
    return data


def _may_create(request: Request) -> None:
    """Take one of the client address's creations (accounts, guests, tables), or refuse."""
    if not _ctx(request).create_limiter.allow(_client(request)):
        raise ServerError(
            "rate_limited", "too many new accounts, guests or tables from here; wait a minute"
        )


async def _user_or_guest(request: Request) -> tuple[UserRow, str | None]:
    """The signed-in user, or a new guest (with the token of its new session)."""
    session = await _session(request)
    if session is not None:
        return session.user, None
    ctx = _ctx(request)
    _may_create(request)
    user = await ctx.auth.new_guest()
    token, _csrf = await ctx.auth.open_session(user.id)
    return user, token


def _lang(request: Request) -> str:
    asked = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
    if asked in _LANGS:
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
        if code in _LANGS and q > best_q:
            best, best_q = code, q
    return best


def _time(ms: int | None) -> str:
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


async def _page(
    request: Request, name: str, context: Mapping[str, Any], status: int = 200
) -> Response:
    session = await _session(request)
    token, new = await _csrf_token(request)
    lang = _lang(request)
    full = {
        "user": session.user if session is not None else None,
        "csrf": token,
        "lang": lang,
        "languages": LANGUAGES,
        "t": translator(lang),
        "error_text": lambda message: error_text(lang, message),
        "server": SERVER_NAME,
        **context,
    }
    response = _ctx(request).templates.TemplateResponse(request, name, full, status_code=status)
    if new:
        _set_csrf_cookie(request, response, token)
    if request.query_params.get("lang") in _LANGS:  # a choice of language is remembered
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86_400, path="/", samesite="lax")
    response.headers["Cache-Control"] = "no-store"
    return response


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def _actor(request: Request, table_id: str) -> TableActor:
    actor = await _ctx(request).hub.get(table_id) if TABLE_ID.fullmatch(table_id) else None
    if actor is not None and actor.stopped:  # evicted just now: load it again
        actor = await _ctx(request).hub.get(table_id)
    if actor is None or actor.state is None:
        raise ServerError("not_found", "no such table")
    return actor


def _listing(row: TableRow) -> dict[str, Any]:
    options = json.loads(row.options)
    seats = json.loads(row.seats)
    return {
        "id": row.id,
        "status": row.status,
        "options": options,
        "seats": seats,
        "created_at": row.created_at,
    }


def _live(ctx: Context, row: TableRow) -> dict[str, Any] | None:
    """A live table for the lobby with its score (from the table's actor when this process
    has it), or None for a game against the bot that its person has left: nobody is
    playing there (it goes on, and ends, when they come back)."""
    listing = _listing(row)
    actor = ctx.hub.actors.get(row.id)
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


async def _lobby_tables(ctx: Context, limit: int) -> dict[str, list[dict[str, Any]]]:
    waiting = await ctx.db.run(lambda: ctx.store.list_tables(["waiting"], limit=limit))
    playing = await ctx.db.run(lambda: ctx.store.list_tables(["playing"], limit=limit))
    live = [item for item in (_live(ctx, row) for row in playing) if item is not None]
    return {"open": [_listing(t) for t in waiting], "live": live}


# ---------------------------------------------------------------------- pages


#: The create-table form's fields as first shown (checkboxes: checked or not).
FORM_DEFAULTS: Final[dict[str, str | bool]] = {
    "variant": "standard",
    "match_length": "5",
    "stake": "0",
    "end_setting": "cox",
    "first_move": "rolloff",
    "draw_last_roll": False,
    "cube": True,
    "cube_limit": "",
    "crawford": True,
    "jacoby": False,
    "beaver": False,
    "raccoon": False,
    "automatic_doubles": "0",
    "clock": False,
    "clock_delay": "12",
    "clock_reserve_base": "60",
    "clock_reserve_per_point": "60",
    "seat": "0",
    "opponent": "human",
    "bot_level": "intermediate",
    "private": False,
}


def _form_values(data: Mapping[str, str] | None) -> dict[str, str | bool]:
    """The create-table form's values: the defaults, or what was sent (to show it again)."""
    if data is None:
        return dict(FORM_DEFAULTS)
    return {
        name: (name in data and data[name] not in ("", "off"))
        if isinstance(default, bool)
        else str(data.get(name, default))[:40]
        for name, default in FORM_DEFAULTS.items()
    }


async def lobby(
    request: Request,
    form: Mapping[str, str] | None = None,
    error: ServerError | None = None,
) -> Response:
    tables = await _lobby_tables(_ctx(request), 50)
    return await _page(
        request,
        "lobby.html",
        {
            "open_tables": tables["open"],
            "live_tables": tables["live"],
            "variants": sorted(VARIANTS),
            "cubeless": [name for name, v in VARIANTS.items() if not v.cube],
            "cube_limits": CUBE_LIMITS,
            "bot_levels": BOT_LEVELS,
            "bots": bots_available(),
            "f": _form_values(form),
            "error": error,
        },
        http_status(error.code) if error is not None else 200,
    )


async def lobby_page(request: Request) -> Response:
    return await lobby(request)


async def lobby_lists(request: Request) -> Response:
    """The lobby's two lists as an HTML fragment: the lobby page swaps it in every few seconds."""
    tables = await _lobby_tables(_ctx(request), 50)
    return await _page(
        request,
        "_lobby_lists.html",
        {"open_tables": tables["open"], "live_tables": tables["live"]},
    )


async def watch(request: Request) -> Response:
    tables = await _lobby_tables(_ctx(request), 200)
    return await _page(request, "watch.html", {"live_tables": tables["live"]})


async def signup_page(request: Request) -> Response:
    return await _page(request, "signup.html", {"error": None, "name": ""})


async def signin_page(request: Request) -> Response:
    return await _page(request, "signin.html", {"error": None, "name": ""})


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def _account_form(request: Request, signup: bool) -> Response:
    ctx = _ctx(request)
    form = await _form(request)
    await _check_csrf(request, _form_text(form, "csrf_token"))
    name = _form_text(form, "username").strip()
    password = _form_text(form, "password")
    template = "signup.html" if signup else "signin.html"
    if ctx.signin_limiter.blocked(_client(request)):
        return await _page(
            request,
            template,
            {
                "error": ServerError("rate_limited", "too many attempts; wait a minute"),
                "name": name,
            },
            429,
        )
    session = await _session(request)
    if signup and not ctx.create_limiter.allow(_client(request)):
        return await _page(
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
        if signup:
            user = await ctx.auth.sign_up(name, password, session.user if session else None)
        else:
            user = await ctx.auth.sign_in(name, password)
    except (ServerError, ConflictError) as exc:
        ctx.signin_limiter.allow(_client(request))  # failed attempts use up the allowance
        # the form again, with the name typed and the reason (a taken name too)
        error = exc if isinstance(exc, ServerError) else ServerError(exc.code, str(exc))
        return await _page(
            request, template, {"error": error, "name": name}, http_status(error.code)
        )
    old = request.cookies.get(SESSION_COOKIE)
    await ctx.auth.close_session(old)
    token, _csrf = await ctx.auth.open_session(user.id)
    response = _redirect("/")
    _set_session_cookie(request, response, token)
    return response


async def signup(request: Request) -> Response:
    return await _account_form(request, signup=True)


async def signin(request: Request) -> Response:
    return await _account_form(request, signup=False)


async def signout(request: Request) -> Response:
    form = await _form(request)
    await _check_csrf(request, _form_text(form, "csrf_token"))
    await _ctx(request).auth.close_session(request.cookies.get(SESSION_COOKIE))
    response = _redirect("/")
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def account(request: Request) -> Response:
    session = await _session(request)
    if session is None:
        return _redirect("/signin")
    ctx = _ctx(request)
    lines = await ctx.db.run(ctx.store.ledger, session.user.id, 200)
    user = await ctx.db.run(ctx.store.user, session.user.id)
    return await _page(
        request,
        "account.html",
        {
            "account": user,
            "ledger": [{"line": line, "when": _time(line.at)} for line in lines],
        },
    )


async def create_table(request: Request) -> Response:
    form = await _form(request)
    await _check_csrf(request, _form_text(form, "csrf_token"))
    data = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    try:
        req = table_request(data, form=True)
        _may_create(request)  # the table's allowance first: a refused guest then leaves nothing
        user, token = await _user_or_guest(request)
        state = await _ctx(request).hub.create_table(user, req)
    except ServerError as exc:
        # the form again, as it was filled in, with the reason above it
        return await lobby(request, data, exc)
    response = _redirect(f"/table/{state.id}")
    if token is not None:
        _set_session_cookie(request, response, token)
    return response


async def sit(request: Request) -> Response:
    form = await _form(request)
    await _check_csrf(request, _form_text(form, "csrf_token"))
    table_id = request.path_params["table_id"]
    actor = await _actor(request, table_id)
    seat_text = _form_text(form, "seat")
    if seat_text not in ("0", "1"):
        raise ServerError("bad_message", "seat must be 0 or 1")
    user, token = await _user_or_guest(request)
    await actor.call(lambda: actor.seating.sit_user(user, int(seat_text)))
    response = _redirect(f"/table/{table_id}")
    if token is not None:
        _set_session_cookie(request, response, token)
    return response


async def leave(request: Request) -> Response:
    form = await _form(request)
    await _check_csrf(request, _form_text(form, "csrf_token"))
    session = await _session(request)
    if session is None:
        raise ServerError("auth_required", "sign in first")
    actor = await _actor(request, request.path_params["table_id"])
    await actor.call(lambda: actor.seating.leave_user(session.user))
    return _redirect("/")


def rematch_id(table_id: str) -> str:
    """The id of the rematch table of ``table_id``: the same for both players, so whoever asks
    second sits at the table the first one made.

    >>> rematch_id("Ab3dE5fG7hJ9")
    'T88GQJXoU58v'
    """
    digest = hashlib.sha256(f"gammon-rematch:{table_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:12]


async def _rematch(request: Request, user: UserRow, table_id: str) -> str:
    """Create (or join) the rematch of a finished table; returns the new table's id."""
    actor = await _actor(request, table_id)
    state = actor.state
    assert state is not None
    if state.status != "finished":
        raise ServerError("not_finished", "a rematch is offered once the match is over")
    seat = state.seat_of(user.id)
    if seat is None:
        raise ServerError("not_seated", "only the players of a table may ask for its rematch")
    other = state.seats[1 - seat]
    new_id = rematch_id(table_id)
    hub = _ctx(request).hub
    existing = await hub.get(new_id)
    if existing is None:
        req = TableRequest(
            state.options,
            seat,
            "bot" if other is not None and other.kind == "bot" else "human",
            (other.level if other is not None and other.level else "intermediate"),
            state.private,
            table_id=new_id,
        )
        try:
            await hub.create_table(user, req)
            return new_id
        except ServerError:
            raise
        except Exception:  # the other player made it at the same moment: join it
            existing = await hub.get(new_id)
            if existing is None:
                raise
    new_state = existing.state
    assert new_state is not None
    if new_state.seat_of(user.id) is None:
        free = [s for s in (seat, 1 - seat) if new_state.seats[s] is None]
        if not free:
            raise ServerError("seat_taken", "the rematch table is full")
        await existing.call(lambda: existing.seating.sit_user(user, free[0]))
    return new_id


async def rematch(request: Request) -> Response:
    form = await _form(request)
    await _check_csrf(request, _form_text(form, "csrf_token"))
    session = await _session(request)
    if session is None:
        raise ServerError("auth_required", "sign in first")
    new_id = await _rematch(request, session.user, request.path_params["table_id"])
    return _redirect(f"/table/{new_id}")


async def api_rematch(request: Request) -> Response:
    """``GET``: the rematch table of a table once a player asked for it, else ``null`` (not a
    404: the game page polls this, and browsers log every 404 as an error)."""
    await _actor(request, request.path_params["table_id"])
    actor = await _ctx(request).hub.get(rematch_id(request.path_params["table_id"]))
    state = actor.state if actor is not None else None
    return JSONResponse(
        {"table": table_summary(state) if state is not None else None},
        headers={"Cache-Control": "no-store"},
    )


async def table_page(request: Request) -> Response:
    actor = await _actor(request, request.path_params["table_id"])
    assert actor.state is not None
    return await _page(request, "game.html", {"table": table_summary(actor.state)})


def mat_available() -> bool:
    """Whether this build can write ``.mat`` files (``gammon.match.matfile.match_to_mat``)."""
    try:
        if importlib.util.find_spec("gammon.match.matfile") is None:
            return False
        from gammon.match import matfile

        return hasattr(matfile, "match_to_mat")
    except ImportError:
        return False


def match_record(actor: TableActor) -> MatchRecord:
    """The action log of a table's match (the server seed only once finished)."""
    state = actor.state
    if state is None or state.match is None or state.commitment is None:
        raise ServerError("not_started", "the match has not started")
    actions = tuple(action_from_dict(r.data["action"]) for r in actor.records if r.kind == "action")
    seed = None
    if state.status == "finished" and state.result is not None:
        seed = state.result.get("server_seed")
    return MatchRecord(
        state.options,
        actions,
        state.players,
        state.balances,
        # the client seeds are shown once the dice are locked (as in the state)
        DiceRecord(
            state.id,
            state.commitment,
            state.seeds_locked if state.locked else ("", ""),
            DICE_SCHEME,
        ),
        seed,
        {"table": state.id, "status": state.status, "result": state.result or {}},
    )


async def match_page(request: Request) -> Response:
    actor = await _actor(request, request.path_params["table_id"])
    state = actor.state
    assert state is not None
    rolls = 0
    if state.match is not None:
        rolls = sum(
            1
            for r in actor.records
            if r.kind == "action" and isinstance(action_from_dict(r.data["action"]), Roll)
        )
    return await _page(
        request,
        "match.html",
        {
            "table": table_summary(state),
            "state": state,
            "rolls": rolls,
            "mat": mat_available()
            and state.match is not None
            and VARIANTS[state.options.variant].standard_geometry,
            "analysis": analysis_available()
            and state.status == "finished"
            and VARIANTS[state.options.variant].standard_geometry,
            "started": state.match is not None,
            "created": _time(state.created_at),
        },
    )


async def match_log(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    actor = await _actor(request, table_id)
    text = write_log(match_record(actor))
    return PlainTextResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="gammon-{table_id}.jsonl"'},
    )


async def match_mat(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    actor = await _actor(request, table_id)
    if not mat_available():
        raise ServerError("not_available", "this build has no .mat writer")
    record = match_record(actor)
    if not record.actions:
        raise ServerError("not_started", "no action has been played yet")
    from gammon.match import matfile

    text = matfile.match_to_mat(record)
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="gammon-{table_id}.mat"'}
    )


async def _analysis(request: Request) -> tuple[TableActor, str, dict[str, Any]]:
    """A finished match's analysis at the asked level (computed on the first request)."""
    if not analysis_available():
        raise ServerError("not_available", "this server has no analysis engine (the bot extra)")
    level = request.query_params.get("level", "expert")
    if level not in ANALYSIS_LEVELS:
        raise ServerError(
            "bad_message", f"level must be {' or '.join(ANALYSIS_LEVELS)}, not {level[:20]!r}"
        )
    table_id = request.path_params["table_id"]
    actor = await _actor(request, table_id)
    state = actor.state
    assert state is not None
    if state.match is None:
        raise ServerError("not_started", "the match has not started")
    if state.status != "finished":
        raise ServerError("not_finished", "a match is analysed once it is finished")
    if not VARIANTS[state.options.variant].standard_geometry:
        raise ServerError(
            "not_available",
            f"the analysis knows only the backgammon board, not {state.options.variant}",
        )
    ctx = _ctx(request)
    found = ctx.analysis.cached(table_id, level)
    if found is None:
        _may_create(request)  # seconds of CPU: rationed like creating a table
        found = await ctx.analysis.analyse(table_id, level, write_log(match_record(actor)))
    return actor, level, found


def _decision_board(decision: dict[str, Any], variant: str) -> Markup:
    """The position of a decision as SVG (numbers only: safe to embed)."""
    dice = decision["dice"]
    position = Position.from_position_id(decision["position_id"], variant)
    picture = position.svg(dice=(int(dice[0]), int(dice[1])) if dice else None, size=300)
    return Markup(picture)  # built from numbers and a Position ID: no user text


def _analysis_view(data: dict[str, Any]) -> dict[str, Any]:
    """What the analysis page shows: totals, games, the worst decisions, the graph."""
    decisions = [d for g in data["games"] for d in g["decisions"]]
    worst = sorted((d for d in decisions if d["error"] > 0), key=lambda d: -d["error"])[:10]
    boards = [_decision_board(d, data["variant"]) for d in worst]
    points = [p for g in data["games"] for p in g["graph"]]
    width = max(1, len(points) - 1)
    path = " ".join(
        f"{'M' if i == 0 else 'L'}{100 * i / width:.2f},{100 * (1 - p['win']):.2f}"
        for i, p in enumerate(points)
    )
    starts = [
        100 * i / width
        for i, p in enumerate(points)
        if i > 0 and p["game"] != points[i - 1]["game"]
    ]
    return {
        "data": data,
        "worst": list(zip(worst, boards, strict=True)),
        "graph": path,
        "game_starts": starts,
        "match": bool(data["match_length"]),
    }


async def analysis_page(request: Request) -> Response:
    actor, level, data = await _analysis(request)
    assert actor.state is not None
    return await _page(
        request,
        "analysis.html",
        {
            "table": table_summary(actor.state),
            "level": level,
            "levels": ANALYSIS_LEVELS,
            **_analysis_view(data),
        },
    )


async def api_analysis(request: Request) -> Response:
    _actor, _level, data = await _analysis(request)
    return JSONResponse(data)


async def verify_page(request: Request) -> Response:
    actor = await _actor(request, request.path_params["table_id"])
    assert actor.state is not None
    return await _page(request, "verify.html", {"table": table_summary(actor.state)})


async def healthz(_request: Request) -> Response:
    return JSONResponse({"ok": True, "protocol": PROTOCOL_VERSION})


# ---------------------------------------------------------------------- JSON API


def _user_json(user: UserRow) -> dict[str, Any]:
    return {"name": user.name, "guest": user.guest, "balance": user.balance, "held": user.held}


async def api_protocol(_request: Request) -> Response:
    return JSONResponse({"protocol": PROTOCOL_VERSION, "server": SERVER_NAME})


async def api_session(request: Request) -> Response:
    session = await _session(request)
    token, new = await _csrf_token(request)
    body = {"user": _user_json(session.user) if session else None, "csrf": token}
    response = JSONResponse(body, headers={"Cache-Control": "no-store"})
    if new:
        _set_csrf_cookie(request, response, token)
    return response


async def api_guest(request: Request) -> Response:
    await _json_body(request)
    session = await _session(request)
    if session is not None:
        return JSONResponse({"user": _user_json(session.user), "csrf": session.csrf})
    ctx = _ctx(request)
    _may_create(request)
    user = await ctx.auth.new_guest()
    token, csrf = await ctx.auth.open_session(user.id)
    response = JSONResponse({"user": _user_json(user), "csrf": csrf})
    _set_session_cookie(request, response, token)
    return response


async def api_ledger(request: Request) -> Response:
    session = await _session(request)
    if session is None:
        raise ServerError("auth_required", "sign in first")
    ctx = _ctx(request)
    lines = await ctx.db.run(ctx.store.ledger, session.user.id, 200)
    user = await ctx.db.run(ctx.store.user, session.user.id)
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
    return JSONResponse(await _lobby_tables(_ctx(request), 100))


async def api_table(request: Request) -> Response:
    actor = await _actor(request, request.path_params["table_id"])
    assert actor.state is not None
    return JSONResponse(table_summary(actor.state))


async def api_create_table(request: Request) -> Response:
    data = await _json_body(request)
    session = await _session(request)
    if session is None:
        raise ServerError("auth_required", "POST /api/guest or sign in first")
    req = table_request(data, form=False)
    _may_create(request)
    state = await _ctx(request).hub.create_table(session.user, req)
    return JSONResponse({"table": table_summary(state)}, status_code=201)


async def api_sit(request: Request) -> Response:
    data = await _json_body(request)
    session = await _session(request)
    if session is None:
        raise ServerError("auth_required", "POST /api/guest or sign in first")
    seat = data.get("seat")
    if seat not in (0, 1) or type(seat) is not int or set(data) - {"seat"}:
        raise ServerError("bad_message", 'the body is {"seat": 0 or 1}')
    actor = await _actor(request, request.path_params["table_id"])
    await actor.call(lambda: actor.seating.sit_user(session.user, seat))
    assert actor.state is not None
    return JSONResponse({"table": table_summary(actor.state)})


async def api_leave(request: Request) -> Response:
    data = await _json_body(request)
    if data:
        raise ServerError("bad_message", "the body is {}")
    session = await _session(request)
    if session is None:
        raise ServerError("auth_required", "sign in first")
    actor = await _actor(request, request.path_params["table_id"])
    await actor.call(lambda: actor.seating.leave_user(session.user))
    assert actor.state is not None
    return JSONResponse({"table": table_summary(actor.state)})


# ---------------------------------------------------------------------- errors


def _wants_json(request: Request) -> bool:
    path = request.url.path
    accepts_json = "application/json" in request.headers.get("accept", "")
    return path.startswith("/api/") or accepts_json


async def _error_page(request: Request, exc: ServerError, status: int | None = None) -> Response:
    code = status or http_status(exc.code)
    if _wants_json(request):
        return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, status_code=code)
    try:
        return await _page(request, "error.html", {"error": exc}, code)
    except Exception:  # the error page must not fail: plain text then
        return PlainTextResponse(f"{exc.code}: {exc}", status_code=code)


async def _on_gammon_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GammonError)
    server_error = exc if isinstance(exc, ServerError) else ServerError(exc.code, str(exc))
    return await _error_page(request, server_error)


_HTTP_CODES: Final = {
    400: "bad_message",
    401: "auth_required",
    403: "forbidden",
    404: "not_found",
    405: "bad_message",
    413: "too_large",
    429: "rate_limited",
}


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "bad_message")
    detail = exc.detail if isinstance(exc.detail, str) else "error"
    if exc.status_code == 404:
        detail = "not found"
    response = await _error_page(request, ServerError(code, detail), exc.status_code)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def _on_internal(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return await _error_page(
        request, ServerError("internal", "internal error; nothing was changed")
    )


def exception_handlers() -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """The app's error handlers: JSON for the API, an HTML page elsewhere."""
    return {GammonError: _on_gammon_error, HTTPException: _on_http_error, Exception: _on_internal}


def routes() -> list[Route]:
    """Every HTTP route."""
    return [
        Route("/", lobby_page, methods=["GET"]),
        Route("/watch", watch, methods=["GET"]),
        Route("/lobby/tables", lobby_lists, methods=["GET"]),
        Route("/signup", signup_page, methods=["GET"]),
        Route("/signup", signup, methods=["POST"]),
        Route("/signin", signin_page, methods=["GET"]),
        Route("/signin", signin, methods=["POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/account", account, methods=["GET"]),
        Route("/tables", create_table, methods=["POST"]),
        Route("/tables/{table_id}/sit", sit, methods=["POST"]),
        Route("/tables/{table_id}/leave", leave, methods=["POST"]),
        Route("/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/table/{table_id}", table_page, methods=["GET"]),
        Route("/matches/{table_id}", match_page, methods=["GET"]),
        Route("/matches/{table_id}/log", match_log, methods=["GET"]),
        Route("/matches/{table_id}/mat", match_mat, methods=["GET"]),
        Route("/matches/{table_id}/verify", verify_page, methods=["GET"]),
        Route("/matches/{table_id}/analysis", analysis_page, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/api/protocol", api_protocol, methods=["GET"]),
        Route("/api/session", api_session, methods=["GET"]),
        Route("/api/guest", api_guest, methods=["POST"]),
        Route("/api/me/ledger", api_ledger, methods=["GET"]),
        Route("/api/tables", api_tables, methods=["GET"]),
        Route("/api/tables", api_create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table, methods=["GET"]),
        Route("/api/tables/{table_id}/sit", api_sit, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api_leave, methods=["POST"]),
        Route("/api/tables/{table_id}/analysis", api_analysis, methods=["GET"]),
        Route("/api/tables/{table_id}/rematch", api_rematch, methods=["GET"]),
    ]
