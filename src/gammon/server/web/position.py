"""Any position, no match needed: the ``/analysis`` page (a board editor, XGID and gnubg ID
pasted or copied, a share link), its analysis and rollout, its picture, and a finished
match's SGF and ``.xg`` downloads.

* ``GET /analysis`` (``?xgid=``, or ``?pos=&match=``, and ``&variant=``): the page, the
  position of the link drawn at once (and analysed by the page's script);
* ``POST /api/position/analysis`` (``{"xgid"}``, ``{"gnuid"}``, ``{"position_id",
  "match_id"}`` or the editor's ``{"board", "turn", "dice", "cube", ...}``, each with
  ``"variant"`` and ``"level"``): the bot's ranked moves for the dice, or its cube decision
  without dice.  Rationed like a match's analysis (``ctx.infra.limits`` kind ``analysis``),
  worked out off the event loop in the analyses' fair queue (one line per person), kept
  in memory (:data:`KEPT`: a shared link's second visit is instant);
* ``POST /api/position/rollout`` (the same body, ``"trials"``), ``GET /api/position/rollout
  ?variant=&pos=&match=``, ``POST /api/position/rollout/cancel``: a rollout on demand in
  the deep work's queue (:class:`gammon.server.analysis.deep.DeepRunner`: one job a person);
* ``GET /analysis/position.svg?variant=&pos=&match=``: the picture (the page makes the PNG);
* ``GET /matches/{id}/sgf`` and ``/matches/{id}/xg``: the record as gnubg's SGF and as an
  eXtreme Gammon file, refused for a rated or staked match in play like the other
  downloads (:func:`gammon.server.analysis.exports.check_not_live`).

A bad position is refused with ``invalid_position`` (400); the API's refusals carry
``text``, the message in the visitor's language.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.errors import GammonError
from gammon.position import Position
from gammon.server.analysis.deep import ROLLOUT_TRIALS
from gammon.server.analysis.exports import record_of
from gammon.server.analysis.positions import (
    Setup,
    analyse_in_worker,
    position_rollout_in_worker,
    setup_from_body,
    setup_from_ids,
    setup_from_xgid,
)
from gammon.server.analysis.registry import ANALYSIS_LEVELS
from gammon.server.i18n import browser_keys, error_text, translator
from gammon.server.protocol import ServerError, http_status
from gammon.server.table.state import TableState
from gammon.server.table.views import variant_view
from gammon.server.web.analysis import script_json
from gammon.server.web.common import (
    context_of,
    json_body,
    lang_of,
    may_create,
    may_read,
    render_page,
)
from gammon.server.web.deep import MAX_TRIALS, deep_available, work_owner
from gammon.server.web.matches import download
from gammon.variants import VARIANTS

__all__ = ["KEPT", "position_routes", "sgf_bytes", "xg_bytes"]

#: Position analyses kept in memory (least recently used go first).
KEPT: Final = 256
_kept: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
_rolled: OrderedDict[str, dict[str, Any]] = OrderedDict()
_BODY_KEYS: Final = frozenset(
    {"xgid", "gnuid", "position_id", "match_id", "variant", "level", "trials"}
    | {"board", "pinned", "waiting", "turn", "dice", "cube", "length", "score"}
    | {"crawford", "jacoby", "max_cube"}
)


def _keep(store: OrderedDict[Any, dict[str, Any]], key: Any, data: dict[str, Any]) -> None:
    store[key] = data
    store.move_to_end(key)
    while len(store) > KEPT:
        store.popitem(last=False)


def _refusal(request: Request, exc: ServerError) -> JSONResponse:
    """The API's refusal, with the message in the visitor's language as ``text``."""
    text, _ = error_text(lang_of(request), str(exc))
    retry = getattr(exc, "retry_after", None)
    return JSONResponse(
        {"error": {"code": exc.code, "message": str(exc), "text": text}},
        status_code=http_status(exc.code),
        headers={"Retry-After": str(retry)} if retry is not None else None,
    )


def _level(raw: object) -> str:
    level = "expert" if raw is None else raw
    if level not in ANALYSIS_LEVELS:
        raise ServerError("bad_message", f"level must be {' or '.join(ANALYSIS_LEVELS)}")
    return str(level)


async def _body(request: Request) -> dict[str, Any]:
    body = await json_body(request)
    unknown = sorted(set(body) - _BODY_KEYS)
    if unknown:
        raise ServerError("bad_message", f"unknown field {unknown[0][:40]!r}")
    return body


def _query_setup(request: Request) -> Setup | None:
    """The position a link names (None: none)."""
    q = request.query_params
    variant = q.get("variant", "standard")
    if q.get("xgid"):
        return setup_from_xgid(q["xgid"], variant)
    if q.get("pos"):
        return setup_from_ids(q["pos"], q.get("match", ""), variant)
    return None


# ---------------------------------------------------------------------- the page


async def position_page(request: Request) -> Response:
    """The ``/analysis`` page: the board editor with the position of the link, if any."""
    t = translator(lang_of(request))
    error = None
    try:
        setup = _query_setup(request)
    except ServerError as exc:
        setup, error = None, error_text(lang_of(request), str(exc))[0]
    level = request.query_params.get("level", "expert")
    if level not in ANALYSIS_LEVELS:
        level = "expert"
    start = setup or setup_from_ids(Position.initial().position_id(), "")
    boot = {
        "setup": start.to_json(),
        "linked": setup is not None,
        "error": error,
        "level": level,
        "variants": {
            name: {
                "other": variant_view(name)["other_point"],
                "checkers": v.checkers,
                "cube": v.cube,
                "xgid": v.standard_geometry,
                "rollout": deep_available(name),
                "start": Position.initial(name).position_id(),
            }
            for name, v in VARIANTS.items()
        },
        "trials": ROLLOUT_TRIALS,
        "texts": {key: t(key) for key in browser_keys("position")},
    }
    return await render_page(
        request,
        "position.html",
        {
            "boot": script_json(boot),
            "error": error,
            "levels": ANALYSIS_LEVELS,
            "level": level,
            "variants": list(VARIANTS),
        },
    )


# ---------------------------------------------------------------------- the API


async def api_position_analysis(request: Request) -> Response:
    """The bot's judgement of a position (see the module notes)."""
    try:
        body = await _body(request)
        level = _level(body.get("level"))
        setup = setup_from_body(body)
        key = (setup.cache_key(), level)
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return JSONResponse(found)
        # what needs no bot is refused before any ration is taken
        if setup.position.is_game_over():
            raise ServerError("invalid_position", "the game is over in this position")
        if setup.dice is None and not (
            setup.position.variant.standard_geometry and setup.position.variant.cube
        ):
            raise ServerError("invalid_position", "roll the dice: this variant has no cube")
        await may_create(request, "analysis")  # seconds of CPU: rationed like a match's
        ctx = context_of(request)
        owner, _anonymous = await work_owner(request)
        answer = await ctx.analysis.runner.queue(level).run(owner, analyse_in_worker, setup, level)
        if "error" in answer:
            code, message = answer["error"]
            raise ServerError(str(code), str(message))
    except ServerError as exc:
        return _refusal(request, exc)
    _keep(_kept, key, answer)
    return JSONResponse(answer)


