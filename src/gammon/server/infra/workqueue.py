"""Bounded, fair queues for CPU-heavy work, off the event loop.

A :class:`WorkQueue` runs functions on a few workers of its own (threads, or worker
processes, at a lower CPU priority, for work that must not even share the server's
interpreter lock).  Jobs
wait in one line per *key* (a client address, a table); when a worker is free it
takes the next job of the waiting key that has used the least worker time lately
(decaying with a half-life of :data:`HALF_LIFE` seconds), so a key that asks for a
lot waits behind its own jobs, and a key that asks for little is served next,
whatever the others queued.  Each key may have only a few jobs waiting (past that,
``rate_limited``).  The workers are few, so however many jobs arrive, the event
loop (which answers every socket) competes with at most that many of them.

A queue may also keep *quick* workers of its own: they take only the jobs of keys whose
jobs lately took under :attr:`WorkQueue.quick_below` seconds (once a first job has shown
it), so a key with short jobs never waits behind the long job that holds a worker (ten
tables of slow bots cannot hold up another table's quick one).

>>> import asyncio
>>> async def demo() -> list[int]:
...     queue = WorkQueue("demo", workers=1, per_key=2)
...     try:
...         return list(await asyncio.gather(*(queue.run(k, pow, k, 2) for k in (1, 2, 3))))
...     finally:
...         queue.close()
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs here
...     thread.submit(asyncio.run, demo()).result()
[1, 4, 9]
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import itertools
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from gammon.server.protocol import ServerError

__all__ = ["HALF_LIFE", "QUICK_BELOW", "WORKER_NICENESS", "WorkQueue", "follow_parent"]

T = TypeVar("T")

#: Seconds after which a key's past use of the workers counts half.
HALF_LIFE: Final = 10.0
#: How much lower a worker process's CPU priority is than the server's (``os.nice``): on
#: a busy machine the event loop, which answers every socket, gets a core first.
WORKER_NICENESS: Final = 10
#: Keys whose use is remembered (the least used are forgotten first).
_KEYS_KEPT: Final = 10_000
#: A key's jobs count as quick while they lately took less than this (seconds).
QUICK_BELOW: Final = 0.5


def follow_parent() -> None:
    """In a worker process, end the process as soon as the process that started it ends,
    however it ends: a server killed with SIGKILL leaves no worker behind (it would hold
    memory, and the server's output pipe, for ever).  Nothing in any other process."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="gammon-follow-parent", daemon=True).start()


def _start_process(
    initializer: Callable[..., object] | None, initargs: tuple[Any, ...], niceness: int
) -> None:
    """A worker process starts: it takes its lower priority (if its parent has not given it
    already: :func:`_lower_children`; before any thread starts, which would keep the old
    one on Linux), follows its parent, then runs the queue's own initializer."""
    if os.getpriority(os.PRIO_PROCESS, 0) < niceness:
        os.setpriority(os.PRIO_PROCESS, 0, niceness)
    follow_parent()
    if initializer is not None:
        initializer(*initargs)


def _worker_niceness() -> int:
    """The CPU priority of a worker process: :data:`WORKER_NICENESS` below this process's
    (at most 19, the lowest)."""
    return min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS)


def _lower_children(niceness: int) -> None:
    """Give every worker process this process started (:func:`multiprocessing.active_children`)
    at least ``niceness``: called just after a worker is started, it reaches the worker a
    few milliseconds into its life, before the imports and the set-up that take it a second
    or so of CPU, which then never compete with the event loop.  (Measured: the second a
    costly attack began, when its workers started at the server's own priority, set a quiet
    table's whole-run p99; see docs/server.md.)  Lowering the priority of one's own process
    needs no privilege."""
    for child in multiprocessing.active_children():
        pid = child.pid
        if pid is None:
            continue
        with contextlib.suppress(OSError):  # it ended meanwhile
            if os.getpriority(os.PRIO_PROCESS, pid) < niceness:
                os.setpriority(os.PRIO_PROCESS, pid, niceness)


@dataclass(slots=True)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


def _timed(fn: Callable[..., T], *args: Any) -> tuple[float, T]:
    """``fn(*args)`` in a worker, with the seconds it took there."""
    started = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - started, result


