"""Play now: quick pairing pools (docs/server.md, "Quick pairing").

A player picks a *pool*, a variant x a match length x a clock preset (:data:`CLOCKS`) x
rated or casual, and waits there (a *seek*, ``POST /api/pairing/seek``); whoever waits in
the same pool within rating reach is their opponent.  A seek stays while its player keeps
a user socket open somewhere on the site (:data:`SOCKET_GRACE` to open one, then every
process renews the presence of the seekers it has sockets of each :data:`TICK`), at most
:data:`MAX_WAIT` seconds, and one per account: a new seek replaces the old one.

Pairing is one *round* at a time for the whole site: the process that takes the store's
lock reads every seek, drops the lapsed ones, pairs the rest (:func:`pair_up`) and takes
each pair out of the store at once (:meth:`~gammon.server.play.seeks.SeekStore.take`, in Redis
one Lua script: a seek is paired once, whoever runs rounds).  Each pair gets a private
table (id derived from both seeks, made through :func:`~gammon.server.play.arranged.ensure_table`
with the pool's options, both seated: the match starts) and both players hear of it on
their user sockets (``{"type": "paired", "table": id}``; the page goes there).

Rating reach widens while a seek waits (:func:`reach`): +-:data:`REACH_BASE` points at
first, :data:`REACH_STEP` more every :data:`REACH_EVERY` seconds; two seekers meet when
each is within the other's reach.  An account and one it blocks, or one that blocks it,
are never paired; nor is an account with itself.  A seek carries its player's blocks of
the moment it was placed; a pair is checked against the database before it is taken, and
its table refuses them again (:func:`~gammon.server.play.arranged.ensure_table`), so a block
made while both wait holds too.  A rated pool takes accounts that may
play rated (docs/ratings.md: checked on seeking, and the pair limit on pairing).  Each
seek takes one ``create`` of the seeker (the table it may make), so seeking is rationed
like making tables.  After ``--pairing-bot-after`` seconds the page offers the bot at the
pool's options instead (casual: a bot is never rated).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Final

from gammon.match import ClockSettings, TableOptions
from gammon.match.ratings import START_RATING, rating_pool
from gammon.server.community.notify import Notifier
from gammon.server.infra.clock import now_ms
from gammon.server.infra.limits import Limits
from gammon.server.play.arranged import arranged_id, ensure_table
from gammon.server.play.seeks import Seek, SeeksFullError, SeekStore
from gammon.server.protocol import ServerError
from gammon.server.table.forms import table_request
from gammon.server.table.hub import Hub, TableRequest
from gammon.server.table.results import check_rated_seat, check_rated_sitters
from gammon.storage import UserRow
from gammon.storage.moderation import Moderation
from gammon.variants import ROTATIONS, VARIANTS

__all__ = [
    "CLOCKS",
    "LENGTHS",
    "MAX_SEEKS",
    "REACH_BASE",
    "REACH_EVERY",
    "REACH_STEP",
    "Pairing",
    "Pool",
    "pair_up",
    "reach",
]

log = logging.getLogger(__name__)

#: The clock presets of the pools: a delay per move, then a reserve of a base and so much
#: per point of the match (seconds).
CLOCKS: Final[Mapping[str, ClockSettings]] = MappingProxyType(
    {
        "blitz": ClockSettings(delay=6.0, reserve_base=30.0, reserve_per_point=20.0),
        "normal": ClockSettings(delay=12.0, reserve_base=60.0, reserve_per_point=60.0),
        "long": ClockSettings(delay=30.0, reserve_base=300.0, reserve_per_point=120.0),
    }
)
#: The match lengths of the pools.
LENGTHS: Final = (1, 3, 5, 7)
#: The preset the lobby shows first.
DEFAULT_CLOCK: Final = "normal"
#: Rating reach of a new seek, and how it widens: +REACH_STEP every REACH_EVERY seconds.
REACH_BASE: Final = 100.0
REACH_STEP: Final = 50.0
REACH_EVERY: Final = 5.0
#: Seeks the whole site holds at once (past it a seek is refused: ``rate_limited``).
MAX_SEEKS: Final = 5000
#: Seconds a seek waits at most.
MAX_WAIT: Final = 600.0
#: Seconds a new seek waits for its player's user socket before it needs one.
SOCKET_GRACE: Final = 10.0
#: Seconds between two rounds (and presence renewals) of each process.
TICK: Final = 0.5
#: Seconds a seeker counts as present after a renewal (a closed socket: gone by then).
PRESENCE_TTL: Final = 3.0
#: Seconds the live counts of the pools are kept.
COUNTS_TTL: Final = 1.0
#: The accounts a seeker blocks that the seek keeps (all: checked before a pair is taken).
MAX_BLOCKS: Final = 500
#: Seconds a refused rated pair (the pair limit) is not tried again.
AVOID_TTL: Final = 60.0


@dataclass(frozen=True, slots=True)
class Pool:
    """A variant x a match length x a clock preset x rated or casual.

    >>> pool = Pool.parse("standard.5.blitz.rated")
    >>> pool.options().clock.delay, pool.options().rated, pool.key
    (6.0, True, 'standard.5.blitz.rated')
    >>> Pool.parse("standard.2.blitz.rated")
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: no such pool: a variant, 1, 3, 5 or 7 points, blitz, normal or long, rated or casual
    """

    variant: str
    length: int
    clock: str
    rated: bool

    @property
    def key(self) -> str:
        """``variant.length.clock.rated|casual``."""
        return f"{self.variant}.{self.length}.{self.clock}.{'rated' if self.rated else 'casual'}"

    @classmethod
    def parse(cls, key: object) -> Pool:
        """The pool of a key (``invalid_options`` when there is none)."""
        parts = key.split(".") if isinstance(key, str) and len(key) <= 60 else []
        if (
            len(parts) == 4
            and (parts[0] in VARIANTS or parts[0] in ROTATIONS)
            and parts[1] in {str(n) for n in LENGTHS}
            and parts[2] in CLOCKS
            and parts[3] in ("rated", "casual")
        ):
            return cls(parts[0], int(parts[1]), parts[2], parts[3] == "rated")
        raise ServerError(
            "invalid_options",
            "no such pool: a variant, 1, 3, 5 or 7 points, blitz, normal or long, rated or casual",
        )

    def options(self) -> TableOptions:
        """The table options of the pool's matches (the variant's own cube and rules)."""
        clock = CLOCKS[self.clock]
        data = {
            "variant": self.variant,
            "match_length": self.length,
            "rated": self.rated,
            "clock": {
                "delay": clock.delay,
                "reserve_base": clock.reserve_base,
                "reserve_per_point": clock.reserve_per_point,
            },
        }
        return table_request(data, form=False).options


def reach(seek: Seek, now: int) -> float:
    """The rating points a seek reaches either side after waiting until ``now`` (ms).

    >>> s = Seek("a", 1, "ann", False, "p", 1500.0, 0, ())
    >>> reach(s, 0), reach(s, 4999), reach(s, 5000), reach(s, 60000)
    (100.0, 100.0, 150.0, 700.0)
    """
    waited = max(0, now - seek.placed) / 1000
    return REACH_BASE + REACH_STEP * int(waited // REACH_EVERY)


def may_meet(a: Seek, b: Seek, now: int) -> bool:
    """Whether two seeks may be paired now: the same pool, two accounts neither of which
    blocks the other, each within the other's reach.

    >>> a = Seek("a", 1, "ann", False, "p", 1500.0, 0, ())
    >>> may_meet(a, Seek("b", 2, "bob", False, "p", 1650.0, 0, ()), 0)
    False
    >>> may_meet(a, Seek("b", 2, "bob", False, "p", 1650.0, 0, ()), 5000)
    True
    >>> may_meet(a, Seek("b", 2, "bob", False, "p", 1500.0, 0, (1,)), 0)
    False
    """
    if a.pool != b.pool or a.user == b.user or a.user in b.blocks or b.user in a.blocks:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= reach(a, now) and gap <= reach(b, now)


def pair_up(
    seeks: Iterable[Seek], now: int, avoid: frozenset[frozenset[int]] = frozenset()
) -> list[tuple[Seek, Seek]]:
    """Pairs among ``seeks`` (none in two): the longest waiting first, each with the
    nearest rating it may meet (:func:`may_meet`; the longer waiting on a tie); two
    accounts in ``avoid`` are not paired.

    >>> s = [Seek(str(i), i, f"p{i}", False, "p", r, 0, ()) for i, r in enumerate((1500, 1900, 1550))]
    >>> [(a.user, b.user) for a, b in pair_up(s, 0)]
    [(0, 2)]
    """
    by_pool: dict[str, list[Seek]] = {}
    for seek in seeks:
        by_pool.setdefault(seek.pool, []).append(seek)
    pairs: list[tuple[Seek, Seek]] = []
    for waiting in by_pool.values():
        waiting.sort(key=lambda s: (s.placed, s.id))
        taken: set[int] = set()
        for i, a in enumerate(waiting):
            if a.user in taken:
                continue
            best: Seek | None = None
            for b in waiting[i + 1 :]:
                if b.user in taken or frozenset((a.user, b.user)) in avoid:
                    continue
                if not may_meet(a, b, now):
                    continue
                if best is None or abs(b.rating - a.rating) < abs(best.rating - a.rating):
                    best = b
            if best is not None:
                taken.update((a.user, best.user))
                pairs.append((a, best))
    return pairs


#: A player's rating in a rating pool (None: none yet).
Ratings = Callable[[str, int], Awaitable[float | None]]


class Pairing:
    """The seeks, the rounds that pair them, the tables made for the pairs."""

    def __init__(
        self,
        hub: Hub,
        notifier: Notifier,
        limits: Limits,
        store: SeekStore,
        ratings: Ratings,
    ) -> None:
        self.hub = hub
        self.notifier = notifier
        self.limits = limits
        self.store = store
        self.ratings = ratings
        #: Seconds before the page offers the bot (``--pairing-bot-after``).
        self.bot_after = hub.settings.pairing_bot_after
        self._task: asyncio.Task[None] | None = None
        #: The tables being made, by the players paired there.
        self._making: dict[int, asyncio.Task[None]] = {}
        self._avoid: dict[frozenset[int], float] = {}
        self._counts: tuple[float, dict[str, int]] = (-1e9, {})

    async def start(self) -> None:
        """Run a round every :data:`TICK` (and one after each seek)."""
        self._task = asyncio.create_task(self._loop(), name="gammon-pairing")

    async def stop(self) -> None:
        """Stop the rounds, finish the tables being made, close the store."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._making:
            await asyncio.gather(*set(self._making.values()), return_exceptions=True)
        await self.store.close()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("pairing: a round failed")

    # ------------------------------------------------------------------ seeking

    async def seek(self, user: UserRow, pool: Pool, address: str) -> dict[str, Any]:
        """Place (or move) ``user``'s seek in ``pool`` from client ``address``; the answer
        of :meth:`status` after a round (paired already, or waiting)."""
        options = pool.options()
        check_rated_seat(options, "guest" if user.guest else "user")
        await check_rated_sitters(self.hub.db, self.hub.settings, options, (user, None), now_ms())
        await self.limits.need("create", user.id, address)  # the table it may make
        rating = await self.ratings(rating_pool(pool.variant), user.id) if not user.guest else None
        blocks = await self.hub.db.run(Moderation(self.hub.db).blocked_by, user.id)
        seek = Seek(
            secrets.token_urlsafe(9),
            user.id,
            user.name,
            user.guest,
            pool.key,
            START_RATING if rating is None else float(rating),
            now_ms(),
            tuple(sorted(blocks))[:MAX_BLOCKS],
        )
        try:
            await self.store.put(seek, MAX_SEEKS)
        except SeeksFullError:
            raise ServerError(
                "rate_limited", "too many players are waiting to be paired: try again soon"
            ) from None
        self._counts = (-1e9, {})
        await self.round()
        making = self._making.get(user.id)
        if making is not None:  # paired in this round: answer with the table
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(making), timeout=10.0)
        return await self.status(user)

    async def cancel(self, user: UserRow) -> bool:
        """Withdraw ``user``'s seek (whether there was one)."""
        self._counts = (-1e9, {})
        return await self.store.remove(user.id) is not None

    async def status(self, user: UserRow) -> dict[str, Any]:
        """``{"seek": the seek waiting or null, "table": the table paired at or null,
        "bot_after": seconds}``."""
        mine = await self.store.get(user.id)
        table = None if mine is not None else await self.store.result(user.id)
        return {
            "seek": mine.public() if mine is not None else None,
            "table": table,
            "bot_after": self.bot_after,
        }

    async def counts(self) -> dict[str, int]:
        """The players waiting in each pool (kept :data:`COUNTS_TTL` s)."""
        at, counts = self._counts
        if time.monotonic() - at < COUNTS_TTL:
            return counts
        counts = {}
        for seek in await self.store.all():
            counts[seek.pool] = counts.get(seek.pool, 0) + 1
        self._counts = (time.monotonic(), counts)
        return counts

    async def bot(self, user: UserRow, pool: Pool, level: str) -> str:
        """Withdraw ``user``'s seek and make a table against the bot at ``pool``'s options
        (casual: no bot plays rated); its id.  The caller rations it (``create``)."""
        await self.cancel(user)
        options = replace(pool.options(), rated=False, spectator_chat=True)
        state = await self.hub.create_table(
            user, TableRequest(options, 0, "bot", level, private=True)
        )
        return state.id

    # ------------------------------------------------------------------ rounds

    async def round(self) -> None:
        """Renew the presence of this process's seekers, then, if no other process is
        running one, a round: lapsed seeks dropped, pairs taken and their tables made."""
        seeks = await self.store.all()
        here = [s.user for s in seeks if self.notifier.sockets.get(s.user)]
        await self.store.touch(here, PRESENCE_TTL)
        if len(seeks) < 1 or not await self.store.lock(30.0):
            return
        try:
            await self._round()
        finally:
            await self.store.unlock()

    async def _round(self) -> None:
        seeks = await self.store.all()
        now = now_ms()
        present = await self.store.present([s.user for s in seeks])
        live: list[Seek] = []
        for seek in seeks:
            age = (now - seek.placed) / 1000
            if age > MAX_WAIT or (age > SOCKET_GRACE and seek.user not in present):
                if await self.store.drop(seek):
                    await self.notifier.send(seek.user, {"type": "paired", "table": None})
                continue
            live.append(seek)
        clock = time.monotonic()
        self._avoid = {k: v for k, v in self._avoid.items() if v > clock}
        for a, b in pair_up(live, now, frozenset(self._avoid)):
            pool = Pool.parse(a.pool)
            users = await self._users(a, b)
            if users is None:
                continue
            if await self.hub.db.run(Moderation(self.hub.db).between, a.user, b.user):
                # a block made after the seeks (theirs hold only the blocks of then)
                self._avoid[frozenset((a.user, b.user))] = clock + AVOID_TTL
                continue
            if pool.rated:
                try:
                    await check_rated_sitters(
                        self.hub.db, self.hub.settings, pool.options(), users, now
                    )
                except ServerError:
                    self._avoid[frozenset((a.user, b.user))] = clock + AVOID_TTL
                    continue
            if not await self.store.take(a, b):
                continue
            self._counts = (-1e9, {})
            task = asyncio.create_task(self._make(pool, a, b, users), name="gammon-pairing-table")
            for seek in (a, b):
                self._making[seek.user] = task
            task.add_done_callback(functools.partial(self._made, users=(a.user, b.user)))

    def _made(self, task: asyncio.Task[None], users: tuple[int, int]) -> None:
        for user in users:
            if self._making.get(user) is task:
                del self._making[user]

    async def _users(self, a: Seek, b: Seek) -> tuple[UserRow, UserRow] | None:
        store = self.hub.store
        ua = await self.hub.db.run(store.user, a.user)
        ub = await self.hub.db.run(store.user, b.user)
        if ua is None or ub is None:
            return None
        return ua, ub

    async def _make(self, pool: Pool, a: Seek, b: Seek, users: Sequence[UserRow]) -> None:
        """The pair's table, both seated; both players told."""
        table_id = arranged_id(f"pairing:{a.id}:{b.id}")
        first, second = users if secrets.randbelow(2) else (users[1], users[0])
        try:
            await ensure_table(
                self.hub, table_id, pool.options(), None, (first, second), private=True
            )
        except ServerError as exc:  # refused at the table: a block made just now
            log.info("pairing: no table for %s and %s: %s", a.name, b.name, exc)
            for seek in (a, b):
                await self.notifier.send(seek.user, {"type": "paired", "table": None})
            return
        except Exception:
            log.exception("pairing: the table of %s and %s could not be made", a.name, b.name)
            for seek in (a, b):
                await self.notifier.send(seek.user, {"type": "paired", "table": None})
            return
        for seek in (a, b):
            await self.store.set_result(seek.user, table_id)
            await self.notifier.send(seek.user, {"type": "paired", "table": table_id})
