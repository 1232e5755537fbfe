"""Importing a match file: a signed-in player uploads a ``.mat``, SGF or ``.xg`` file.

``GET /import`` shows the form and the player's imported matches (newest first,
:data:`PER_PAGE` a page, ``?page=``); ``POST /import`` reads the file (at most
``--import-limit`` bytes, 1 MiB by default, where every other request body is at most
64 KiB; parsed off the event loop, on the downloads' queue, in the address's turn, under
the bounds of :mod:`gammon.match.formats.limits` and at most :data:`READ_SECONDS`) and
redirects to the imported match,
``GET /imports/{id}``: its games, the reader's warnings (what the file writes that
the rules could not replay exactly, by line) and the analysis board (as a finished
table's, ``?level=``: the replay from ``/api/imports/{id}/replay``, the analysis from
``/api/imports/{id}/analysis``, its progress, the grandmaster analysis and rollouts);
``POST /imports/{id}/delete`` deletes it.  A file that does not read comes back to
the form with the reason.

Imported matches are kept in the database (``imports``, :mod:`gammon.storage.imports`)
with the account, until the player deletes them, and shown to that player only.  A
player keeps at most ``--max-imports``; one more is refused (nothing is deleted).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, Final

from starlette.datastructures import Headers, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.middleware.body_limit import RequestBodyLimitMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, request_response
from starlette.types import Receive, Scope, Send

from gammon.errors import GammonError
from gammon.match.formats import import_warnings, read_match, unchecked_games
from gammon.match.formats.limits import ReadLimits, check_time, reading
from gammon.match.record import MatchRecord, replay, write_log
from gammon.match.state import GameOutcome
from gammon.server.analysis.deep import DEEP_LEVEL
from gammon.server.analysis.exports import log_replay_bytes
from gammon.server.analysis.registry import ANALYSIS_LEVELS, analyser_for
from gammon.server.analysis.xgbeside import with_xg
from gammon.server.i18n import browser_keys, person, translator
from gammon.server.infra.clock import now_ms
from gammon.server.protocol import ServerError
from gammon.server.table.views import variant_view
from gammon.server.web.analysis import script_json
from gammon.server.web.common import (
    check_csrf,
    checked_form,
    client_address,
    context_of,
    form_text,
    format_time,
    lang_of,
    may_create,
    need_session,
    redirect_to,
    render_page,
)
from gammon.server.web.deep import deep_boot, log_variant, work_owner
from gammon.storage import ImportLimitError, ImportRow

__all__ = [
    "FORMATS",
    "FORM_BYTES",
    "MAX_BYTES",
    "PER_PAGE",
    "READ_SECONDS",
    "SUFFIXES",
    "import_routes",
]

#: The largest file taken by default (``--import-limit``; a long match as ``.mat`` is tens
#: of kilobytes).
MAX_BYTES: Final = 1 << 20
#: What the form around the file may add to the request body (the token, the boundaries).
FORM_BYTES: Final = 64 * 1024
#: Longest a file may take to read (the reader stops itself past it: the file is refused).
READ_SECONDS: Final = 30.0
#: The format of each file the form takes, by its extension.
FORMATS: Final = {".mat": "mat", ".txt": "mat", ".sgf": "sgf", ".xg": "xg"}
#: The files the form takes.
SUFFIXES: Final = tuple(FORMATS)
#: Imported matches listed a page.
PER_PAGE: Final = 20
#: An imported match's key (``secrets.token_urlsafe``).
_KEY: Final = re.compile(r"[\w-]{1,16}")


def _read(name: str, data: bytes, seconds: float = READ_SECONDS) -> tuple[str, str, str, str] | str:
    """Run on a worker (a thread or a process): an uploaded file's record as an action
    log, then as JSON the reader's warnings, the games it did not replay exactly, and what
    the page shows (players, length, score, each game), worked out here once so that a
    view replays nothing.  A file that does not read, or past the bounds of
    :class:`~gammon.match.formats.limits.ReadLimits` (``seconds`` to read it), gives the
    reason instead (a text: it crosses a process boundary as it is)."""
    try:
        with reading(ReadLimits(seconds=seconds)):
            return _summary(read_match(name, data))
    except (GammonError, ValueError) as exc:
        return str(exc)


def _summary(record: MatchRecord) -> tuple[str, str, str, str]:
    final = replay(record)[-1]
    check_time()
    warnings = [
        {"line": w.line, "game": w.game, "message": w.message, "exact": w.exact}
        for w in import_warnings(record)
    ]
    unchecked = unchecked_games(record)
    summary = {
        "players": record.players,
        "length": record.options.match_length,
        "score": final.score,
        "games": _games(record, final.games, unchecked),
    }
    return (
        write_log(record),
        json.dumps(warnings),
        json.dumps(sorted(unchecked)),
        json.dumps(summary, sort_keys=True),
    )


async def _form(
    request: Request, error: str | None = None, status: int = 200, page: int = 1
) -> Response:
    """The import form (with ``error`` above it) and the player's imported matches."""
    session = await need_session(request, "sign in to import a match")
    ctx = context_of(request)
    shown = await ctx.infra.db.run(ctx.infra.store.imports.page, session.user.id, page, PER_PAGE)
    context = {
        "error": error,
        "limit": ctx.infra.settings.import_limit >> 10,
        "cap": ctx.infra.settings.max_imports,
        "imports": shown,
        "rows": [
            {"row": row, "when": format_time(row.uploaded_at), "kb": -(-row.size // 1024)}
            for row in shown.rows
        ],
    }
    return await render_page(request, "import.html", context, status=status)


async def import_page(request: Request) -> Response:
    raw = request.query_params.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else 1
    return await _form(request, page=page)


async def _refused(request: Request, message: str, status: int = 400) -> Response:
    return await _form(request, message, status)


def _declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, if it says one that makes sense."""
    text = Headers(scope=scope).get("content-length", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


class _UploadRoute:
    """``POST /import`` as an ASGI app: its body may be ``--import-limit`` bytes and the
    form around them (:data:`FORM_BYTES`), every other request's 64 KiB.  A body said
    (``Content-Length``) or found (chunked) to be larger is answered with the form and
    the limit (413), read no further: the bytes held stay under the bound."""

    def __init__(self) -> None:
        self.app = request_response(import_upload)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        bound = scope["app"].state.gammon.infra.settings.import_limit + FORM_BYTES
        # a body said to be larger is not read at all: the limit is only there so that
        # the form sent back is not taken for a body over it
        limit = max(bound, _declared_length(scope) or 0)
        await RequestBodyLimitMiddleware(self.app, max_body_size=limit)(scope, receive, send)


def _too_large(limit: int) -> str:
    return f"a match file is at most {limit >> 10} KB"


async def import_upload(request: Request) -> Response:
    session = await need_session(request, "sign in to import a match")
    limit = context_of(request).infra.settings.import_limit
    if (_declared_length(request.scope) or 0) > limit + FORM_BYTES:
        return await _refused(request, _too_large(limit), 413)
    try:
        async with request.form(max_files=1, max_fields=4, max_part_size=FORM_BYTES) as form:
            await check_csrf(request, form_text(form, "csrf_token"))
            upload = form.get("file")
            if not isinstance(upload, UploadFile) or not upload.filename:
                return await _refused(request, "choose a .mat, .sgf or .xg file")
            # no control characters (PostgreSQL's text holds no NUL) and at most 100
            name = "".join(c for c in Path(upload.filename).name if c.isprintable())[:100]
            if Path(name).suffix.lower() not in SUFFIXES:
                return await _refused(
                    request, f"{name}: the site reads .mat, .txt, .sgf and .xg files"
                )
            data = await upload.read(limit + 1)
    except MultiPartException as exc:
        raise ServerError("bad_message", f"unreadable upload: {exc.message}") from None
    except HTTPException as exc:  # a chunked body past the bound: read no further
        if exc.status_code != 413:
            raise
        return await _refused(request, _too_large(limit), 413)
    if len(data) > limit:
        return await _refused(request, f"{name}: larger than {limit >> 10} KB", 413)
    ctx = context_of(request)
    cap = ctx.infra.settings.max_imports
    if (
        await ctx.infra.db.run(ctx.infra.store.imports.count, session.user.id) >= cap
    ):  # before the work
        return await _refused(request, str(ImportLimitError(cap)), 409)
    # a long file is seconds of CPU: rationed like creating a table
    await may_create(request, "import")
    # off the event loop, one file at a time with the downloads, in the address's turn
    read = await ctx.analysis.exports.queue.run(client_address(request), _read, name, data)
    if isinstance(read, str):
        return await _refused(request, f"{name}: {read}")
    log, warnings, unchecked, summary = read
    suffix = Path(name).suffix.lower()
    row = ImportRow(
        secrets.token_urlsafe(9),
        session.user.id,
        name,
        FORMATS[suffix],
        now_ms(),
        log,
        warnings,
        unchecked,
        len(data),
        summary,
    )
    try:
        await ctx.infra.db.run(ctx.infra.store.imports.add, row, cap)
    except ImportLimitError as exc:  # another upload took the last place meanwhile
        return await _refused(request, str(exc), 409)
    return redirect_to(f"/imports/{row.id}")


def _games(
    record: MatchRecord, outcomes: Sequence[GameOutcome], unchecked: Collection[int]
) -> list[dict[str, Any]]:
    """Each game's score at its start, winner, points and end, as the page lists them."""
    score = list(record.start_score)
    rows = []
    for outcome in outcomes:
        rows.append(
            {
                "number": outcome.number,
                "score": tuple(score),
                "winner": outcome.winner,
                "points": outcome.points,
                "reason": outcome.reason,
                "checked": outcome.number not in unchecked,
            }
        )
        if outcome.winner is not None:
            score[outcome.winner] += outcome.points
    return rows


_MISSING: Final = "no such imported match"


async def _asked(request: Request) -> tuple[str | None, int]:
    """The path's key (None if it cannot be one) and the signed-in visitor's id."""
    session = await need_session(request, "sign in to see your imported matches")
    key = request.path_params["import_id"]
    return (key if _KEY.fullmatch(key) else None), session.user.id


async def _owned(request: Request) -> tuple[str, int]:
    """The key of the path's imported match and its owner, if the visitor uploaded it
    (else ``not_found``): the match's text is not read."""
    key, owner = await _asked(request)
    infra = context_of(request).infra
    if key is None or not await infra.db.run(infra.store.imports.owns, key, owner):
        raise ServerError("not_found", _MISSING)
    return key, owner


async def _imported(request: Request) -> ImportRow:
    """The imported match of the path, if the visitor uploaded it (else ``not_found``)."""
    key, owner = await _asked(request)
    infra = context_of(request).infra
    found = None if key is None else await infra.db.run(infra.store.imports.get, key, owner)
    if found is None:
        raise ServerError("not_found", _MISSING)
    return found


def _level_of(request: Request) -> str:
    """The ``?level=`` of an imported match's analysis (default ``expert``; ``grandmaster``
    is shown once stored, :mod:`gammon.server.web.deep`)."""
    level = request.query_params.get("level", ANALYSIS_LEVELS[0])
    levels = (*ANALYSIS_LEVELS, DEEP_LEVEL)
    if level not in levels:
        raise ServerError("bad_message", f"level must be {' or '.join(levels)}, not {level[:20]!r}")
    return level


async def imported_page(request: Request) -> Response:
    """The imported match: its games and warnings, and the analysis board (the same as a
    finished table's: the replay at once, the analysis asked for by the page, stored)."""
    found = await _imported(request)
    key = found.id
    level = _level_of(request)
    summary = json.loads(found.summary)
    variant = log_variant(found.log)
    analyser = analyser_for(variant)
    ctx = context_of(request)
    subject = f"import-{key}"
    data = await ctx.analysis.runner.stored(subject, level) if analyser is not None else None
    data = with_xg(data, found.log)  # XG's own analysis beside gammon's, if the file had it
    t = translator(lang_of(request))
    base = f"/api/imports/{key}"
    options = json.loads(found.log.split("\n", 1)[0]).get("options", {})
    boot = {
        "table": subject,
        "level": level,
        "players": [person(name, t) for name in summary["players"]],
        "other": variant_view(variant)["other_point"],
        "available": analyser is not None,
        "cube": bool(options.get("cube", True)),
        "replay": f"{base}/replay",
        "api": f"{base}/analysis?level={level}",
        "progress": f"{base}/analysis/progress?level={level}",
        "texts": {k: t(k) for k in browser_keys("board")},
        "deep": await deep_boot(request, subject, variant, base, f"/imports/{key}"),
    }
    return await render_page(
        request,
        "imported.html",
        {
            "key": key,
            "name": found.file_name,
            "when": format_time(found.uploaded_at),
            **summary,
            "warnings": json.loads(found.warnings),
            "level": level,
            "levels": ANALYSIS_LEVELS,
            "available": analyser is not None,
            "variant": variant,
            "boot": script_json(boot),
            "analysis": script_json(data),
        },
    )


async def api_imported_replay(request: Request) -> Response:
    """An imported match replayed step by step (as ``/api/tables/{id}/replay``): rationed
    per address and for every address together, worked out off the event loop (the
    downloads' queue, in the address's turn) once, then kept (an import never changes)."""
    ctx = context_of(request)
    address = client_address(request)
    # before anything: a refusal costs next to nothing
    await ctx.infra.limits.need("replay", None, address)
    key, owner = await _owned(request)

    async def replayed() -> bytes:
        # the match's text read only when its replay is not kept already
        found = await ctx.infra.db.run(ctx.infra.store.imports.get, key, owner)
        if found is None:  # deleted meanwhile
            raise ServerError("not_found", _MISSING)
        return await ctx.analysis.exports.queue.run(address, log_replay_bytes, found.log)

    steps = await ctx.infra.kept.get(("import-replay", key), replayed)
    return Response(steps, media_type="application/json", headers={"Cache-Control": "private"})


async def api_imported_analysis(request: Request) -> Response:
    """An imported match's analysis (as ``/api/tables/{id}/analysis``), computed once."""
    found = await _imported(request)
    level = _level_of(request)
    variant = log_variant(found.log)
    if analyser_for(variant) is None:
        raise ServerError("not_available", f"analysis is not available for {variant}")
    ctx = context_of(request)
    subject = f"import-{found.id}"
    data = await ctx.analysis.runner.stored(subject, level)
    if data is None and level == DEEP_LEVEL:
        raise ServerError(
            "not_analysed",
            f"no {DEEP_LEVEL} analysis yet: POST /api/imports/{found.id}/deep starts one",
        )
    if data is None:
        owner, anonymous = await work_owner(request)
        if ctx.analysis.runner.progress(subject, level)["status"] == "none":
            ctx.analysis.runner.admit(level, owner, anonymous)  # refused before any work
            await may_create(request, "analysis")
        data = await ctx.analysis.runner.analyse(subject, level, found.log, owner, anonymous)
    return JSONResponse(with_xg(data, found.log))


async def api_imported_progress(request: Request) -> Response:
    key, _ = await _owned(request)
    level = _level_of(request)
    return JSONResponse(context_of(request).analysis.runner.progress(f"import-{key}", level))


async def delete_imported(request: Request) -> Response:
    await checked_form(request)
    key, owner = await _owned(request)
    ctx = context_of(request)
    await ctx.infra.db.run(ctx.infra.store.imports.delete, key, owner)
    await ctx.analysis.runner.forget(f"import-{key}")
    ctx.infra.kept.forget(("import-replay", key))
    await ctx.infra.db.run(ctx.infra.store.rollouts.delete, f"import-{key}")
    return redirect_to("/import")


def import_routes() -> list[Route]:
    """The routes of this module."""
    return [
        Route("/import", import_page, methods=["GET"]),
        Route("/import", _UploadRoute(), methods=["POST"]),
        Route("/imports/{import_id}", imported_page, methods=["GET"]),
        Route("/imports/{import_id}/delete", delete_imported, methods=["POST"]),
        Route("/api/imports/{import_id}/replay", api_imported_replay, methods=["GET"]),
        Route("/api/imports/{import_id}/analysis", api_imported_analysis, methods=["GET"]),
        Route("/api/imports/{import_id}/analysis/progress", api_imported_progress, methods=["GET"]),
    ]
