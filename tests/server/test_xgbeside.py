"""Issue #32 (H21): XG's own analysis of an imported ``.xg`` file beside gammon's.

Each decision XG analysed lands on the decision gammon's analysis walks for the same
moment (checked against :func:`gammon.bots.analysis.walk.walk_record`, the walk every
analyser judges: same action index, kind, player, game, ply and choice played); bad
entries are left out; the imported match's analysis API and page carry ``"xg"``."""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import replace

import pytest

from gammon.bots.analysis.walk import walk_record
from gammon.match.formats import record_to_xg
from gammon.match.formats.xg import xg_to_record
from gammon.match.record import write_log
from gammon.server.analysis.runner import analysis_available
from gammon.server.analysis.xgbeside import with_xg, xg_decisions
from serverkit import Player, RunningServer
from xgkit import BEST, DOUBLE, NO_REDOUBLE, OTHER, analysed_xg


def test_each_xg_decision_lands_on_gammons_decision() -> None:
    record, data = analysed_xg()
    back = xg_to_record(data)
    assert back.actions == record.actions
    found = xg_decisions(back)
    walk = walk_record(back)
    ours = {(c.action_index, "checker"): (c.player, c.game, c.ply, c.text) for c in walk.checkers}
    ours |= {(c.action_index, c.kind): (c.player, c.game, c.ply, c.played) for c in walk.cubes}
    for d in found:
        key = (d["action_index"], d["kind"])
        assert ours[key] == (d["player"], d["game"], d["ply"], d["played"]), d
    # every move, the double and its answer, and Bo's no redouble (at his roll)
    assert [(d["action_index"], d["kind"]) for d in found] == [
        (1, "checker"),
        (3, "checker"),
        (4, "cube"),
        (5, "response"),
        (7, "checker"),
        (8, "cube"),
        (9, "checker"),
        (11, "checker"),
        (13, "checker"),
    ]
    checkers = [d for d in found if d["kind"] == "checker"]
    assert [d["error"] for d in checkers] == [0.0, BEST - OTHER] * 3
    assert all(d["best"] == d["candidates"][0]["move"] and d["level"] == 2 for d in checkers)
    double, answer, quiet = (d for d in found if d["kind"] != "checker")
    assert (double["no_double"], double["double_take"], double["double_pass"]) == pytest.approx(
        DOUBLE
    )
    assert (double["action"], double["best"], double["level"]) == ("double, take", "double", 1002)
    assert (answer["best"], answer["played"], answer["error"]) == ("take", "take", 0.0)
    assert (quiet["player"], quiet["action"], quiet["error"]) == (1, "no double", 0.0)
    assert quiet["no_double"] == pytest.approx(NO_REDOUBLE[0])


def test_entries_off_their_action_or_malformed_are_left_out() -> None:
    _, data = analysed_xg()
    back = xg_to_record(data)
    good = back.meta["xg_analysis"]
    move = next(e for e in good if e["kind"] == "move")
    cube = next(e for e in good if e["kind"] == "cube")
    bad = [
        {**move, "at": move["at"] - 1},  # the roll, not the play
        {**move, "player": 1 - move["player"]},
        {**move, "at": 10_000},
        {**move, "at": -1},
        {**move, "at": True},
        {**move, "candidates": [{"move": "8/5 6/5", "equity": math.nan}]},
        {**move, "candidates": "8/5"},
        {**cube, "at": cube["at"] + 2},  # a play
        {**cube, "double_take": "0.5"},
        {**move, "kind": "resign"},
        "junk",
        None,
    ]
    assert xg_decisions(replace(back, meta={"xg_analysis": bad})) == []
    assert xg_decisions(replace(back, meta={"xg_analysis": "junk"})) == []


def test_with_xg_leaves_the_analysis_alone() -> None:
    record, data = analysed_xg()
    log = write_log(xg_to_record(data))
    ours = {
        "games": [
            {
                "number": 1,
                "decisions": [{"action_index": 3, "kind": "checker", "best": "24/20 13/11"}],
            }
        ]
    }
    kept = copy.deepcopy(ours)
    out = with_xg(ours, log)
    assert ours == kept and out is not None and out["games"] == ours["games"]
    assert (out["xg"]["compared"], out["xg"]["agree"], out["xg"]["levels"]) == (1, 1, [2, 1002])
    assert with_xg(None, log) is None
    plain = write_log(record)  # our own .xg, no XG analysis
    assert with_xg(ours, plain) is ours
    assert with_xg(ours, write_log(xg_to_record(record_to_xg(record)))) is ours


@pytest.mark.skipif(not analysis_available(), reason="the analysis needs the bot extra")
def test_the_imported_xg_analysis_is_in_the_payload(server: RunningServer) -> None:
    _, data = analysed_xg()
    player = Player(server).guest()
    sent = player.http.post(
        "/import",
        data={"csrf_token": player.csrf},
        files={"file": ("xg.xg", data, "application/octet-stream")},
    )
    assert sent.status_code == 303, sent.text
    where = sent.headers["location"]
    key = where.rsplit("/", 1)[1]
    analysed = player.http.get(f"/api/imports/{key}/analysis?level=expert", timeout=120)
    assert analysed.status_code == 200
    body = analysed.json()
    xg = body["xg"]
    assert len(xg["decisions"]) == 9 and xg["levels"] == [2, 1002]
    judged = {(d["action_index"], d["kind"]): d for g in body["games"] for d in g["decisions"]}
    for d in xg["decisions"]:
        gammon = judged.get((d["action_index"], d["kind"]))
        assert d["agree"] == (None if gammon is None else d["best"] == gammon["best"])
        if gammon is not None:
            assert (gammon["player"], gammon["game"], gammon["ply"]) == (
                d["player"],
                d["game"],
                d["ply"],
            )
            assert gammon["played"] == d["played"]
    assert xg["compared"] == sum(d["agree"] is not None for d in xg["decisions"]) >= 6
    assert xg["agree"] == sum(d["agree"] is True for d in xg["decisions"])
    # stored: the page holds the same, XG beside it
    page = player.http.get(where).text
    found = re.search(r'id="ab-analysis">(.*?)</script>', page)
    assert found and json.loads(found.group(1)) == body
    player.close()
