"""Importing a match file: a signed-in player uploads a ``.mat``, SGF or ``.xg`` file.

``GET /import`` shows the form, ``POST /import`` reads the file (at most
:data:`MAX_BYTES`, parsed off the event loop) and redirects to the imported match,
``GET /imports/{id}``: its games, the reader's warnings (what the file writes that
the rules could not replay exactly, by line) and, at ``?level=``, its analysis.
A file that does not read comes back to the form with the reason.

Imported matches are kept in memory, the most recent :data:`KEEP`, and shown to
the player who uploaded them only.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gammon.errors import GammonError
from gammon.match.formats import import_warnings, read_match, unchecked_games
from gammon.match.record import MatchRecord, replay, write_log
from gammon.match.state import GameOutcome
from gammon.server.analysis import ANALYSIS_LEVELS, analysis_available
from gammon.server.protocol import ServerError
from gammon.server.web.common import (
    check_csrf,
    context_of,
    form_text,
    may_create,
    need_session,
    redirect_to,
    render_page,
)
from gammon.server.web.matches import analysis_view

__all__ = ["KEEP", "MAX_BYTES", "SUFFIXES", "import_routes"]

#: The largest file taken (a long match as ``.mat`` is tens of kilobytes).
MAX_BYTES: Final = 1 << 20
#: Imported matches kept in memory.
KEEP: Final = 200
#: The files the form takes.
SUFFIXES: Final = (".mat", ".txt", ".sgf", ".xg")


@dataclass(frozen=True, slots=True)
class Imported:
    """An uploaded match: whose it is, the file's name, its record as an action log, and
    what its page shows (worked out with the file, off the event loop)."""

    owner: int
    name: str
    log: str
    page: dict[str, Any]


def _read(name: str, data: bytes) -> tuple[str, dict[str, Any]]:
    """Run in a thread: the record of an uploaded file as an action log, and its page."""
    record = read_match(name, data)
    final = replay(record)[-1]
    page = {
        "players": record.players,
        "length": record.options.match_length,
        "score": final.score,
        "games": _games(record, final.games),
        "warnings": import_warnings(record),
    }
    return write_log(record), page


def _store(request: Request) -> OrderedDict[str, Imported]:
    state = request.app.state
    if not hasattr(state, "imports"):
        state.imports = OrderedDict()
    store: OrderedDict[str, Imported] = state.imports
    return store


async def import_page(request: Request) -> Response:
    await need_session(request, "sign in to import a match")
    return await render_page(request, "import.html", {"error": None, "limit": MAX_BYTES >> 10})


async def _refused(request: Request, message: str, status: int = 400) -> Response:
    context = {"error": message, "limit": MAX_BYTES >> 10}
    return await render_page(request, "import.html", context, status=status)


async def import_upload(request: Request) -> Response:
    session = await need_session(request, "sign in to import a match")
    if int(request.headers.get("content-length") or 0) > MAX_BYTES + 65536:
        raise ServerError("too_large", f"a match file is at most {MAX_BYTES >> 10} KB")
    try:
        async with request.form(max_files=1, max_fields=4, max_part_size=MAX_BYTES + 1) as form:
            await check_csrf(request, form_text(form, "csrf_token"))
            upload = form.get("file")
            if not isinstance(upload, UploadFile) or not upload.filename:
                return await _refused(request, "choose a .mat, .sgf or .xg file")
            name = Path(upload.filename).name[:100]
            if Path(name).suffix.lower() not in SUFFIXES:
                return await _refused(
                    request, f"{name}: the site reads .mat, .txt, .sgf and .xg files"
                )
            data = await upload.read(MAX_BYTES + 1)
    except MultiPartException as exc:
        raise ServerError("bad_message", f"unreadable upload: {exc.message}") from None
    if len(data) > MAX_BYTES:
        return await _refused(request, f"{name}: larger than {MAX_BYTES >> 10} KB", 413)
    may_create(request)  # a long file is seconds of CPU: rationed like creating a table
    try:
        log, page = await asyncio.to_thread(_read, name, data)
    except (GammonError, ValueError) as exc:
        return await _refused(request, f"{name}: {exc}")
    store = _store(request)
    key = secrets.token_urlsafe(9)
    store[key] = Imported(session.user.id, name, log, page)
    while len(store) > KEEP:
        store.popitem(last=False)
    return redirect_to(f"/imports/{key}")


def _games(record: MatchRecord, outcomes: Sequence[GameOutcome]) -> list[dict[str, Any]]:
    """Each game's score at its start, winner, points and end, as the page lists them."""
    score = list(record.start_score)
    unchecked = unchecked_games(record)
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


async def imported_page(request: Request) -> Response:
    session = await need_session(request, "sign in to see your imported matches")
    key = request.path_params["import_id"]
    found = _store(request).get(key)
    if found is None or found.owner != session.user.id:
        raise ServerError("not_found", "no such imported match (they are kept for a while)")
    level = request.query_params.get("level")
    view: dict[str, Any] | None = None
    if level is not None:
        if level not in ANALYSIS_LEVELS:
            raise ServerError(
                "bad_message", f"level must be {' or '.join(ANALYSIS_LEVELS)}, not {level[:20]!r}"
            )
        if not analysis_available():
            raise ServerError("not_available", "this server has no analysis engine (the bot extra)")
        ctx = context_of(request)
        data = ctx.analysis.cached(f"import-{key}", level)
        if data is None:
            may_create(request)
            data = await ctx.analysis.analyse(f"import-{key}", level, found.log)
        view = analysis_view(data)
    return await render_page(
        request,
        "imported.html",
        {
            "key": key,
            "name": found.name,
            **found.page,
            "level": level,
            "levels": ANALYSIS_LEVELS,
            "can_analyse": analysis_available(),
            "analysis": view,
        },
    )


def import_routes() -> list[Route]:
    """The routes of this module."""
    return [
        Route("/import", import_page, methods=["GET"]),
        Route("/import", import_upload, methods=["POST"]),
        Route("/imports/{import_id}", imported_page, methods=["GET"]),
    ]
