"""Play now in Chromium (issue #33 H16): two people who click the same pool on the lobby's
first screen land at the same table within 5 s; a lone seeker is offered the bot after the
server's ``--pairing-bot-after`` seconds and plays it; the Play now section has no axe-core
violation on a phone and a desktop, light and dark."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import CI, Browse, GammonServer, shot

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TABLE = re.compile(r".*/table/[A-Za-z0-9_-]{12}$")


@pytest.fixture
def quick_server(chromium: str, tmp_path: Path) -> Iterator[GammonServer]:
    """A server whose pools offer the bot after 2 s."""
    srv = GammonServer(tmp_path / "gammon.db", "--pairing-bot-after", "2")
    srv.start()
    yield srv
    srv.stop()


def test_two_people_clicking_one_pool_meet_at_one_table_within_5_s(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    ann = browse.page(server.url, label="ann")
    bob = browse.page(server.url, "phone", label="bob")
    for page in (ann, bob):
        page.goto("/")
        expect(page.get_by_test_id("play-now")).to_be_visible()
    ann.get_by_test_id("pool-1-blitz").click()
    expect(ann.get_by_test_id("pool-wait")).to_be_visible()
    shot(ann, "pairing-waiting-desktop")
    start = time.monotonic()
    bob.get_by_test_id("pool-1-blitz").click()
    for page in (ann, bob):
        page.wait_for_url(TABLE, timeout=5_000)
    assert time.monotonic() - start < 5.0
    assert ann.url == bob.url
    expect(ann.locator(".board").first).to_be_visible()
    shot(bob, "pairing-table-phone")


def test_a_lone_seeker_is_offered_the_bot(
    quick_server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    pytest.importorskip("gammon.bots.seat")
    page = browse.page(quick_server.url, label="lone")
    page.goto("/")
    page.get_by_test_id("pool-3-long").click()
    bot = page.get_by_test_id("pool-bot")
    expect(bot).to_be_hidden()
    expect(bot).to_be_visible(timeout=6_000)
    shot(page, "pairing-bot-offer")
    bot.click()
    page.wait_for_url(TABLE)


def _violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
        const r = await window.axe.run('#play-now', {resultTypes: ['violations']});
        return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} `
          + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target.join(' '))));
    }"""
    )
    return [str(v) for v in found]


@pytest.mark.parametrize(("size", "scheme"), [("phone", "dark"), ("desktop", "light")])
def test_play_now_has_no_axe_violation(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], size: str, scheme: str
) -> None:
    if not AXE.exists():
        if CI:
            pytest.fail("axe-core is not installed (npm ci)")
        pytest.skip("axe-core is not installed (npm ci)")
    page = browse.page(server.url, size, bypass_csp=True, color_scheme=scheme)
    page.goto("/")
    expect(page.get_by_test_id("play-now")).to_be_visible()
    shot(page, f"play-now-{size}-{scheme}")
    assert _violations(page) == []
    page.get_by_test_id("pool-5-normal").click()
    expect(page.get_by_test_id("pool-wait")).to_be_visible()
    assert _violations(page) == []
    page.get_by_test_id("pool-cancel").click()
    expect(page.get_by_test_id("pool-wait")).to_be_hidden()
