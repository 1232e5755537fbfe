"""A match's record: its page, the action log, the ``.mat`` export; the analysis' summary
for the imported matches' pages (:func:`analysis_view`; the analysis board is in
:mod:`gammon.server.web.analysis`)."""

from __future__ import annotations

import importlib.util
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from gammon import VARIANTS, Position
from gammon.match import Roll, TableOptions, action_from_dict
from gammon.match.record import DiceRecord, MatchRecord, write_log
from gammon.server.actor import TableActor
from gammon.server.analysers import analyser_for
from gammon.server.protocol import ServerError
from gammon.server.table import DICE_SCHEME
from gammon.server.views import table_summary
from gammon.server.web.common import (
    actor_of,
    format_time,
    render_page,
)
from gammon.variants import ROTATIONS

__all__ = [
    "analysis_view",
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
    actor = await actor_of(request, request.path_params["table_id"])
    state = actor.state
    assert state is not None
    rolls = 0
    if state.match is not None:
        rolls = sum(
            1
            for r in actor.records
            if r.kind == "action" and isinstance(action_from_dict(r.data["action"]), Roll)
        )
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
    table_id = request.path_params["table_id"]
    actor = await actor_of(request, table_id)
    text = write_log(match_record(actor))
    return PlainTextResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="gammon-{table_id}.jsonl"'},
    )


async def match_mat(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    actor = await actor_of(request, table_id)
    if not mat_available():
        raise ServerError("not_available", "this build has no .mat writer")
    record = match_record(actor)
    if not record.actions:
        raise ServerError("not_started", "no action has been played yet")
    from gammon.match.formats.matwrite import match_to_mat

    text = match_to_mat(record)
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="gammon-{table_id}.mat"'}
    )


def _decision_board(decision: dict[str, Any], variant: str) -> Markup:
    """The position of a decision as SVG (numbers only: safe to embed)."""
    dice = decision["dice"]
    position = Position.from_position_id(decision["position_id"], variant)
    picture = position.svg(dice=(int(dice[0]), int(dice[1])) if dice else None, size=300)
    return Markup(picture)  # built from numbers and a Position ID: no user text


def analysis_view(data: dict[str, Any]) -> dict[str, Any]:
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
