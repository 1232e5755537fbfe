"""Issue #17: two players sign up, play a rated 1-point match to its end, and both see their
new ratings on their profiles (one on a desktop, one on a phone)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    create_table,
    has,
    header_menu,
    open_table,
    seat_of,
    shot,
    sign_up,
    wait_until,
)
from gammon.match.ratings import RatedPlayer, rate

pytestmark = pytest.mark.e2e


def test_a_rated_match_moves_both_ratings_on_the_profiles(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")
    bob = browse.page(server.url, "phone", "bob")
    names = {0: sign_up(alice), 1: sign_up(bob)}
    table = create_table(alice, opponent="human", match_length=1, seat=0, rated=True)
    expect(alice.locator("[data-testid=info]")).to_contain_text("rated")
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    wait_until(lambda: seat_of(bob) == 1)
    by_seat = {0: alice, 1: bob}

    # the player to act resigns the match (a single game: the 1-point match), the other accepts
    wait_until(lambda: has(alice, "[data-action=resign]") or has(bob, "[data-action=resign]"))
    loser = 0 if has(alice, "[data-action=resign]") else 1
    resigner, winner_page = by_seat[loser], by_seat[1 - loser]
    resigner.locator("[data-action=resign]").click()
    resigner.locator("[data-action=resign-1]").click()
    resigner.locator("[data-testid=prompt] [data-action=confirm]").click()
    winner_page.locator("[data-action=accept_resign]").click()
    for page in (alice, bob):
        expect(page.locator("[data-testid=over]")).to_be_visible()

    # both profiles show the new ratings: two newcomers, a 1-point match (x5 for newcomers)
    change = rate(RatedPlayer(), RatedPlayer(), 1)
    expected = {1 - loser: change.winner.rating, loser: change.loser.rating}
    for seat, page in by_seat.items():
        page.goto("/account")
        page.locator("#my-profile").click()
        assert page.url.endswith(f"/@/{names[seat]}")
        pool = page.locator("section.pool[data-pool=backgammon]")
        expect(pool.locator(".rating")).to_have_text(f"{expected[seat]:.1f}")
        expect(pool.locator("svg.rating-graph title")).to_have_count(1)
        row = page.locator(f"#history tr[data-table='{table}']")
        expect(row).to_have_attribute("data-outcome", "win" if seat != loser else "loss")
        expect(row.locator(".delta")).to_have_text(f"{expected[seat] - 1500:+.1f}")
        expect(page.locator("#wins")).to_have_text("1" if seat != loser else "0")
    shot(alice, "ratings-profile-desktop")
    shot(bob, "ratings-profile-phone")

    # the phone's profile fits its width; the leaderboard is in the header's menu
    width = bob.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    header_menu(bob)
    bob.locator("header.site [data-i18n='nav.leaderboard']").click()
    expect(bob.locator("#leaderboard [data-bot=expert]")).to_be_visible()
