"""Answers every visitor shares: the lobby's lists and the watch page's for a moment
(:class:`SharedAnswers`), the answers that never change kept by size (:class:`KeptAnswers`:
an imported match's replay, an earlier game's history).  The rations of the requests that
cost work are :data:`gammon.server.infra.limits.RATIONS` (``ctx.infra.limits``, shared across processes).

Each answer is kept for :data:`SHARED_TTL` seconds, and only while the *generation* it was
worked out at holds (the hub counts the commits that change a listing: a table created, a
seat taken or left, a match started or ended, so a visitor sees such a change at once);
it is worked out once however many visitors ask at the same moment.  Without it, four
clients looping on ``/watch`` (200 live games: two queries and 200 rows rendered, ~12 ms
each) held a core and took a quiet table's action p99 from 12.6 ms to 82.8 ms.

>>> import asyncio
>>> shared, calls = SharedAnswers(ttl=60), []
>>> async def work():
...     calls.append(1)
...     await asyncio.sleep(0)
...     return "lists"
>>> async def three_visitors():
...     return await asyncio.gather(*(shared.get("lobby", 0, work) for _ in range(3)))
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs here
...     thread.submit(asyncio.run, three_visitors()).result(), len(calls)
(['lists', 'lists', 'lists'], 1)
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Final, TypeVar

__all__ = ["KEPT_BYTES", "SHARED_TTL", "KeptAnswers", "SharedAnswers"]

T = TypeVar("T")

#: Seconds an answer is kept (while its generation holds).
SHARED_TTL: Final = 1.0
#: Bytes of never-changing answers kept (least recently asked for go first).
KEPT_BYTES: Final = 16 * 1024 * 1024


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Mark a failed future's exception as seen (its waiters, if any, got it too)."""
    if not future.cancelled():
        future.exception()


class SharedAnswers:
    """Answers by key, each kept ``ttl`` seconds while its generation holds, and worked
    out once for all who ask at once (``clock``: seconds, monotonic)."""

    def __init__(
        self, ttl: float = SHARED_TTL, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl
        self._clock = clock
        #: key -> (generation, when its work began, answer)
        self._kept: dict[Hashable, tuple[int, float, Any]] = {}
        self._pending: dict[tuple[Hashable, int], asyncio.Future[Any]] = {}

    async def get(self, key: Hashable, generation: int, compute: Callable[[], Awaitable[T]]) -> T:
        """The answer for ``key`` at ``generation``: kept, being worked out (then waited
        for), or worked out now by ``compute`` (in a task of its own: a visitor who goes
        away stops nothing that others wait for).  A failure reaches every waiter and is
        not kept."""
        began = self._clock()
        kept = self._kept.get(key)
        if kept is not None and kept[0] == generation and began - kept[1] < self.ttl:
            answer: T = kept[2]
            return answer
        work = self._pending.get((key, generation))
        if work is None:
            work = asyncio.ensure_future(self._work(key, generation, began, compute))
            work.add_done_callback(_retrieved)
            self._pending[(key, generation)] = work
        shared: T = await asyncio.shield(work)
        return shared

    async def _work(
        self, key: Hashable, generation: int, began: float, compute: Callable[[], Awaitable[T]]
    ) -> T:
        try:
            answer = await compute()
        finally:
            del self._pending[(key, generation)]
        self._kept[key] = (generation, began, answer)
        return answer

    def forget(self) -> None:
        """Drop every kept answer (the next asks work them out again)."""
        self._kept.clear()


class KeptAnswers:
    """Answers that never change (text or bytes), kept by key up to ``limit`` bytes (the
    least recently asked for go first), each worked out once for all who ask at once.

    >>> import asyncio
    >>> kept, calls = KeptAnswers(limit=10), []
    >>> async def work(text):
    ...     calls.append(text)
    ...     return text
    >>> async def asks():
    ...     both = await asyncio.gather(kept.get("a", lambda: work("aaaa")), kept.get("a", lambda: work("x")))
    ...     await kept.get("b", lambda: work("bbbbbbb"))  # 4 + 7 > 10: "a" goes
    ...     return both, await kept.get("a", lambda: work("AAAA"))
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs here
    ...     thread.submit(asyncio.run, asks()).result(), calls
    ((['aaaa', 'aaaa'], 'AAAA'), ['aaaa', 'bbbbbbb', 'AAAA'])
    """

    def __init__(self, limit: int = KEPT_BYTES) -> None:
        self.limit = limit
        self._kept: OrderedDict[Hashable, str | bytes] = OrderedDict()
        self._size = 0
        self._pending: dict[Hashable, asyncio.Future[Any]] = {}
        #: how many answers were worked out (not found kept): for tests and figures
        self.computed = 0

    def peek(self, key: Hashable) -> str | bytes | None:
        """The answer kept for ``key``, if any (nothing is worked out)."""
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    async def get(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        """The answer for ``key``: kept, being worked out (then waited for), or worked out
        now by ``compute`` (a task of its own: a caller who goes away stops nothing); a
        failure reaches every waiter and is not kept.  ``T``: ``str`` or ``bytes``."""
        found = self.peek(key)
        if found is not None:
            answer: T = found  # type: ignore[assignment]  # what compute gave for the key
            return answer
        work = self._pending.get(key)
        if work is None:
            self.computed += 1
            work = asyncio.ensure_future(self._work(key, compute))
            work.add_done_callback(_retrieved)
            self._pending[key] = work
        shared: T = await asyncio.shield(work)
        return shared

    async def _work(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        try:
            answer = await compute()
        finally:
            del self._pending[key]
        assert isinstance(answer, str | bytes)
        self.keep(key, answer)
        return answer

    def keep(self, key: Hashable, answer: str | bytes) -> None:
        """Keep ``answer`` for ``key`` (one over a quarter of the limit is not kept)."""
        if len(answer) > self.limit // 4:
            return
        self.forget(key)
        self._kept[key] = answer
        self._size += len(answer)
        while self._size > self.limit:
            _, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped)

    def forget(self, key: Hashable) -> None:
        """Drop the answer kept for ``key`` (its subject was deleted)."""
        old = self._kept.pop(key, None)
        if old is not None:
            self._size -= len(old)
