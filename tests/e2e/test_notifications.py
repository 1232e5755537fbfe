"""Be told (#33 H18, docs/notifications.md): a challenge reaches a player on any page (the
header's bell counts it, and a browser notification shows it while the tab is hidden, the
permission granted), /inbox lists it with no axe-core violation; a correspondence game
(days per move, chosen in the lobby's form) goes on after the server restarts, from the
lobby's "Your turn" list, which drops it, live, once the player has moved."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from e2e.kit import (
    NOTIFICATION_HOOK,
    Browse,
    GammonServer,
    create_table,
    header_menu,
    next_action,
    open_table,
    play_step,
    poll_until,
    shot,
    sign_up,
    wait_synced,
)

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: How often the lobby asks for its "Your turn" list again (lobby.js PERIOD_MS): the test
#: moves the page's clock on by as much instead of waiting (kit.poll_until).
LOBBY_POLL_MS = 5000


def _violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
        const r = await window.axe.run(document, {resultTypes: ['violations']});
        return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} `
          + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target.join(' '))));
    }"""
    )
    return [str(v) for v in found]


def test_a_challenge_rings_the_bell_and_notifies(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    ann = browse.page(server.url, "desktop", "ann")
    ann_name = sign_up(ann)
    bob = browse.page(server.url, "desktop", "bob", bypass_csp=True)
    bob_name = sign_up(bob)
    bob.context.grant_permissions(["notifications"], origin=server.url)
    bob.context.add_init_script(NOTIFICATION_HOOK)
    bob.goto("/leaderboard")  # any page
    badge = bob.locator("[data-testid=inbox-badge]")
    expect(badge).to_be_hidden()
    bob.wait_for_function("() => document.querySelector('#inbox-badge') !== null")
    bob.wait_for_timeout(300)  # its user socket open
    ann.goto("/challenges")
    ann.locator("#challenge-form input[name=opponent]").fill(bob_name)
    with ann.expect_navigation():
        ann.locator("#challenge-form button[type=submit]").click()
    expect(badge).to_have_text("1")
    bob.wait_for_function("() => window.__notes.length === 1")
    note = bob.evaluate("() => window.__notes[0]")
    assert ann_name in note["body"], note
    for size, scheme in (("desktop", "light"), ("phone", "light"), ("phone", "dark")):
        page = (
            bob
            if size == "desktop"
            else browse.page(
                server.url, size, f"bob-{size}-{scheme}", color_scheme=scheme, bypass_csp=True
            )
        )
        if page is not bob:
            page.context.add_cookies(bob.context.cookies())
        page.goto("/inbox")
        expect(page.locator("[data-testid=inbox-items] li")).to_have_count(1)
        expect(page.locator("[data-testid=inbox-items]")).to_contain_text(ann_name)
        header_menu(page)
        shot(page, f"inbox-{size}-{scheme}")
        assert _violations(page) == [], (size, scheme)
    with bob.expect_navigation():
        bob.get_by_role("button", name="Mark all read").click()
    expect(badge).to_be_hidden()


def test_a_correspondence_move_after_a_restart(
    own_server: GammonServer, browse: Browse, expect: Callable[..., Any], watch: Any
) -> None:
    ann = browse.page(own_server.url, "desktop", "ann")
    sign_up(ann)
    table = create_table(ann, match_length=1, clock_days=2)
    expect(ann.locator("[data-testid=info]")).to_contain_text("1-point match")
    bob = browse.page(own_server.url, "desktop", "bob")
    sign_up(bob)
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    pages = {0: ann, 1: bob}
    # a correspondence opening is rolled at once: whoever is on roll moves
    mover = None
    for _ in range(60):
        for seat, page in pages.items():
            if page.evaluate("() => window.gammonPage.state?.you?.allowed?.length > 0"):
                mover = seat
        if mover is not None:
            break
        ann.wait_for_timeout(250)
    assert mover is not None
    page = pages[mover]
    _our_turn = "() => (window.gammonPage.state.you.allowed || []).some((a) => a !== 'abandon')"
    for _ in range(10):  # the turn: a roll if a double was possible, then the steps
        if not page.evaluate(_our_turn):
            break
        play_step(page, next_action(page))
        page.wait_for_timeout(200)
    other = pages[1 - mover]
    other.goto("/inbox")
    expect(other.locator("[data-testid=your-turn] a")).to_have_count(1)
    watch.allow(r"WebSocket connection to .* failed")  # while the server is down
    own_server.stop()
    own_server.start()
    # the lobby's first screen lists the game waiting for my move (on a phone too), and
    # drops it, live, once I have moved
    lobby = browse.page(own_server.url, "phone", "other-lobby")
    lobby.clock.install()  # its polls are made at once (poll_until)
    lobby.context.add_cookies(other.context.cookies())
    lobby.goto("/")
    row = lobby.locator(f"[data-testid=lobby-your-turn] li[data-table='{table}']")
    expect(row).to_have_count(1)
    box = lobby.locator("#your-turn-box").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, box  # no scrolling to it
    shot(lobby, "lobby-your-turn-phone")
    other.goto("/")
    with other.expect_navigation():
        other.locator(f"[data-testid=lobby-your-turn] a[href='/table/{table}']").click()
    wait_synced(other)
    for _ in range(10):  # a correspondence move after the restart: the whole turn
        if not other.evaluate(_our_turn):
            break
        play_step(other, next_action(other))
        other.wait_for_timeout(200)
    expect(other.locator("[data-testid=status]")).not_to_contain_text("timeout")
    # the lobby asks again every 5 s
    poll_until(
        lobby, "/lobby/turns", LOBBY_POLL_MS, lambda: expect(row).to_have_count(0, timeout=500)
    )
    expect(lobby.locator("#your-turn-box")).to_be_hidden()
