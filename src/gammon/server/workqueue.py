"""Bounded, fair queues for CPU-heavy work, off the event loop.

A :class:`WorkQueue` runs functions on a few threads of its own.  Jobs wait in one
line per *key* (a client address, a table) and the queue serves the keys in turn,
so a client that sends many jobs waits behind its own jobs, never in front of
another's; each key may have only a few jobs waiting (past that, ``rate_limited``).
The threads are few, so however many jobs arrive, the event loop (which answers
every socket) competes with at most that many busy threads.

>>> import asyncio
>>> async def demo() -> list[int]:
...     queue = WorkQueue("demo", workers=1, per_key=2)
...     try:
...         return list(await asyncio.gather(*(queue.run(k, pow, k, 2) for k in (1, 2, 3))))
...     finally:
...         queue.close()
>>> asyncio.run(demo())
[1, 4, 9]
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from gammon.server.protocol import ServerError

__all__ = ["WorkQueue"]

T = TypeVar("T")


@dataclass(slots=True)
class _Job:
    fn: Callable[[], Any]
    future: asyncio.Future[Any]


class WorkQueue:
    """``workers`` threads, serving the keys' lines of at most ``per_key`` waiting jobs
    in turn (round robin)."""

    def __init__(self, name: str, workers: int, per_key: int = 4) -> None:
        if workers < 1 or per_key < 1:
            raise ValueError("a work queue needs at least one worker and one place per key")
        self.name = name
        self.workers = workers
        self.per_key = per_key
        self._executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix=name)
        self._running = 0
        self._waiting: dict[Hashable, deque[_Job]] = {}
        self._turns: deque[Hashable] = deque()

    @property
    def waiting(self) -> int:
        """Jobs waiting for a thread."""
        return sum(len(line) for line in self._waiting.values())

    async def run(self, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on one of the queue's threads, in ``key``'s turn."""
        line = self._waiting.get(key)
        if line is not None and len(line) >= self.per_key:
            raise ServerError("rate_limited", "too much work asked for at once: try again later")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        if line is None:
            line = self._waiting[key] = deque()
            self._turns.append(key)
        line.append(_Job(lambda: fn(*args), future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        while self._running < self.workers and self._turns:
            key = self._turns.popleft()
            line = self._waiting[key]
            job = line.popleft()
            if line:
                self._turns.append(key)  # its next job waits for the other keys' turns
            else:
                del self._waiting[key]
            if job.future.done():  # its caller went away
                continue
            self._running += 1
            done = asyncio.wrap_future(self._executor.submit(job.fn))
            done.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, done: asyncio.Future[Any]) -> None:
        self._running -= 1
        exc = None if done.cancelled() else done.exception()  # retrieved even if unwanted
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def close(self) -> None:
        """Stop taking jobs; the running ones finish in their threads."""
        self._executor.shutdown(wait=False, cancel_futures=True)
