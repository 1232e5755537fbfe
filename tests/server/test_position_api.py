"""Any position (issue #32, the positions slice): ``POST /api/position/analysis`` reads an
XGID, a gnubg ID or the board editor's JSON in every variant with a board, answers the bot's
ranked moves (with dice) or cube decision (without), refuses bad input with a clear,
translated 400 and changes nothing, is rationed like a match's analysis and runs in the
analyses' fair queue off the event loop; the ``/analysis`` page reproduces a shared link;
the picture, the rollout on demand, and a finished match's SGF and ``.xg`` downloads.

The gnubg IDs of the XGIDs below are gnubg's own (``docs/formats.md``'s vectors, GNU
Backgammon 1.07's ``set xgid``), not ours.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import gammon.server.web.position as web_position
from gammon import VARIANTS, Position
from gammon.match.formats.sgf import sgf_to_record
from gammon.server.analysis.positions import Setup, setup_from_board
from gammon.server.analysis.registry import analysis_available
from matchseed import recorded, seed_finished_match
from serverkit import Player, RunningServer, start_server
from serverkit import test_settings as settings_in

needs_bgsage = pytest.mark.skipif(not analysis_available(), reason="needs bgsage (bot extra)")

OPENING_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
# gnubg's: XGID and the PositionID:MatchID gnubg prints after ``set xgid`` (fixed seats)
GNUBG_PAIR = ("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8", "ewMAAD4gAAAAAA:AQGqAAAAAAAE")
M7 = "posM7xxxxxxx"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """One server for the module's tests (each starts with the answers kept cleared)."""
    where = tmp_path_factory.mktemp("positions")
    seed_finished_match(settings_in(where).database_url, M7, recorded("standard-7"))
    running = start_server(settings_in(where))
    yield running
    running.stop()


@pytest.fixture(autouse=True)
def _nothing_kept() -> None:
    """The analyses and rollouts kept by an earlier test are forgotten."""
    web_position._kept.clear()
    web_position._rolled.clear()


@pytest.fixture
def player(server: RunningServer) -> Iterator[Player]:
    visitor = Player(server)
    yield visitor
    visitor.close()


def _ask(player: Player, body: dict[str, Any], lang: str = "en") -> Any:
    headers = {"X-CSRF-Token": player._csrf_headers(anonymous=True)["X-CSRF-Token"]}
    headers["Accept-Language"] = lang
    return player.http.post("/api/position/analysis", json=body, headers=headers)


def _editor_body(setup: Setup, **more: Any) -> dict[str, Any]:
    data = setup.to_json()
    for key in ("xgid", "position_id", "match_id"):
        data.pop(key)
    return data | more


@needs_bgsage
def test_an_xgid_with_dice_gets_the_ranked_legal_moves(player: Player) -> None:
    r = _ask(player, {"xgid": OPENING_52})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["kind"] == "moves" and body["engine"] == "bgsage"
    legal = Position.initial().move_texts((5, 2))
    moves = [m["move"] for m in body["moves"]]
    assert moves and set(moves) <= set(legal)
    equities = [m["equity"] for m in body["moves"]]
    assert equities == sorted(equities, reverse=True)
    # the two 52 openings every book gives are the bot's first two
    assert set(moves[:2]) == {"13/11 13/8", "24/22 13/8"}, moves
    assert body["setup"]["xgid"] == OPENING_52
    assert body["setup"]["position_id"] == "4HPwATDgc/ABMA"


@needs_bgsage
def test_no_dice_gets_the_cube_decision(player: Player) -> None:
    # a race of 30 pips against 105 at money: the opponent must pass
    race = "XGID=-EEE-------------eee------:0:0:1:00:0:0:0:0:10"
    r = _ask(player, {"xgid": race})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["kind"] == "cube"
    assert body["cube"]["action"].startswith(("double", "too good"))
    assert body["cube"]["double_pass"] == 1.0


@needs_bgsage
def test_a_gnubg_id_and_its_xgid_are_the_same_position(player: Player) -> None:
    xgid, gnuid = GNUBG_PAIR
    a = _ask(player, {"xgid": xgid}).json()
    b = _ask(player, {"gnuid": gnuid}).json()
    keep = ("board", "turn", "dice", "cube", "length", "score", "crawford", "position_id")
    assert {k: a["setup"][k] for k in keep} == {k: b["setup"][k] for k in keep}
    assert b["setup"]["match_id"] == gnuid.split(":")[1]
    assert a["moves"] == b["moves"]
    # the Position ID and Match ID as separate fields say the same
    pid, mid = gnuid.split(":")
    c = _ask(player, {"position_id": pid, "match_id": mid}).json()
    assert c["moves"] == b["moves"]


