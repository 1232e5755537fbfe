"""Where the quick-pairing seeks wait (:mod:`gammon.server.play.pairing`): in this process
(:class:`LocalSeeks`, one process) or in Redis (:class:`RedisSeeks`, shared by every
process of the site).

A store holds at most one seek per account (a new one replaces it), at most ``cap`` in all;
whether each seeker still has a user socket open somewhere (:meth:`SeekStore.touch`, a
key that lapses unless renewed); the table each seeker was paired to, for a while; and a
lock, so that one process at a time runs a pairing round.  :meth:`SeekStore.take` removes
two seeks at once, only if both are still the very seeks the round read: whoever runs a
round, however many run at once, a seek is paired once (in Redis one Lua script).

>>> import asyncio
>>> store = LocalSeeks()
>>> a = Seek("s1", 1, "ann", False, "standard.3.normal.casual", 1500.0, 0, ())
>>> b = Seek("s2", 2, "bob", False, "standard.3.normal.casual", 1500.0, 0, ())
>>> asyncio.run(store.put(a, 10)), asyncio.run(store.put(b, 10))
(None, None)
>>> asyncio.run(store.take(a, b)), asyncio.run(store.take(a, b))
(True, False)
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Final, Protocol

__all__ = ["LocalSeeks", "RedisSeeks", "Seek", "SeekStore", "SeeksFullError", "make_store"]

#: Seconds a paired seeker's table is remembered (``GET /api/pairing/seek`` answers it).
RESULT_TTL: Final = 120.0


class SeeksFullError(Exception):
    """The store already holds its ``cap`` of seeks."""


@dataclass(frozen=True, slots=True)
class Seek:
    """One player waiting in one pool: the seek's id, the account (id, name, guest), the
    pool's key, the player's rating in the pool, when it was placed (ms) and the accounts
    the player blocks (never paired with them, nor they with the player)."""

    id: str
    user: int
    name: str
    guest: bool
    pool: str
    rating: float
    placed: int
    blocks: tuple[int, ...]

    def to_json(self) -> str:
        """The seek as stored."""
        fields = (self.id, self.user, self.name, self.guest, self.pool, self.rating)
        return json.dumps([*fields, self.placed, list(self.blocks)], separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Seek:
        """A stored seek.

        >>> s = Seek("x", 1, "ann", True, "standard.1.blitz.casual", 1510.5, 7, (3, 4))
        >>> Seek.from_json(s.to_json()) == s
        True
        """
        i, user, name, guest, pool, rating, placed, blocks = json.loads(text)
        return cls(
            str(i),
            int(user),
            str(name),
            bool(guest),
            str(pool),
            float(rating),
            int(placed),
            tuple(int(b) for b in blocks),
        )

    def public(self) -> dict[str, Any]:
        """The seek as the JSON API shows it to its player."""
        return {"id": self.id, "pool": self.pool, "placed": self.placed}


class SeekStore(Protocol):
    """Where seeks wait (see the module's documentation)."""

    async def put(self, seek: Seek, cap: int) -> Seek | None:
        """Place ``seek`` (replacing the account's: returned); :class:`SeeksFullError` when
        ``cap`` seeks of other accounts wait already."""
        ...

    async def remove(self, user_id: int) -> Seek | None:
        """Withdraw the account's seek (the one removed, if any)."""
        ...

    async def all(self) -> list[Seek]:
        """Every seek waiting."""
        ...

    async def get(self, user_id: int) -> Seek | None:
        """The account's seek."""
        ...

    async def drop(self, seek: Seek) -> bool:
        """Remove ``seek`` if it still waits unchanged (then True)."""
        ...

    async def take(self, a: Seek, b: Seek) -> bool:
        """Remove both seeks if both still wait unchanged (then True), else nothing."""
        ...

    async def touch(self, user_ids: list[int], ttl: float) -> None:
        """These seekers have a user socket open: they count as present for ``ttl`` s."""
        ...

    async def present(self, user_ids: list[int]) -> set[int]:
        """Which of these seekers count as present."""
        ...

    async def set_result(self, user_id: int, table_id: str) -> None:
        """The seeker was paired at ``table_id`` (remembered :data:`RESULT_TTL` s)."""
        ...

    async def result(self, user_id: int) -> str | None:
        """The table the seeker was last paired at, lately."""
        ...

    async def lock(self, ttl: float) -> bool:
        """Whether this process may run a round now (held at most ``ttl`` s)."""
        ...

    async def unlock(self) -> None:
        """The round is over."""
        ...

    async def close(self) -> None:
        """Disconnect."""
        ...


class LocalSeeks:
    """One process: the seeks in a dict."""

    def __init__(self) -> None:
        self._seeks: dict[int, Seek] = {}
        self._present: dict[int, float] = {}
        self._results: dict[int, tuple[str, float]] = {}
        self._locked = False

    async def put(self, seek: Seek, cap: int) -> Seek | None:
        """See :meth:`SeekStore.put`."""
        if seek.user not in self._seeks and len(self._seeks) >= cap:
            raise SeeksFullError
        old = self._seeks.get(seek.user)
        self._seeks[seek.user] = seek
        self._results.pop(seek.user, None)
        return old

    async def remove(self, user_id: int) -> Seek | None:
        """See :meth:`SeekStore.remove`."""
        self._present.pop(user_id, None)
        return self._seeks.pop(user_id, None)

    async def all(self) -> list[Seek]:
        """See :meth:`SeekStore.all`."""
        return list(self._seeks.values())

    async def get(self, user_id: int) -> Seek | None:
        """See :meth:`SeekStore.get`."""
        return self._seeks.get(user_id)

    async def drop(self, seek: Seek) -> bool:
        """See :meth:`SeekStore.drop`."""
        if self._seeks.get(seek.user) != seek:
            return False
        del self._seeks[seek.user]
        self._present.pop(seek.user, None)
        return True

    async def take(self, a: Seek, b: Seek) -> bool:
        """See :meth:`SeekStore.take`."""
        if a.user == b.user or self._seeks.get(a.user) != a or self._seeks.get(b.user) != b:
            return False
        for seek in (a, b):
            del self._seeks[seek.user]
            self._present.pop(seek.user, None)
        return True

    async def touch(self, user_ids: list[int], ttl: float) -> None:
        """See :meth:`SeekStore.touch`."""
        until = time.monotonic() + ttl
        for user_id in user_ids:
            if user_id in self._seeks:
                self._present[user_id] = until

    async def present(self, user_ids: list[int]) -> set[int]:
        """See :meth:`SeekStore.present`."""
        now = time.monotonic()
        return {u for u in user_ids if self._present.get(u, 0.0) > now}

    async def set_result(self, user_id: int, table_id: str) -> None:
        """See :meth:`SeekStore.set_result`."""
        now = time.monotonic()
        for old in [u for u, (_, at) in self._results.items() if at < now]:
            del self._results[old]  # forgotten once old: bounded by the recent pairings
        self._results[user_id] = (table_id, now + RESULT_TTL)

    async def result(self, user_id: int) -> str | None:
        """See :meth:`SeekStore.result`."""
        found = self._results.get(user_id)
        return found[0] if found is not None and found[1] > time.monotonic() else None

    async def lock(self, ttl: float) -> bool:
        """See :meth:`SeekStore.lock`."""
        if self._locked:
            return False
        self._locked = True
        return True

    async def unlock(self) -> None:
        """See :meth:`SeekStore.unlock`."""
        self._locked = False

    async def close(self) -> None:
        """Nothing to close."""


#: Place a seek: KEYS = seeks hash, the seeker's result key; ARGV = user id, seek, cap.
_PUT: Final = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if not old and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('DEL', KEYS[2])
return old or ''
"""
#: Take two seeks: KEYS = seeks hash; ARGV = user a, seek a, user b, seek b.
_TAKE: Final = """
if ARGV[1] == ARGV[3] then return 0 end
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[1], ARGV[3]) ~= ARGV[4] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[3])
return 1
"""
#: Drop one seek: KEYS = seeks hash; ARGV = user, seek.
_DROP: Final = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])
"""
#: Release the round's lock if this process still holds it: KEYS = lock; ARGV = token.
_UNLOCK: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisSeeks:
    """Every process of the site: the seeks in one Redis hash (keys carry a digest of the
    database URL, as the limits' do: two sites sharing a Redis share no seeks)."""

    def __init__(self, url: str, site: str) -> None:
        import redis.asyncio as aioredis

        self._redis: Any = aioredis.Redis.from_url(url)
        digest = hashlib.sha256(site.encode()).hexdigest()[:12]
        self._prefix = f"gammon:pair:{digest}:"
        self._seeks = self._prefix + "seeks"
        #: The key of the rounds' lock (:meth:`lock`).
        self.lock_key = self._prefix + "lock"
        self._token = secrets.token_hex(8)
        self._put = self._redis.register_script(_PUT)
        self._take = self._redis.register_script(_TAKE)
        self._drop = self._redis.register_script(_DROP)
        self._unlock = self._redis.register_script(_UNLOCK)

    async def put(self, seek: Seek, cap: int) -> Seek | None:
        """See :meth:`SeekStore.put`."""
        old = await self._put(
            keys=[self._seeks, f"{self._prefix}paired:{seek.user}"],
            args=[seek.user, seek.to_json(), cap],
        )
        if old in (b"full", "full"):
            raise SeeksFullError
        return Seek.from_json(old) if old else None

    async def remove(self, user_id: int) -> Seek | None:
        """See :meth:`SeekStore.remove`."""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hget(self._seeks, user_id)
            pipe.hdel(self._seeks, user_id)
            old, _ = await pipe.execute()
        return Seek.from_json(old) if old else None

    async def all(self) -> list[Seek]:
        """See :meth:`SeekStore.all`."""
        raw = await self._redis.hvals(self._seeks)
        return [Seek.from_json(text) for text in raw]

    async def get(self, user_id: int) -> Seek | None:
        """See :meth:`SeekStore.get`."""
        found = await self._redis.hget(self._seeks, user_id)
        return Seek.from_json(found) if found else None

    async def drop(self, seek: Seek) -> bool:
        """See :meth:`SeekStore.drop`."""
        args: list[str | int] = [seek.user, seek.to_json()]
        return bool(await self._drop(keys=[self._seeks], args=args))

    async def take(self, a: Seek, b: Seek) -> bool:
        """See :meth:`SeekStore.take`."""
        args: list[str | int] = [a.user, a.to_json(), b.user, b.to_json()]
        return bool(await self._take(keys=[self._seeks], args=args))

    async def touch(self, user_ids: list[int], ttl: float) -> None:
        """See :meth:`SeekStore.touch`."""
        if not user_ids:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for user_id in user_ids:
                pipe.set(f"{self._prefix}here:{user_id}", "1", px=max(1, round(ttl * 1000)))
            await pipe.execute()

    async def present(self, user_ids: list[int]) -> set[int]:
        """See :meth:`SeekStore.present`."""
        if not user_ids:
            return set()
        found = await self._redis.mget([f"{self._prefix}here:{u}" for u in user_ids])
        return {u for u, v in zip(user_ids, found, strict=True) if v is not None}

    async def set_result(self, user_id: int, table_id: str) -> None:
        """See :meth:`SeekStore.set_result`."""
        key = f"{self._prefix}paired:{user_id}"
        await self._redis.set(key, table_id, px=round(RESULT_TTL * 1000))

    async def result(self, user_id: int) -> str | None:
        """See :meth:`SeekStore.result`."""
        found = await self._redis.get(f"{self._prefix}paired:{user_id}")
        if found is None:
            return None
        return found.decode() if isinstance(found, bytes) else str(found)

    async def lock(self, ttl: float) -> bool:
        """See :meth:`SeekStore.lock`."""
        return bool(
            await self._redis.set(self.lock_key, self._token, nx=True, px=round(ttl * 1000))
        )

    async def unlock(self) -> None:
        """See :meth:`SeekStore.unlock`."""
        await self._unlock(keys=[self.lock_key], args=[self._token])

    async def close(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()


def make_store(redis_url: str | None, site: str) -> SeekStore:
    """A :class:`RedisSeeks` with Redis, else a :class:`LocalSeeks`."""
    return RedisSeeks(redis_url, site) if redis_url else LocalSeeks()
