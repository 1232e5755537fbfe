"""The site's clock: milliseconds since the epoch, as the database stores times."""

from __future__ import annotations

import time

__all__ = ["now_ms"]


def now_ms() -> int:
    """The time now, in milliseconds since the epoch.

    >>> now_ms() > 1_700_000_000_000
    True
    """
    return time.time_ns() // 1_000_000