def _trials(raw: object) -> int:
    trials = ROLLOUT_TRIALS if raw is None else raw
    if type(trials) is not int or not 36 <= trials <= MAX_TRIALS:
        raise ServerError("bad_message", f"trials must be a whole number from 36 to {MAX_TRIALS}")
    return trials


def _job(setup: Setup) -> tuple[str, str]:
    return (f"position {setup.cache_key()}", "rollout")


def _need_rollout(setup: Setup) -> None:
    if not deep_available(setup.variant):
        raise ServerError("not_available", f"rollouts are not available for {setup.variant}")
    if setup.position.is_game_over():
        raise ServerError("invalid_position", "the game is over in this position")
    if setup.dice is None and not setup.position.variant.cube:
        raise ServerError("invalid_position", "roll the dice: this variant has no cube")


async def api_position_rollout(request: Request) -> Response:
    """Roll out a position's decision (202), or give the rollout done (200)."""
    try:
        body = await _body(request)
        trials = _trials(body.get("trials"))
        setup = setup_from_body(body)
        _need_rollout(setup)
        done = _rolled.get(setup.cache_key())
        if done is not None:
            return JSONResponse({"status": "done", "fraction": 1.0, "result": done})
        ctx = context_of(request)
        owner, anonymous = await work_owner(request)
        name = setup.cache_key()

        async def keep(data: dict[str, Any]) -> None:
            _keep(_rolled, name, data)

        status = ctx.analysis.deep.start(
            _job(setup),
            owner,
            "rollout",
            position_rollout_in_worker,
            (setup, trials),
            keep,
            anonymous=anonymous,
        )
    except ServerError as exc:
        return _refusal(request, exc)
    return JSONResponse(status, status_code=202)


