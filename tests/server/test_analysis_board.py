"""The analysis board's server side: the replay of a finished match, the analysis stored
(a second request and a restarted server serve it without analysing again), the progress
reported by the worker, the analysers registered by variant, the page for a variant with
none, and the texts the browser code looks up.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any, get_args

import httpx
import pytest

import gammon.server.analysis.runner as runner_module
from gammon import VARIANTS
from gammon.bots.equity import CubeAction
from gammon.match.record import MatchRecord
from gammon.server.analysis import registry as analysers
from gammon.server.analysis.registry import Analyser, analyser_for, analysis_available, register
from gammon.server.analysis.replay import replay_steps
from gammon.server.analysis.runner import AnalysisRunner, progress_fraction
from gammon.server.i18n import ENGLISH, MESSAGES, browser_keys
from gammon.storage import Database, Store
from matchseed import recorded, seed_finished_match
from serverkit import TLS, RunningServer, run_async, start_server
from serverkit import test_settings as settings_in

STATIC = Path(__file__).parents[2] / "src" / "gammon" / "server" / "static"
M7 = "boardM7xxxxx"
PLAKOTO = "boardPlakoto"
PORTES = "boardPortes3"


def _start(tmp_path: Path) -> RunningServer:
    return start_server(settings_in(tmp_path))


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[Path]:
    """A database with three finished matches: standard 7 points, portes, plakoto."""
    url = settings_in(tmp_path).database_url
    seed_finished_match(url, M7, recorded("standard-7"))
    seed_finished_match(url, PORTES, recorded("portes-3"))
    seed_finished_match(url, PLAKOTO, recorded("plakoto-1"))
    return tmp_path


def _stored(tmp_path: Path) -> int:
    db = Database(settings_in(tmp_path).database_url)
    try:
        return Store(db).analyses.count()
    finally:
        db.close()


# ---------------------------------------------------------------------- the replay


def test_the_replay_of_a_7_point_match() -> None:
    record = recorded("standard-7")
    steps = replay_steps(record)
    kinds = [s["kind"] for s in steps]
    assert kinds[0] == "start" and kinds[-1] == "end"
    assert kinds.count("start") == kinds.count("end") >= 2
    assert {"move", "dance", "double", "take"} <= set(kinds)
    for s in steps:
        for seat in (0, 1):
            assert sum(s["board"][seat]) == 15, s  # every checker somewhere (25 bar, 0 off)
        assert s["pinned"] is None and s["waiting"] is None
    moves = [s for s in steps if s["kind"] == "move"]
    assert all(s["r"] is not None and s["r"] < s["i"] and s["dice"] for s in moves)
    assert steps[-1]["score"][steps[-1]["p"]] >= 7
    # a move step shows the board after the move: a roll that cannot be played next leaves it
    pairs = [(a, b) for a, b in pairwise(steps) if (a["kind"], b["kind"]) == ("move", "dance")]
    assert pairs
    assert all(a["board"] == b["board"] for a, b in pairs)
    assert all(a["board"] != b["board"] for a, b in pairwise(moves))


@pytest.mark.parametrize("name", ["tavli-3", "plakoto-1"])
def test_the_greek_opening_roll_off_is_no_dance(name: str) -> None:
    """Issue #33: in portes/plakoto/fevga/tavli the roll-off's winner rolls again: the
    roll-off is a step of its own, with each seat's die and its winner, not "cannot move"."""
    record = recorded(name)
    steps = replay_steps(record)
    first = steps[1]
    assert first["kind"] == "rolloff" and first["i"] == 0
    d1, d2 = first["dice"]["values"]
    assert d1 != d2 and first["p"] == (0 if d1 > d2 else 1) == first["dice"]["seat"]
    assert steps[2]["kind"] in ("move", "dance") and steps[2]["p"] == first["p"]


def test_a_tied_opening_roll_off_is_shown() -> None:
    """Issue #33: a tie in the opening roll-off (rolled again) is a step, not left out."""
    from gammon.dice import Dice
    from gammon.match import Match, Roll, TableOptions

    m = Match(TableOptions(match_length=3, variant="plakoto", cube=False), players=("Ann", "Bob"))
    for a in (Roll(0, Dice(4, 4)), Roll(0, Dice(2, 6))):
        _ = m.push(a)
    steps = replay_steps(m.record())
    assert [(s["kind"], s["p"], s["dice"]["values"]) for s in steps[1:]] == [
        ("rolloff", None, [4, 4]),
        ("rolloff", 1, [2, 6]),
    ]


