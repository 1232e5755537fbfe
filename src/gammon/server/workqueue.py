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
import functools
import itertools
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from gammon.server.protocol import ServerError

__all__ = ["HALF_LIFE", "WORKER_NICENESS", "WorkQueue"]

T = TypeVar("T")

#: Seconds after which a key's past use of the workers counts half.
HALF_LIFE: Final = 10.0
#: How much lower a worker process's CPU priority is than the server's (``os.nice``): on
#: a busy machine the event loop, which answers every socket, gets a core first.
WORKER_NICENESS: Final = 10
#: Keys whose use is remembered (the least used are forgotten first).
_KEYS_KEPT: Final = 10_000


def _start_process(initializer: Callable[..., object] | None, initargs: tuple[Any, ...]) -> None:
    """A worker process starts: a lower priority, then the queue's own initializer."""
    os.nice(WORKER_NICENESS)
    if initializer is not None:
        initializer(*initargs)


@dataclass(slots=True)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


class WorkQueue:
    """``workers`` threads (or processes), serving the waiting keys least used first,
    each key with at most ``per_key`` jobs waiting."""

    def __init__(
        self,
        name: str,
        workers: int,
        per_key: int = 4,
        *,
        processes: bool = False,
        initializer: Callable[..., object] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        if workers < 1 or per_key < 1:
            raise ValueError("a work queue needs at least one worker and one place per key")
        self.name = name
        self.workers = workers
        self.per_key = per_key
        self.processes = processes
        #: run in each worker as it starts (with ``initargs``: shared memory, a flag...)
        self.initializer = initializer
        self.initargs = initargs
        self._executor: concurrent.futures.Executor | None = None
        self._running = 0
        self._waiting: dict[Hashable, deque[_Job]] = {}
        self._since: dict[Hashable, int] = {}  # arrival order of each waiting key
        self._arrivals = itertools.count()
        self._used: dict[Hashable, tuple[float, float]] = {}  # key: (seconds, as of)

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(line) for line in self._waiting.values())

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
        """Count ``seconds`` of worker time against ``key``."""
        t = time.monotonic() if now is None else now
        self._used[key] = (self.used(key, t) + seconds, t)
        if len(self._used) > _KEYS_KEPT:
            idle = sorted((k for k in self._used if k not in self._waiting), key=self.used)
            for k in idle[: len(self._used) - _KEYS_KEPT]:
                del self._used[k]

    def _pool(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.processes:
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    # the event loop's process comes first for a core
                    initializer=_start_process,
                    initargs=(self.initializer, self.initargs),
                )
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    self.workers,
                    thread_name_prefix=self.name,
                    initializer=self.initializer,
                    initargs=self.initargs,
                )
        return self._executor

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
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        while self._running < self.workers and self._waiting:
            now = time.monotonic()
            key = min(self._waiting, key=lambda k: (self.used(k, now), self._since[k]))
            line = self._waiting[key]
            job = line.popleft()
            if not line:
                del self._waiting[key]
                del self._since[key]
            if job.future.done():  # its caller went away
                continue
            self._running += 1
            done = asyncio.wrap_future(self._pool().submit(job.fn, *job.args))
            done.add_done_callback(functools.partial(self._finished, key, job, now))

    def _finished(
        self, key: Hashable, job: _Job, started: float, done: asyncio.Future[Any]
    ) -> None:
        self._running -= 1
        self.charge(key, time.monotonic() - started)
        exc = None if done.cancelled() else done.exception()  # retrieved even if unwanted
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def close(self, *, wait: bool = False) -> None:
        """Stop taking jobs; the running ones finish in their workers (``wait``: for them)."""
        if self._executor is not None:
            self._executor.shutdown(wait=wait, cancel_futures=True)
            self._executor = None
