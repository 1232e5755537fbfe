"""The site's static files (issue #18): served gzip-compressed to browsers that accept it,
with an ``ETag`` and ``Cache-Control: no-cache``, so that a browser keeps its copy and asks
again with ``If-None-Match`` (a ``304`` with no body when the file did not change).

The file names carry no version, so a browser must revalidate: after an upgrade, a page
never runs an old script against a new server.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

__all__ = ["CACHE_CONTROL", "static_files"]

#: Keep, but revalidate with the ETag before each use.
CACHE_CONTROL: Final = "no-cache"


class _RevalidatedFiles(StaticFiles):
    """StaticFiles (ETag, Last-Modified, 304) with ``Cache-Control``."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = CACHE_CONTROL
        return response


def static_files(directory: Path) -> ASGIApp:
    """The ASGI app serving ``directory``: revalidated, gzip for bodies over 500 bytes."""
    return GZipMiddleware(_RevalidatedFiles(directory=directory), minimum_size=500)
