"""Issue #17 in Chromium: a challenge reaches the other player's page at once (badge and
notice; declined, then another accepted, which sends both to their table), and a 4-player knockout of two signed-up people and two bots is played to the end
(the creator registered by default, told by a browser notification on another page when
round 1 starts; the people leave their matches, which loses them: the final is the bots'),
its bracket page naming the winner;
one player uses a phone-sized screen (390x844)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    NOTIFICATION_HOOK,
    Browse,
    GammonServer,
    confirm,
    poll_until,
    sign_up,
    wait_synced,
)

pytestmark = pytest.mark.e2e

#: How often the tournament's page asks for its bracket again (lobby.js PERIOD_MS): the
#: pages' clocks are moved on by as much instead of waiting (kit.poll_until).
LIVE_POLL_MS = 5000


def _live(page: Any, tournament: str, check: Callable[[], None], timeout: float = 30_000) -> None:
    """``check`` holds within ``timeout`` ms, the page's bracket asked for again at once (its
    clock moved on) until it does."""
    poll_until(page, f"/tournaments/{tournament}/live", LIVE_POLL_MS, check, timeout)


def _go_to_my_match(page: Any, tournament: str, name: str, expect: Callable[..., Any]) -> None:
    """From the tournament's page, to the table of my match now being played."""
    page.goto(f"/tournaments/{tournament}")
    link = page.locator(".pairing:not(.done)", has_text=name).locator("[data-testid=pairing-table]")
    # the bracket refreshes itself every 5 s
    _live(page, tournament, lambda: expect(link).to_be_visible(timeout=500))
    link.click()
    wait_synced(page)


def test_a_knockout_with_two_people_and_two_bots_runs_to_the_end(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    boss = browse.page(server.url, "desktop", "boss")
    ann = browse.page(server.url, "phone", "ann")
    for page in (boss, ann):
        page.clock.install()  # the bracket's polls are made at once (_live)
    boss_name, ann_name = sign_up(boss), sign_up(ann)

    # a challenge shows at once on the other player's page: a badge and a notice
    boss.goto("/")
    expect(boss.locator("[data-testid=challenge-badge]")).to_be_hidden()
    ann.goto(f"/challenges?name={boss_name}")
    ann.locator("#challenge-form [name=match_length]").fill("1")
    with ann.expect_navigation():
        ann.locator("#challenge-form button[type=submit]").click()
    expect(ann.locator("#outgoing")).to_contain_text(boss_name)
    expect(boss.locator("[data-testid=challenge-badge]")).to_have_text("1")
    notice = boss.locator("[data-testid=challenge-notice]")
    expect(notice).to_contain_text(ann_name)
    with boss.expect_navigation():
        notice.locator("form[data-answer=decline] button").click()
    expect(boss.locator("[data-testid=challenge-badge]")).to_be_hidden()
    width = ann.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the challenges page is {width} px wide on a phone"
    # a second one, accepted: both are sent to the new table, seated
    ann.locator("#challenge-form [name=opponent]").fill(boss_name)
    with ann.expect_navigation():
        ann.locator("#challenge-form button[type=submit]").click()
    with boss.expect_navigation():
        boss.locator("[data-testid=challenge-notice] form[data-answer=accept] button").click()
    expect(boss).to_have_url(re.compile(r"/table/[\w-]{12}$"))
    expect(ann).to_have_url(boss.url)
    wait_synced(ann)

    # the tournaments page is linked from the lobby; boss makes a 4-player knockout
    boss.goto("/")
    boss.locator("header.site a[href='/tournaments']").click()
    expect(boss).to_have_url(re.compile(r"/tournaments$"))
    form = boss.locator("#create-tournament")
    form.locator("[name=name]").fill("Friday cup")
    form.locator("[name=format]").select_option("knockout")
    form.locator("[name=match_length]").fill("1")
    form.locator("[name=max_players]").fill("4")
    with boss.expect_navigation():
        form.locator("button[type=submit]").click()
    found = re.search(r"/tournaments/(\d+)$", boss.url)
    assert found, boss.url
    tournament = found.group(1)
    # "I play in it" is ticked by default: the creator is registered
    expect(boss.locator("#entrants li")).to_have_count(1)
    expect(boss.locator("#register-button")).to_have_text("Unregister")
    for _ in range(2):
        boss.locator("#add-bot select").select_option("beginner")
        with boss.expect_navigation():
            boss.locator("#add-bot button").click()
    expect(boss.locator("#entrants li")).to_have_count(3)

    # boss, away on another page with notifications allowed, is told when round 1 starts
    away = browse.page(server.url, "desktop", "boss-away", bypass_csp=True)
    away.context.add_cookies(boss.context.cookies())
    away.context.add_init_script(NOTIFICATION_HOOK)
    away.goto("/leaderboard")
    away.wait_for_function("() => document.querySelector('#inbox-badge') !== null")
    away.wait_for_timeout(300)  # its user socket open

    # ann registers on her phone: the tournament is full and starts
    ann.goto("/tournaments")
    # by its address: a retried test finds the first attempt's "Friday cup" on the same server
    ann.locator(f"#live-tournaments a[href='/tournaments/{tournament}']").click()
    with ann.expect_navigation():
        ann.locator("#register-button").click()
    rounds = ann.locator("#bracket .round")
    _live(ann, tournament, lambda: expect(rounds).to_have_count(1, timeout=500))
    width = ann.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the tournament page is {width} px wide on a phone"

    # the two unrated people (1500) are seeded above the beginner bots (1166): round 1 is
    # boss against the last seed, ann against the third; both leave their matches
    away.wait_for_function("() => window.__notes.length >= 1")
    note = away.evaluate("() => window.__notes[0].body")
    assert note.startswith("Round 1 (Friday cup) starts: you play gammon-bot"), note
    expect(away.locator("[data-testid=inbox-badge]")).to_have_text("3")  # 2 challenges before
    _go_to_my_match(ann, tournament, ann_name, expect)
    with ann.expect_navigation():
        confirm(ann, "leave")
    _go_to_my_match(boss, tournament, boss_name, expect)
    with boss.expect_navigation():
        confirm(boss, "leave")

    # the bracket names the winner, a bot, on both pages
    for page in (boss, ann):
        page.goto(f"/tournaments/{tournament}")
        winner = page.locator("[data-testid=tournament-winner]")
        _live(
            page, tournament, lambda w=winner: expect(w).to_contain_text("gammon-bot", timeout=500)
        )
        status = page.locator("#tournament-status")
        _live(
            page,
            tournament,
            lambda s=status: expect(s).to_have_attribute("data-status", "finished", timeout=500),
        )
    rounds = boss.locator("#bracket .round")
    expect(rounds).to_have_count(2)
    expect(rounds.nth(0).locator(".pairing.done")).to_have_count(2)
    expect(rounds.nth(1).locator(".pairing .won")).to_contain_text("gammon-bot")