async def api_position_rollout_status(request: Request) -> Response:
    """Where a position's rollout stands, with its ``result`` once done."""
    try:
        setup = _query_setup(request)
        if setup is None:
            raise ServerError("invalid_position", "name a position: ?variant=&pos=&match=")
    except ServerError as exc:
        return _refusal(request, exc)
    done = _rolled.get(setup.cache_key())
    if done is not None:
        return JSONResponse({"status": "done", "fraction": 1.0, "result": done})
    status = context_of(request).analysis.deep.status(_job(setup))
    if status["status"] == "done":  # kept, then forgotten: ask again
        status = {"status": "none", "fraction": 0.0}
    return JSONResponse(status)


async def api_position_rollout_cancel(request: Request) -> Response:
    try:
        setup = setup_from_body(await _body(request))
        owner, _anonymous = await work_owner(request)
        return JSONResponse(context_of(request).analysis.deep.cancel(_job(setup), owner))
    except ServerError as exc:
        return _refusal(request, exc)


async def position_svg(request: Request) -> Response:
    """The picture of a position (the player on roll at the bottom, its dice and the cube)."""
    await may_read(request, "download")
    setup = _query_setup(request)
    if setup is None:
        raise ServerError("invalid_position", "name a position: ?variant=&pos=&match=")
    owner = setup.cube_owner
    try:
        picture = setup.position.svg(
            dice=setup.dice,
            cube=setup.cube_value if setup.position.variant.cube else None,
            cube_owner=None if owner is None else "player" if owner == setup.seat else "opponent",
        )
    except GammonError as exc:
        raise ServerError("invalid_position", str(exc)[:240]) from None
    return Response(
        picture,
        media_type="image/svg+xml",
        headers={"Content-Disposition": 'inline; filename="position.svg"'},
    )


# ---------------------------------------------------------------------- match exports


def sgf_bytes(state: TableState, actions: Sequence[dict[str, Any]]) -> bytes:
    """A table's match as gnubg's SGF (``/matches/{id}/sgf``)."""
    from gammon.match.formats.sgf import match_to_sgf

    record = record_of(state, actions)
    if not record.actions:
        raise ServerError("not_started", "no action has been played yet")
    return match_to_sgf(record).encode()


def xg_bytes(state: TableState, actions: Sequence[dict[str, Any]]) -> bytes:
    """A table's match as an eXtreme Gammon file (``/matches/{id}/xg``)."""
    from gammon.match.formats.xg import record_to_xg

    record = record_of(state, actions)
    if not record.actions:
        raise ServerError("not_started", "no action has been played yet")
    try:
        return record_to_xg(record)
    except GammonError as exc:
        raise ServerError("not_available", str(exc)[:200]) from None


async def match_sgf(request: Request) -> Response:
    return await download(request, "sgf", sgf_bytes, "sgf", "application/x-go-sgf")


async def match_xg(request: Request) -> Response:
    return await download(request, "xg", xg_bytes, "xg", "application/octet-stream")


def position_routes() -> list[Route]:
    """The routes of this module."""
    return [
        Route("/analysis", position_page, methods=["GET"]),
        Route("/analysis/position.svg", position_svg, methods=["GET"]),
        Route("/api/position/analysis", api_position_analysis, methods=["POST"]),
        Route("/api/position/rollout", api_position_rollout, methods=["POST"]),
        Route("/api/position/rollout", api_position_rollout_status, methods=["GET"]),
        Route("/api/position/rollout/cancel", api_position_rollout_cancel, methods=["POST"]),
        Route("/matches/{table_id}/sgf", match_sgf, methods=["GET"]),
        Route("/matches/{table_id}/xg", match_xg, methods=["GET"]),
    ]
