"""The rematch offer in Chromium (issue #30, H9): after a match between two people, the
player who did not ask for the rematch sees the offer with *Accept the rematch* and
*Decline*; *Decline* calls ``POST /api/tables/{id}/rematch/decline`` (CSRF header), the
offer gives way to a line saying it was declined, and the asker's rematch table is closed
at once.

Before: the offer had no Decline button; the seat stayed kept for two minutes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    create_table,
    has,
    open_table,
    rematch_offered,
    seat_of,
    shot,
    sign_up,
    wait_synced,
    wait_until,
)

pytestmark = pytest.mark.e2e


def test_the_previous_opponent_declines_the_rematch(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")
    bob = browse.page(server.url, "phone", "bob")
    for page in (alice, bob):
        page.clock.install()  # the rematch's poll is made at once (within_polls)
    sign_up(alice)
    sign_up(bob)
    table = create_table(alice, opponent="human", match_length=1, seat=0, cube=False)
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    wait_until(lambda: seat_of(bob) == 1)
    wait_until(lambda: has(alice, "[data-action=resign]") or has(bob, "[data-action=resign]"))
    asker, other = (alice, bob) if has(alice, "[data-action=resign]") else (bob, alice)
    # a backgammon resignation ends the match; the loser asks for a rematch
    asker.locator("[data-action=resign]").click()
    asker.locator("[data-action=resign-3]").click()
    asker.locator("[data-testid=prompt] [data-action=confirm]").click()
    other.locator("[data-action=accept_resign]").click()
    expect(asker.locator("[data-testid=over] [data-action=rematch]")).to_be_visible()
    with asker.expect_navigation():
        asker.locator("[data-action=rematch]").click()
    new = re.search(r"/table/([^/?#]+)", asker.url)
    assert new and new.group(1) != table
    wait_synced(asker)
    expect(asker.locator("[data-testid=status]")).to_contain_text("Waiting for an opponent")

    # the other player is offered it, with a Decline button that says what it does
    over = other.locator("[data-testid=over]")
    rematch_offered(other)
    decline = over.locator("[data-action=rematch-decline]")
    expect(decline).to_have_text("Decline")
    expect(over.locator("[data-action=rematch]")).to_have_text("Accept the rematch")
    shot(other, "rematch-offer")
    decline.click()
    expect(over.locator("[data-testid=rematch-closed]")).to_be_visible()
    expect(over.locator("[data-action=rematch]")).to_have_count(0)
    expect(over.locator("[data-action=rematch-decline]")).to_have_count(0)
    shot(other, "rematch-declined")

    # the asker's rematch table is closed at once, without a reload
    expect(asker.locator("[data-testid=status]")).to_contain_text("This table is closed.")
    # and a reload of the old table does not offer the closed rematch again
    other.reload()
    wait_synced(other)
    expect(over.locator("[data-testid=rematch-closed]")).to_be_visible(timeout=15000)
    expect(over.locator("[data-action=rematch]")).to_have_count(0)
