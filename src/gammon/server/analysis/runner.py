"""Match analysis on the site: finished matches only, off the event loop, stored once done.

Analysing a match evaluates every roll and decision (a few seconds at the
expert level, tens of seconds at world-class), so it runs in worker processes of its
own at a lower CPU priority (threads when ``--bot-workers`` is 0), never in the bot
pool: bot seats keep playing while a match is analysed.  A match is analysed only once it
is finished, so the analysis can never be a hint during play.  The analyser is
the one registered for the match's variant (:mod:`gammon.server.analysis.registry`).

The analyses wait in fair queues (:class:`~gammon.server.infra.workqueue.WorkQueue`), one
line per *owner* (a signed-in account, else the client address): a worker takes the
next analysis of the owner that used it least lately, so one who asks for many waits
behind their own.  An owner has at most :data:`PER_OWNER` analyses queued or running
(one running and one waiting; past that, ``busy``).  The world-class level has a lane
(a worker) of its own, so that its long analyses never hold up the expert ones, and the
visitors without an account (or with a guest's) have at most
:data:`ANONYMOUS_DEEP` world-class analyses queued or running on the whole site.

A finished analysis is written to the database (``analyses``) and the most recent
:data:`KEEP` stay in memory, so a second visit is instant, after a restart too; two
requests for the same analysis share one computation.  While it runs, the worker
reports its progress through shared memory, which :meth:`AnalysisRunner.progress`
reads (the analysis page polls it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from gammon.match.record import read_log
from gammon.server.analysis.registry import ANALYSIS_LEVELS, analyser_for, analysis_available
from gammon.server.infra.workqueue import WorkQueue
from gammon.server.protocol import ServerError

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import SynchronizedArray

    from gammon.storage import Database, Store

__all__ = [
    "ANALYSIS_LEVELS",
    "ANONYMOUS_DEEP",
    "KEEP",
    "PER_OWNER",
    "SCHEMA",
    "STAGES",
    "AnalysisRunner",
    "analyse_in_worker",
    "analysis_available",
    "progress_fraction",
]

log = logging.getLogger(__name__)

#: Analyses kept in memory.
KEEP: Final = 64
#: The schema version of the analyses stored (``gammon.bots.analysis.SCHEMA_VERSION``).
SCHEMA: Final = 1
#: The stages of an analysis, in order, with their share of the work at 1 ply and deeper.
STAGES: Final = {"cube": (0.1, 0.05), "moves": (0.9, 0.35), "deep": (0.0, 0.6)}
#: Analyses one owner may have queued or running at once (one running, one waiting).
PER_OWNER: Final = 2
#: World-class analyses queued or running at once for visitors without an account (or
#: with a guest's), all of them together.
ANONYMOUS_DEEP: Final = 1
#: The level with a lane of its own (its analyses take tens of seconds).
_SLOW_LEVEL: Final = "world-class"

# the worker's progress: [job number, stage index, done, total] (one job runs at a time)
_SLOTS: Final = 4
_WORKER: dict[str, SynchronizedArray[float]] = {}


def _init_worker(shared: SynchronizedArray[float]) -> None:
    """In a worker (a process, niced and following its parent, or a thread): where it
    writes its progress."""
    _WORKER["progress"] = shared


@dataclass(slots=True)
class _Lane:
    """A worker of the analyses, its fair queue and the shared memory it reports to."""

    shared: SynchronizedArray[float]
    queue: WorkQueue


@dataclass(slots=True)
class _Running:
    """An analysis queued or running: its job number, lane, owner, and task."""

    job: int
    lane: str
    owner: Hashable | None
    anonymous: bool
    task: asyncio.Task[dict[str, Any]] | None = None


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
    """The analysis workers (started on first use, one lane per speed), the analyses
    done and those queued or running."""

    def __init__(self, workers: int, db: Database | None = None, store: Store | None = None):
        self.workers = workers
        self._db = db
        self._store = store
        self._lanes: dict[str, _Lane] = {}
        self._done: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, str], _Running] = {}
        self._next_job = 1
        #: Called with ``(subject, level, data)`` once an analysis is stored (the
        #: training's harvest, :mod:`gammon.server.analysis.training`).
        self.stored_listeners: list[Callable[[str, str, dict[str, Any]], Awaitable[None]]] = []

    def _lane(self, name: str) -> _Lane:
        lane = self._lanes.get(name)
        if lane is None:
            shared = multiprocessing.get_context("spawn").Array("d", _SLOTS)
            queue = WorkQueue(
                f"gammon-analysis-{name}",
                1,
                per_key=PER_OWNER,
                processes=self.workers > 0,
                initializer=_init_worker,
                initargs=(shared,),
            )
            lane = self._lanes[name] = _Lane(shared, queue)
        return lane

    def queue(self, level: str) -> WorkQueue:
        """The fair queue the analyses at ``level`` wait in (one line per owner)."""
        return self._lane(_lane_of(level)).queue

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

    def admit(self, level: str, owner: Hashable | None, anonymous: bool = False) -> None:
        """Whether ``owner`` may start one more analysis at ``level``: ``busy`` when it has
        :data:`PER_OWNER` queued or running, ``rate_limited`` for a world-class one asked
        without an account while :data:`ANONYMOUS_DEEP` are (``owner`` None: the site's
        own, never refused)."""
        if owner is None:
            return
        jobs = list(self._running.values())
        if sum(1 for r in jobs if r.owner == owner) >= PER_OWNER:
            raise ServerError(
                "busy", "you have analyses under way already: wait for one of them to finish"
            )
        slow = [r for r in jobs if r.anonymous and r.lane == "slow"]
        if anonymous and _lane_of(level) == "slow" and len(slow) >= ANONYMOUS_DEEP:
            raise ServerError(
                "rate_limited",
                "world-class analyses without an account are busy: try again later, or sign in",
            )

    async def analyse(
        self,
        subject: str,
        level: str,
        log_text: str,
        owner: Hashable | None = None,
        anonymous: bool = False,
    ) -> dict[str, Any]:
        """The analysis of a finished match's log at ``level`` (computed once, then stored),
        queued in ``owner``'s line (``anonymous``: asked without an account, or with a
        guest's); refused as :meth:`admit` says when it must start.

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
            self.admit(level, owner, anonymous)
            running = _Running(self._next_job, _lane_of(level), owner, anonymous)
            self._next_job += 1
            self._running[key] = running
            running.task = asyncio.get_running_loop().create_task(
                self._compute(key, running, log_text), name=f"analysis {subject} {level}"
            )
        assert running.task is not None
        return await asyncio.shield(running.task)

    async def _compute(
        self, key: tuple[str, str], running: _Running, log_text: str
    ) -> dict[str, Any]:
        try:
            queue = self._lane(running.lane).queue
            line = key[0] if running.owner is None else running.owner
            data = await queue.run(line, analyse_in_worker, running.job, log_text, key[1])
            await self.keep(key[0], key[1], data)
            return data
        finally:
            self._running.pop(key, None)

    async def keep(self, subject: str, level: str, data: dict[str, Any]) -> None:
        """Store an analysis of ``subject`` at ``level`` (in the database and in memory):
        those computed here, and the grandmaster's (:mod:`gammon.server.analysis.deep`)."""
        if self._db is not None and self._store is not None:
            now = int(time.time() * 1000)
            text = json.dumps(data, separators=(",", ":"))
            await self._db.run(self._store.analyses.put, subject, level, SCHEMA, text, now)
        self._keep((subject, level), data)
        for listener in self.stored_listeners:
            try:
                await listener(subject, level, data)
            except Exception:  # the analysis is kept all the same
                log.warning("after storing the analysis of %s", subject, exc_info=True)

    def progress(self, subject: str, level: str) -> dict[str, Any]:
        """Where the analysis of ``subject`` at ``level`` stands (what the page polls).

        ``{"status": "done"}`` (in memory), ``"running"`` with ``stage``, ``done``, ``total``
        and ``fraction`` (0..1), ``"queued"`` (another analysis runs first) or ``"none"``
        (not started, or only in the database: ask for it).
        """
        key = (subject, level)
        if key in self._done:
            return {"status": "done", "fraction": 1.0}
        running = self._running.get(key)
        if running is None:
            return {"status": "none", "fraction": 0.0}
        lane = self._lanes.get(running.lane)
        if lane is None:
            return {"status": "queued", "fraction": 0.0}
        with lane.shared.get_lock():
            now_job, stage_index, done, total = lane.shared[:]
        if int(now_job) != running.job:
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
        """Stop the workers (a worker process at once: its analysis is not wanted any more)."""
        for lane in self._lanes.values():
            lane.queue.close()
        self._lanes.clear()


def _lane_of(level: str) -> str:
    """The lane of an analysis at ``level``: ``slow`` (world-class) or ``quick``.

    >>> _lane_of("world-class"), _lane_of("expert")
    ('slow', 'quick')
    """
    return "slow" if level == _SLOW_LEVEL else "quick"