@needs_bgsage
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_with_a_board_is_analysed(player: Player, name: str) -> None:
    start = Position.initial(name)
    setup = Setup(start, dice=(6, 5))
    r = _ask(player, _editor_body(setup))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["kind"] == "moves"
    legal = start.move_texts((6, 5))
    assert body["moves"] and {m["move"] for m in body["moves"]} <= set(legal)
    assert body["setup"]["variant"] == name
    assert body["setup"]["position_id"] == start.position_id()
    # without dice: the cube decision where the variant has a cube, else a clear refusal
    r = _ask(player, _editor_body(Setup(start)))
    if VARIANTS[name].cube and VARIANTS[name].standard_geometry:
        assert r.status_code == 200 and r.json()["kind"] == "cube", r.text
    else:
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_position"
        assert "no cube" in r.json()["error"]["message"]


HOSTILE: list[tuple[dict[str, Any], str]] = [
    ({"xgid": "XGID=nonsense"}, "not a valid XGID"),
    ({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10"}, "not a valid XGID"),
    ({"xgid": "XGID=-P----P-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"}, "not a valid XGID"),
    ({"xgid": 12}, "not a valid XGID"),
    ({"xgid": "X" * 5000}, "not a valid XGID"),
    ({"gnuid": "4HPwATDgc/ABMA"}, "not a valid gnubg ID"),
    ({"gnuid": "4HPwATDgc/ABM!:cIkKAAAAAAAE"}, "not a valid gnubg ID"),
    ({"gnuid": "4HPwATDgc/ABMA:cAkAAAAAAAAM"}, "not a valid gnubg ID"),
    ({"xgid": OPENING_52, "variant": "chess"}, "unknown variant"),
    ({"board": [[0, 9, 7], []]}, "16 checkers for one side"),
    ({"board": [[0, -1], []]}, "whole number"),
    ({"board": [[0, "2"], []]}, "whole number"),
    ({"board": [[0, 2], []], "dice": [7, 1]}, "a die"),
    ({"board": [[0, 2], []], "length": 5, "score": [5, 0]}, "below the match length"),
    ({"board": [[0, 2], []], "cube": {"value": 3}}, "power of two"),
    ({"board": [[0, 2], []], "crawford": True, "length": 5}, "1-away"),
    (
        {
            "board": [[0, 2], []],
            "crawford": True,
            "length": 5,
            "score": [4, 0],
            "cube": {"value": 2},
        },
        "nobody doubles in the Crawford game",
    ),
    ({}, "name a position"),
]


@pytest.mark.parametrize(("body", "says"), HOSTILE)
def test_bad_input_is_a_clear_400_and_costs_nothing(
    player: Player, body: dict[str, Any], says: str
) -> None:
    r = _ask(player, body)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_position" and says in error["message"], error
    assert not web_position._kept  # nothing kept, nothing computed


def test_the_refusal_is_in_the_visitors_language(player: Player) -> None:
    fr = _ask(player, {"xgid": "XGID=nonsense"}, "fr").json()["error"]
    it = _ask(player, {"xgid": "XGID=nonsense"}, "it").json()["error"]
    assert fr["text"].startswith("XGID non valide : ") and it["text"].startswith("XGID non valido")
    over = _ask(player, {"board": [[0, 9, 7], []]}, "fr").json()["error"]
    assert over["text"] == "16 pions pour un camp : au plus 15"
    # an unknown field is refused too
    r = _ask(player, {"xgid": OPENING_52, "evil": 1})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_message"


def test_an_analysis_is_rationed_and_runs_in_the_analyses_fair_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def judged(setup: Setup, level: str) -> dict[str, Any]:
        seen.append(threading.current_thread().name)
        return {"kind": "moves", "moves": [], "setup": setup.to_json(), "level": level}

    monkeypatch.setattr(web_position, "analyse_in_worker", judged)
    web_position._kept.clear()
    running = start_server(settings_in(tmp_path, create_limit=1.0))
    try:
        player = Player(running)
        codes = []
        for n in range(1, 5):  # four positions: an address's burst is two
            board = [[0, n], [0, 0, 1]]
            codes.append(_ask(player, {"board": board, "dice": [3, 1]}).status_code)
        assert codes[:2] == [200, 200] and codes[2:] == [429, 429], codes
        # the same position again is kept: no ration, no work
        assert _ask(player, {"board": [[0, 1], [0, 0, 1]], "dice": [3, 1]}).status_code == 200
        assert len(seen) == 2
        # worked in the analyses' queue (its threads when --bot-workers is 0), not the loop
        assert all(name.startswith("gammon-analysis") for name in seen), seen
    finally:
        player.close()
        running.stop()


@needs_bgsage
def test_a_shared_link_reproduces_the_position(player: Player) -> None:
    page = player.http.get("/analysis", params={"xgid": OPENING_52})
    assert page.status_code == 200
    boot = json.loads(re.search(r'id="pe-boot">(.*?)</script>', page.text, re.S).group(1))  # type: ignore[union-attr]
    assert boot["linked"] and boot["setup"]["xgid"] == OPENING_52
    q = {
        "variant": "standard",
        "pos": boot["setup"]["position_id"],
        "match": boot["setup"]["match_id"],
    }
    again = player.http.get("/analysis", params=q).text
    boot2 = json.loads(re.search(r'id="pe-boot">(.*?)</script>', again, re.S).group(1))  # type: ignore[union-attr]
    assert boot2["setup"] == boot["setup"]
    # a bad link: the page says why, in French, and shows the starting position
    bad = player.http.get("/analysis", params={"xgid": "XGID=zz", "lang": "fr"})
    assert bad.status_code == 200 and "XGID non valide" in bad.text
    # the picture
    svg = player.http.get("/analysis/position.svg", params=q)
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert "4HPwATDgc/ABMA" in svg.text and svg.text.count('class="checker') == 30


@needs_bgsage
def test_a_rollout_on_demand(player: Player) -> None:
    setup = setup_from_board({"board": Setup(Position.initial()).to_json()["board"]})
    body = _editor_body(Setup(setup.position, dice=(3, 1)), trials=36)
    headers = {"X-CSRF-Token": player._csrf_headers(anonymous=True)["X-CSRF-Token"]}
    r = player.http.post("/api/position/rollout", json=body, headers=headers)
    assert r.status_code == 202, r.text
    q = {
        "variant": "standard",
        "pos": "4HPwATDgc/ABMA",
        "match": Setup(setup.position, dice=(3, 1)).match_id(),
    }
    deadline = time.monotonic() + 120
    while True:
        status = player.http.get("/api/position/rollout", params=q).json()
        if status["status"] not in ("queued", "running") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert status["status"] == "done", status
    moves = status["result"]["moves"]
    assert moves[0]["move"] in ("8/5 6/5", "6/5 8/5") and status["result"]["trials"] == 36


def test_a_finished_match_downloads_as_sgf_and_xg(player: Player) -> None:
    sgf = player.http.get(f"/matches/{M7}/sgf")
    assert sgf.status_code == 200, sgf.text[:300]
    assert "attachment" in sgf.headers["content-disposition"]
    back = sgf_to_record(sgf.text)
    original = recorded("standard-7")
    assert back.options.match_length == original.options.match_length == 7
    xg = player.http.get(f"/matches/{M7}/xg")
    assert xg.status_code == 200 and xg.content[:4] == b"RGMH", xg.content[:40]
    from gammon.match.formats.xg import xg_to_record

    assert xg_to_record(xg.content).options.match_length == 7
    missing = player.http.get("/matches/nosuchtable1/sgf")
    assert missing.status_code == 404


def test_every_text_of_the_page_script_is_in_three_languages() -> None:
    from gammon.server.i18n import ENGLISH, MESSAGES, browser_keys

    static = Path(__file__).parents[2] / "src" / "gammon" / "server" / "static" / "position"
    used: set[str] = set()
    for path in static.glob("*.js"):
        used |= set(re.findall(r'\bsay\(\s*"([^"]+)"', path.read_text(encoding="utf-8")))
    assert len(used) > 15
    assert not sorted(used - set(browser_keys("position")))
    for key in browser_keys("position"):
        for lang in ("fr", "it"):
            assert key in MESSAGES[lang], f"{lang} lacks {key}"
        if key.startswith("cube."):
            assert key in ENGLISH


#: The XGIDs of tests/js/fixtures/position_ids.json, then the variants' starting positions
#: with the top seat on roll, 31, in a 3-point match at 1-2.
JS_XGIDS = (
    "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:3:0:7:10",
    "XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8",
    "XGID=-EEE-------------eee------:0:0:1:00:0:0:1:0:10",
    "XGID=aBDB-------------a------eA:3:-1:-1:66:4:2:0:5:10",
    "XGID=-BDB-------------a------e-:0:0:-1:42:4:1:1:5:10",
)


def test_the_browsers_id_fixtures_are_what_the_server_writes() -> None:
    """tests/js/ids.test.mjs checks static/position/ids.js against this file."""
    from gammon.server.analysis.positions import setup_from_xgid

    cases = [setup_from_xgid(x) for x in JS_XGIDS] + [
        Setup(Position.initial(v), seat=1, dice=(3, 1), match_length=3, score=(1, 2))
        for v in ("plakoto", "acey-deucey", "fevga")
    ]
    path = Path(__file__).parents[1] / "js" / "fixtures" / "position_ids.json"
    assert json.loads(path.read_text(encoding="utf-8")) == [s.to_json() for s in cases]
