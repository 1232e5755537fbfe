"""Two people at a table: a double taken, a redouble dropped (one on a desktop, one on a phone)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    confirm,
    create_table,
    has,
    open_table,
    play_while,
    seat_of,
    shot,
    sign_up,
)

pytestmark = pytest.mark.e2e


def test_double_take_then_redouble_drop(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")
    bob = browse.page(server.url, "phone", "bob")
    alice_name = sign_up(alice)
    bob_name = sign_up(bob)
    table = create_table(alice, opponent="human", match_length=5, seat=0)
    expect(alice.locator("[data-testid=status]")).to_contain_text("Waiting for an opponent")

    # bob follows the invite link and sits through the page
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    for page in (alice, bob):
        expect(page.locator("[data-testid=name-1]")).to_have_text(bob_name)
        expect(page.locator("[data-testid=name-0]")).to_have_text(alice_name)
    assert seat_of(alice) == 0
    expect(bob.locator("[data-testid=player-bottom] .name")).to_have_text(bob_name)
    assert seat_of(bob) == 1
    by_seat = {0: alice, 1: bob}

    # the roll-off winner plays; then the other one may double
    play_while(
        [alice, bob],
        lambda: not has(alice, "[data-action=double]") and not has(bob, "[data-action=double]"),
    )
    doubler = 0 if has(alice, "[data-action=double]") else 1
    taker = 1 - doubler
    shot(by_seat[doubler], "cube-before-double")
    confirm(by_seat[doubler], "double")
    expect(by_seat[taker].locator("[data-testid=status]")).to_contain_text("doubles to 2")
    shot(by_seat[taker], "cube-offered")
    confirm(by_seat[taker], "take")
    for page in (alice, bob):
        expect(page.locator(".board .cube")).to_have_attribute("data-cube", "2")

    # the doubler plays on (the cube is the taker's now: no double for the doubler, auto-roll);
    # then the taker owns the cube and redoubles; the doubler drops
    play_while([alice, bob], lambda: not has(by_seat[taker], "[data-action=double]"))
    confirm(by_seat[taker], "double")
    expect(by_seat[doubler].locator("[data-testid=status]")).to_contain_text("doubles to 4")
    confirm(by_seat[doubler], "drop")

    for page in (alice, bob):
        expect(page.locator(f"[data-testid=score-{taker}]")).to_have_text("2")
        expect(page.locator(f"[data-testid=score-{doubler}]")).to_have_text("0")
        moves = page.locator("[data-testid=moves]")
        expect(moves).to_contain_text("doubles → 2")
        expect(moves).to_contain_text("takes")
        expect(moves).to_contain_text("doubles → 4")
        expect(moves).to_contain_text("drops")
        expect(page.locator("[data-testid=games]")).to_contain_text("wins 2 points (drop)")
    shot(alice, "cube-after-drop-desktop")
    shot(bob, "cube-after-drop-phone")
