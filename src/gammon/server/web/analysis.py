"""A finished match's analysis board: the page, the analysis as JSON and its progress.

The page (``/matches/{id}/analysis``) is sent at once, from the table's row alone (no
replay: a table not in memory takes a few hundred ms to load), with the analysis when it
is stored already.  The browser then asks for the match replayed step by step
(``/api/tables/{id}/replay``, :mod:`gammon.server.analysis.replay`: moves come from the record, not
from the analysis) and draws the board; without a stored analysis it asks for it too
(``/api/tables/{id}/analysis``, computed off the event loop and stored) and polls
``/api/tables/{id}/analysis/progress`` for the progress bar.  The analyser is the one
registered for the match's variant (:mod:`gammon.server.analysis.registry`); a variant with none
gets the replay and a translated "analysis is not available" on the page, and
``not_available`` from the API.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gammon.server.analysis.deep import DEEP_LEVEL
from gammon.server.analysis.exports import log_bytes, replay_bytes
from gammon.server.analysis.registry import ANALYSIS_LEVELS, analyser_for
from gammon.server.i18n import browser_keys, person, translator
from gammon.server.protocol import ServerError
from gammon.server.table.hub import TABLE_ID
from gammon.server.table.views import variant_view
from gammon.server.web.common import (
    client_address,
    context_of,
    finished_actor,
    lang_of,
    may_create,
    render_page,
    table_listing,
)
from gammon.server.web.deep import deep_boot, work_owner
from gammon.server.web.players import keep_error_rates
from gammon.variants import ROTATIONS, VARIANTS

__all__ = [
    "analysis_page",
    "api_analysis",
    "api_analysis_progress",
    "api_replay",
    "script_json",
]


def script_json(data: Any) -> Markup:
    """JSON safe inside ``<script type="application/json">`` (no ``</script>``, no ``<!--``).

    >>> str(script_json({"a": "</script>"}))
    '{"a":"\\\\u003c/script\\\\u003e"}'
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)  # escaped for the script element above


def _level(request: Request, deep: bool = True) -> str:
    """The ``?level=`` asked for: one of the analysis levels, or (``deep``) the
    grandmaster's, which is computed only on demand (:mod:`gammon.server.web.deep`)."""
    level = request.query_params.get("level", "expert")
    levels = (*ANALYSIS_LEVELS, DEEP_LEVEL) if deep else ANALYSIS_LEVELS
    if level not in levels:
        raise ServerError("bad_message", f"level must be {' or '.join(levels)}, not {level[:20]!r}")
    return level


async def api_replay(request: Request) -> Response:
    """A finished match replayed step by step (:func:`gammon.server.analysis.replay.replay_steps`):
    rationed per address and for every address together, worked out off the event loop
    (the downloads' queue) once per table, then kept."""
    ctx = context_of(request)
    address = client_address(request)
    # before anything: a refusal costs next to nothing
    await ctx.infra.limits.need("replay", None, address)
    actor = await finished_actor(request)
    assert actor.state is not None
    data = await ctx.analysis.exports.build(
        address, "replay", actor.state, actor.records, replay_bytes
    )
    return Response(
        data,
        media_type="application/json",
        # a finished match never changes
        headers={"Cache-Control": "private, max-age=86400"},
    )


async def analysis_page(request: Request) -> Response:
    level = _level(request)
    ctx = context_of(request)
    table_id = request.path_params["table_id"]
    row = (
        await ctx.infra.db.run(ctx.infra.store.table, table_id)
        if TABLE_ID.fullmatch(table_id)
        else None
    )
    if row is None:
        raise ServerError("not_found", "no such table")
    if row.status != "finished":
        raise ServerError("not_finished", "a match is analysed once it is finished")
    table = table_listing(row)
    variant = table["options"].get("variant", "standard")
    analyser = analyser_for(variant)
    data = await ctx.analysis.runner.stored(table_id, level) if analyser is not None else None
    t = translator(lang_of(request))
    # a rotation (tavli) changes the board's geometry from game to game
    games = ROTATIONS.get(variant, (variant,))
    boot = {
        "table": table_id,
        "level": level,
        "players": [person(s["name"], t) if s else "" for s in table["seats"]],
        "other": variant_view(games[0])["other_point"],
        "others": [variant_view(name)["other_point"] for name in games],
        "available": analyser is not None,
        "cube": bool(table["options"].get("cube", True)),
        # the shown position's IDs (static/position/ids.js): an XGID on one backgammon board
        "variant": variant,
        "xgid": len(games) == 1 and variant_view(variant)["mat"],
        "match_length": int(table["options"].get("match_length", 0) or 0),
        "jacoby": bool(table["options"].get("jacoby", False)),
        "replay": f"/api/tables/{table_id}/replay",
        "api": f"/api/tables/{table_id}/analysis?level={level}",
        "progress": f"/api/tables/{table_id}/analysis/progress?level={level}",
        "texts": {key: t(key) for key in browser_keys("board")},
        "deep": await deep_boot(
            request, table_id, variant, f"/api/tables/{table_id}", f"/matches/{table_id}/analysis"
        ),
    }
    return await render_page(
        request,
        "analysis.html",
        {
            "table": table,
            "level": level,
            "levels": ANALYSIS_LEVELS,
            "available": analyser is not None,
            "engine": analyser.name if analyser is not None else None,
            "variant": variant,
            # the downloads: .mat and SGF on one backgammon board, .xg for XG's variations
            "mat": len(games) == 1 and variant in VARIANTS and VARIANTS[variant].standard_geometry,
            "xg": variant in ("standard", "nackgammon"),
            "boot": script_json(boot),
            "analysis": script_json(data),
        },
    )


async def api_analysis(request: Request) -> Response:
    """The analysis as JSON (docs/analysis.md), computed on the first request and stored."""
    level = _level(request)
    actor = await finished_actor(request)
    state = actor.state
    assert state is not None
    if analyser_for(state.options.variant) is None:
        raise ServerError("not_available", f"analysis is not available for {state.options.variant}")
    ctx = context_of(request)
    data = await ctx.analysis.runner.stored(state.id, level)
    if data is None and level == DEEP_LEVEL:
        raise ServerError(
            "not_analysed",
            f"no {DEEP_LEVEL} analysis yet: POST /api/tables/{state.id}/deep starts one",
        )
    if data is None:
        if ctx.analysis.runner.progress(state.id, level)["status"] == "none":
            ctx.analysis.runner.admit(level, *await work_owner(request))  # refused before any work
            await may_create(request, "analysis")  # seconds of CPU: rationed like creating a table
        await ctx.analysis.exports.admit(client_address(request))
        log = await ctx.analysis.exports.build(
            client_address(request), "log", state, actor.records, log_bytes
        )
        owner, anonymous = await work_owner(request)
        data = await ctx.analysis.runner.analyse(state.id, level, log.decode(), owner, anonymous)
        await keep_error_rates(ctx.infra, state.id, data)  # for the players' profiles
    return JSONResponse(data)


async def api_analysis_progress(request: Request) -> Response:
    """Where the analysis stands: ``{"status": "done" | "running" | "queued" | "none",
    "fraction", ...}`` (see :meth:`AnalysisRunner.progress`)."""
    level = _level(request, deep=False)
    actor = await finished_actor(request)
    assert actor.state is not None
    return JSONResponse(context_of(request).analysis.runner.progress(actor.state.id, level))
