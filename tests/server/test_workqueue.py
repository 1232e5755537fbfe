"""The bounded, fair work queues (issue #20): heavy keys cannot starve a light one, and
a bot's thinking stops at its budget."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import statistics
import time
from dataclasses import replace
from pathlib import Path

import pytest

from gammon import Position
from gammon.dice import Dice
from gammon.match import TableOptions, new_match
from gammon.server.infra.workqueue import WorkQueue
from gammon.server.protocol import ServerError
from gammon.server.table.bots import bots_available, choose_in_worker
from serverkit import run_async


def test_a_light_key_is_served_before_heavy_ones() -> None:
    """Ten keys keep a worker busy with 0.2 s jobs; an eleventh key's job waits for the
    running job only, not for the ten (first come, first served: about 2 s)."""

    async def scenario() -> float:
        queue = WorkQueue("test", workers=1, per_key=2)
        stop = time.monotonic() + 3

        async def heavy(key: int) -> None:
            while time.monotonic() < stop:
                await queue.run(key, time.sleep, 0.2)

        loops = [asyncio.create_task(heavy(k)) for k in range(10)]
        await asyncio.sleep(2.2)  # every heavy key has used the worker
        started = time.monotonic()
        await queue.run("light", time.sleep, 0.01)
        waited = time.monotonic() - started
        await asyncio.gather(*loops)
        queue.close(wait=True)
        return waited

    assert run_async(scenario) < 0.6


def test_a_key_may_have_only_a_few_jobs_waiting() -> None:
    async def scenario() -> list[object]:
        queue = WorkQueue("test", workers=1, per_key=2)
        try:
            jobs = [queue.run("k", time.sleep, 0.05) for _ in range(4)]
            return list(await asyncio.gather(*jobs, return_exceptions=True))
        finally:
            queue.close(wait=True)

    results = run_async(scenario)
    refused = [r for r in results if isinstance(r, ServerError)]
    assert len(refused) == 1 and refused[0].code == "rate_limited"  # one runs, two wait


@pytest.mark.skipif(not bots_available(), reason="needs the bot extra")
def test_a_bots_thinking_stops_at_its_budget() -> None:
    """In a worker process, a decision past its budget gives None (the server then plays
    a safe action) instead of holding the worker for as long as it takes."""
    match = new_match(TableOptions(variant="acey-deucey", cube=False))
    # a middle game where the 1-2 and the double of one's choice give ~13,000 moves
    position = Position.from_position_id("QIBys0RgIEEDAA:w7.3", "acey-deucey")
    game = replace(match.game, phase="moving", position=position, turn=0, dice=Dice(1, 2))
    match = replace(match, game=game)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        pool.submit(int).result()  # the worker is up
        started = time.monotonic()
        action = pool.submit(
            # 0.05 s: listing the ~13,000 moves alone takes longer (the whole decision about
            # half a second of CPU), so no machine finishes within the budget
            choose_in_worker,
            match,
            match.game.turn,
            "world-class",
            Dice(1, 2),
            0.05,
        ).result()
        took = time.monotonic() - started
    assert action is None and took < 2.0


@pytest.mark.parametrize("processes", [False, True])
def test_each_worker_runs_the_queues_initializer(processes: bool) -> None:
    """The initializer (here the deep work's: its shared memory) runs in each worker as it
    starts; a worker process still gets its lower priority first."""
    import os

    from gammon.server.analysis import deep

    shared = multiprocessing.get_context("spawn").Array("d", 5)
    shared[4] = 5  # job 5 is to be cancelled: the worker says so once it has the memory

    async def scenario() -> tuple[bool, int]:
        queue = WorkQueue(
            "init", 1, processes=processes, initializer=deep._init_worker, initargs=(shared,)
        )
        try:
            told = await queue.run("k", deep._report, 5, 1, 2, 3)
            return told, await queue.run("k", os.nice, 0)
        finally:
            queue.close(wait=True)

    try:
        told, niceness = run_async(scenario)
    finally:
        deep._WORKER.pop("progress", None)  # a thread worker set it in this process
    assert told is True and shared[:4] == [5.0, 1.0, 2.0, 3.0]
    base = os.nice(0)
    assert niceness == (min(19, base + 10) if processes else base)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="CPU priorities are POSIX's")
def test_a_started_worker_is_lowered_by_its_parent_at_once() -> None:
    """The queue lowers a worker process's priority from the server's side as soon as it
    has started it, before the worker's own imports (the second or so of CPU each worker
    takes to start must not compete with the event loop: docs/server.md): a spawned child
    that never lowers itself is found lowered."""
    from gammon.server.infra import workqueue

    base = os.getpriority(os.PRIO_PROCESS, 0)
    target = min(19, base + workqueue.WORKER_NICENESS)
    child = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(30,))
    child.start()
    try:
        assert child.pid is not None
        workqueue._lower_children(target)
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == target
        workqueue._lower_children(target)  # never raised again, never lowered twice
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == target
    finally:
        child.terminate()
        child.join(10)
    assert os.getpriority(os.PRIO_PROCESS, 0) == base  # the server keeps its own


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (exited or a zombie not yet reaped)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            return "\nState:\tZ" in status.read()
    except (FileNotFoundError, ProcessLookupError):  # reaped before the open, or the read
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc to see the worker end")
def test_closing_stops_a_worker_process_at_once() -> None:
    """A server that stops leaves no worker process running on with a job (an export, a
    rollout) nobody waits for: its worker is stopped and the job cancelled; with ``wait``
    the job finishes."""

    async def scenario(wait: bool) -> tuple[int, float, str]:
        queue = WorkQueue("close", 1, processes=True)
        pid = await queue.run("k", os.getpid)
        job = asyncio.ensure_future(queue.run("k", time.sleep, 1.5 if wait else 60))
        await asyncio.sleep(0.3)  # the job is running
        started = time.monotonic()
        queue.close(wait=wait)
        while not _gone(pid) and time.monotonic() - started < 30:
            await asyncio.sleep(0.05)
        took = time.monotonic() - started
        try:
            await asyncio.wait_for(job, 5)
            outcome = "done"
        except asyncio.CancelledError:
            outcome = "cancelled"
        return pid, took, outcome

    pid, took, outcome = run_async(lambda: scenario(False))
    assert _gone(pid) and took < 5 and outcome == "cancelled"
    pid, took, outcome = run_async(lambda: scenario(True))
    assert _gone(pid) and took >= 1.0 and outcome == "done"


_ORPHAN_SCRIPT = """
import asyncio, os, sys
from gammon.server.infra.workqueue import WorkQueue

