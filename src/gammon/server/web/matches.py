"""A match's record: its page, the action log, the ``.mat`` export (the analysis board is
in :mod:`gammon.server.web.analysis`, for imported matches too)."""

from __future__ import annotations

import asyncio
import importlib.util
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from gammon import VARIANTS
from gammon.match import TableOptions
from gammon.match.record import MatchRecord
from gammon.server.analysis.exports import (
    Builder,
    actions_of,
    check_not_live,
    chunks,
    held,
    log_bytes,
    mat_bytes,
    record_of,
)
from gammon.server.analysis.registry import analyser_for
from gammon.server.i18n import translator
from gammon.server.protocol import ServerError
from gammon.server.table.actor import TableActor
from gammon.server.table.state import TableState
from gammon.server.table.views import table_summary
from gammon.server.web.common import (
    actor_of,
    client_address,
    context_of,
    format_time,
    lang_of,
    may_read,
    render_page,
)
from gammon.variants import ROTATIONS

__all__ = [
    "download",
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
    return record_of(state, actions_of(actor.records))


async def download(
    request: Request,
    kind: str,
    builder: Builder,
    suffix: str,
    media: str = "text/plain; charset=utf-8",
) -> Response:
    """A match's download of ``kind`` (a file ``gammon-<id>.<suffix>`` of type ``media``),
    rationed, refused for a rated or staked match in play, built off the event loop
    (``gammon.server.analysis.exports``) and streamed."""
    table_id = request.path_params["table_id"]
    exports = context_of(request).analysis.exports
    await exports.admit(client_address(request))
    actor = await actor_of(request, table_id)
    state = actor.state
    assert state is not None
    check_not_live(state)  # a rated or staked game in play is not sent to anyone
    data = await exports.build(client_address(request), kind, state, actor.records, builder)
    return StreamingResponse(
        chunks(data),
        media_type=media,
        headers={
            "Content-Disposition": f'attachment; filename="gammon-{table_id}.{suffix}"',
            "Content-Length": str(len(data)),
        },
    )


async def match_page(request: Request) -> Response:
    """``/matches/{id}``: a match's page.  Rationed per address and for the whole site
    (``match`` in :data:`gammon.server.infra.limits.RATIONS`), asked before anything: each
    may load a table from its journal.  Its content (every game of the match) is the same
    for every visitor: it is rendered once per table version and language and kept
    (``ctx.infra.kept``), so visitors looping on a long match's page cost a lookup each."""
    await may_read(request, "match")
    actor = await actor_of(request, request.path_params["table_id"])
    state = actor.state
    assert state is not None
    ctx = context_of(request)
    lang = lang_of(request)

    def render() -> str:
        template = ctx.templates.env.get_template("_match_content.html")
        return template.render(t=translator(lang), **_match_context(state))

    async def work() -> Markup:
        # a long session's page takes a tenth of a second to render: on a thread, which
        # lets the event loop answer every other socket meanwhile (the state is immutable)
        return Markup(await asyncio.to_thread(render))

    # kept by table, version and language, the least recently asked for going first
    # (ctx.infra.kept is bounded in bytes): a version's content never changes
    content = await ctx.infra.kept.get(("match-page", state.id, state.version, lang), work)
    return await render_page(
        request, "match.html", {"table": table_summary(state), "content": content}
    )


def _match_context(state: TableState) -> dict[str, Any]:
    """What a match page's content shows (the same for every visitor)."""
    return {
        "table": table_summary(state),
        "state": state,
        "rolls": state.rolls,
        "mat": mat_available() and state.match is not None and _one_board(state.options),
        # a rated or staked match in play: no download until it is finished
        "held": held(state),
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
    }


async def match_log(request: Request) -> Response:
    return await download(request, "log", log_bytes, "jsonl")


async def match_mat(request: Request) -> Response:
    if not mat_available():
        raise ServerError("not_available", "this build has no .mat writer")
    return await download(request, "mat", mat_bytes, "mat")
