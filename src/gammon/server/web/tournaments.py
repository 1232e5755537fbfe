"""Tournament pages: the list and create form (``/tournaments``), a tournament's page with
its live bracket or standings (``/tournaments/{id}``, its fragment ``/live`` polled every few
seconds), registration, bots, and the JSON (``/api/tournaments/{id}``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gammon import VARIANTS
from gammon.server.play.tournaments import (
    ARENA_MINUTES,
    FORMATS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    ROUND_ROBIN_MAX,
    tournament_spec,
)
from gammon.server.protocol import ServerError, http_status
from gammon.server.table.bots import BOT_LEVELS, bots_available
from gammon.server.web.common import (
    checked_form,
    context_of,
    form_text,
    form_values,
    format_time,
    may_create,
    need_session,
    redirect_to,
    render_page,
    session_of,
)

__all__ = [
    "MATCH_DEFAULTS",
    "api_tournament",
    "create_tournament",
    "tournament_bot",
    "tournament_live",
    "tournament_page",
    "tournament_register",
    "tournament_unregister",
    "tournaments_page",
]

#: The match fields (``_match_fields.html``) of the tournament and challenge forms as first
#: shown.
MATCH_DEFAULTS: Final[dict[str, str | bool]] = {
    "variant": "standard",
    "match_length": "3",
    "cube": True,
    "crawford": True,
    "clock": False,
    "clock_delay": "12",
    "clock_reserve_base": "60",
    "clock_reserve_per_point": "60",
}

#: The create form's fields as first shown.
TOURNAMENT_DEFAULTS: Final[dict[str, str | bool]] = {
    "name": "",
    "format": "knockout",
    **MATCH_DEFAULTS,
    "max_players": "8",
    "start_in": "",
    "grace": "120",
    "rounds": "",
    "duration": str(ARENA_MINUTES[0]),
    #: The creator plays in it unless they untick it.
    "play": True,
}


def _tournament_id(request: Request) -> int:
    text = request.path_params["tournament_id"]
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise ServerError("not_found", "no such tournament")
    return int(text)


async def _list_page(
    request: Request, form: Mapping[str, str] | None = None, error: ServerError | None = None
) -> Response:
    ctx = context_of(request)
    store = ctx.play.tournaments.store
    live = await ctx.infra.db.run(store.listing, ("registering", "running"), 100)
    done = await ctx.infra.db.run(store.listing, ("finished",), 30)
    return await render_page(
        request,
        "tournaments.html",
        {
            "live": live,
            "done": done,
            "formats": FORMATS,
            "variants": sorted(VARIANTS),
            "cubeless": [name for name, v in VARIANTS.items() if not v.cube],
            "max_players": MAX_PLAYERS,
            "round_robin_max": ROUND_ROBIN_MAX,
            "max_rounds": MAX_ROUNDS,
            "arena_minutes": ARENA_MINUTES,
            "f": form_values(TOURNAMENT_DEFAULTS, form, 60),
            "error": error,
            "when": format_time,
        },
        http_status(error.code) if error is not None else 200,
    )


async def tournaments_page(request: Request) -> Response:
    return await _list_page(request)


async def create_tournament(request: Request) -> Response:
    form = await checked_form(request)
    data = {k: v for k, v in form.multi_items() if isinstance(v, str) and k != "csrf_token"}
    try:
        session = await need_session(request, "sign up to create a tournament")
        spec = tournament_spec(data)
        if session.user.guest:  # refused below before anything is rationed
            raise ServerError("auth_required", "sign up to create a tournament")
        await may_create(request, "tournament")
        tournament_id = await context_of(request).play.tournaments.create(session.user, spec)
    except ServerError as exc:
        return await _list_page(request, data, exc)
    return redirect_to(f"/tournaments/{tournament_id}")


async def _page_context(request: Request) -> dict[str, Any]:
    ctx = context_of(request)
    view = await ctx.play.tournaments.view(_tournament_id(request))
    session = await session_of(request)
    me = session.user.id if session is not None else None
    return {
        "tour": view,
        "mine": me is not None and view["created_by"] == me,
        "registered": any(e["user"] == me for e in view["entrants"]) if me else False,
        "bot_levels": BOT_LEVELS if bots_available() else (),
        "when": format_time,
    }


async def tournament_page(request: Request) -> Response:
    return await render_page(request, "tournament.html", await _page_context(request))


async def tournament_live(request: Request) -> Response:
    """The bracket or standings as an HTML fragment (the page swaps it in every few seconds)."""
    return await render_page(request, "_tournament_live.html", await _page_context(request))


async def api_tournament(request: Request) -> Response:
    view = await context_of(request).play.tournaments.view(_tournament_id(request))
    view["entrants"] = [{k: v for k, v in e.items() if k != "user"} for e in view["entrants"]]
    view.pop("created_by")
    return JSONResponse(view, headers={"Cache-Control": "no-store"})


async def tournament_register(request: Request) -> Response:
    await checked_form(request)
    session = await need_session(request)
    tournament_id = _tournament_id(request)
    await context_of(request).play.tournaments.register(session.user, tournament_id)
    return redirect_to(f"/tournaments/{tournament_id}")


async def tournament_unregister(request: Request) -> Response:
    form = await checked_form(request)
    session = await need_session(request)
    tournament_id = _tournament_id(request)
    entrant = form_text(form, "entrant")
    await context_of(request).play.tournaments.unregister(
        session.user,
        tournament_id,
        int(entrant) if entrant.isascii() and entrant.isdigit() else None,
    )
    return redirect_to(f"/tournaments/{tournament_id}")


async def tournament_bot(request: Request) -> Response:
    form = await checked_form(request)
    session = await need_session(request)
    tournament_id = _tournament_id(request)
    await context_of(request).play.tournaments.add_bot(
        session.user, tournament_id, form_text(form, "level")
    )
    return redirect_to(f"/tournaments/{tournament_id}")
