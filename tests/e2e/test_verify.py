"""The dice verification page: a real finished match, then pasted and uploaded logs.

The logs made here come from the Python implementation (gammon.match.fairdice), so the page's
WebCrypto code is checked against it over many HMAC blocks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import Browse, GammonServer, confirm, create_table, resign_the_match, shot, sign_up
from gammon.match.fairdice import VerifiableDice

pytestmark = pytest.mark.e2e

SEED = bytes(range(32))


def make_log(rolls: int, *, tamper: int | None = None, commitment: str | None = None) -> str:
    dice = VerifiableDice(SEED, "m7:x", ("alice", "b o b"))
    header = {
        "type": "header",
        "format": "gammon-action-log",
        "version": 1,
        "options": {},
        "players": ["alice", "bob"],
        "dice": {
            "scheme": "hmac-sha256-v1",
            "match_id": "m7:x",
            "commitment": commitment or dice.commitment,
            "client_seeds": ["alice", "b o b"],
        },
    }
    lines = [json.dumps(header)]
    for i in range(rolls):
        roll = dice.roll()
        text = f"{roll.d1}{roll.d2}"
        if i == tamper:
            text = text[::-1] if roll.d1 != roll.d2 else f"{roll.d1 % 6 + 1}{roll.d2}"
        lines.append(json.dumps({"type": "roll", "player": i % 2, "dice": text}))
        lines.append(json.dumps({"type": "move", "player": i % 2, "move": "24/23"}))
    lines.append(json.dumps({"type": "reveal", "server_seed": SEED.hex()}))
    return "\n".join(lines) + "\n"


def test_resign_then_verify_real_pasted_and_uploaded_logs(
    server: GammonServer, browse: Browse, expect: Callable[..., Any]
) -> None:
    page = browse.page(server.url, "desktop", "alice")
    me = sign_up(page)
    table = create_table(page, opponent="bot", bot_level="beginner", match_length=1, cube=False)

    # resign a backgammon on our first turn: the bot accepts, the match is over
    over = resign_the_match(page)
    expect(over).to_be_visible()
    expect(page.locator("[data-testid=moves]")).to_contain_text("offers to resign (backgammon)")
    expect(page.locator("[data-testid=moves]")).to_contain_text("accepts the resignation")

    # the finished match's analysis board, from its record page
    page.goto(f"/matches/{table}")
    page.locator("#analyse").click()
    expect(page.locator("#totals")).to_contain_text(me)
    expect(page.locator("#totals")).to_contain_text("gammon-bot")
    expect(page.locator("#level")).to_have_text("expert")
    # (the graph needs a move: whether the bot moved before the resignation depends on the dice)
    shot(page, "analysis")

    page.goto(f"/matches/{table}/verify")
    verdict = page.locator("[data-testid=verdict]")
    expect(verdict).to_have_attribute("data-ok", "true")
    expect(page.locator("[data-testid=commit-check]")).to_contain_text("matches the commitment")
    expect(page.locator("[data-testid=cli]")).to_have_text(
        f"gammon verify-dice gammon-{table}.jsonl"
    )

    # 300 rolls (many HMAC blocks), computed by the Python implementation
    page.locator("[data-testid=paste]").fill(make_log(300))
    page.locator("[data-testid=check]").click()
    expect(verdict).to_contain_text("All 300 rolls agree")
    expect(page.locator("[data-testid=rolls] tbody tr")).to_have_count(300)
    expect(page.locator("[data-testid=match-id]")).to_have_text("m7:x")

    # one roll changed: named, and marked in the table
    page.locator("[data-testid=paste]").fill(make_log(300, tamper=211))
    page.locator("[data-testid=check]").click()
    expect(verdict).to_have_attribute("data-ok", "false")
    expect(verdict).to_contain_text("Roll 211 was")
    expect(page.locator("[data-testid=rolls] tr.bad")).to_have_count(1)
    expect(page.locator("[data-testid=rolls] tr.bad")).to_have_attribute("data-roll", "211")
    shot(page, "verify-tampered")

    # an uploaded log whose seed does not match its commitment
    page.locator("[data-testid=file]").set_input_files(
        files=[
            {
                "name": "bad.jsonl",
                "mimeType": "text/plain",
                "buffer": make_log(5, commitment="0" * 64).encode(),
            }
        ]
    )
    expect(verdict).to_have_attribute("data-ok", "false")
    expect(verdict).to_contain_text("does not match the commitment")
    expect(page.locator("[data-testid=commit-check]")).to_contain_text("does NOT match")

    # not a log at all
    page.locator("[data-testid=paste]").fill("hello")
    page.locator("[data-testid=check]").click()
    expect(page.locator("[data-testid=message]")).to_contain_text("not a gammon action log")
    expect(verdict).to_be_hidden()
    # the reader's reasons in the page's language: a line that is not JSON, in French
    page.goto(f"/matches/{table}/verify?lang=fr")
    expect(verdict).to_have_attribute("data-ok", "true")
    page.locator("[data-testid=paste]").fill(make_log(3).replace("\n", "\n{oops\n", 1))
    page.locator("[data-testid=check]").click()
    expect(page.locator("[data-testid=message]")).to_contain_text("la ligne 2 n'est pas du JSON")

    # the example of docs/dice.md, through the module itself
    dice = page.evaluate(
        """async () => {
        const m = await import('/static/verify/dice.js');
        const seed = m.hexToBytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
        const src = await m.diceSource(seed, 'm7', ['alice', 'bob']);
        const out = [];
        for (let i = 0; i < 6; i++) out.push(await src.next());
        return [await m.sha256Hex(seed), out];
    }"""
    )
    assert dice == [
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        [6, 2, 1, 1, 3, 2],
    ]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_abandon_ends_the_game(
    server: GammonServer, browse: Browse, expect: Callable[..., Any], size: str
) -> None:
    page = browse.page(server.url, size, "alice")
    sign_up(page)
    create_table(
        page, opponent="bot", bot_level="beginner", match_length=5, end_setting="oin", cube=False
    )
    abandon = page.locator("[data-action=abandon]")
    expect(abandon).to_be_enabled()
    abandon.click()
    expect(page.locator("[data-testid=prompt]")).to_contain_text("Abandon this game now?")
    page.locator("[data-testid=prompt] [data-action=cancel]").click()
    expect(page.locator("[data-testid=prompt]")).to_have_count(0)
    confirm(page, "abandon")
    # scored from the board with Oin: a single to the bot; game 2 begins
    expect(page.locator("[data-testid=games]")).to_contain_text("wins 1 point (abandon)")
    expect(page.locator("[data-testid=score-1]")).to_have_text("1")
    expect(page.locator("[data-testid=info]")).to_contain_text("Game 2")
    expect(page.locator("[data-testid=moves]")).to_contain_text("abandons")
    shot(page, f"abandon-{size}")
