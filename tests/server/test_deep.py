"""Deep work on demand (gammon.server.analysis.deep, gammon.server.web.deep): the grandmaster analysis
and single-decision rollouts through the JSON API: started, progress, cancel, the stored
result (a second request does not run it again), one job a person, a bounded site, and
clear errors for bad input.  The rollouts are real (bgsage, 36 trials: a few seconds); the
grandmaster analysis of a whole match takes minutes here, so its worker is replaced by a
controllable one (the real one is tested in tests/bots/test_grandmaster.py).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import gammon.server.web.deep as web_deep
from gammon.server.analysis import deep
from gammon.server.analysis.deep import DeepCancelledError, DeepRunner
from gammon.server.analysis.registry import analysis_available
from gammon.server.protocol import ServerError
from gammon.storage import Database, Store
from matchseed import recorded, seed_finished_match
from serverkit import Player, RunningServer, run_async, start_server
from serverkit import test_settings as settings_in

M7 = "deepM7xxxxxx"
M7B = "deepM7bxxxxx"
PLAKOTO = "deepPlakoto1"

needs_bgsage = pytest.mark.skipif(
    not analysis_available(), reason="rollouts and analyses need the bot extra (bgsage)"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    url = settings_in(tmp_path).database_url
    seed_finished_match(url, M7, recorded("standard-7"))
    seed_finished_match(url, M7B, recorded("standard-7"))
    seed_finished_match(url, PLAKOTO, recorded("plakoto-1"))
    running = start_server(settings_in(tmp_path))
    yield running
    running.stop()


def _wait(player: Player, path: str, until: set[str], timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = player.http.get(path)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] in until or time.monotonic() > deadline:
            return body
        time.sleep(0.1)


class FakeGrandmaster:
    """A grandmaster analysis that reports progress and waits to be let go (or cancelled)."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.go = threading.Event()
        self.runs = 0

    def __call__(self, job: int, log_text: str) -> dict[str, Any]:
        self.runs += 1
        for done in range(1, 100_000):
            if deep._report(job, 1, done, 1000):  # stage "moves"
                raise DeepCancelledError("cancelled")
            if done >= 3:
                self.reached.set()
                if self.go.is_set():
                    break
            time.sleep(0.01)
        lines = log_text.count("\n")
        return {"schema": 1, "level": "grandmaster", "games": [], "totals": [], "lines": lines}


# ---------------------------------------------------------------------- grandmaster


