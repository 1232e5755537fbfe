"""Token buckets: per WebSocket connection, per client address for sign-in attempts, and
the in-process buckets of :mod:`gammon.server.infra.limits`.

>>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from typing import Final

__all__ = ["KeyedLimiter", "Pacer", "TokenBucket"]


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; each message takes one."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._last = time.monotonic() if now is None else now

    def available(self, now: float | None = None) -> bool:
        """Whether a token is there, without taking it."""
        t = time.monotonic() if now is None else now
        return min(self.burst, self._tokens + (t - self._last) * self.rate) >= 1.0

    def wait(self, now: float | None = None) -> float:
        """Seconds until a token is there (0.0: one is there now); nothing is taken.

        >>> bucket = TokenBucket(rate=0.5, burst=1, now=0.0)
        >>> bucket.wait(0.0), bucket.take(0.0), bucket.wait(0.0), bucket.wait(1.0)
        (0.0, True, 2.0, 1.0)
        """
        t = time.monotonic() if now is None else now
        tokens = min(self.burst, self._tokens + (t - self._last) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def take(self, now: float | None = None) -> bool:
        """Take a token if there is one."""
        t = time.monotonic() if now is None else now
        self._tokens = min(self.burst, self._tokens + (t - self._last) * self.rate)
        self._last = t
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class KeyedLimiter:
    """One bucket per key (a client address), forgetting the oldest beyond ``max_keys``.

    >>> limiter = KeyedLimiter(rate=0.1, burst=1)
    >>> limiter.allow("1.2.3.4", now=0.0), limiter.allow("1.2.3.4", now=1.0), limiter.allow("5.6.7.8", now=1.0)
    (True, False, True)
    """

    MAX_KEYS: Final = 10_000

    def __init__(self, rate: float, burst: int, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        """Whether ``key`` may make one more attempt now."""
        return self.bucket(key, now).take(now)

    def bucket(self, key: str, now: float | None = None) -> TokenBucket:
        """``key``'s bucket (a full one the first time; the oldest keys are forgotten
        beyond ``max_keys``)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst, now)
            self._buckets[key] = bucket
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def blocked(self, key: str, now: float | None = None) -> bool:
        """Whether ``key`` has used up its attempts (nothing is taken).

        >>> limiter = KeyedLimiter(rate=0.1, burst=1)
        >>> limiter.blocked("a", now=0.0), limiter.allow("a", now=0.0), limiter.blocked("a", now=1.0)
        (False, True, True)
        """
        bucket = self._buckets.get(key)
        return bucket is not None and not bucket.available(now)


class Pacer:
    """Spaces out the starts of allowed costly work, one every ``gap`` seconds: each caller
    is given the next free moment (``gap`` after the one before) and waits for it, and a
    caller whose moment would be more than ``longest`` seconds away is refused.

    A token bucket bounds how much is done a second, not when: a burst of allowed reads
    (a bucket's burst, or many clients let through by buckets that refilled together)
    would otherwise run back to back on the event loop while a player's move waits
    behind them.  Paced, a move waits behind one of them at most.

    >>> pacer = Pacer(gap=0.01, longest=0.025)
    >>> [pacer.reserve(now=0.0) for _ in range(3)], pacer.busy(now=0.0)  # the seconds each waits
    ([0.0, 0.01, 0.02], True)
    >>> pacer.busy(now=0.01), pacer.reserve(now=1.0)  # idle again: no wait
    (False, 0.0)
    """

    __slots__ = ("_next", "gap", "longest")

    def __init__(self, gap: float, longest: float) -> None:
        self.gap = gap
        self.longest = longest
        self._next = -math.inf

    def busy(self, now: float | None = None) -> bool:
        """Whether a caller now would wait more than ``longest`` (nothing is taken)."""
        t = time.monotonic() if now is None else now
        return self._next - t > self.longest + 1e-9

    def reserve(self, now: float | None = None) -> float:
        """Take the next free moment: the seconds until it (0.0: at once)."""
        t = time.monotonic() if now is None else now
        start = max(t, self._next)
        self._next = start + self.gap
        return start - t
