"""The browser's texts: ``GET /i18n/<lang>.json``, the game page's catalogue in a language.

The game and verification pages' script (``static/game/i18n.js``) fetches its language's
texts from here: the entries of the server's catalogue marked ``#. browser: game``
(:func:`gammon.server.i18n.browser_catalogue`), as ``{key: text}``.  The answer carries an
``ETag`` (a hash of its body) and ``Cache-Control: no-cache``, like the static files: a
browser keeps it and asks again with ``If-None-Match`` (``304``, no body, until the
catalogue changes).
"""

from __future__ import annotations

import functools
import hashlib
import json

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gammon.server.i18n import LANGUAGES, browser_catalogue
from gammon.server.web.staticfiles import CACHE_CONTROL

__all__ = ["catalogue_body", "text_routes"]


@functools.cache
def catalogue_body(lang: str) -> tuple[bytes, str]:
    """The game page's texts in ``lang`` as JSON, and their ETag.

    >>> body, etag = catalogue_body("it")
    >>> json.loads(body)["level.beginner"], etag == catalogue_body("it")[1] != catalogue_body("fr")[1]
    ('principiante', True)
    """
    body = json.dumps(
        browser_catalogue("game", lang), ensure_ascii=False, separators=(",", ":")
    ).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


async def browser_texts(request: Request) -> Response:
    """``GET /i18n/{lang}.json``: 404 for a language the site does not speak."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        raise HTTPException(404, f"no language {lang!r}")
    body, etag = catalogue_body(lang)
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def text_routes() -> list[Route]:
    """The browser's texts."""
    return [Route("/i18n/{lang}.json", browser_texts, methods=["GET"])]
