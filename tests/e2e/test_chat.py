"""Chat at a table: players and spectators, text shown as text, never as HTML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, Watch, create_table, open_table, shot, sign_up

pytestmark = pytest.mark.e2e

NASTY = "gl hf <b>bold</b> & <img src=x onerror=alert(1)> 😀"


def test_chat_between_a_player_and_spectators(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")
    sign_up(alice)
    table = create_table(alice, opponent="bot", bot_level="beginner", match_length=3)

    carol = browse.page(server.url, "phone", "carol")  # signed in, watching
    carol_name = sign_up(carol)
    open_table(carol, table)
    visitor = browse.page(server.url, "phone", "visitor")  # no session at all
    open_table(visitor, table)
    for page in (carol, visitor):
        expect(page.locator("[data-testid=conn]")).to_have_attribute("data-state", "online")
        # spectators see seat 0 at the bottom and are told they are watching
        expect(page.locator("[data-testid=player-bottom]")).to_have_attribute("data-seat", "0")
        expect(page.locator("[data-testid=status]")).to_contain_text("You are watching")
        assert page.evaluate("() => window.gammonPage.mySeat") is None

    alice.locator("[data-testid=chat-input]").fill(NASTY)
    alice.locator(".chat-form button[type=submit]").click()
    expect(alice.locator("[data-testid=chat-input]")).to_have_value("")
    for page in (alice, carol, visitor):
        line = page.locator("[data-testid=chat-log] li").last
        expect(line.locator(".text")).to_have_text(NASTY)
        # the text stayed text: no element was made from it
        assert line.locator("b, img").count() == 0

    carol.locator("[data-testid=chat-input]").fill("nice roll")
    carol.keyboard.press("Enter")
    for page in (alice, carol, visitor):
        line = page.locator("[data-testid=chat-log] li").last
        expect(line).to_contain_text(carol_name)
        expect(line).to_contain_text("nice roll")
        expect(line.locator(".tag")).to_have_text("spectator")

    # a visitor without a session reads but cannot write
    expect(visitor.locator(".chat-form")).to_be_hidden()
    expect(visitor.locator("[data-testid=chat]")).to_contain_text("Sign in to chat")

    # the history is there after a reload, in order
    visitor.reload()
    lines = visitor.locator("[data-testid=chat-log] li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0).locator(".text")).to_have_text(NASTY)
    expect(lines.nth(1).locator(".text")).to_have_text("nice roll")
    shot(visitor, "chat-visitor-phone")
    shot(alice, "chat-alice-desktop")


def test_a_visitor_chats_as_a_guest_in_one_click(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")
    sign_up(alice)
    table = create_table(alice, opponent="bot", bot_level="beginner", match_length=3)
    visitor = browse.page(server.url, "phone", "visitor")
    open_table(visitor, table)
    expect(visitor.locator(".chat-form")).to_be_hidden()
    visitor.locator("[data-action=chat-as-guest]").click()
    expect(visitor.locator(".chat-form")).to_be_visible()
    visitor.locator("[data-testid=chat-input]").fill("hello from a guest")
    visitor.keyboard.press("Enter")
    line = alice.locator("[data-testid=chat-log] li").last
    expect(line).to_contain_text("hello from a guest")
    expect(line.locator(".tag")).to_have_text("spectator")


def test_a_table_can_keep_its_chat_to_the_players(
    server: GammonServer, browse: Browse, watch: Watch, expect: Callable[..., Any]
) -> None:
    """Issue #18: "visitors may chat if the table allows". The lobby's box ticks itself off
    for a staked or rated table; unticked, a visitor's page hides the chat box and says why,
    the match panel says so, and the players still chat."""
    alice = browse.page(server.url, "desktop", "alice")
    sign_up(alice)
    alice.goto("/")
    box = alice.locator("[data-testid=spectator-chat]")
    expect(box).to_be_checked()  # a casual table: on
    expect(alice.locator("#spectator-chat-help")).to_contain_text("kibitzer")
    help_ = alice.locator("#create-table label:has(#spectator-chat) .opt-help")
    assert "kibitzer" in (help_.get_attribute("title") or "")
    alice.locator("#create-table input[name=stake]").fill("5")
    expect(box).not_to_be_checked()  # staked: off by default
    alice.locator("#create-table input[name=stake]").fill("0")
    expect(box).to_be_checked()
    table = create_table(
        alice, opponent="bot", bot_level="beginner", match_length=3, spectator_chat=False
    )
    expect(alice.locator("[data-testid=info]")).to_contain_text("visitors may not chat")
    expect(alice.locator(".chat-form")).to_be_visible()  # a player chats

    carol = browse.page(server.url, "desktop", "carol")  # signed in, watching
    sign_up(carol)
    open_table(carol, table)
    expect(carol.locator(".chat-form")).to_be_hidden()
    expect(carol.locator("[data-testid=chat-closed]")).to_contain_text("Only the players")
    expect(carol.locator("[data-action=chat-as-guest]")).to_have_count(0)

    alice.locator("[data-testid=chat-input]").fill("just us")
    alice.keyboard.press("Enter")
    expect(carol.locator("[data-testid=chat-log] li").last).to_contain_text("just us")

    # the server refuses a line the page would not offer, with its translated reason
    watch.allow(r"server error chat_closed")
    carol.evaluate("() => window.gammonPage.send({type: 'chat', text: 'psst'})")
    expect(carol.locator("[data-testid=notice]")).to_contain_text("Only the players may chat")
    shot(carol, "chat-closed")
