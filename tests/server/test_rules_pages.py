"""Issue #33: the rules pages' diagram is labelled for screen readers in the page's language."""

from __future__ import annotations

import re

import httpx
import pytest

from serverkit import RunningServer


@pytest.mark.parametrize(
    ("path", "lang", "label"),
    [
        ("/rules", "en", "The starting position: standard"),
        ("/rules/plakoto", "fr", "La position de départ: plakoto (grec)"),
        ("/rules/tavli", "it", "La posizione iniziale: tavli (greco: portes, plakoto, fevga)"),
    ],
)
def test_the_diagram_is_labelled_in_the_page_language(
    server: RunningServer, path: str, lang: str, label: str
) -> None:
    page = httpx.get(f"{server.url}{path}?lang={lang}").text
    svg = re.search(r'<svg[^>]*role="img"[^>]*>', page)
    assert svg, page[:500]
    found = re.search(r'aria-label="([^"]*)"', svg.group(0))
    assert found and found.group(1) == label, svg.group(0)
    assert "backgammon position" not in page
