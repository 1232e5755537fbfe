"""Match analysis on the site: finished matches only, off the event loop, stored once done.

Analysing a match evaluates every roll and decision (a few seconds at the
expert level, tens of seconds at world-class), so it runs in its own worker
process (a thread when ``--bot-workers`` is 0), never in the bot pool: bot
seats keep playing while a match is analysed.  A match is analysed only once it
is finished, so the analysis can never be a hint during play.  The analyser is
the one registered for the match's variant (:mod:`gammon.server.analysers`).

A finished analysis is written to the database (``analyses``) and the most recent
:data:`KEEP` stay in memory, so a second visit is instant, after a restart too; two
requests for the same analysis share one computation.  While it runs, the worker
reports its progress through shared memory, which :meth:`AnalysisRunner.progress`
reads (the analysis page polls it).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final

from gammon.match.record import read_log
from gammon.server.analysers import ANALYSIS_LEVELS, analyser_for, analysis_available
from gammon.server.workqueue import follow_parent

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import SynchronizedArray

    from gammon.storage import Database, Store

__all__ = [
    "ANALYSIS_LEVELS",
    "KEEP",
    "SCHEMA",
    "STAGES",
    "AnalysisRunner",
    "analyse_in_worker",
    "analysis_available",
    "progress_fraction",
]

#: Analyses kept in memory.
KEEP: Final = 64
#: The schema version of the analyses stored (``gammon.bots.analysis.SCHEMA_VERSION``).
SCHEMA: Final = 1
#: The stages of an analysis, in order, with their share of the work at 1 ply and deeper.
STAGES: Final = {"cube": (0.1, 0.05), "moves": (0.9, 0.35), "deep": (0.0, 0.6)}

# the worker's progress: [job number, stage index, done, total] (one job runs at a time)
_SLOTS: Final = 4
_WORKER: dict[str, SynchronizedArray[float]] = {}


def _init_worker(shared: SynchronizedArray[float]) -> None:
    follow_parent()  # in the worker process: it ends with the server, however that ends
    _WORKER["progress"] = shared


def progress_fraction(stage: str, done: int, total: int, level: str) -> float:
    """How far an analysis at ``level`` is, from 0 to 1, at ``done`` of ``total`` of ``stage``.

    >>> progress_fraction("cube", 0, 10, "expert"), progress_fraction("moves", 5, 10, "expert")
    (0.0, 0.55)
    >>> progress_fraction("deep", 10, 10, "world-class")
    1.0
    """
    deep = 0 if level == "expert" else 1
    before = 0.0
    for name, weights in STAGES.items():
        if name == stage:
            share = weights[deep] * (done / total if total else 1.0)
            return round(min(1.0, before + share), 6)
        before += weights[deep]
    return 0.0


def analyse_in_worker(job: int, log_text: str, level: str) -> dict[str, Any]:
    """Run in a worker: the analysis of an action log as JSON-ready data.

    The progress goes to the shared array given to the worker at its start (if any).
    """
    record = read_log(log_text)
    analyser = analyser_for(record.options.variant)
    if analyser is None:  # checked by the routes before: the registry is the same here
        raise ValueError(f"no analyser for {record.options.variant}")
    names = list(STAGES)

    shared = _WORKER.get("progress")

    def report(stage: str, done: int, total: int) -> None:
        if shared is not None:
            with shared.get_lock():
                shared[:] = [job, names.index(stage) if stage in names else 0, done, total]

    return analyser.run(record, level, report)


class AnalysisRunner:
    """One worker for analyses (started on first use), the analyses done and those running."""

    def __init__(self, workers: int, db: Database | None = None, store: Store | None = None):
        self.workers = workers
        self._db = db
        self._store = store
        self._executor: Executor | None = None
        self._shared: SynchronizedArray[float] | None = None
        self._done: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, str], asyncio.Task[dict[str, Any]]] = {}
        self._jobs: dict[tuple[str, str], int] = {}
        self._next_job = 1

    def _pool(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._shared = context.Array("d", _SLOTS)
            if self.workers > 0:
                self._executor = ProcessPoolExecutor(
                    1, mp_context=context, initializer=_init_worker, initargs=(self._shared,)
                )
            else:
                _init_worker(self._shared)
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="gammon-analysis")
        return self._executor

    def cached(self, subject: str, level: str) -> dict[str, Any] | None:
        """The analysis if it is in memory."""
        found = self._done.get((subject, level))
        if found is not None:
            self._done.move_to_end((subject, level))
        return found

    def _keep(self, key: tuple[str, str], data: dict[str, Any]) -> None:
        self._done[key] = data
        while len(self._done) > KEEP:
            self._done.popitem(last=False)

    async def stored(self, subject: str, level: str) -> dict[str, Any] | None:
        """The analysis if it was done already: in memory, or in the database."""
        found = self.cached(subject, level)
        if found is not None or self._db is None or self._store is None:
            return found
        text = await self._db.run(self._store.analyses.get, subject, level, SCHEMA)
        if text is None:
            return None
        data: dict[str, Any] = json.loads(text)
        self._keep((subject, level), data)
        return data

    async def analyse(self, subject: str, level: str, log_text: str) -> dict[str, Any]:
        """The analysis of a finished match's log at ``level`` (computed once, then stored).

        The computation belongs to no request: a client that goes away does not
        stop it, and every request for it gets its result.
        """
        key = (subject, level)
        running = self._running.get(key)
        if running is None:
            found = await self.stored(subject, level)
            if found is not None:
                return found
            running = self._running.get(key)  # started while the database answered
        if running is None:
            job = self._jobs[key] = self._next_job
            self._next_job += 1
            running = asyncio.get_running_loop().create_task(
                self._compute(key, job, log_text), name=f"analysis {subject} {level}"
            )
            self._running[key] = running
        return await asyncio.shield(running)

    async def _compute(self, key: tuple[str, str], job: int, log_text: str) -> dict[str, Any]:
        try:
            loop = asyncio.get_running_loop()
            data = await loop.run_in_executor(
                self._pool(), analyse_in_worker, job, log_text, key[1]
            )
            await self.keep(key[0], key[1], data)
            return data
        finally:
            self._running.pop(key, None)
            self._jobs.pop(key, None)

    async def keep(self, subject: str, level: str, data: dict[str, Any]) -> None:
        """Store an analysis of ``subject`` at ``level`` (in the database and in memory):
        those computed here, and the grandmaster's (:mod:`gammon.server.deep`)."""
        if self._db is not None and self._store is not None:
            now = int(time.time() * 1000)
            text = json.dumps(data, separators=(",", ":"))
            await self._db.run(self._store.analyses.put, subject, level, SCHEMA, text, now)
        self._keep((subject, level), data)

    def progress(self, subject: str, level: str) -> dict[str, Any]:
        """Where the analysis of ``subject`` at ``level`` stands (what the page polls).

        ``{"status": "done"}`` (in memory), ``"running"`` with ``stage``, ``done``, ``total``
        and ``fraction`` (0..1), ``"queued"`` (another analysis runs first) or ``"none"``
        (not started, or only in the database: ask for it).
        """
        key = (subject, level)
        if key in self._done:
            return {"status": "done", "fraction": 1.0}
        job = self._jobs.get(key)
        if job is None:
            return {"status": "none", "fraction": 0.0}
        shared = self._shared
        if shared is None:
            return {"status": "queued", "fraction": 0.0}
        with shared.get_lock():
            now_job, stage_index, done, total = shared[:]
        if int(now_job) != job:
            return {"status": "queued", "fraction": 0.0}
        stage = list(STAGES)[int(stage_index)]
        return {
            "status": "running",
            "stage": stage,
            "done": int(done),
            "total": int(total),
            "fraction": progress_fraction(stage, int(done), int(total), level),
        }

    async def forget(self, subject: str) -> None:
        """Drop every analysis of ``subject`` (an imported match deleted)."""
        for key in [k for k in self._done if k[0] == subject]:
            del self._done[key]
        if self._db is not None and self._store is not None:
            await self._db.run(self._store.analyses.delete, subject)

    def close(self) -> None:
        """Stop the worker."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
