"""Issue #12 in the browser: the new variants drawn right and played by clicking.

Fevga (both sides go the same way round): the opponent starts on our 12-point, we on our
24-point, from either seat's view; no cube.  Plakoto: a pinned checker is drawn at the rim
under its pinner.  Acey-deucey: the checkers still to enter wait in the tray, labelled, and
enter by clicks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    SentFrames,
    create_table,
    next_action,
    play_step,
    shot,
    sign_up,
    version,
)

pytestmark = pytest.mark.e2e

#: The page's state and what its board drew: for each seat, {viewer point: checkers}, the
#: pinned checkers' viewer points, and the tray's waiting checkers.
_DRAWN = """() => {
  const p = window.gammonPage;
  const g = p.state.match.game;
  const drawn = [{}, {}];
  const pinned = [[], []];
  for (const c of document.querySelectorAll('.board .checker[data-at]')) {
    const seat = Number(c.dataset.seat);
    const at = c.dataset.at;
    drawn[seat][at] = (drawn[seat][at] || 0) + 1;
    if (c.dataset.pinned) pinned[seat].push(Number(at));
  }
  const waiting = [0, 1].map((s) => {
    const w = document.querySelector(`.board .waiting[data-seat="${s}"]`);
    return w ? Number(w.dataset.waiting) : 0;
  });
  return {
    bottom: p.bottomSeat, seat: p.mySeat, board: g.board, pinned_state: g.pinned,
    waiting_state: g.waiting, other: p.state.table.variant.other_point,
    variant: p.state.table.variant, drawn, pinned, waiting, played: p.input.played.length,
    cube: document.querySelectorAll('.board .cube').length,
    double: document.querySelectorAll('[data-action=double]').length,
  };
}"""


def drawn(page: Any) -> dict[str, Any]:
    """The board as drawn, once no step of the turn is half-played."""
    page.wait_for_function("() => window.gammonPage.input.played.length === 0")
    return dict(page.evaluate(_DRAWN))


def check_drawn_right(d: dict[str, Any]) -> None:
    """Every checker of the state is drawn where the variant's mapping puts it."""
    bottom = d["bottom"]
    for seat in (0, 1):
        want: dict[str, int] = {}
        for q in range(1, 25):
            n = d["board"][seat][q]
            if n:
                p = q if seat == bottom else d["other"][q]
                want[str(p)] = want.get(str(p), 0) + n
        assert d["drawn"][seat] == want, (seat, d["drawn"][seat], want)


def play_moves(page: Any, moves: int) -> None:
    """Play ``moves`` of our moves (roll, click the checkers, confirm) through the page."""
    done = 0
    while done < moves:
        what = next_action(page)
        if what == "over":
            return
        v = version(page)
        play_step(page, what)
        if what in ("confirm", "forced", "roll"):
            page.wait_for_function("v => window.gammonPage.version > v", arg=v)
            if what != "roll":
                done += 1


@pytest.mark.parametrize(("size", "seat"), [("desktop", 0), ("phone", 1)])
def test_fevga_both_sides_go_the_same_way(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], size: str, seat: int
) -> None:
    page = browse.page(server.url, size, "fevga")
    sent = SentFrames(page)
    sign_up(page)
    create_table(
        page, variant="fevga", opponent="bot", bot_level="beginner", match_length=1, seat=seat
    )
    page.wait_for_function("() => window.gammonPage.state.match !== null")
    d = drawn(page)
    assert d["seat"] == seat == d["bottom"]
    assert d["variant"]["geometry"]["direction"] == "same" and d["variant"]["cube"] is False
    assert d["other"][24] == 12 and d["other"][12] == 24 and d["other"][1] == 13
    check_drawn_right(d)
    # ours are on our 24-point, the opponent's on our 12-point (its own 24), as the rules
    # say; if the bot has played its first turn, one checker has left its start, or two
    # when a double (5-5, 6-6) took the first past our start (our 23..13), which frees
    # the others for the last die
    me, them = seat, 1 - seat
    assert d["drawn"][me].get("24", 0) >= 14
    left = {int(p): n for p, n in d["drawn"][them].items() if p != "12"}
    assert sum(left.values()) <= 2, d["drawn"][them]
    assert sum(left.values()) < 2 or any(13 <= p <= 23 for p in left), d["drawn"][them]
    assert d["cube"] == 0 and d["double"] == 0
    expect(page.locator(".board .cube")).to_have_count(0)
    # no .mat link: the format cannot describe a same-direction game
    expect(page.locator("[data-link=log]").first).to_be_attached()
    expect(page.locator("[data-link=mat]")).to_have_count(0)
    shot(page, f"fevga-start-{size}")

    play_moves(page, 3)
    d = drawn(page)
    check_drawn_right(d)
    assert d["cube"] == 0
    assert sent.count("move") >= 1 and sent.count("steps") == 0  # moves built in the page
    shot(page, f"fevga-played-{size}")


