"""Allowed costly reads are started one at a time, not all at once (issue #30, item 7):
a token bucket bounds how many reads the site serves a second, the pacer
(:class:`gammon.server.infra.ratelimit.Pacer`, in :meth:`Limits.need`) bounds when, so a
burst of allowed reads (many addresses within their allowance, the site's bucket full)
cannot hold the event loop back to back while a player's move waits.  A read whose turn
would come too late is refused like one past the site's budget, and takes nothing.

``benchmarks/read_burst.py`` measures the effect on a real server: a quick request's
latency while 64 addresses ask for an 80-game match page at once.
"""

from __future__ import annotations

import asyncio

import pytest

from gammon.server.infra.limits import RATIONS, READ_PACE, READ_WAIT, LimitError, Limits
from gammon.server.infra.ratelimit import Pacer


def _starts(limits: Limits, asks: list[tuple[str, str]]) -> list[float]:
    """Every (kind, address) of ``asks`` is asked for at the same moment: the seconds
    after that moment at which each was let through, in order."""

    async def burst() -> list[float]:
        loop = asyncio.get_running_loop()
        began = loop.time()

        async def one(kind: str, address: str) -> float:
            await limits.need(kind, None, address)
            return loop.time() - began

        return sorted(await asyncio.gather(*(one(k, a) for k, a in asks)))

    return asyncio.run(burst())


def test_a_burst_of_allowed_reads_is_let_through_one_every_read_gap() -> None:
    """Twenty addresses ask for a match page at once, each within its allowance and the
    site's (100 at once): the k-th is let through ``k`` gaps after the first, not with
    it (before the pacer all twenty at once)."""
    limits = Limits(create_limit=30.0)  # --list-limit 10: match pages 50 a second, 100 at once
    site_rate = sum((limits.site_figures(kind) or (0.0, 0))[0] for kind in RATIONS)
    assert limits.read_gap == pytest.approx(1 / (READ_PACE * site_rate))
    starts = _starts(limits, [("match", f"10.0.0.{n}") for n in range(20)])
    for k, at in enumerate(starts):
        assert at >= k * limits.read_gap - 0.001, (k, at, limits.read_gap)
    assert starts[-1] < 19 * limits.read_gap + 0.5  # and not held much longer than that


def test_every_kind_of_read_shares_the_one_pace() -> None:
    """A list, a replay and a history page asked at once are let through a gap apart:
    the pace is the event loop's, whatever the reads are."""
    limits = Limits(create_limit=30.0)
    starts = _starts(limits, [(kind, "10.0.0.1") for kind in ("list", "replay", "history")])
    assert starts[1] >= limits.read_gap - 0.001 and starts[2] >= 2 * limits.read_gap - 0.001


def test_creations_are_not_paced() -> None:
    """Creations (tables, challenges...) have no site budget and are not paced: ten at
    once are let through together."""
    limits = Limits(create_limit=30.0)
    starts = _starts(limits, [("create", f"10.0.0.{n}") for n in range(10)])
    assert starts[-1] < 0.05, starts


def test_a_read_whose_turn_is_too_far_is_refused_and_takes_nothing() -> None:
    """With the pacer's queue longer than its longest wait, a read is refused as by the
    site's budget (``rate_limited``, "the site is answering too many ...") and takes no
    token: its address, allowed one at once, is served once the queue has gone."""
    limits = Limits(create_limit=30.0, list_limit=0.5)  # a match page: 1 at once an address
    limits._pacer = Pacer(gap=0.2, longest=0.3)  # three turns fit: now, +0.2, +0.4 > 0.3
    assert READ_WAIT >= 1.0  # (the real one: a burst of the site's size fits)

    async def scene() -> tuple[list[BaseException | None], None]:
        async def one(address: str) -> BaseException | None:
            try:
                await limits.need("match", None, address)
            except LimitError as exc:
                return exc
            return None

        outcomes = await asyncio.gather(*(one(a) for a in ("10.0.0.1", "10.0.0.2", "10.0.0.3")))
        await asyncio.sleep(0.3)
        return list(outcomes), await limits.need("match", None, "10.0.0.3")

    outcomes, later = asyncio.run(scene())
    assert outcomes[:2] == [None, None]
    refused = outcomes[2]
    assert isinstance(refused, LimitError) and refused.code == "rate_limited"
    assert str(refused).startswith("the site is answering too many match pages"), refused
    assert later is None  # 10.0.0.3's one token was still there
