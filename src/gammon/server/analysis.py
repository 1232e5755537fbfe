"""Match analysis on the site: finished matches only, off the event loop, kept once done.

Analysing a match evaluates every roll and decision (a few seconds at the
expert level, tens of seconds at world-class), so it runs in its own worker
process (a thread when ``--bot-workers`` is 0), never in the bot pool: bot
seats keep playing while a match is analysed.  A match is analysed only once it
is finished, so the analysis can never be a hint during play.  Results are kept
in memory (the most recent :data:`KEEP`), and two requests for the same
analysis share one computation.
"""

from __future__ import annotations

import asyncio
import importlib.util
import multiprocessing
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

__all__ = ["ANALYSIS_LEVELS", "KEEP", "AnalysisRunner", "analyse_in_worker", "analysis_available"]

#: The levels the site analyses at (the weaker levels judge like expert).
ANALYSIS_LEVELS: Final = ("expert", "world-class")
#: Analyses kept in memory.
KEEP: Final = 64

_ANALYZERS: dict[str, Any] = {}


def analysis_available() -> bool:
    """Whether this installation can analyse (the ``bot`` extra: bgsage)."""
    try:
        return (
            importlib.util.find_spec("bgsage") is not None
            and importlib.util.find_spec("gammon.bots.analysis") is not None
        )
    except ImportError:  # pragma: no cover - a broken installation
        return False


def analyse_in_worker(log_text: str, level: str) -> dict[str, Any]:
    """Run in a worker: the analysis of an action log as JSON-ready data."""
    from gammon.bots.analysis import Analyzer
    from gammon.match.record import read_log

    analyzer = _ANALYZERS.get(level)
    if analyzer is None:
        analyzer = _ANALYZERS[level] = Analyzer(level, threads=1)  # type: ignore[arg-type]
    data: dict[str, Any] = analyzer.analyse(read_log(log_text)).to_dict()
    return data


class AnalysisRunner:
    """One worker for analyses (started on first use) and the analyses done."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Executor | None = None
        self._done: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, str], asyncio.Future[dict[str, Any]]] = {}

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers > 0:
                self._executor = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn")
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="gammon-analysis")
        return self._executor

    def cached(self, table_id: str, level: str) -> dict[str, Any] | None:
        """The analysis if it was done already."""
        found = self._done.get((table_id, level))
        if found is not None:
            self._done.move_to_end((table_id, level))
        return found

    async def analyse(self, table_id: str, level: str, log_text: str) -> dict[str, Any]:
        """The analysis of a finished match's log at ``level`` (computed once).

        The computation belongs to no request: a client that goes away does not
        stop it, and every request for it gets its result.
        """
        key = (table_id, level)
        found = self.cached(table_id, level)
        if found is not None:
            return found
        running = self._running.get(key)
        if running is None:
            loop = asyncio.get_running_loop()
            running = loop.run_in_executor(self._pool(), analyse_in_worker, log_text, level)
            self._running[key] = running
            running.add_done_callback(lambda future: self._finished(key, future))
        return await asyncio.shield(running)

    def _finished(self, key: tuple[str, str], future: asyncio.Future[dict[str, Any]]) -> None:
        self._running.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self._done[key] = future.result()
        while len(self._done) > KEEP:
            self._done.popitem(last=False)

    def close(self) -> None:
        """Stop the worker."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