def test_grandmaster_analysis_start_progress_cancel_and_store(
    server: RunningServer,
    players: Callable[[], Player],
    members: Callable[[], Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeGrandmaster()
    monkeypatch.setattr(web_deep, "deep_analysis_in_worker", fake)
    monkeypatch.setattr(web_deep, "deep_available", lambda variant: variant == "standard")
    # Bob has an account: the guests of one address are one owner of deep work
    ann, bob = players(), members()
    base = f"/api/tables/{M7}/deep"
    assert ann.http.get(base).json() == {"status": "none", "fraction": 0.0}

    started = ann.post(base, {})
    assert started.status_code == 202, started.text
    assert started.json()["status"] in ("queued", "running")
    assert fake.reached.wait(20)
    running = ann.http.get(base).json()
    assert running["status"] == "running" and running["stage"] == "moves"
    assert running["total"] == 1000 and 3 <= running["done"] <= 1000
    assert 0.05 < running["fraction"] < 0.5  # the "moves" stage of a deep level

    # one job a person: Ann's second job is refused; Bob joins hers but may not cancel it
    busy = ann.post(f"/api/tables/{M7B}/deep", {})
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "busy"
    joined = bob.post(base, {})
    assert joined.status_code == 202 and joined.json()["status"] == "running"
    refused = bob.post(f"{base}/cancel", {})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"

    # Ann cancels: the worker stops at its next report, nothing is stored
    assert ann.post(f"{base}/cancel", {}).json()["status"] == "cancelling"
    assert _wait(ann, base, {"cancelled"}, 20)["status"] == "cancelled"
    missing = ann.http.get(f"/api/tables/{M7}/analysis", params={"level": "grandmaster"})
    assert missing.status_code == 409 and missing.json()["error"]["code"] == "not_analysed"

    # again, to the end: stored beside the other levels, served without running again
    fake.reached.clear()
    fake.go.set()
    assert ann.post(base, {}).status_code == 202
    assert _wait(ann, base, {"done", "failed", "cancelled"}, 20)["status"] == "done"
    assert fake.runs == 2
    data = ann.http.get(f"/api/tables/{M7}/analysis", params={"level": "grandmaster"}).json()
    # the worker had the match's action log (a line an action, and the header)
    assert data["level"] == "grandmaster" and data["lines"] >= len(recorded_lines())
    again = bob.post(base, {})
    assert again.status_code == 200 and again.json()["status"] == "done"
    assert fake.runs == 2
    page = bob.http.get(f"/matches/{M7}/analysis", params={"level": "grandmaster"})
    assert page.status_code == 200
    found = re.search(r'id="ab-analysis">(.*?)</script>', page.text)
    assert found and json.loads(found.group(1)) == data
    boot = re.search(r'id="ab-boot">(.*?)</script>', page.text)
    assert boot and json.loads(boot.group(1))["deep"]["stored"] is True
    db = Database(server.settings.database_url)
    try:
        assert Store(db).analyses.get(M7, "grandmaster", 1) is not None
    finally:
        db.close()


def recorded_lines() -> list[str]:
    text = (Path(__file__).parents[1] / "data" / "analysis" / "standard-7.jsonl").read_text()
    return text.splitlines()


def test_deep_work_refuses_bad_input(server: RunningServer, players: Callable[[], Player]) -> None:
    ann = players()
    no_body = ann.post(f"/api/tables/{M7}/deep", {"level": "grandmaster"})
    assert no_body.status_code == 400 and no_body.json()["error"]["code"] == "bad_message"
    plakoto = ann.post(f"/api/tables/{PLAKOTO}/deep", {})
    assert plakoto.status_code == 404 and plakoto.json()["error"]["code"] == "not_available"
    assert "plakoto" in plakoto.json()["error"]["message"]
    unknown = ann.post("/api/tables/nosuchtable1/deep", {})
    assert unknown.status_code == 404
    no_csrf = ann.http.post(f"/api/tables/{M7}/deep", json={})
    assert no_csrf.status_code == 403 and no_csrf.json()["error"]["code"] == "csrf"
    bad_level = ann.http.get(f"/api/tables/{M7}/analysis/progress", params={"level": "grand"})
    assert bad_level.status_code == 400
    for body, code in (
        ({"decision": "twelve"}, "bad_message"),
        ({"decision": "12:resign"}, "bad_message"),
        ({"decision": 12}, "bad_message"),
        ({"decision": "12:checker", "trials": 10}, "bad_message"),
        ({"decision": "12:checker", "trials": 10**6}, "bad_message"),
        ({"decision": "12:checker", "extra": 1}, "bad_message"),
    ):
        r = ann.post(f"/api/tables/{M7}/rollouts", body)
        assert r.status_code == 400 and r.json()["error"]["code"] == code, (body, r.text)
    imported = ann.http.get("/api/imports/nosuchimport/rollouts")
    assert imported.status_code == 404
    # a trials figure that str.isdigit() takes but int() refuses: the default, never a 500
    for trials in ("²", "٣", "-36"):
        page = ann.http.get(f"/matches/{M7}/analysis", params={"trials": trials})
        assert page.status_code == 200, (trials, page.status_code)


@needs_bgsage
def test_a_rollout_needs_the_analysis_first(
    server: RunningServer, players: Callable[[], Player]
) -> None:
    ann = players()
    r = ann.post(f"/api/tables/{M7B}/rollouts", {"decision": "1:checker", "trials": 36})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_analysed"


# ---------------------------------------------------------------------- rollouts


def _decisions(analysis: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [d for g in analysis["games"] for d in g["decisions"] if d["kind"] == kind]


@needs_bgsage
def test_rolling_out_decisions_stores_them_and_a_cancel_stores_nothing(
    server: RunningServer,
    players: Callable[[], Player],
    members: Callable[[], Player],
) -> None:
    # Bob has an account: the guests of one address are one owner of deep work
    ann, bob = players(), members()
    analysis = ann.http.get(f"/api/tables/{M7}/analysis", timeout=180).json()
    base = f"/api/tables/{M7}/rollouts"
    checker = next(d for d in _decisions(analysis, "checker") if len(d["candidates"]) >= 3)
    key = f"{checker['action_index']}:checker"
    assert ann.http.get(base, params={"decision": key}).json()["status"] == "none"

    started = ann.post(base, {"decision": key, "trials": 36})
    assert started.status_code == 202, started.text
    # one job a person: Ann's second rollout waits for the first to end
    other = f"{_decisions(analysis, 'checker')[-1]['action_index']}:checker"
    busy = ann.post(base, {"decision": other, "trials": 36})
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "busy"
    done = _wait(ann, f"{base}?decision={key}", {"done", "failed", "cancelled"})
    assert done["status"] == "done", done
    result = done["result"]
    assert result["kind"] == "checker" and result["decision"] == key
    assert result["played"] == checker["played"]
    assert result["trials"] == 36 and result["trials_done"] == 36 * len(result["moves"])
    moves = [m["move"] for m in result["moves"]]
    assert checker["played"] in moves and len(moves) >= 2
    assert checker["candidates"][0]["move"] in moves  # the best at the analysis' level
    equities = [m["equity"] for m in result["moves"]]
    assert equities == sorted(equities, reverse=True)
    for m in result["moves"]:
        assert -3 < m["equity"] < 3 and 0 < m["ci"] < 0.5 and 0 <= m["win"] <= 1

    # stored: a second request (anyone's) gets it at once, and the page has it
    again = bob.post(base, {"decision": key, "trials": 36})
    assert again.status_code == 200 and again.json()["result"] == result
    assert bob.http.get(base).json() == {"rollouts": {key: result}}
    page = bob.http.get(f"/matches/{M7}/analysis")
    boot = re.search(r'id="ab-boot">(.*?)</script>', page.text)
    assert boot and json.loads(boot.group(1))["deep"]["rollouts"] == {key: result}

    # a cube decision (the doubler's no double / double, take / double, pass)
    cube = _decisions(analysis, "cube")[0]
    cube_key = f"{cube['action_index']}:cube"
    assert ann.post(base, {"decision": cube_key, "trials": 36}).status_code == 202
    cubed = _wait(ann, f"{base}?decision={cube_key}", {"done", "failed", "cancelled"})
    assert cubed["status"] == "done", cubed
    rolled = cubed["result"]["cube"]
    assert rolled["action"] in ("no double", "double, take", "double, pass")
    assert rolled["double_pass"] == pytest.approx(1.0, abs=1e-3)  # per unit of cube
    assert 0 < rolled["ci"] < 0.5 and cubed["result"]["moves"] == []

    # a long rollout cancelled while it runs: it stops, and nothing is stored
    early = [d for d in _decisions(analysis, "checker") if 4 <= d["ply"] <= 12]
    long_key = f"{early[-1]['action_index']}:checker"  # contact: slow to roll out
    assert long_key != key
    assert ann.post(base, {"decision": long_key, "trials": 1296}).status_code == 202
    deadline = time.monotonic() + 60
    running = _wait(ann, f"{base}?decision={long_key}", {"running"}, 60)
    while running.get("done", 0) == 0 and time.monotonic() < deadline:  # trials reported
        running = _wait(ann, f"{base}?decision={long_key}", {"running"}, 60)
    assert running["status"] == "running" and running["total"] >= 2 * 1296
    assert 0 < running["done"] < running["total"]
    assert running["fraction"] == pytest.approx(running["done"] / running["total"], abs=1e-5)
    assert bob.post(f"{base}/cancel", {"decision": long_key}).status_code == 403
    assert ann.post(f"{base}/cancel", {"decision": long_key}).status_code == 200
    stopped = _wait(ann, f"{base}?decision={long_key}", {"cancelled", "done", "failed"}, 60)
    assert stopped["status"] == "cancelled"
    db = Database(server.settings.database_url)
    try:
        assert sorted(Store(db).rollouts.of_subject(M7)) == sorted([key, cube_key])
    finally:
        db.close()


# ---------------------------------------------------------------------- the runner


def test_the_runner_bounds_the_site_and_one_job_a_person() -> None:
    gate = threading.Event()

    def slow(job: int) -> dict[str, Any]:
        assert gate.wait(10)
        return {"job": job}

    async def scenario() -> None:
        runner = DeepRunner(processes=False)
        kept: list[dict[str, Any]] = []

        async def keep(data: dict[str, Any]) -> None:
            kept.append(data)

        try:
            for n in range(deep.MAX_JOBS):
                runner.start((f"t{n}", "grandmaster"), f"owner{n}", "analysis", slow, (), keep)
            assert runner.jobs == deep.MAX_JOBS
            with pytest.raises(ServerError) as full:
                runner.start(("t99", "grandmaster"), "owner99", "analysis", slow, (), keep)
            assert full.value.code == "rate_limited"
            with pytest.raises(ServerError) as busy:
                runner.start(("t98", "grandmaster"), "owner0", "analysis", slow, (), keep)
            assert busy.value.code == "busy"
            # the same work asked again joins the job
            assert runner.start(("t1", "grandmaster"), "owner99", "analysis", slow, (), keep)
            # a queued job cancelled is dropped before it runs
            assert runner.status(("t5", "grandmaster"))["status"] == "queued"
            runner.cancel(("t5", "grandmaster"), "owner5")
            gate.set()
            for n in range(deep.MAX_JOBS):
                await runner.wait((f"t{n}", "grandmaster"))
            assert runner.status(("t5", "grandmaster"))["status"] == "cancelled"
            assert runner.status(("t0", "grandmaster"))["status"] == "done"
            assert sorted(d["job"] for d in kept) == [1, 2, 3, 4, 5, 7, 8]
            assert runner.jobs == 0
        finally:
            runner.close()
            await asyncio.sleep(0)

    run_async(scenario)


@needs_bgsage
def test_the_real_grandmaster_worker_reports_progress_and_stops_when_cancelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker function the site runs: it writes its progress to the shared memory and
    raises DeepCancelledError at its next report once the cancel slot names its job."""
    import multiprocessing

    shared = multiprocessing.get_context("spawn").Array("d", 5)
    shared[4] = -1
    monkeypatch.setitem(deep._WORKER, "progress", shared)
    text = (Path(__file__).parents[1] / "data" / "analysis" / "standard-7.jsonl").read_text()
    seen: list[tuple[float, ...]] = []
    stop = threading.Event()

    def canceller() -> None:
        while not stop.is_set():
            with shared.get_lock():
                now = tuple(shared[:])
            if now[0] == 7 and now[2] > 0:  # job 7 reported some progress: cancel it
                seen.append(now)
                shared[4] = 7
                return
            time.sleep(0.01)

    thread = threading.Thread(target=canceller)
    thread.start()
    started = time.monotonic()
    try:
        with pytest.raises(DeepCancelledError):
            deep.deep_analysis_in_worker(7, text)
    finally:
        stop.set()
        thread.join()
    assert seen and seen[0][3] > 0  # done of total, in a stage
    assert time.monotonic() - started < 120
