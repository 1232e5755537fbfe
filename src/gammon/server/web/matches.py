"""A match's record: its page, the action log, the ``.mat`` export and the analysis."""

from __future__ import annotations

import importlib.util
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from gammon import VARIANTS, Position
from gammon.match.record import MatchRecord
from gammon.server.actor import TableActor
from gammon.server.analysis import ANALYSIS_LEVELS, analysis_available
from gammon.server.exports import Builder, chunks, log_bytes, mat_bytes, record_of
from gammon.server.protocol import ServerError
from gammon.server.views import table_summary
from gammon.server.web.common import (
    actor_of,
    client_address,
    context_of,
    format_time,
    may_create,
    render_page,
)

__all__ = [
    "analysis_page",
    "api_analysis",
    "mat_available",
    "match_log",
    "match_mat",
    "match_page",
    "match_record",
]


def mat_available() -> bool:
    """Whether this build can write ``.mat`` files (``gammon.match.formats.matwrite``)."""
    try:
        return importlib.util.find_spec("gammon.match.formats.matwrite") is not None
    except ImportError:
        return False


def match_record(actor: TableActor) -> MatchRecord:
    """The action log of a table's match (the server seed only once finished)."""
    state = actor.state
    if state is None:
        raise ServerError("not_started", "the match has not started")
    return record_of(state, actor.records)


async def _download(request: Request, kind: str, builder: Builder, suffix: str) -> Response:
    """A match's download, built off the event loop (``gammon.server.exports``), streamed."""
    table_id = request.path_params["table_id"]
    actor = await actor_of(request, table_id)
    state = actor.state
    assert state is not None
    records = actor.records[: state.version]  # a snapshot: the actor goes on appending
    data = await context_of(request).exports.build(
        client_address(request), kind, state, records, builder
    )
    return StreamingResponse(
        chunks(data),
        media_type="text/plain; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="gammon-{table_id}.{suffix}"',
            "Content-Length": str(len(data)),
        },
    )


async def match_page(request: Request) -> Response:
    actor = await actor_of(request, request.path_params["table_id"])
    state = actor.state
    assert state is not None
    rolls = state.rolls
    return await render_page(
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
            "created": format_time(state.created_at),
        },
    )


async def match_log(request: Request) -> Response:
    return await _download(request, "log", log_bytes, "jsonl")


async def match_mat(request: Request) -> Response:
    if not mat_available():
        raise ServerError("not_available", "this build has no .mat writer")
    return await _download(request, "mat", mat_bytes, "mat")


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
    actor = await actor_of(request, table_id)
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
    ctx = context_of(request)
    found = ctx.analysis.cached(table_id, level)
    if found is None:
        may_create(request)  # seconds of CPU: rationed like creating a table
        records = actor.records[: state.version]
        log = await ctx.exports.build(client_address(request), "log", state, records, log_bytes)
        found = await ctx.analysis.analyse(table_id, level, log.decode())
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
    return await render_page(
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
    _actor_of, _level, data = await _analysis(request)
    return JSONResponse(data)
