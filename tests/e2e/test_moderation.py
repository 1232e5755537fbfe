"""Moderation in Chromium (issue #30): a player reports an abusive chat line, a moderator
mutes its author and removes it from the reports queue, and the line disappears at once
from every page at the table (players and spectator) without a reload; its author can no
longer chat.  The moderators' pages and a profile's Report and Block have no axe-core
violation at all, on a desktop and a phone, light and dark."""

from __future__ import annotations

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
    create_table,
    open_table,
    shot,
    sign_up,
)
from gammon.cli import main

pytestmark = pytest.mark.e2e

ABUSE = "you are a worthless idiot"


def test_report_then_mute_removes_the_line_for_everyone(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")  # writes the abusive line
    bob = browse.page(server.url, "phone", "bob")  # reports it
    carol = browse.page(server.url, "desktop", "carol")  # watches
    mod = browse.page(server.url, "desktop", "mod")
    sign_up(alice)
    bob_name = sign_up(bob)
    sign_up(carol)
    mod_name = sign_up(mod)
    # the operator grants the role with the command line
    assert main(["admin", "--db", f"sqlite:///{server.db}", "grant", mod_name]) == 0
    table = create_table(alice, opponent="human", match_length=3, seat=0)
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    expect(bob.locator("[data-testid=name-1]")).to_have_text(bob_name)
    open_table(carol, table)

    alice.locator("[data-testid=chat-input]").fill(ABUSE)
    alice.keyboard.press("Enter")
    for page in (alice, bob, carol):
        expect(page.locator("[data-testid=chat-log] li").last.locator(".text")).to_have_text(ABUSE)
    # one's own line has no report button; the others' have a real, labelled button
    expect(alice.locator("[data-action=report-line]")).to_have_count(0)
    button = bob.locator("[data-testid=chat-log] li").last.locator("[data-action=report-line]")
    expect(button).to_have_attribute("aria-label", "Report this line to the moderators")
    button.click()
    expect(bob.locator("body")).to_contain_text("Reported: a moderator will look at it.")

    mod.goto("/mod")
    report = mod.locator("[data-report]").first
    expect(report.locator("[data-testid=reported-line]")).to_contain_text(ABUSE)
    with mod.expect_navigation():
        report.locator("[data-action=mute-remove]").click()
    expect(mod.locator("[data-report]")).to_have_count(0)

    # gone at once on every page at the table, without a reload
    for page in (alice, bob, carol):
        expect(page.locator("[data-testid=chat-log]")).not_to_contain_text(ABUSE)
    shot(carol, "moderation-line-removed")
    # the author is muted now
    alice.locator("[data-testid=chat-input]").fill("sorry")
    alice.keyboard.press("Enter")
    expect(alice.locator("body")).to_contain_text("A moderator muted you")
    for page in (bob, carol):
        expect(page.locator("[data-testid=chat-log]")).not_to_contain_text("sorry")
    # and a reload does not bring the line back
    carol.reload()
    expect(carol.locator("[data-testid=chat-log]")).not_to_contain_text(ABUSE)
    # the moderation log names what the moderator did
    mod.goto("/mod/log")
    log = mod.locator("[data-testid=mod-log]")
    for action in ("mute", "remove-chat", "resolve-report"):
        expect(log.locator(f"tr[data-action={action}]")).to_have_count(1)


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def _violations(page: Any) -> list[str]:
    """Every axe-core violation of the page as it is (any impact)."""
    axe_loaded(page)
    found = page.evaluate(
        """async () => {
        const r = await window.axe.run(document, {resultTypes: ['violations']});
        return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} `
          + JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target.join(' '))));
    }"""
    )
    return [str(v) for v in found]


@pytest.mark.parametrize(
    ("size", "scheme"), [("phone", "dark"), ("phone", "light"), ("desktop", "dark")]
)
def test_the_moderation_pages_have_no_axe_violation(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], size: str, scheme: str
) -> None:
    """/mod (a reported line with its context), /mod/log, /mod/users/{name} (muted, with
    its chat, addresses and log) and a profile's Report and Block: no violation at all."""
    if not AXE.exists():
        if CI:
            pytest.fail("node_modules/axe-core is missing: run npm ci")
        pytest.skip("node_modules/axe-core is missing (npm ci)")
    alice = browse.page(server.url, "desktop", "alice")
    bob = browse.page(server.url, "desktop", "bob")
    sign_up(alice)
    target = sign_up(bob)
    table = create_table(alice, opponent="human", match_length=3, seat=0)
    open_table(bob, table)
    bob.locator("[data-testid=chat-input]").fill(ABUSE)
    bob.keyboard.press("Enter")
    line = alice.locator("[data-testid=chat-log] li").last
    expect(line.locator(".text")).to_have_text(ABUSE)
    line.locator("[data-action=report-line]").click()
    expect(alice.locator("body")).to_contain_text("Reported")
    # the moderator's pages, seen on this size and colour scheme (no script injection
    # otherwise: the site's Content-Security-Policy)
    mod = browse.page(server.url, size, "mod", bypass_csp=True, color_scheme=scheme)
    axe_with_every_page(mod)  # checked with axe-core
    mod_name = sign_up(mod)
    assert main(["admin", "--db", f"sqlite:///{server.db}", "grant", mod_name]) == 0
    mod.goto(f"/mod/users/{target}")
    mod.locator("form[action$='/mute'] input[name=hours]").fill("2")
    with mod.expect_navigation():
        mod.locator("[data-action=mute]").click()
    results: dict[str, list[str]] = {}
    for label, path in (
        ("queue", "/mod"),
        ("log", "/mod/log"),
        ("user", f"/mod/users/{target}"),
        ("flags", "/mod/flags"),
        ("profile", f"/@/{target}"),
    ):
        mod.goto(path)
        expect(mod.locator("main")).to_be_visible()
        results[label] = _violations(mod)
        shot(mod, f"mod-{label}-{size}-{scheme}")
    bad = {label: found for label, found in results.items() if found}
    assert not bad, bad