def test_the_replay_of_a_track_variant_shows_the_pins() -> None:
    steps = replay_steps(recorded("plakoto-1"))
    assert all(s["pinned"] is not None and s["waiting"] == [0, 0] for s in steps)


# ---------------------------------------------------------------------- the registry


def test_board_variants_have_bgsage_the_variants_with_a_net_the_nets_and_tavli_both() -> None:
    names = analysers.analysers()
    for name, v in VARIANTS.items():
        assert (names.get(name) == "bgsage") is v.standard_geometry, name
        if not v.standard_geometry:
            with_net = analysers.has_net(name)
            assert (names.get(name) == "nets") is with_net, name
            assert (analyser_for(name) is not None) is with_net, name
        elif analysis_available():
            found = analyser_for(name)
            assert found is not None and found.name == "bgsage"
    assert {"plakoto", "fevga", "long-nardy"} <= {n for n, a in names.items() if a == "nets"}
    assert names["tavli"] == "by game"


def test_the_registry_refuses_a_second_analyser_and_unknown_variants() -> None:
    with pytest.raises(ValueError, match="tavla already has an analyser"):
        register(Analyser("other", frozenset({"tavla"}), lambda: True, _fake_run))
    with pytest.raises(ValueError, match="unknown variant"):
        register(Analyser("other", frozenset({"chess"}), lambda: True, _fake_run))


def _fake_run(record: MatchRecord, level: str, progress: Any) -> dict[str, Any]:
    progress("moves", 1, 2)
    return {"schema": 1, "fake": record.options.variant, "level": level, "games": []}


def test_a_registered_analyser_plugs_in_for_its_variant(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysers, "_REGISTRY", dict(analysers._REGISTRY))
    del analysers._REGISTRY["plakoto"]  # as a variant with no analyser (jacquet today)
    server = _start(seeded)
    try:
        with httpx.Client(verify=TLS, base_url=server.url, timeout=30) as web:
            page = web.get(f"/matches/{PLAKOTO}/analysis", params={"lang": "fr"})
            assert page.status_code == 200
            assert "L&#39;analyse n&#39;est pas disponible pour" in page.text
            assert "plakoto (grec)" in page.text
            refused = web.get(f"/api/tables/{PLAKOTO}/analysis")
            assert refused.status_code == 404
            assert refused.json()["error"]["code"] == "not_available"
            register(Analyser("test-nets", frozenset({"plakoto"}), lambda: True, _fake_run))
            assert web.get(f"/api/tables/{PLAKOTO}/analysis").json()["fake"] == "plakoto"
            page = web.get(f"/matches/{PLAKOTO}/analysis")
            assert 'data-testid="unavailable"' not in page.text
            assert '"available":true' in page.text
            assert '"fake":"plakoto"' in page.text  # stored, so in the page
    finally:
        server.stop()


# ---------------------------------------------------------------------- stored analyses


