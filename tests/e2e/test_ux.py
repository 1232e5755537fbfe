"""Issue #11: the game page as pleasant as lichess and Galaxy.

One screen (board and buttons without scrolling, desktop and phone), moving aids (movable
checkers marked, one click by the larger die, a double-click by both, two quick taps on a
touch screen two checkers, auto-confirm), sounds
and their mute, the Crawford cube, the seat colours, money at risk in the prompts, the live
header balance, server refusals shown in the page, rejected resignation levels, rematches.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    Browse,
    GammonServer,
    SentFrames,
    Watch,
    confirm,
    create_table,
    has,
    header_menu,
    next_action,
    next_step,
    open_table,
    play_step,
    play_while,
    rematch_offered,
    seat_of,
    shot,
    sign_up,
    take,
    version,
    wait_synced,
    wait_until,
    within_polls,
)

pytestmark = pytest.mark.e2e

#: How often the lobby asks for its lists again (lobby.js PERIOD_MS): the tests move the
#: page's clock on by as much instead of waiting (``within_polls``).
LOBBY_POLL_MS = 5000

#: Whether the board and the action buttons are inside the viewport, and the page's scroll.
_FITS = """() => {
  const inside = (sel) => {
    const n = document.querySelector(sel);
    if (!n) return null;
    const r = n.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  };
  return {
    board: inside('.board-wrap'),
    controls: inside('[data-testid=controls]'),
    bottom: inside('[data-testid=player-bottom]'),
    top: inside('[data-testid=player-top]'),
    scroll: document.documentElement.scrollHeight - innerHeight,
    wide: document.documentElement.scrollWidth - innerWidth,
  };
}"""


def _assert_fits(page: Any, size: str, what: str) -> None:
    fits = page.evaluate(_FITS)
    assert fits["board"] and fits["controls"] and fits["bottom"] and fits["top"], (what, fits)
    assert fits["wide"] <= 0, (what, fits)
    if size == "desktop":
        assert fits["scroll"] <= 0, (what, fits)  # the side column scrolls by itself


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_board_and_buttons_fit_one_screen(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], size: str
) -> None:
    page = browse.page(server.url, size, "alice")
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=3)
    _assert_fits(page, size, "start")
    seen = set()
    for _ in range(40):
        what, at = next_step(page)
        _assert_fits(page, size, what)
        seen.add(what)
        if what == "over" or (len(seen) >= 3 and "src" in seen):
            break
        take(page, what, at)
    # the longest button rows: the resign menu and a prompt
    if has(page, "[data-action=resign]"):
        page.locator("[data-action=resign]").click()
        expect(page.locator("[data-testid=resign-menu]")).to_be_visible()
        _assert_fits(page, size, "resign menu")
        page.locator("[data-action=resign-3]").click()
        expect(page.locator("[data-testid=prompt]")).to_be_visible()
        _assert_fits(page, size, "prompt")
        page.locator("[data-testid=prompt] [data-action=cancel]").click()
    shot(page, f"ux-fit-{size}")


def test_moving_aids_sounds_and_the_cube(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=3, cube=False)
    # the seats' colours are named; the side is said at the opening
    expect(page.locator("[data-testid=colour-0]")).to_have_text("light")
    expect(page.locator("[data-testid=colour-1]")).to_have_text("dark")

    # sound on by default; play until a move of ours with two different dice
    page.locator("[data-testid=board]").click(position={"x": 5, "y": 5})  # a gesture for audio
    for _ in range(60):
        what, seen = next_step(page)
        dice = page.evaluate(
            "() => { const g = window.gammonPage.match.game; return g.phase === 'moving' ? g.dice : null; }"
        )
        if what == "src" and dice and dice[0] != dice[1]:
            break
        take(page, what, seen)
    else:
        pytest.fail("no move with two different dice")

    # every checker that can move is marked
    sources = page.evaluate(
        "() => [...window.gammonPage.input.sources(window.gammonPage.input.options())]"
    )
    assert sources
    expect(page.locator(".board .checker.movable")).to_have_count(len(sources))

    # one click plays the die of the better move the checker can make; again, the other
    point = page.evaluate(
        """() => { const p = window.gammonPage; const o = p.input.options();
        const big = Math.max(...p.match.game.dice);
        const s = o.steps.find((st) => st[2] === big); return s ? s[0] : o.steps[0][0]; }"""
    )
    expected = page.evaluate(
        "(pt) => { const p = window.gammonPage.input; return p.quickStep(p.options(), pt); }", point
    )
    page.locator(f".board .hit[data-point='{point}']").click()
    # (when a single way is left to finish the move, its rest is played with it)
    wait_until(lambda: page.evaluate("() => window.gammonPage.input.played.length") >= 1)
    played = page.evaluate("() => window.gammonPage.input.played[0]")
    assert played[:3] == expected[:3]
    # the die of the better move from that checker (the larger on a tie: firstclick.js,
    # tested in tests/js/firstclick.test.mjs), one the checker can use
    assert expected[2] in {
        s[2]
        # the first steps, as the page builds them from the state's moves
        for s in page.evaluate("() => window.gammonPage.input.builder().options([]).steps")
        if s[0] == point
    }
    assert "move" in page.evaluate("() => window.gammonSound.played")

    # by default the move goes by itself once complete (after a short grace)
    expect(page.locator("[data-testid=confirm-myself]")).not_to_be_checked()
    v = version(page)
    for _ in range(8):
        if page.evaluate("() => window.gammonPage.version") > v:
            break
        what = next_action(page)
        if what in ("src", "dest"):
            play_step(page, what)
        page.wait_for_timeout(150)
    page.wait_for_function("v => window.gammonPage.version > v", arg=v)
    assert not has(page, "[data-action=confirm-move]")
    page.wait_for_function("() => window.gammonSound.played.includes('dice')")

    # mute: remembered after a reload
    mute = page.locator("[data-testid=mute]")
    expect(mute).to_have_text("Sound on")
    mute.click()
    expect(mute).to_have_text("Sound off")
    expect(mute).to_have_attribute("aria-pressed", "true")
    page.reload()
    wait_synced(page)
    expect(page.locator("[data-testid=mute]")).to_have_text("Sound off")
    n = page.evaluate("() => window.gammonSound.played.length")
    page.evaluate("() => window.gammonSound.play('dice')")
    assert page.evaluate("() => window.gammonSound.played.length") == n

    # in a Crawford game the cube is drawn greyed out, with why
    page.evaluate(
        """() => { const p = window.gammonPage; p.state.table.options.cube = true;
        p.state.match.crawford = true; p.renderBoard(); }"""
    )
    expect(page.locator(".board .cube.disabled")).to_have_count(1)
    expect(page.locator(".board .cube.disabled title")).to_have_text(
        "Crawford game: nobody may double"
    )


def _complete_a_move(page: Any) -> None:
    """Click checkers (one click: the larger die, the rest when one way is left) until the
    move is complete and waits to be sent."""
    for _ in range(8):
        if page.evaluate("() => window.gammonPage.input.sending !== null"):
            return
        page.locator(".board.interactive .hit.src").first.click()
    raise AssertionError("the move never became complete")


def _our_unforced_move(page: Any) -> None:
    """Wait for a move of ours that is not forced: at a table without a cube the server
    rolls for both sides and forced moves play by themselves, so nothing needs a click."""
    page.wait_for_function(
        """() => { const p = window.gammonPage;
        return p.input.canMove() && !p.match.forced && !p.input.played.length
          && Boolean(document.querySelector('.board.interactive .hit.src')); }""",
        timeout=90_000,
    )


def test_a_complete_move_goes_after_a_grace_that_undo_takes_back(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    page.clock.install()  # the graces waited out are moved past (the clock still runs)
    sent = SentFrames(page)  # before the table's socket opens
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=3, cube=False)
    _our_unforced_move(page)
    # the confirmation setting is off by default: moves go by themselves
    assert page.evaluate("() => window.gammonPage.input.autoConfirm") is True
    expect(page.locator("[data-testid=confirm-myself]")).not_to_be_checked()
    before, moves = version(page), sent.count("move")

    # 1. complete: the dice count down, "sending…" shows, Undo stays live; Undo takes it back
    # (a grace long enough for the checks in between on a loaded machine: with 3 s, a CI
    # run once saw the move go before the Undo)
    page.evaluate("() => { window.gammonPage.input.graceMs = 600000; }")
    _complete_a_move(page)
    expect(page.locator("[data-testid=sending]")).to_have_count(1)
    expect(page.locator(".board .dice-sending")).to_have_text("sending…")
    expect(page.locator("[data-testid=status]")).to_contain_text("goes in a moment")
    shot(page, "ux-grace-countdown")
    page.locator("[data-action=undo]").click()
    expect(page.locator("[data-testid=sending]")).to_have_count(0)
    assert page.evaluate("() => window.gammonPage.input.sending") is None

    # 2. complete again; a click on a checker during the grace keeps the move here too (a
    # grace of 3 s, then waited out: a send the click did not take back would have gone)
    page.evaluate("() => { window.gammonPage.input.graceMs = 3000; }")
    _complete_a_move(page)
    expect(page.locator("[data-testid=sending]")).to_have_count(1)
    page.wait_for_timeout(450)  # not the second click of a double-click (that one is ignored)
    page.locator(".board .hit[data-point='6']").click()
    expect(page.locator("[data-testid=sending]")).to_have_count(0)
    assert page.evaluate("() => window.gammonPage.input.played.length") > 0
    expect(page.locator("[data-action=confirm-move]")).to_be_enabled()
    # past both graces (the page's clock moved on): a send not taken back would have gone,
    # and would show within the half second
    page.clock.fast_forward(3500)
    page.wait_for_timeout(500)
    assert (version(page), sent.count("move")) == (before, moves)  # nothing was sent

    # 3. with the page's own grace (1 s), a complete move goes by itself, once
    page.evaluate("() => { window.gammonPage.input.graceMs = 1000; }")
    while page.evaluate("() => window.gammonPage.input.played.length"):
        page.locator("[data-action=undo]").click()
    _complete_a_move(page)
    started = page.evaluate("() => window.gammonPage.input.sending.since")
    page.wait_for_function("v => window.gammonPage.version > v", arg=before)
    took = page.evaluate("() => performance.now()") - started
    assert took >= 990, took  # not before the grace is over
    assert sent.count("move") == moves + 1

    # "confirm my moves myself" ticked: stored as the old setting's "0", honoured on reload
    page.locator("[data-testid=confirm-myself]").check()
    assert page.evaluate("() => localStorage.getItem('gammon.autoConfirm')") == "0"
    page.reload()
    wait_synced(page)
    assert page.evaluate("() => window.gammonPage.input.autoConfirm") is False
    page.evaluate("() => localStorage.setItem('gammon.autoConfirm', '1')")
    page.reload()
    wait_synced(page)
    assert page.evaluate("() => window.gammonPage.input.autoConfirm") is True

    # Enter confirms at once, whatever the grace
    _our_unforced_move(page)
    page.evaluate("() => { window.gammonPage.input.graceMs = 600000; }")
    v = version(page)
    _complete_a_move(page)
    page.keyboard.press("Enter")
    page.wait_for_function("v => window.gammonPage.version > v", arg=v)
    assert sent.count("move") == moves + 2


def test_a_double_click_takes_one_checker_on_by_both_dice(
    server: GammonServer, browse: Browse
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    sign_up(page)
    create_table(page, opponent="human", match_length=1)
    # the click logic with the step options stubbed: 5/2 with the 3, then 2/off with the 2
    calls = page.evaluate(
        """() => { const p = window.gammonPage.input; const calls = [];
        const first = {complete: false, steps: [[5, 2, 3, false], [5, 3, 2, false], [6, 3, 3, false]]};
        const second = {complete: false, steps: [[2, 0, 2, false], [6, 4, 2, false]]};
        p.options = () => (calls.length ? second : first);
        p.playStep = (f, t, d) => { calls.push([f, t, d]); p.played.push([f, t, d, false]); };
        p.playSteps = (steps) => { for (const [f, t, d] of steps) p.playStep(f, t, d); };
        p.quickMove = true;
        p.onPoint(5);
        p.onPoint(5);
        return calls; }"""
    )
    assert calls == [[5, 2, 3], [2, 0, 2]]


#: A point of the player's whose one-click share is a single step (one checker, one die),
#: after which another checker may still leave it (and nothing is played by itself), or null.
_TWO_FROM_ONE = """() => {
  const input = window.gammonPage.input;
  const opts = input.options(), builder = input.builder();
  if (!opts || opts.complete || !builder || input.played.length) return null;
  for (const from of new Set(opts.steps.map((s) => s[0]))) {
    const part = input.quickPart(opts, from);
    if (from === 0 || part.length !== 1 || builder.rest(part).length) continue;
    const next = builder.options(part);
    if (next && !next.complete && next.steps.some((t) => t[0] === from)) return from;
  }
  return null;
}"""


def test_two_quick_taps_on_a_stack_move_two_checkers(server: GammonServer, browse: Browse) -> None:
    """On a touch screen two taps on one stack within 400 ms are two clicks, each moving a
    checker from it, not a double-click taking the first checker on (#33 item 4)."""
    page = browse.page(server.url, "phone", "tapper")
    page.add_init_script("localStorage.setItem('gammon.autoConfirm', '0')")  # the move waits
    page.add_init_script(
        "window.__taps = []; addEventListener('pointerup', (e) =>"
        " window.__taps.push([e.pointerType, performance.now()]), true);"
    )
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=5)
    for _ in range(8):  # a turn with a stack two checkers may leave (the first, nearly always)
        what, seen = next_step(page)
        if what != "src":
            take(page, what, seen)
            continue
        point = page.evaluate(_TWO_FROM_ONE)
        if point is None:
            play_while([page], lambda: next_step(page)[0] in ("src", "dest"))
            take(page, *next_step(page))  # confirm
            continue
        # found and measured in one step: a render (the bot's move, presence) may replace
        # the board's elements between two calls (a box asked for so once came back None)
        box = page.wait_for_function(
            """(point) => {
              const e = document.querySelector(`.board .hit[data-point='${point}']`);
              const r = e && e.isConnected ? e.getBoundingClientRect() : null;
              return r && r.width && r.height ? {x: r.x, y: r.y, width: r.width, height: r.height} : null;
            }""",
            arg=point,
        ).json_value()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8
        page.evaluate("() => { window.__taps = []; }")
        page.touchscreen.tap(x, y)
        page.touchscreen.tap(x, y)
        page.wait_for_function("() => window.gammonPage.input.played.length >= 2")
        taps = page.evaluate("() => window.__taps")
        assert [kind for kind, _ in taps] == ["touch", "touch"], taps
        assert taps[1][1] - taps[0][1] < 400, taps  # within a double-click's time
        played = page.evaluate("() => window.gammonPage.input.played.map((s) => s.slice(0, 2))")
        # each tap played a share from the stack (a double-click would have taken the first
        # checker on from where it landed)
        assert [step[0] for step in played[:2]] == [point, point], played  # two checkers
        return
    raise AssertionError("no turn with a stack two checkers could leave")


