"""A match's record: its page, the action log, the ``.mat`` export (the analysis board is
in :mod:`gammon.server.web.analysis`, for imported matches too)."""

from __future__ import annotations

import importlib.util

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from gammon import VARIANTS
from gammon.match import TableOptions
from gammon.match.record import MatchRecord
from gammon.server.actor import TableActor
from gammon.server.analysers import analyser_for
from gammon.server.exports import Builder, chunks, log_bytes, mat_bytes, record_of
from gammon.server.protocol import ServerError
from gammon.server.views import table_summary
from gammon.server.web.common import (
    actor_of,
    client_address,
    context_of,
    format_time,
    render_page,
)
from gammon.variants import ROTATIONS

__all__ = [
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


def _one_board(options: TableOptions) -> bool:
    """Whether every game is on the backgammon board (``.mat`` files and the analysis):
    not the other geometries, nor a rotation (tavli changes variant every game)."""
    return options.variant in VARIANTS and VARIANTS[options.variant].standard_geometry


def match_record(actor: TableActor) -> MatchRecord:
    """The action log of a table's match (the server seed only once finished)."""
    state = actor.state
    if state is None:
        raise ServerError("not_started", "the match has not started")
    return record_of(state, actor.records)


async def _download(request: Request, kind: str, builder: Builder, suffix: str) -> Response:
    """A match's download, built off the event loop (``gammon.server.exports``), streamed."""
    table_id = request.path_params["table_id"]
    exports = context_of(request).exports
    exports.admit(client_address(request))
    actor = await actor_of(request, table_id)
    state = actor.state
    assert state is not None
    data = await exports.build(client_address(request), kind, state, actor.records, builder)
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
            "mat": mat_available() and state.match is not None and _one_board(state.options),
            # the analysis board replays every variant; it judges those with an analyser
            "analysis": state.status == "finished" and state.match is not None,
            "analysable": analyser_for(state.options.variant) is not None,
            # a rotation (tavli): each game's variant, for the list of games
            "game_variants": {
                o.number: state.options.game_variant(o.number).name for o in state.match.games
            }
            if state.match is not None and state.options.variant in ROTATIONS
            else None,
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
