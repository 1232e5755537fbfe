"""The position page in Chromium (issue #32), reached by the site header's link: an XGID
pasted and loaded, a checker taken off and another put on with the board editor, the
position analysed (the bot's ranked moves shown), the share link copied and opened in
another browser context, which shows the same position and the same analysis; the IDs
the page writes are the server's; axe-core finds no serious violation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from e2e.kit import Browse, GammonServer
from e2e.test_a11y import AXE, axe
from gammon.server.analysis.positions import setup_from_ids
from matchseed import recorded, seed_finished_match

pytestmark = pytest.mark.e2e

OPENING_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
ANALYSIS_MS = 60_000
M7 = "positionM7xx"


def _moves(page: Any) -> list[str]:
    rows = page.locator("[data-testid=result] table tr")
    return [rows.nth(i).locator("td").nth(1).inner_text() for i in range(1, rows.count())]


def test_paste_edit_analyse_and_share_a_position(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    pytest.importorskip("bgsage", reason="the analysis needs the bot extra (bgsage)")
    page = browse.page(server.url, "desktop", "alice", bypass_csp=True)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/")
    # the site's header links to the position page
    with page.expect_navigation():
        page.click("[data-testid=nav-analysis]")
    assert urlparse(page.url).path == "/analysis"
    expect(page.locator("[data-testid=position-id]")).to_have_value("4HPwATDgc/ABMA")
    # paste an XGID: the page loads it and analyses it at once
    page.fill("[data-testid=paste]", OPENING_52)
    with page.expect_navigation():
        page.click("[data-testid=load]")
    expect(page.locator("[data-testid=xgid]")).to_have_value(OPENING_52)
    editor = page.locator("[data-testid=position-editor]")
    expect(editor).to_have_attribute("data-analysed", "true", timeout=ANALYSIS_MS)
    assert set(_moves(page)[:2]) == {"13/11 13/8", "24/22 13/8"}
    # edit: a right-click takes a checker off the bottom player's 13 point, a click puts
    # one on its 3 point; the IDs follow, the old analysis goes
    page.locator("#pe-board [data-point='13']").click(button="right")
    page.locator("#pe-board [data-point='3']").click()
    xgid = page.locator("[data-testid=xgid]").input_value()
    assert xgid.startswith("XGID=-b-A--E-C---eD---c-e----B-:"), xgid
    expect(editor).to_have_attribute("data-analysed", "false")
    # the IDs written in the page are the server's reading of the same position
    pid = page.locator("[data-testid=position-id]").input_value()
    mid = page.locator("[data-testid=match-id]").input_value()
    assert setup_from_ids(pid, mid).xgid() == xgid
    # analyse the edited position: ranked moves for 52
    page.click("[data-testid=analyse]")
    expect(editor).to_have_attribute("data-analysed", "true", timeout=ANALYSIS_MS)
    moves = _moves(page)
    assert len(moves) >= 3
    # copy the share link (the clipboard gets it) and open it in another browser
    page.locator("button[data-copy=pe-link]").click()
    expect(page.locator("[data-testid=note]")).to_contain_text("Copied")
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert link == page.locator("[data-testid=share-link]").input_value()
    assert parse_qs(urlparse(link).query)["pos"] == [pid]
    other = browse.page(server.url, "desktop", "bob")
    other.goto(link)
    expect(other.locator("[data-testid=xgid]")).to_have_value(xgid)
    expect(other.locator("[data-testid=position-id]")).to_have_value(pid)
    expect(other.locator("[data-testid=match-id]")).to_have_value(mid)
    shared = other.locator("[data-testid=position-editor]")
    expect(shared).to_have_attribute("data-analysed", "true", timeout=ANALYSIS_MS)
    assert _moves(other) == moves
    # keyboard: a point is a button; Enter with the remove tool takes a checker off
    other.locator("[data-testid=tool-remove]").check()
    other.locator("#pe-board [data-point='3']").focus()
    other.keyboard.press("Enter")
    taken = "XGID=-b----E-C---eD---c-e----B-:0:0:1:52:0:0:0:0:10"
    expect(other.locator("[data-testid=xgid]")).to_have_value(taken)
    # a bad XGID: the page says why and keeps the starting position
    other.fill("[data-testid=paste]", "XGID=not-one")
    with other.expect_navigation():
        other.press("[data-testid=paste]", "Enter")
    expect(other.locator("[data-testid=note]")).to_contain_text("not a valid XGID")
    if AXE.exists():
        results: dict[str, list[str]] = {}
        axe(page, "position page", results)
        assert not results["position page"], results


@pytest.fixture
def m7_server(chromium: str, tmp_path: Path) -> Iterator[GammonServer]:
    """A server whose database holds a finished 7-point match.  Asked for before ``browse``,
    it ends after the test's pages are closed (ended under an open page, it failed the
    page's last request: a console error).  Killed: a polite stop would wait for the
    analysis the analysis board asked for, seconds of CPU that nothing here looks at."""
    db = tmp_path / "gammon.db"
    seed_finished_match(f"sqlite:///{db}", M7, recorded("standard-7"))
    srv = GammonServer(db)
    srv.start()
    yield srv
    srv.kill()


def test_the_analysis_board_copies_the_shown_position_and_exports_the_match(
    m7_server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(m7_server.url, "desktop", "carol")
    page.goto(f"/matches/{M7}/analysis")
    # the start: the backgammon start, the bottom player to act, 7-point match at 0-0
    expect(page.locator("[data-testid=ab-position-id]")).to_have_value("4HPwATDgc/ABMA")
    page.locator("[data-testid=next]").click()
    xgid = page.locator("[data-testid=ab-xgid]").input_value()
    pid = page.locator("[data-testid=ab-position-id]").input_value()
    mid = page.locator("[data-testid=ab-match-id]").input_value()
    assert pid != "4HPwATDgc/ABMA" and xgid.endswith(":0:0:0:7:10"), xgid
    assert setup_from_ids(pid, mid).xgid() == xgid  # the server reads what the page wrote
    # the exports: .mat, SGF, .xg and the log, each a download the server answers
    for suffix in ("mat", "sgf", "xg", "log"):
        link = page.locator(f"[data-testid=exports] a[href$='/{suffix}']")
        expect(link).to_have_count(1)
        assert page.request.get(f"/matches/{M7}/{suffix}").ok, suffix
    # and the shown position opens on the position page
    page.locator("[data-testid=ab-open]").click()
    expect(page.locator("[data-testid=xgid]")).to_have_value(xgid)
