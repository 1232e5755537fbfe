"""XG's own analysis beside gammon's on the analysis board (#32 H21), in Chromium: an
imported ``.xg`` file carrying XG's analysis (tests/xgkit.py) shows XG's level, candidates
and equities at a move, XG's cube equities at the double, and the agreement summary."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, sign_up
from xgkit import analysed_xg

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(chromium: str, tmp_path: Path) -> Iterator[GammonServer]:
    pytest.importorskip("bgsage", reason="the analysis needs the bot extra (bgsage)")
    srv = GammonServer(tmp_path / "gammon.db")
    srv.start()
    yield srv
    srv.stop()


def test_the_board_shows_xgs_equities_for_a_move_and_a_cube_decision(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], tmp_path: Path
) -> None:
    _, data = analysed_xg()
    path = tmp_path / "analysed.xg"
    path.write_bytes(data)
    page = browse.page(server.url)
    sign_up(page)
    page.goto("/import?lang=fr")
    page.set_input_files("input[name=file]", str(path))
    with page.expect_navigation():
        page.locator("form[enctype='multipart/form-data'] button[type=submit]").click()
    assert re.search(r"/imports/[\w-]+$", page.url), page.url
    expect(page.locator("#analysis-board")).to_have_attribute(
        "data-analysed", "true", timeout=120_000
    )
    summary = page.locator("[data-testid=xg-summary]")
    expect(summary).to_contain_text("XG et gammon s'accordent sur le meilleur choix")
    expect(summary).to_contain_text("XG 3-ply, XG Roller++")
    page.keyboard.press("ArrowRight")  # Ana's opening move: XG's candidates
    xg = page.locator("#ab-decision [data-testid=xg]")
    expect(xg).to_contain_text("XG 3-ply")
    table = xg.locator("[data-testid=xg-candidates]")
    expect(table.locator("th").nth(2)).to_have_text("Équité XG")
    expect(table).to_contain_text("+0.250")
    expect(table).to_contain_text("\u22120.125")
    page.keyboard.press("ArrowRight")  # Bo's move: XG's best is not the move played
    expect(xg).to_contain_text("Erreur selon XG \u22120.125")
    page.keyboard.press("ArrowRight")  # Ana doubles: XG's cube equities
    cube = page.locator("#ab-decision [data-testid=xg][data-kind=cube]")
    expect(cube).to_contain_text("XG Roller++")
    expect(cube.locator("[data-testid=xg-cube]")).to_contain_text("+0.600")
    expect(cube.locator("[data-testid=xg-cube]")).to_contain_text("+0.700")
    expect(cube).to_contain_text("double, prend")
