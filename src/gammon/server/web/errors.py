"""Error responses: JSON for the API, an HTML page elsewhere (docs/protocol.md,
"Error codes")."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from gammon.errors import GammonError
from gammon.server.protocol import ServerError, http_status
from gammon.server.web.common import render_page

__all__ = ["exception_handlers"]

log = logging.getLogger(__name__)

#: Seconds a rate-limited client is told to wait (the ``Retry-After`` header).
RETRY_AFTER: Final = 2
#: Seconds a refused GET (past a rate limit) waits before its answer, at random between
#: these two: a client looping on a rationed page then asks about once a second per
#: connection, instead of as fast as refusals come (each still costs the server a
#: request's parsing and answer); at random, so that the clients refused together (a
#: bucket emptied) do not all come back in the same millisecond a second later.
REFUSAL_DELAY: Final = (0.5, 1.5)


def _wants_json(request: Request) -> bool:
    path = request.url.path
    accepts_json = "application/json" in request.headers.get("accept", "")
    return path.startswith("/api/") or accepts_json


async def _error_page(request: Request, exc: ServerError, status: int | None = None) -> Response:
    code = status or http_status(exc.code)
    if exc.code == "rate_limited" and request.method == "GET":
        await asyncio.sleep(random.uniform(*REFUSAL_DELAY))
    retry = getattr(exc, "retry_after", None)  # a limit's refusal says when to come back
    if _wants_json(request):
        return JSONResponse(
            {"error": {"code": exc.code, "message": str(exc)}},
            status_code=code,
            headers={"Retry-After": str(retry)} if retry is not None else None,
        )
    if exc.code == "rate_limited" and request.method == "GET":
        # a download in a loop: a line of text costs least (a person's form gets the page)
        return PlainTextResponse(
            f"{exc.code}: {exc}", status_code=code, headers={"Retry-After": str(RETRY_AFTER)}
        )
    try:
        page = await render_page(request, "error.html", {"error": exc}, code)
        if retry is not None:
            page.headers["Retry-After"] = str(retry)
        return page
    except Exception:  # the error page must not fail: plain text then
        return PlainTextResponse(f"{exc.code}: {exc}", status_code=code)


async def _on_gammon_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GammonError)
    server_error = exc if isinstance(exc, ServerError) else ServerError(exc.code, str(exc))
    return await _error_page(request, server_error)


_HTTP_CODES: Final = {
    400: "bad_message",
    401: "auth_required",
    403: "forbidden",
    404: "not_found",
    405: "bad_message",
    413: "too_large",
    429: "rate_limited",
}


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "bad_message")
    detail = exc.detail if isinstance(exc.detail, str) else "error"
    if exc.status_code == 404:
        detail = "not found"
    response = await _error_page(request, ServerError(code, detail), exc.status_code)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def _on_internal(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return await _error_page(
        request, ServerError("internal", "internal error; nothing was changed")
    )


def exception_handlers() -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """The app's error handlers: JSON for the API, an HTML page elsewhere."""
    return {GammonError: _on_gammon_error, HTTPException: _on_http_error, Exception: _on_internal}
