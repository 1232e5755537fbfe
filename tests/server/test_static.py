"""Static files (issue #18): gzip for browsers that accept it, an ETag and Cache-Control,
a 304 when the browser's copy is current (the game page loading only its language's
catalogue is checked in the browser: tests/e2e/test_ux.py)."""

from __future__ import annotations

import gzip

import httpx

from serverkit import TLS, RunningServer


def test_static_files_are_compressed_and_revalidated(server: RunningServer) -> None:
    with httpx.Client(verify=TLS, base_url=server.url) as http:
        plain = http.get("/static/game/board.js", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200
        assert "content-encoding" not in plain.headers
        raw = http.get("/static/game/board.js", headers={"Accept-Encoding": "gzip"})
        assert raw.headers["content-encoding"] == "gzip"
        assert raw.headers["cache-control"] == "no-cache"
        assert raw.headers["etag"]
        # httpx decodes the body: the same file
        assert raw.content == plain.content
        size = int(raw.headers.get("content-length", len(gzip.compress(raw.content))))
        assert size < len(plain.content) / 2
        again = http.get(
            "/static/game/board.js",
            headers={"Accept-Encoding": "gzip", "If-None-Match": plain.headers["etag"]},
        )
        assert again.status_code == 304 and again.content == b""