def test_money_prompts_and_the_live_balance(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    alice = browse.page(server.url, "desktop", "alice")
    bob = browse.page(server.url, "phone", "bob")
    sign_up(alice)
    sign_up(bob)
    table = create_table(alice, opponent="human", match_length=0, stake=10, cube_limit=8, seat=0)
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    wait_until(lambda: seat_of(bob) == 1)
    by_seat = {0: alice, 1: bob}
    play_while(
        [alice, bob],
        lambda: not has(alice, "[data-action=double]") and not has(bob, "[data-action=double]"),
    )
    doubler = 0 if has(alice, "[data-action=double]") else 1
    taker = by_seat[1 - doubler]

    # abandoning says what it costs now (from the board: a backgammon while a checker is in
    # the other home board) and its range, in points and money
    by_seat[doubler].locator("[data-action=abandon]").click()
    expect(by_seat[doubler].locator("[data-testid=prompt]")).to_contain_text(
        re.compile(
            r"you lose (3 points = 30|2 points = 20) of your balance now \(between"
            r" 1 point = 10 of your balance and 3 points = 30 of your balance"
        )
    )
    by_seat[doubler].locator("[data-testid=prompt] [data-action=cancel]").click()

    confirm(by_seat[doubler], "double")
    taker.locator("[data-action=take]").click()
    expect(taker.locator("[data-testid=prompt]")).to_contain_text(
        "You play for 2 points = 20 of your balance, up to 6 points = 60 of your balance"
    )
    taker.locator("[data-testid=prompt] [data-action=cancel]").click()
    taker.locator("[data-action=drop]").click()
    expect(taker.locator("[data-testid=prompt]")).to_contain_text(
        "Drop and lose 1 point = 10 of your balance?"
    )
    before = taker.locator("#me-balance").inner_text()
    taker.locator("[data-testid=prompt] [data-action=confirm]").click()

    # the header's balance follows the account's, without a reload
    for page in (alice, bob):
        expect(page.locator("[data-testid=games]")).to_contain_text("drop")

    def header_matches(page: Any) -> bool:
        body = page.request.get("/api/session").json()
        return page.locator("#me-balance").inner_text() == str(body["user"]["balance"])

    wait_until(lambda: header_matches(taker) and header_matches(by_seat[doubler]), what="balance")
    shot(taker, "ux-money-after-drop")
    assert before  # shown from the start


def test_refusals_shown_rejected_levels_disabled_and_a_rematch(
    server: GammonServer, browse: Browse, watch: Watch, expect: Callable[..., Any]
) -> None:
    watch.allow("cannot resign now: a resignation at level 1 was rejected")
    alice = browse.page(server.url, "desktop", "alice")
    bob = browse.page(server.url, "desktop", "bob")
    for page in (alice, bob):
        page.clock.install()  # the rematch's poll is made at once (within_polls)
    sign_up(alice)
    bob_name = sign_up(bob)
    table = create_table(alice, opponent="human", match_length=1, seat=0, cube=False)
    open_table(bob, table)
    bob.locator("[data-action=sit-1]").click()
    wait_until(lambda: seat_of(bob) == 1)
    by_seat = {0: alice, 1: bob}
    wait_until(lambda: has(alice, "[data-action=resign]") or has(bob, "[data-action=resign]"))
    resigner_seat = 0 if has(alice, "[data-action=resign]") else 1
    resigner, other = by_seat[resigner_seat], by_seat[1 - resigner_seat]

    resigner.locator("[data-action=resign]").click()
    resigner.locator("[data-action=resign-1]").click()
    resigner.locator("[data-testid=prompt] [data-action=confirm]").click()
    other.locator("[data-action=reject_resign]").click()
    wait_until(lambda: has(resigner, "[data-action=resign]"))
    resigner.locator("[data-action=resign]").click()
    expect(resigner.locator("[data-action=resign-1]")).to_be_disabled()
    expect(resigner.locator("[data-action=resign-2]")).to_be_enabled()
    expect(resigner.locator("[data-testid=resign-rejected]")).to_be_visible()
    resigner.locator("[data-testid=resign-menu] [data-action=cancel]").click()

    # a refusal of the server is shown in the page, with its reason
    resigner.evaluate("() => window.gammonPage.act('resign', {level: 1})")
    notice = resigner.locator("[data-testid=notice]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("That is not possible now.")
    expect(notice).to_contain_text("rejected")

    # a backgammon resignation ends the match; the loser asks for a rematch
    resigner.locator("[data-action=resign]").click()
    resigner.locator("[data-action=resign-3]").click()
    resigner.locator("[data-testid=prompt] [data-action=confirm]").click()
    other.locator("[data-action=accept_resign]").click()
    for page in (alice, bob):
        expect(page.locator("[data-testid=over] [data-action=rematch]")).to_be_visible()
    with resigner.expect_navigation():
        resigner.locator("[data-action=rematch]").click()
    new = re.search(r"/table/([^/?#]+)", resigner.url)
    assert new and new.group(1) != table
    wait_synced(resigner)
    assert seat_of(resigner) == resigner_seat
    expect(resigner.locator("[data-testid=status]")).to_contain_text("Waiting for an opponent")

    # the other player's page offers it, and joins the same table
    rematch_offered(other)
    expect(other.locator("[data-action=rematch]")).to_have_text("Accept the rematch")
    with other.expect_navigation():
        other.locator("[data-action=rematch]").click()
    assert new.group(1) in other.url
    wait_synced(other)
    assert seat_of(other) == 1 - resigner_seat
    for page in (alice, bob):
        expect(page.locator(f"[data-testid=name-{1 - resigner_seat}]")).to_have_text(
            re.compile(".+")
        )
    expect(resigner.locator("[data-testid=player-top] .name")).to_contain_text(
        bob_name if resigner is alice else re.compile(".+")
    )


def test_rematch_against_the_bot(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=1, end_setting="mars")
    wait_until(lambda: has(page, "[data-action=resign]") or has(page, "[data-action=roll]"))
    while not has(page, "[data-action=resign]"):
        play_step(page, next_action(page))
    page.locator("[data-action=resign]").click()
    page.locator("[data-action=resign-2]").click()
    page.locator("[data-testid=prompt] [data-action=confirm]").click()
    expect(page.locator("[data-testid=over] [data-action=rematch]")).to_be_visible()
    old = page.url
    with page.expect_navigation():
        page.locator("[data-action=rematch]").click()
    assert page.url != old
    wait_synced(page)
    expect(page.locator("[data-testid=player-top] .name")).to_contain_text("gammon-bot (beginner)")
    expect(page.locator("[data-testid=info]")).to_contain_text("Mars")


def test_the_lobby_updates_by_itself(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    watcher = browse.page(server.url, "desktop", "watcher")
    watcher.clock.install()  # its polls are made at once (within_polls)
    watcher.goto("/")

    def polled(check: Callable[[], None]) -> None:
        """``check`` holds after at most 3 of the lobby's polls (15 s before)."""
        within_polls(watcher, "/lobby/tables", LOBBY_POLL_MS, check)

    alice = browse.page(server.url, "desktop", "alice")
    sign_up(alice)
    table = create_table(
        alice, opponent="bot", bot_level="beginner", match_length=1, end_setting="mars"
    )
    bob = browse.page(server.url, "phone", "bob")
    sign_up(bob)
    waiting = create_table(
        bob, opponent="human", match_length=0, stake=1, cube_limit=4, beaver=True, jacoby=True
    )

    # without a reload: the live game with its score, the open table with every option
    live = watcher.locator(f"#live-tables li[data-table='{table}']")
    row = watcher.locator(f"#open-tables tr[data-table='{waiting}']")
    polled(lambda: expect(live).to_be_visible(timeout=1000))
    expect(live.locator("[data-testid=live-score]")).to_contain_text("0–0")
    expect(live).to_contain_text("Mars (up to gammons)")
    polled(lambda: expect(row).to_be_visible(timeout=1000))
    for text in ("money", "stake 1", "cube to 4", "Jacoby", "beavers"):
        expect(row).to_contain_text(text)

    # the match ends (a resignation the bot accepts): the game leaves "Live games"
    while not has(alice, "[data-action=resign]"):
        play_step(alice, next_action(alice))
    alice.locator("[data-action=resign]").click()
    alice.locator("[data-action=resign-2]").click()
    alice.locator("[data-testid=prompt] [data-action=confirm]").click()
    expect(alice.locator("[data-testid=over]")).to_be_visible()
    polled(lambda: expect(live).to_have_count(0, timeout=1000))

    # a bot game its person has left is not "live" either
    carol = browse.page(server.url, "desktop", "carol")
    sign_up(carol)
    left = create_table(carol, opponent="bot", bot_level="beginner", match_length=3)
    carols = watcher.locator(f"#live-tables li[data-table='{left}']")
    polled(lambda: expect(carols).to_be_visible(timeout=1000))
    carol.goto("/watch")
    polled(lambda: expect(carols).to_have_count(0, timeout=1000))


#: The visible text of the game page and the English strings that have another translation.
_ENGLISH_LEFT = """async (lang) => {
  const en = await (await fetch('/i18n/en.json')).json();
  const other = await (await fetch(`/i18n/${lang}.json`)).json();
  const english = new Set();
  for (const [k, v] of Object.entries(en)) if (other[k] !== v) english.add(v);
  const out = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent.trim();
      if (text && english.has(text)) out.push(text);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (node.hidden || node.closest('[lang=en]:not(html)') || ['SCRIPT', 'STYLE', 'CODE'].includes(node.tagName)) return;
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden') return;
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  return out;
}"""


@pytest.mark.parametrize(("lang", "size"), [("fr", "phone"), ("it", "desktop")])
def test_the_game_page_has_no_english_left(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], lang: str, size: str
) -> None:
    page = browse.page(server.url, size, "alice")
    catalogues: list[str] = []  # the languages' catalogues the page asks for
    page.on(
        "request",
        lambda r: catalogues.append(r.url.rsplit("/", 1)[1]) if "/i18n/" in r.url else None,
    )
    sign_up(page)
    create_table(page, opponent="bot", bot_level="beginner", match_length=1)
    assert set(catalogues) == {"en.json"}  # only the page's language is loaded
    header_menu(page)  # a phone: the header's links are in its menu
    page.locator(f"[data-testid=langs] a[data-lang={lang}]").click()
    if size == "phone":
        expect(page.locator("#site-nav")).to_be_hidden()  # the choice closes the menu
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert set(catalogues) == {"en.json", f"{lang}.json"}  # and the new one when it changes
    level = {"fr": "débutant", "it": "principiante"}[lang]
    expect(page.locator("[data-testid=player-top] .name")).to_have_text(f"gammon-bot ({level})")
    for checked in range(30):
        what, seen = next_step(page)
        left = page.evaluate(_ENGLISH_LEFT, lang)
        assert not left, (what, left)
        if what == "over" or checked >= 8:
            break
        take(page, what, seen)
    while not has(page, "[data-action=resign]"):
        play_step(page, next_action(page))
    page.locator("[data-action=resign]").click()
    assert not page.evaluate(_ENGLISH_LEFT, lang)
    _assert_fits(page, size, f"resign menu in {lang}")  # longer words, still one screen
    page.locator("[data-action=resign-1]").click()
    assert not page.evaluate(_ENGLISH_LEFT, lang)
    _assert_fits(page, size, f"prompt in {lang}")
    page.locator("[data-testid=prompt] [data-action=confirm]").click()
    expect(page.locator("[data-testid=over]")).to_be_visible()
    assert not page.evaluate(_ENGLISH_LEFT, lang)
    shot(page, f"ux-over-{lang}")


def test_refused_forms_come_back_filled_in_with_the_reason(
    server: GammonServer, browse: Browse, watch: Watch, expect: Callable[..., Any]
) -> None:
    watch.allow(r"status of (400|409)")  # the refused form's own answer
    page = browse.page(server.url, "phone", "alice")
    page.goto("/?lang=fr")
    form = page.locator("#create-table")
    form.locator("[name=variant]").select_option("nackgammon")
    form.locator("[name=match_length]").fill("7")
    form.locator("[name=beaver]").check()
    form.locator("[name=clock]").check()
    form.locator("[name=clock_delay]").fill("9")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    error = page.locator("[data-testid=form-error]")
    expect(error).to_have_text(
        "beaver est une option des parties d'argent : refusée dans un match en 7 points"
    )
    form = page.locator("#create-table")
    expect(form.locator("[name=variant]")).to_have_value("nackgammon")
    expect(form.locator("[name=match_length]")).to_have_value("7")
    expect(form.locator("[name=beaver]")).to_be_checked()
    expect(form.locator("[name=clock]")).to_be_checked()
    expect(form.locator("[name=clock_delay]")).to_have_value("9")
    # corrected, it goes through
    form.locator("[name=beaver]").uncheck()
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert "/table/" in page.url

    # sign-up: a taken name comes back translated, with the name typed
    taken = sign_up(browse.page(server.url, "desktop", "bob"))
    page.goto("/signup")
    page.fill("input[name=username]", taken)
    page.fill("input[name=password]", "correct-horse")
    with page.expect_navigation():
        page.locator("form[action='/signup'] button[type=submit]").click()
    expect(page.locator("[data-testid=form-error]")).to_contain_text("est déjà pris")
    expect(page.locator("input[name=username]")).to_have_value(taken)