class WorkQueue:
    """``workers`` threads (or processes), serving the waiting keys least used first,
    each key with at most ``per_key`` jobs waiting; and ``quick_workers`` more that
    serve only keys whose jobs lately took under ``quick_below`` seconds (started with the
    others, each running ``warm`` first)."""

    def __init__(
        self,
        name: str,
        workers: int,
        per_key: int = 4,
        *,
        processes: bool = False,
        initializer: Callable[..., object] | None = None,
        initargs: tuple[Any, ...] = (),
        quick_workers: int = 0,
        quick_below: float = QUICK_BELOW,
        warm: Callable[[], object] | None = None,
    ) -> None:
        if workers < 1 or per_key < 1 or quick_workers < 0:
            raise ValueError("a work queue needs at least one worker and one place per key")
        self.name = name
        self.workers = workers
        self.per_key = per_key
        self.processes = processes
        #: run in each worker as it starts (with ``initargs``: shared memory, a flag...)
        self.initializer = initializer
        self.initargs = initargs
        self.quick_workers = quick_workers
        self.quick_below = quick_below
        #: Run once on each worker when the queue starts its workers, so that the first
        #: jobs do not wait for a process to start and load what they need (and a key is
        #: not taken for slow because its job came first).
        self._warm = warm
        self._warming: list[concurrent.futures.Future[object]] = []
        self._executor: concurrent.futures.Executor | None = None
        #: The priority of the worker processes (set when the queue is made).
        self._niceness = _worker_niceness() if processes else 0
        self._starting: asyncio.Lock | None = None
        self._quick_executor: concurrent.futures.Executor | None = None
        self._running = 0
        self._quick_running = 0
        #: How long each key's jobs take lately (seconds: the last job's, or half the
        #: figure before it if that is more).
        self._cost: dict[Hashable, float] = {}
        self._waiting: dict[Hashable, deque[_Job]] = {}
        self._since: dict[Hashable, int] = {}  # arrival order of each waiting key
        self._arrivals = itertools.count()
        self._used: dict[Hashable, tuple[float, float]] = {}  # key: (seconds, as of)
        self._active: dict[int, _Job] = {}  # the jobs on a worker, by id()

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(line) for line in self._waiting.values())

    @property
    def busy(self) -> int:
        """Workers running a job now (quick workers included; ``/metrics`` reads it)."""
        return self._running + self._quick_running

    def used(self, key: Hashable, now: float | None = None) -> float:
        """Worker seconds ``key`` used lately (halved every :data:`HALF_LIFE` seconds).

        >>> q = WorkQueue("doc", 1)
        >>> q.charge("a", 4.0, now=0.0)
        >>> q.used("a", now=0.0), q.used("a", now=HALF_LIFE), q.used("b", now=0.0)
        (4.0, 2.0, 0.0)
        """
        seconds, at = self._used.get(key, (0.0, 0.0))
        t = time.monotonic() if now is None else now
        return float(seconds * 0.5 ** (max(0.0, t - at) / HALF_LIFE))

    def charge(self, key: Hashable, seconds: float, now: float | None = None) -> None:
        """Count ``seconds`` of worker time against ``key`` (one job's).

        >>> q = WorkQueue("doc", 1, quick_workers=1)
        >>> q.is_quick("a"), q.charge("a", 3.0, now=0.0), q.is_quick("a")
        (False, None, False)
        >>> for _ in range(3):
        ...     q.charge("a", 0.1, now=0.0)
        >>> q.is_quick("a")
        True
        """
        t = time.monotonic() if now is None else now
        self._used[key] = (self.used(key, t) + seconds, t)
        # a long job counts at once, and then for half as much with each job after it: a
        # key whose jobs are now short, now long (a bot that thinks long at some rolls only)
        # is not taken for quick after one short job
        self._cost[key] = max(seconds, self._cost.get(key, 0.0) / 2)
        if len(self._used) > _KEYS_KEPT:
            idle = sorted((k for k in self._used if k not in self._waiting), key=self.used)
            for k in idle[: len(self._used) - _KEYS_KEPT]:
                del self._used[k]
                self._cost.pop(k, None)

    def is_quick(self, key: Hashable) -> bool:
        """Whether ``key``'s jobs lately took under ``quick_below`` seconds: the quick
        workers take its jobs.  A key not seen yet is not quick (its first job shows what
        it is), so fresh keys cannot hold the quick workers with long first jobs."""
        cost = self._cost.get(key)
        return cost is not None and cost < self.quick_below

    def _new_pool(self, workers: int, name: str) -> concurrent.futures.Executor:
        if self.processes:
            return concurrent.futures.ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                # the event loop's process comes first for a core
                initializer=_start_process,
                initargs=(self.initializer, self.initargs, self._niceness),
            )
        return concurrent.futures.ThreadPoolExecutor(
            workers, thread_name_prefix=name, initializer=self.initializer, initargs=self.initargs
        )

    def _pool(self, quick: bool = False) -> concurrent.futures.Executor:
        if quick:
            if self._quick_executor is None:
                self._quick_executor = self._new_pool(self.quick_workers, f"{self.name}-quick")
            return self._quick_executor
        if self._executor is None:
            self._executor = self._new_pool(self.workers, self.name)
            # a job for each worker, so that every process is started here and now (with
            # processes, :meth:`_ready` runs this off the event loop); threads start as
            # jobs come, for nothing
            if self._warm is not None or self.processes:
                self._warming = [self._start(self._executor) for _ in range(self.workers)]
            if self.quick_workers and self._quick_executor is None:
                # the quick workers start with the others, ready when the others are busy
                quick_pool = self._pool(quick=True)
                self._warming += [self._start(quick_pool) for _ in range(self.quick_workers)]
        return self._executor

    def _start(self, pool: concurrent.futures.Executor) -> concurrent.futures.Future[object]:
        """Give a worker of ``pool`` its warm-up job (a worker process is started by it, and
        lowered in priority at once)."""
        future = pool.submit(self._warm or int)
        if self.processes:
            _lower_children(self._niceness)
        return future

    async def started(self) -> None:
        """Start the workers (if not yet) and wait until they are ready (warmed up)."""
        await self._ready()
        for future in self._warming:
            await asyncio.wrap_future(future)

    async def _ready(self) -> None:
        """Make the pools (once).  Worker processes are started on a thread: starting a
        process holds its caller for tens of milliseconds, and the event loop answers
        every socket."""
        if self._executor is not None:
            return
        if not self.processes:
            self._pool()
            return
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._executor is None:
                await asyncio.to_thread(self._pool)

    async def run(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on one of the queue's workers, in ``key``'s turn (with processes,
        ``fn`` and ``args`` must pickle)."""
        line = self._waiting.get(key)
        if line is not None and len(line) >= self.per_key:
            raise ServerError("rate_limited", "too much work asked for at once: try again later")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        if line is None:
            line = self._waiting[key] = deque()
            self._since[key] = next(self._arrivals)
        line.append(_Job(fn, args, future))
        if self._executor is None:
            await self._ready()
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        while self._waiting:
            now = time.monotonic()
            if self._running < self.workers:
                quick, keys = False, list(self._waiting)
            elif self._quick_running < self.quick_workers:
                quick, keys = True, [k for k in self._waiting if self.is_quick(k)]
                if not keys:
                    return
            else:
                return
            key = min(keys, key=lambda k: (self.used(k, now), self._since[k]))
            line = self._waiting[key]
            job = line.popleft()
            if not line:
                del self._waiting[key]
                del self._since[key]
            if job.future.done():  # its caller went away
                continue
            if quick:
                self._quick_running += 1
            else:
                self._running += 1
            self._active[id(job)] = job
            done = asyncio.wrap_future(self._pool(quick).submit(_timed, job.fn, *job.args))
            done.add_done_callback(functools.partial(self._finished, key, job, now, quick))

    def _finished(
        self, key: Hashable, job: _Job, started: float, quick: bool, done: asyncio.Future[Any]
    ) -> None:
        self._active.pop(id(job), None)
        if quick:
            self._quick_running -= 1
        else:
            self._running -= 1
        exc = None if done.cancelled() else done.exception()  # retrieved even if unwanted
        if done.cancelled() or exc is not None:
            self.charge(key, time.monotonic() - started)
        else:
            seconds, result = done.result()
            self.charge(key, seconds)  # the job's own time, not a worker's start before it
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(result)
        self._dispatch()

    def close(self, *, wait: bool = False) -> None:
        """Stop taking jobs; with ``wait``, the running ones finish first.  Without it, a
        worker *process* is stopped at once (its result is not wanted any more: a server
        that stops leaves no worker running on, an export or a rollout, holding its
        output), while a worker thread, which cannot be stopped, finishes its job; the
        callers of the jobs running or waiting see them cancelled."""
        for pool in (self._executor, self._quick_executor):
            if pool is None:
                continue
            # the pool forgets its processes when it shuts down: taken first
            workers = [] if wait else list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=wait, cancel_futures=True)
            for process in workers:
                if process.is_alive():
                    process.terminate()
        if not wait:
            waiting = [job for line in self._waiting.values() for job in line]
            for job in [*self._active.values(), *waiting]:
                with contextlib.suppress(RuntimeError):  # its loop already closed
                    job.future.cancel()
            self._active.clear()
            self._waiting.clear()
            self._since.clear()
        self._executor = self._quick_executor = None
