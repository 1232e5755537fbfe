"""The bounded, fair work queues (issue #20): heavy keys cannot starve a light one, and
a bot's thinking stops at its budget."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import time
from dataclasses import replace

import pytest

from gammon import Position
from gammon.dice import Dice
from gammon.match import TableOptions, new_match
from gammon.server.bots import bots_available, choose_in_worker
from gammon.server.protocol import ServerError
from gammon.server.workqueue import WorkQueue
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
            choose_in_worker, match, match.game.turn, "world-class", Dice(1, 2), 0.3
        ).result()
        took = time.monotonic() - started
    assert action is None and took < 2.0


@pytest.mark.parametrize("processes", [False, True])
def test_each_worker_runs_the_queues_initializer(processes: bool) -> None:
    """The initializer (here the deep work's: its shared memory) runs in each worker as it
    starts; a worker process still gets its lower priority first."""
    import os

    from gammon.server import deep

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