async def main() -> None:
    queue = WorkQueue("orphan", 1, processes=True)
    print(await queue.run("k", os.getpid), flush=True)
    await asyncio.sleep(60)  # killed here, its worker idle

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc to see the worker end")
def test_a_worker_process_ends_with_a_killed_parent(tmp_path: Path) -> None:
    """SIGKILL to the server leaves no worker process behind (issue #20: orphans held
    ``gammon serve``'s output pipe open, and a restart test waited on it for ever)."""
    import signal
    import subprocess
    import sys

    script = tmp_path / "parent.py"
    script.write_text(_ORPHAN_SCRIPT, encoding="utf-8")
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert not _gone(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        started = time.monotonic()
        while not _gone(worker) and time.monotonic() - started < 10:
            time.sleep(0.05)
        assert _gone(worker), f"worker {worker} outlived its killed parent"
    finally:
        parent.kill()
        parent.wait(10)
        if parent.stdout is not None:
            parent.stdout.close()


def _quick_key_waits(quick_workers: int) -> list[float]:
    """Six keys keep the worker busy with 0.5 s jobs (over ``quick_below``) for 4 s; a quiet
    key asks for a 0.02 s job every 0.1 s once they are known as slow: how long each of
    its jobs took, from asking to the answer."""

    async def scenario() -> list[float]:
        queue = WorkQueue("test", workers=1, per_key=2, quick_workers=quick_workers)
        queue.quick_below = 0.3
        for k in range(6):
            queue.charge(k, 0.5)  # their jobs are known to be long
        queue.charge("quiet", 0.02)  # and the quiet key's short
        stop = time.monotonic() + 4

        async def heavy(key: int) -> None:
            while time.monotonic() < stop:
                await queue.run(key, time.sleep, 0.5)

        loops = [asyncio.create_task(heavy(k)) for k in range(6)]
        waits = []
        await asyncio.sleep(0.5)
        while time.monotonic() < stop - 0.5:
            started = time.monotonic()
            await queue.run("quiet", time.sleep, 0.02)
            waits.append(time.monotonic() - started)
            await asyncio.sleep(0.1)
        await asyncio.gather(*loops)
        queue.close(wait=True)
        return waits

    return run_async(scenario)


def test_a_quick_key_never_waits_behind_a_long_job() -> None:
    """With a quick worker a quick key's job runs at once, however many long jobs are
    queued or running; without one it waits for the running long job (up to 0.5 s)."""
    # the two queues run side by side (their jobs sleep: neither takes CPU from the other)
    with concurrent.futures.ThreadPoolExecutor(2) as both:
        with_quick = both.submit(_quick_key_waits, 1)
        without_quick = both.submit(_quick_key_waits, 0)
        waits, without = sorted(with_quick.result()), sorted(without_quick.result())
    assert len(waits) >= 10 and waits[-1] < 0.2, waits
    assert without[len(without) // 2] > 0.1, without  # the control: the test can fail


def test_a_key_whose_jobs_turn_long_leaves_the_quick_workers() -> None:
    async def scenario() -> tuple[bool, bool]:
        queue = WorkQueue("test", workers=1, quick_workers=1)
        queue.quick_below = 0.1
        try:
            await queue.run("k", time.sleep, 0.01)
            quick = queue.is_quick("k")
            await queue.run("k", time.sleep, 0.3)
            return quick, queue.is_quick("k")
        finally:
            queue.close(wait=True)

    assert run_async(scenario) == (True, False)
    # a key not seen yet is not quick: its first job shows what it is
    assert WorkQueue("test", workers=1, quick_workers=1).is_quick("new") is False


@pytest.mark.skipif(not bots_available(), reason="needs the bot extra")
def test_a_quiet_tables_bot_is_not_held_up_by_heavy_bots() -> None:
    """Four tables' expert bots at an acey-deucey 1-2 (the hand-made bot scores each of
    its 13,223 plays: half a second or more each decision, at most their 2.5 s budget;
    the world-class net's staged search takes a few ms) keep the bot worker busy; a quiet table's expert
    bot answers each decision in a fraction of that all the same (on the quick worker), in
    real worker processes.  Without the quick worker it waits for the running heavy
    decision: half of one, on average."""
    from gammon.server.table.bots import BotRunner

    heavy = new_match(TableOptions(variant="acey-deucey", cube=False))
    position = Position.from_position_id("QIBys0RgIEEDAA:w7.3", "acey-deucey")
    heavy = replace(
        heavy, game=replace(heavy.game, phase="moving", position=position, turn=0, dice=Dice(1, 2))
    )
    quiet = new_match(TableOptions(match_length=3))
    start = Position.initial()

    async def scenario() -> tuple[list[float], list[float]]:
        runner = BotRunner(1, budget=2.5)
        runner.queue.quick_below = 0.3  # the heavy decisions take more, on any machine
        try:
            # both pools up (a worker process starts in a second or two, more when busy)
            await runner.queue.started()
            await runner.choose(quiet, 0, "expert", Dice(3, 1), key="quiet")
            stop = time.monotonic() + 7
            heavy_took: list[float] = []

            async def loop(key: int) -> None:
                while time.monotonic() < stop:
                    started = time.monotonic()
                    await runner.choose(heavy, 0, "expert", Dice(1, 2), key=key)
                    heavy_took.append(time.monotonic() - started)

            for k in range(4):
                runner.queue.charge(k, 2.5)  # known to be slow
            loops = [asyncio.create_task(loop(k)) for k in range(4)]
            await asyncio.sleep(0.5)
            took = []
            for d1, d2 in ((6, 4), (5, 2), (4, 1), (6, 3), (5, 3), (2, 1)):
                game = replace(
                    quiet.game, phase="moving", position=start, turn=0, dice=Dice(d1, d2)
                )
                started = time.monotonic()
                action = await runner.choose(
                    replace(quiet, game=game), 0, "expert", Dice(d1, d2), key="quiet"
                )
                took.append(time.monotonic() - started)
                assert action is not None
                await asyncio.sleep(0.7)
            await asyncio.gather(*loops)
            return took, heavy_took
        finally:
            await asyncio.to_thread(runner.close)

    took, heavy_took = run_async(scenario)
    # the heavy decisions ran one at a time, a while each (so waiting for one would show;
    # the median, since a position's 1-2 may now and then be quicker to judge)
    each = statistics.median(heavy_took) if heavy_took else 0.0
    assert len(heavy_took) >= 3 and each > 0.3, heavy_took
    assert max(took) < each / 2, (took, heavy_took)
