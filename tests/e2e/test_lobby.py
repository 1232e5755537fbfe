"""Signing up, creating a table with options, the languages, a visitor sitting down."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, create_table, header_menu, shot, sign_up, wait_synced

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_sign_up_create_a_table_and_a_visitor_sits(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], size: str
) -> None:
    alice = browse.page(server.url, size, "alice")
    name = sign_up(alice)
    create_table(
        alice,
        opponent="human",
        match_length=7,
        cube_limit=8,
        end_setting="mars",
        first_move="alternate",
        private=True,
        clock=True,
        clock_delay=10,
        clock_reserve_base=30,
        clock_reserve_per_point=5,
    )
    status = alice.locator("[data-testid=status]")
    expect(status).to_contain_text("Waiting for an opponent")
    expect(alice.locator("[data-action=copy-link]")).to_be_visible()
    info = alice.locator("[data-testid=info]")
    expect(info).to_contain_text("7-point match")
    for text in ("cube limit 8", "Mars (up to gammons)", "players start in turn", "private"):
        expect(info).to_contain_text(text)
    expect(info).to_contain_text("clock: 10 s delay, 30 s + 5 s/point reserve")
    expect(alice.locator("[data-testid=name-0]")).to_have_text(name)
    expect(alice.locator("[data-testid=player-top]")).to_contain_text("Empty seat")

    # French, Italian (the header's one switch, in place), and the choice is remembered
    langs = alice.locator("[data-testid=langs]")
    assert alice.locator("select[name=lang]").count() == 0  # one switch for the whole page
    header_menu(alice)
    langs.locator("a[data-lang=fr]").click()
    expect(status).to_contain_text("En attente d'un adversaire")
    expect(info).to_contain_text("Match en 7 points")
    expect(alice.locator("header.site [data-i18n='nav.lobby']")).to_have_text("Salon")
    header_menu(alice)
    langs.locator("a[data-lang=it]").click()
    expect(status).to_contain_text("In attesa di un avversario")
    alice.reload()
    expect(alice.locator("[data-testid=status]")).to_contain_text("In attesa di un avversario")
    expect(alice.locator("html")).to_have_attribute("lang", "it")
    shot(alice, f"lobby-waiting-it-{size}")
    header_menu(alice)
    alice.locator("[data-testid=langs] a[data-lang=en]").click()

    # a visitor without an account sits down with the page's button (the site makes a guest)
    table_url = alice.url
    visitor = browse.page(server.url, size, "visitor")
    visitor.goto(table_url)
    wait_synced(visitor)
    with visitor.expect_navigation():
        visitor.locator("[data-action=sit-1]").click()
    expect(visitor.locator("[data-testid=player-bottom] .name")).to_have_text(
        re.compile(r"^guest-")
    )
    expect(visitor.locator("[data-testid=player-bottom] .tag").first).to_have_text("you")
    for page in (alice, visitor):
        expect(page.locator("[data-testid=name-1]")).to_have_text(re.compile(r"^guest-"))
        expect(page.locator("[data-testid=status]")).not_to_contain_text("Waiting")
        # the clock: reserve 30 + 7 x 5 = 65 s each, and the running one counts down
        expect(page.locator("[data-clock]")).to_have_count(2)
        expect(page.locator("[data-clock].running")).to_have_count(1)
    # a pass is the server's: the page says so (an engine no_move event, as the server sends it)
    alice.evaluate(
        "() => window.gammonPage.announce({events: [{kind: 'no_move', player: 0, data: {dice: [6, 5]}}]},"
        " window.gammonPage.names())"
    )
    expect(alice.locator("[data-testid=toasts]")).to_contain_text("65: you have no legal move.")
    running = alice.locator("[data-clock].running")
    first = running.inner_text()
    assert re.fullmatch(r"1:05 \+\d+ s", first), first
    expect(running).not_to_have_text(first, timeout=3000)
    shot(alice, f"lobby-started-{size}")


def test_move_list_from_engine_events(server: GammonServer, browse: Browse) -> None:
    page = browse.page(server.url)
    page.goto("/healthz")
    rows = page.evaluate(
        """async () => {
        await (await import('/static/game/i18n.js')).loadLang('en');  // as the pages do first
        const { MoveList } = await import('/static/game/movelist.js');
        const ml = new MoveList();
        const ev = (events) => ({kind: 'action', data: {events}});
        ml.addTableEvent({kind: 'start', data: {}});
        ml.addTableEvent(ev([{kind: 'opening_roll', player: 0, data: {dice: [3, 3]}}]));
        ml.addTableEvent(ev([{kind: 'opening_roll', player: 0, data: {dice: [3, 1]}},
                             {kind: 'starts', player: 0, data: {dice: [3, 1]}}]));
        ml.addTableEvent(ev([{kind: 'moved', player: 0, data: {move: '8/5 6/5', dice: [3, 1]}}]));
        ml.addTableEvent(ev([{kind: 'rolled', player: 1, data: {dice: [6, 6]}},
                             {kind: 'no_move', player: 1, data: {dice: [6, 6]}}]));
        ml.addTableEvent(ev([{kind: 'doubled', player: 0, data: {cube: 2}}]));
        ml.addTableEvent(ev([{kind: 'dropped', player: 1, data: {points: 1}},
                             {kind: 'game_over', player: 0, data: {game: 1, points: 1, result: 1, reason: 'drop'}},
                             {kind: 'game_started', player: 1, data: {game: 2, crawford: true}}]));
        const div = document.createElement('div');
        div.append(...ml.render(['ann', 'bob']));
        document.body.append(div);
        return [...div.querySelectorAll('section')].map(s => s.innerText.split('\\n').filter(Boolean));
    }"""
    )
    game1, game2 = rows
    assert game1[:3] == ["Game 1", "opening roll 3–3", "opening roll 3–1"]
    text = " | ".join(game1)
    for part in ("31: 8/5 6/5", "66: no move", "doubles → 2", "drops", "ann wins 1 point (drop)"):
        assert part in text, (part, text)
    assert game2[0] == "Game 2 Crawford"
