"""The event loop's watchdog: lateness observed, a held loop logged with where it was
held (the frame of the function that held it), nothing logged for a loop that is not."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from gammon.server.infra.watchdog import LoopWatchdog
from serverkit import run_async


def hold_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # the loop's thread does nothing else meanwhile


async def watched(threshold: float, work: float) -> tuple[LoopWatchdog, list[float]]:
    lags: list[float] = []
    dog = LoopWatchdog(threshold, lags.append)
    dog.start()
    await asyncio.sleep(0.1)
    hold_the_loop(work)
    await asyncio.sleep(0.1)
    await dog.stop()
    return dog, lags


def test_a_held_loop_is_logged_with_the_function_that_held_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="gammon.server.infra.watchdog"):
        dog, lags = run_async(lambda: watched(0.1, 0.4))
    assert max(lags) >= 0.35  # the heartbeat came about 0.4 s late
    [(where, stalls, held)] = dog.report()
    assert "hold_the_loop" in where and stalls == 1 and 0.3 <= held <= 0.6
    [record] = caplog.records
    assert "event loop held" in record.getMessage() and "hold_the_loop" in record.getMessage()


def test_a_loop_that_is_not_held_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="gammon.server.infra.watchdog"):
        dog, lags = run_async(lambda: watched(0.2, 0.05))
    assert dog.report() == [] and not caplog.records
    assert len(lags) >= 10 and max(lags) < 0.2


def test_threshold_zero_measures_lateness_only() -> None:
    dog, lags = run_async(lambda: watched(0.0, 0.3))
    assert dog.report() == [] and max(lags) >= 0.25
    with pytest.raises(ValueError, match="-1"):
        LoopWatchdog(-1)