@pytest.mark.skipif(not analysis_available(), reason="the analysis needs the bot extra")
def test_an_analysis_is_stored_and_outlives_a_restart(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = _start(seeded)
    try:
        with httpx.Client(verify=TLS, base_url=server.url, timeout=120) as web:
            page = web.get(f"/matches/{PORTES}/analysis")
            assert page.status_code == 200
            assert 'id="ab-analysis">null<' in page.text  # not analysed yet
            assert f'"replay":"/api/tables/{PORTES}/replay"' in page.text
            replay = web.get(f"/api/tables/{PORTES}/replay")
            assert replay.status_code == 200 and replay.json() == json.loads(
                json.dumps(replay_steps(recorded("portes-3")))
            )
            first = web.get(f"/api/tables/{PORTES}/analysis")
            assert first.status_code == 200, first.text
            data = first.json()
            assert data["variant"] == "portes" and data["schema"] == 1
            assert _stored(seeded) == 1
            assert web.get(f"/api/tables/{PORTES}/analysis/progress").json()["status"] == "done"
    finally:
        server.stop()

    def never(*args: Any) -> dict[str, Any]:
        raise AssertionError("analysed again")

    monkeypatch.setattr(runner_module, "analyse_in_worker", never)
    server = _start(seeded)
    try:
        with httpx.Client(verify=TLS, base_url=server.url, timeout=30) as web:
            assert web.get(f"/api/tables/{PORTES}/analysis").json() == data
            page = web.get(f"/matches/{PORTES}/analysis")
            found = re.search(r'id="ab-analysis">(.*?)</script>', page.text)
            assert found and json.loads(found.group(1)) == data
            assert _stored(seeded) == 1
    finally:
        server.stop()


def test_a_match_in_play_or_unknown_is_not_analysed(seeded: Path) -> None:
    server = _start(seeded)
    try:
        with httpx.Client(verify=TLS, base_url=server.url, timeout=30) as web:
            for path in (
                "/matches/{}/analysis",
                "/api/tables/{}/analysis",
                "/api/tables/{}/replay",
            ):
                assert web.get(path.format("nosuchtable1")).status_code == 404
            bad = web.get(f"/api/tables/{M7}/analysis/progress", params={"level": "grandmaster"})
            assert bad.status_code == 400
            assert web.get(f"/api/tables/{M7}/analysis/progress").json() == {
                "status": "none",
                "fraction": 0.0,
            }
    finally:
        server.stop()


# ---------------------------------------------------------------------- progress


def test_progress_fractions_follow_the_stages() -> None:
    assert progress_fraction("cube", 1, 1, "expert") == 0.1
    assert progress_fraction("moves", 0, 0, "expert") == 1.0
    assert progress_fraction("moves", 1, 1, "world-class") == pytest.approx(0.4)
    assert progress_fraction("deep", 0, 8, "world-class") == pytest.approx(0.4)
    assert progress_fraction("unknown", 1, 1, "expert") == 0.0


def test_the_runner_reports_the_workers_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker writes its progress to shared memory; ``progress`` reads it, per analysis."""
    go_on = threading.Event()
    reported = threading.Event()

    def slow(job: int, log_text: str, level: str) -> dict[str, Any]:
        shared = runner_module._WORKER["progress"]
        with shared.get_lock():
            shared[:] = [job, 1, 3, 4]  # "moves", 3 of 4
        reported.set()
        assert go_on.wait(10)
        return {"schema": 1, "log": log_text}

    monkeypatch.setattr(runner_module, "analyse_in_worker", slow)

    async def scenario() -> None:
        runner = AnalysisRunner(0)
        try:
            assert runner.progress("t1", "expert")["status"] == "none"
            first = asyncio.ensure_future(runner.analyse("t1", "expert", "log-1"))
            second = asyncio.ensure_future(runner.analyse("t2", "expert", "log-2"))
            await asyncio.to_thread(reported.wait, 10)
            now = runner.progress("t1", "expert")
            assert now == {
                "status": "running",
                "stage": "moves",
                "done": 3,
                "total": 4,
                "fraction": progress_fraction("moves", 3, 4, "expert"),
            }
            assert runner.progress("t2", "expert") == {"status": "queued", "fraction": 0.0}
            go_on.set()
            assert (await first)["log"] == "log-1"
            assert (await second)["log"] == "log-2"
            assert runner.progress("t1", "expert")["status"] == "done"
            # the same analysis asked twice at once is computed once
            assert await runner.analyse("t1", "expert", "other") == {"schema": 1, "log": "log-1"}
            await runner.forget("t1")
            assert runner.progress("t1", "expert")["status"] == "none"
        finally:
            runner.close()

    run_async(scenario)


# ---------------------------------------------------------------------- texts


def test_every_text_the_board_uses_is_translated() -> None:
    used: set[str] = set()
    for path in (STATIC / "analysis").glob("*.js"):
        code = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bsay\(\s*"([^"]+)"', code))
    assert len(used) > 25
    missing = sorted(used - set(browser_keys("board")))
    assert not missing, missing
    for key in browser_keys("board"):
        for lang in ("fr", "it"):
            assert key in MESSAGES[lang], f"{lang} lacks {key}"
        if "." in key and " " not in key.split(".")[0]:
            assert key in ENGLISH, f"no English for {key}"
    for family, names in {
        "played": ("double", "no double", "take", "drop", "beaver"),
        "stage": tuple(runner_module.STAGES),
        "mark": ("none", "doubtful", "error", "blunder"),
        "cube": get_args(CubeAction),
    }.items():
        for name in names:
            assert f"{family}.{name}" in browser_keys("board")