def test_plakoto_draws_a_pin_under_its_pinner(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "plakoto")
    sign_up(page)
    # a 5-point match: the dice are random, and a game can end before anyone pins
    create_table(page, variant="plakoto", opponent="bot", bot_level="beginner", match_length=5)
    page.wait_for_function("() => window.gammonPage.state.match !== null")
    d = drawn(page)
    assert d["variant"]["geometry"]["landing"] == "pin"
    assert d["pinned_state"] == [[], []] and d["cube"] == 0

    # the board's drawing of a synthetic pin: the opponent's checker on its 20-point (our
    # 5-point) pinned under two of ours
    stack = page.evaluate(
        """() => {
        const view = window.gammonPage.board;
        const empty = () => new Array(26).fill(0);
        const board = [empty(), empty()];
        board[0][5] = 2; board[0][24] = 13; board[1][20] = 1; board[1][24] = 14;
        const other = Array.from({length: 26}, (_, q) => (q >= 1 && q <= 24 ? 25 - q : 0));
        view.render({bottom: 0, board, other, pinned: [[], [20]], waiting: null,
                     labels: {pinned: 'pinned', waiting: 'to enter'}, dice: null, cube: null,
                     sources: new Set(), dests: new Set(), selected: null, interactive: false});
        const cs = [...document.querySelectorAll('.board .checker[data-at="5"]')];
        const out = cs.map((c) => [Number(c.dataset.seat), Boolean(c.dataset.pinned),
                                   Number(c.querySelector('circle').getAttribute('cy'))]);
        window.gammonPage.render();
        return out;
    }"""
    )
    assert [(s, p) for s, p, _ in stack] == [(1, True), (0, False), (0, False)]
    ys = [y for _, _, y in stack]
    assert ys[0] > ys[1] > ys[2]  # bottom row: the pinned checker at the rim

    # a real pin, by playing until one side pins the other
    found = None
    for _ in range(1500):
        if not page.evaluate("() => window.gammonPage.input.played.length"):
            d = drawn(page)
            check_drawn_right(d)
            if any(d["pinned_state"]):
                found = d
                break
        what = next_action(page)
        if what == "over":
            break
        v = version(page)
        play_step(page, what)
        if what in ("confirm", "forced", "roll"):
            page.wait_for_function("v => window.gammonPage.version > v", arg=v)
    assert found is not None, "no pin in a whole plakoto match"
    for seat in (0, 1):
        want = sorted(
            q if seat == found["bottom"] else found["other"][q] for q in found["pinned_state"][seat]
        )
        assert sorted(found["pinned"][seat]) == want
    expect(page.locator(".board .checker.pinned title").first).to_have_text("pinned")
    shot(page, "plakoto-pin")


def test_acey_deucey_checkers_wait_in_the_tray(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "acey")
    sent = SentFrames(page)
    sign_up(page)
    create_table(page, variant="acey-deucey", opponent="bot", bot_level="beginner", match_length=1)
    page.wait_for_function("() => window.gammonPage.state.match !== null")
    d = drawn(page)
    me = d["seat"]
    assert d["variant"]["enter_from_off"] is True and d["cube"] == 0
    assert d["waiting"] == d["waiting_state"] and d["waiting"][me] >= 13
    check_drawn_right(d)
    tray = page.locator(f'.board .waiting[data-seat="{me}"]')
    expect(tray.locator(".tray-label")).to_have_text("to enter")
    expect(tray.locator(".tray-count")).to_have_text(str(d["waiting"][me]))
    before = d["waiting"][me]
    # as after a 1-2 (thousands of moves): the state without its moves, played by steps
    # (the server then sends the first steps instead, as built here from the moves)
    page.wait_for_function("() => window.gammonPage.input.canMove()")
    page.evaluate(
        """() => { const p = window.gammonPage; const m = p.state.match;
        const first = p.input.builder().options([]);
        m.moves = null; m.moves_omitted = true; m.forced = false; m.step_options = first;
        p.render(); }"""
    )
    assert page.evaluate("() => window.gammonPage.input.canMove()")
    assert sent.count("steps") == 0
    play_moves(page, 1)
    assert sent.count("steps") >= 1  # without the moves, the server is asked as before
    d = drawn(page)
    check_drawn_right(d)
    assert d["waiting"] == d["waiting_state"]
    assert d["waiting"][me] < before  # our checkers entered by clicks
    shot(page, "acey-deucey")


def test_the_lobby_switches_the_cube_off_for_a_cubeless_variant(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "phone", "lobby")
    sign_up(page)
    page.goto("/")
    form = page.locator("#create-table")
    box = page.locator("#cube-options")
    cube = form.locator("[name=cube]")
    expect(cube).to_be_enabled()
    expect(cube).to_be_checked()
    form.locator("[name=variant]").select_option("long-nardy")
    expect(box).to_have_attribute("disabled", "")
    expect(cube).to_be_disabled()
    expect(form.locator("[name=crawford]")).to_be_disabled()
    expect(cube).not_to_be_checked()
    expect(form.locator("[name=variant] option[value=long-nardy]")).to_have_text(
        "long nardy (Russian)"
    )
    form.locator("[name=variant]").select_option("nackgammon")
    expect(cube).to_be_enabled()
    expect(cube).to_be_checked()
    form.locator("[name=variant]").select_option("jacquet")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert "/table/" in page.url
    page.wait_for_function("() => window.gammonPage && window.gammonPage.state")
    options = page.evaluate("() => window.gammonPage.state.table.options")
    assert options["variant"] == "jacquet" and options["cube"] is False
