"""The serving process's garbage collection policy (gammon.server.run)."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref

import pytest

from gammon.server.run import GC_THRESHOLDS, SWITCH_INTERVAL, collect_old, serving_runtime
from serverkit import run_async


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_the_old_generations_are_left_to_the_timed_full_collection() -> None:
    # the young collections stay frequent, the automatic old ones practically never run
    young, middle, old = GC_THRESHOLDS
    assert young <= 1000 and middle >= 100_000 and old >= 100_000


def test_a_full_collection_on_its_timer_frees_a_cycle_no_automatic_one_would() -> None:
    def cycle() -> weakref.ref[_Node]:
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        return weakref.ref(a)

    async def run() -> tuple[bool, bool]:
        gc.disable()  # only collect_old may free it
        try:
            ref = cycle()
            await asyncio.sleep(0.05)
            before = ref() is not None
            task = asyncio.create_task(collect_old(0.02))
            await asyncio.sleep(0.2)
            task.cancel()
            return before, ref() is None
        finally:
            gc.enable()

    alive_before, freed = run_async(run)
    assert alive_before and freed


def test_the_serving_settings_are_put_back_even_when_serving_fails() -> None:
    # a thread waiting for the interpreter lock (the database's) gets it within a
    # millisecond of asking, not Python's default 5 ms
    assert SWITCH_INTERVAL <= 0.001 < sys.getswitchinterval()
    before = (gc.get_threshold(), sys.getswitchinterval())
    seen: list[tuple[tuple[int, int, int], float]] = []

    def serve() -> None:
        with serving_runtime():
            seen.append((gc.get_threshold(), sys.getswitchinterval()))
            raise RuntimeError("the server stopped")

    with pytest.raises(RuntimeError):
        serve()
    assert seen == [(GC_THRESHOLDS, SWITCH_INTERVAL)]
    assert (gc.get_threshold(), sys.getswitchinterval()) == before
