"""The analysis page's deep work: a grandmaster analysis and single-decision rollouts.

For a finished table (``/api/tables/{id}/...``) and for an imported match
(``/api/imports/{key}/...``, its owner only), each a JSON API (docs/protocol.md):

* ``POST .../deep`` starts the grandmaster analysis (``{}``), ``GET .../deep`` says where
  it stands, ``POST .../deep/cancel`` stops it; once done it is the stored analysis at
  ``?level=grandmaster`` (a second visit is instant);
* ``POST .../rollouts`` (``{"decision": "12:checker"}``, optionally ``"trials"``) rolls
  out one decision of the stored analysis, ``GET .../rollouts?decision=`` says where it
  stands (with the ``result`` once stored), ``GET .../rollouts`` lists the stored ones,
  ``POST .../rollouts/cancel`` stops it.

The work runs in :class:`gammon.server.analysis.deep.DeepRunner`: one job a person (signed in:
the account; else, and for guests, the client address), a bounded number on the site, of
which a few for those without an account.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.server.analysis.deep import (
    DEEP_LEVEL,
    ROLLOUT_TRIALS,
    decision_key,
    deep_analysis_in_worker,
    now_ms,
    parse_decision,
    rollout_in_worker,
    stored_json,
)
from gammon.server.analysis.exports import log_bytes
from gammon.server.analysis.registry import ANALYSIS_LEVELS, analyser_for
from gammon.server.protocol import ServerError
from gammon.server.web.common import (
    client_address,
    context_of,
    finished_actor,
    json_body,
    need_session,
    session_of,
)
from gammon.variants import VARIANTS

__all__ = [
    "MAX_TRIALS",
    "deep_available",
    "deep_boot",
    "deep_routes",
    "log_variant",
    "work_owner",
]

#: The most trials per candidate a rollout may ask for.
MAX_TRIALS: Final = 1296
_IMPORT_KEY: Final = re.compile(r"[\w-]{1,16}")


@dataclass(frozen=True, slots=True)
class _Subject:
    """A finished match to work on: its analysis key, variant and action log (fetched
    only when a job starts)."""

    id: str
    variant: str
    log: Callable[[], Awaitable[str]]


def deep_available(variant: str) -> bool:
    """Whether the grandmaster analysis and rollouts judge ``variant`` here (bgsage's, on
    the backgammon board)."""
    found = analyser_for(variant)
    known = VARIANTS.get(variant)
    return found is not None and found.name == "bgsage" and known is not None


async def _subject(request: Request) -> _Subject:
    ctx = context_of(request)
    if "table_id" in request.path_params:
        actor = await finished_actor(request)
        state = actor.state
        assert state is not None

        async def table_log() -> str:
            assert state is not None
            await ctx.analysis.exports.admit(client_address(request))
            data = await ctx.analysis.exports.build(
                client_address(request), "log", state, actor.records, log_bytes
            )
            return data.decode()

        return _Subject(state.id, state.options.variant, table_log)
    session = await need_session(request, "sign in to see your imported matches")
    key = request.path_params["import_id"]
    found = None
    if _IMPORT_KEY.fullmatch(key):
        found = await ctx.infra.db.run(ctx.infra.store.imports.get, key, session.user.id)
    if found is None:
        raise ServerError("not_found", "no such imported match")
    text = found.log

    async def import_log() -> str:
        return text

    return _Subject(f"import-{key}", log_variant(text), import_log)


def log_variant(log_text: str) -> str:
    """The variant an action log's header names (the log is not read further).

    >>> log_variant('{"format": "gammon-action-log", "options": {"variant": "tavla"}}')
    'tavla'
    """
    try:
        header = json.loads(log_text.split("\n", 1)[0])
        variant = header["options"].get("variant", "standard")
    except (ValueError, KeyError, TypeError, AttributeError):
        return "standard"
    return variant if isinstance(variant, str) else "standard"


async def work_owner(request: Request) -> tuple[Hashable, bool]:
    """Whose line a job of the request waits in, and whether they are *anonymous*: a
    signed-in account, else the client address (a guest's account too: guests cost
    nothing to make, so all the guests of an address are one owner)."""
    session = await session_of(request)
    if session is not None and not session.user.guest:
        return ("user", session.user.id), False
    return ("address", client_address(request)), True


async def _owner(request: Request) -> Hashable:
    return (await work_owner(request))[0]


def _need_deep(subject: _Subject) -> None:
    if not deep_available(subject.variant):
        raise ServerError("not_available", f"deep analysis is not available for {subject.variant}")


# ---------------------------------------------------------------------- grandmaster


async def _deep_status(request: Request, subject: _Subject) -> dict[str, Any]:
    ctx = context_of(request)
    status = ctx.analysis.deep.status((subject.id, DEEP_LEVEL))
    ended = status["status"] in ("none", "done", "cancelled", "failed")
    if ended and await ctx.analysis.runner.stored(subject.id, DEEP_LEVEL) is not None:
        return {"status": "done", "fraction": 1.0}
    return status


async def api_deep_start(request: Request) -> Response:
    """Start the grandmaster analysis (202), or say it is done (200)."""
    body = await json_body(request)
    if body:
        raise ServerError("bad_message", "the body is {}")
    subject = await _subject(request)
    _need_deep(subject)
    ctx = context_of(request)
    if await ctx.analysis.runner.stored(subject.id, DEEP_LEVEL) is not None:
        return JSONResponse({"status": "done", "fraction": 1.0})
    owner, anonymous = await work_owner(request)
    key = (subject.id, DEEP_LEVEL)
    if ctx.analysis.deep.owner_of(key) is None:
        log_text = await subject.log()
    else:
        log_text = ""  # joins the job under way

    async def keep(data: dict[str, Any]) -> None:
        # the players' profiles keep the default level's error rates: not these
        await ctx.analysis.runner.keep(subject.id, DEEP_LEVEL, data)

    status = ctx.analysis.deep.start(
        key, owner, "analysis", deep_analysis_in_worker, (log_text,), keep, anonymous=anonymous
    )
    return JSONResponse(status, status_code=202)


async def api_deep_status(request: Request) -> Response:
    subject = await _subject(request)
    return JSONResponse(await _deep_status(request, subject))


async def api_deep_cancel(request: Request) -> Response:
    await json_body(request)
    subject = await _subject(request)
    ctx = context_of(request)
    return JSONResponse(ctx.analysis.deep.cancel((subject.id, DEEP_LEVEL), await _owner(request)))


# ---------------------------------------------------------------------- rollouts


async def _decision_of(request: Request, subject: _Subject, key: str) -> dict[str, Any]:
    """The decision ``key`` in a stored analysis of the subject (any level), or an error."""
    action_index, kind = parse_decision(key)
    ctx = context_of(request)
    for level in (*ANALYSIS_LEVELS, DEEP_LEVEL):
        data = await ctx.analysis.runner.stored(subject.id, level)
        if data is None:
            continue
        for game in data.get("games", []):
            for d in game.get("decisions", []):
                if d.get("action_index") == action_index and d.get("kind") == kind:
                    return dict(d)
        raise ServerError("bad_message", f"the analysis has no decision {key}")
    raise ServerError("not_analysed", "analyse the match first: rollouts are of its decisions")


async def _stored_rollout(request: Request, subject: _Subject, key: str) -> dict[str, Any] | None:
    ctx = context_of(request)
    return stored_json(await ctx.infra.db.run(ctx.infra.store.rollouts.get, subject.id, key))


def _trials(body: dict[str, Any]) -> int:
    trials = body.get("trials", ROLLOUT_TRIALS)
    if type(trials) is not int or not 36 <= trials <= MAX_TRIALS:
        raise ServerError("bad_message", f"trials must be a whole number from 36 to {MAX_TRIALS}")
    return trials


async def api_rollout_start(request: Request) -> Response:
    """Roll out a decision (202), or give the stored rollout (200)."""
    body = await json_body(request)
    if set(body) - {"decision", "trials"}:
        raise ServerError("bad_message", 'the body is {"decision": "ACTION:KIND", "trials": N}')
    key = body.get("decision")
    action_index, kind = parse_decision(key)
    trials = _trials(body)
    subject = await _subject(request)
    _need_deep(subject)
    key = decision_key(action_index, kind)
    stored = await _stored_rollout(request, subject, key)
    if stored is not None:
        return JSONResponse({"status": "done", "fraction": 1.0, "result": stored})
    await _decision_of(request, subject, key)
    ctx = context_of(request)
    owner, anonymous = await work_owner(request)
    job_key = (subject.id, f"rollout {key}")
    log_text = await subject.log() if ctx.analysis.deep.owner_of(job_key) is None else ""

    async def keep(data: dict[str, Any]) -> None:
        text = json.dumps(data, separators=(",", ":"))
        await ctx.infra.db.run(ctx.infra.store.rollouts.put, subject.id, key, text, now_ms())

    status = ctx.analysis.deep.start(
        job_key,
        owner,
        "rollout",
        rollout_in_worker,
        (log_text, action_index, kind, trials),
        keep,
        anonymous=anonymous,
    )
    return JSONResponse(status, status_code=202)


async def api_rollout_status(request: Request) -> Response:
    subject = await _subject(request)
    ctx = context_of(request)
    raw = request.query_params.get("decision")
    if raw is None:
        texts = await ctx.infra.db.run(ctx.infra.store.rollouts.of_subject, subject.id)
        return JSONResponse({"rollouts": {k: stored_json(v) for k, v in texts.items()}})
    key = decision_key(*parse_decision(raw))
    status = ctx.analysis.deep.status((subject.id, f"rollout {key}"))
    if status["status"] not in ("queued", "running"):
        stored = await _stored_rollout(request, subject, key)
        if stored is not None:
            return JSONResponse({"status": "done", "fraction": 1.0, "result": stored})
        if status["status"] == "done":  # stored by the job, then deleted: run it again
            status = {"status": "none", "fraction": 0.0}
    return JSONResponse(status)


async def api_rollout_cancel(request: Request) -> Response:
    body = await json_body(request)
    key = decision_key(*parse_decision(body.get("decision")))
    subject = await _subject(request)
    ctx = context_of(request)
    return JSONResponse(
        ctx.analysis.deep.cancel((subject.id, f"rollout {key}"), await _owner(request))
    )


# ---------------------------------------------------------------------- the page


async def deep_boot(
    request: Request, subject: str, variant: str, base: str, page: str
) -> dict[str, Any]:
    """What the analysis page's script needs for the deep work of ``subject``: the URLs
    (``base``: ``/api/tables/{id}``; ``page``: the analysis page), whether a grandmaster
    analysis is stored, the stored rollouts, and the trials a rollout asks for (the
    page's ``?trials=``, else :data:`~gammon.server.analysis.deep.ROLLOUT_TRIALS`)."""
    ctx = context_of(request)
    available = deep_available(variant)
    stored = available and await ctx.analysis.runner.stored(subject, DEEP_LEVEL) is not None
    rollouts: dict[str, Any] = {}
    if available:
        texts = await ctx.infra.db.run(ctx.infra.store.rollouts.of_subject, subject)
        rollouts = {k: stored_json(v) for k, v in texts.items()}
    raw = request.query_params.get("trials", "")
    trials = (
        int(raw)
        if raw.isascii() and raw.isdigit() and 36 <= int(raw) <= MAX_TRIALS
        else ROLLOUT_TRIALS
    )
    return {
        "available": available,
        "level": DEEP_LEVEL,
        "stored": stored,
        "url": f"{base}/deep",
        "page": f"{page}?level={DEEP_LEVEL}",
        "rollouts_url": f"{base}/rollouts",
        "rollouts": rollouts,
        "trials": trials,
    }


def deep_routes() -> list[Route]:
    """The routes of this module, for tables and imported matches."""
    routes = []
    for base in ("/api/tables/{table_id}", "/api/imports/{import_id}"):
        routes += [
            Route(f"{base}/deep", api_deep_start, methods=["POST"]),
            Route(f"{base}/deep", api_deep_status, methods=["GET"]),
            Route(f"{base}/deep/cancel", api_deep_cancel, methods=["POST"]),
            Route(f"{base}/rollouts", api_rollout_start, methods=["POST"]),
            Route(f"{base}/rollouts", api_rollout_status, methods=["GET"]),
            Route(f"{base}/rollouts/cancel", api_rollout_cancel, methods=["POST"]),
        ]
    return routes
