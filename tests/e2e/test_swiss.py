"""A Swiss tournament in Chromium (docs/tournaments.md): a player creates one through the
form (playing in it: the box is ticked by default) with a bot, a second player registers on
a phone, it runs its two rounds to the end (round 1: the bot has the bye, the people meet
and ann leaves; round 2: ann has the bye, boss meets the bot and leaves), the standings
with their tie-breaks and the podium are shown, and the profiles show the trophies. The
tournament page and a profile have no axe-core violation (desktop, phone, dark)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import (
    CI,
    Browse,
    GammonServer,
    axe_loaded,
    axe_with_every_page,
    confirm,
    poll_until,
    shot,
    sign_up,
    wait_synced,
)

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: How often the tournament's page asks for its live part again (lobby.js PERIOD_MS): the
#: pages' clocks are moved on by as much instead of waiting (kit.poll_until).
LIVE_POLL_MS = 5000


def _live(page: Any, tournament: str, check: Callable[[], None], timeout: float = 30_000) -> None:
    """``check`` holds within ``timeout`` ms, the page's live part asked for again at once
    (its clock moved on) until it does."""
    poll_until(page, f"/tournaments/{tournament}/live", LIVE_POLL_MS, check, timeout)


def _go_to_my_match(page: Any, tournament: str, name: str, expect: Callable[..., Any]) -> None:
    """From the tournament's page, to the table of my match now being played."""
    page.goto(f"/tournaments/{tournament}")
    link = page.locator(".pairing:not(.done)", has_text=name).locator("[data-testid=pairing-table]")
    # the page refreshes its live part every 5 s
    _live(page, tournament, lambda: expect(link).to_be_visible(timeout=500))
    link.click()
    wait_synced(page)


def _violations(page: Any) -> list[str]:
    axe_loaded(page)
    found = page.evaluate(
        """async () => {
        const r = await window.axe.run(document, {resultTypes: ['violations']});
        return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} `
          + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target.join(' '))));
    }"""
    )
    return [str(v) for v in found]


def test_a_swiss_tournament_runs_to_the_end_and_the_podium_gets_its_trophies(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    boss = browse.page(server.url, "desktop", "boss")
    ann = browse.page(server.url, "phone", "ann")
    for page in (boss, ann):
        page.clock.install()  # the live part's polls are made at once (_live)
    boss_name, ann_name = sign_up(boss), sign_up(ann)

    boss.goto("/tournaments")
    form = boss.locator("#create-tournament")
    expect(form.locator("[name=play]")).to_be_checked()  # the creator plays by default
    form.locator("[name=name]").fill("Swiss night")
    form.locator("[name=format]").select_option("swiss")
    form.locator("[name=match_length]").fill("1")
    form.locator("[name=max_players]").fill("3")
    with boss.expect_navigation():
        form.locator("button[type=submit]").click()
    found = re.search(r"/tournaments/(\d+)$", boss.url)
    assert found, boss.url
    tournament = found.group(1)
    expect(boss.locator("#entrants li")).to_have_count(1)
    expect(boss.locator("#entrants li")).to_contain_text(boss_name)
    boss.locator("#add-bot select").select_option("beginner")
    with boss.expect_navigation():
        boss.locator("#add-bot button").click()
    expect(boss.locator("#entrants li")).to_have_count(2)

    # ann registers on her phone: full, it starts; round 1 is boss against ann, the bot
    # (the lowest seed: 1166 against two unrated 1500s) has the bye
    ann.goto(f"/tournaments/{tournament}")
    with ann.expect_navigation():
        ann.locator("#register-button").click()
    _live(
        ann,
        tournament,
        lambda: expect(ann.locator("#bracket .round")).to_have_count(1, timeout=500),
    )
    expect(ann.locator("#bracket .round").first.locator(".pairing")).to_have_count(2)
    _go_to_my_match(ann, tournament, ann_name, expect)
    with ann.expect_navigation():
        confirm(ann, "leave")
    # round 2: the leaders (boss and the bot) meet, ann has the bye; boss leaves too
    _live(
        boss,
        tournament,
        lambda: expect(boss.locator("#bracket .round")).to_have_count(2, timeout=500),
    )
    _go_to_my_match(boss, tournament, boss_name, expect)
    with boss.expect_navigation():
        confirm(boss, "leave")

    for page in (boss, ann):
        page.goto(f"/tournaments/{tournament}")
        status = page.locator("#tournament-status")
        _live(
            page,
            tournament,
            lambda s=status: expect(s).to_have_attribute("data-status", "finished", timeout=500),
        )
        expect(page.locator("[data-testid=tournament-winner]")).to_contain_text("gammon-bot")
        rows = page.locator("#standings tr[data-entrant]")
        expect(rows).to_have_count(3)
        expect(rows.nth(0)).to_contain_text("gammon-bot")
        expect(rows.nth(1)).to_contain_text(boss_name)  # 1 point, Buchholz 3
        expect(rows.nth(2)).to_contain_text(ann_name)  # 1 point (the bye), Buchholz 1
        expect(page.locator("#podium li")).to_have_count(3)
    width = ann.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the tournament page is {width} px wide on a phone"
    shot(boss, "swiss-finished-desktop")
    shot(ann, "swiss-finished-phone")

    # the trophies on the profiles: boss second, ann third, each linking the tournament
    for page, name, place in ((boss, boss_name, "2"), (ann, ann_name, "3")):
        page.goto(f"/@/{name}")
        trophy = page.locator(f"#trophies li[data-tournament='{tournament}']")
        expect(trophy).to_have_attribute("data-place", place)
        expect(trophy.locator("a")).to_have_text("Swiss night")
    shot(boss, "swiss-profile-desktop")

    if not AXE.exists():
        if CI:
            pytest.fail("node_modules/axe-core is missing: run npm ci")
        return
    bad = {}
    for size, scheme in (("desktop", "light"), ("phone", "dark"), ("desktop", "dark")):
        look = browse.page(server.url, size, f"look-{size}", bypass_csp=True, color_scheme=scheme)
        axe_with_every_page(look)  # checked with axe-core
        for label, path in (
            ("tournament", f"/tournaments/{tournament}"),
            ("profile", f"/@/{boss_name}"),
            ("list", "/tournaments"),
        ):
            look.goto(path)
            found = _violations(look)
            shot(look, f"swiss-{label}-{size}-{scheme}")
            if found:
                bad[f"{label} {size} {scheme}"] = found
    assert not bad, bad
