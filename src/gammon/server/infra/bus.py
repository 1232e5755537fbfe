"""Fan-out of table events between server processes.

With one process (no Redis) the :class:`LocalBus` does nothing: each table's
actor tells its own connections.  With several processes sharing a database,
:class:`RedisBus` publishes "table T reached version V" after every commit on T's own
channel, which only the processes that hold an actor for T listen to (from
:meth:`Bus.watch`, before they read it, to :meth:`Bus.release`); they apply the entry
announced, or read the new entries from the database (the source of truth), and pass
them on to their own connections.  So a process hears of its own tables only, however
many processes and tables the site has.  Pub/sub may drop a
message; actors also check their tables every ``sync_interval`` seconds.

Announcements are queued and sent by one task, all that waits in one pipelined round
trip: one connection, in commit order, however many tables commit at once (a round trip
and a connection per commit ran the pool dry under load, and those announcements were
lost until the sync).

Bot decisions are expensive, so processes *claim* each one (``SET NX``) and only
the winner computes it.

Liveness: each process keeps ``gammon:alive:<its id>`` fresh (set every
:data:`BEAT_INTERVAL`, lasting :data:`ALIVE_TTL`) and deletes it when it stops (SIGTERM);
a process that holds a table is one of its *drivers* (``gammon:drivers:<table>``, a
hash that expires after :data:`DRIVERS_TTL` unless a driver renews it).  A
process that loads a table asks whether another process drove it at that moment: one
whose last heartbeat is less than :data:`ON_TIME` old (it has missed no beat), or,
since a driver killed a moment ago still looks alive until its key expires, one still
alive after :data:`ALIVE_TTL` (it beat again after this process took the table).  If
none did, the table was down (its drivers were killed or stopped) and the decision in
progress gets a ``resume``.  A driver that dies *while* another process checks does not
make the table down: the checking process holds it from the moment it loaded it (and a
table down for less than :data:`ON_TIME` is not seen: no process restarts that fast).  A
process registers once it knows, so processes that load a table that was down at the
same time never vouch for each other (one ``resume`` is written: a second one conflicts
with it, or sees it).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, Protocol

import orjson

__all__ = ["Bus", "Entry", "LocalBus", "RedisBus", "make_bus", "subscribe"]

log = logging.getLogger(__name__)

#: A channel every process listens to (announcements of processes that publish there,
#: and what keeps the subscription open while a process holds no table).
CHANNEL: Final = "gammon:tables"
#: ``TABLE_PREFIX + table id``: the channel of one table's announcements.
TABLE_PREFIX: Final = "gammon:table:"
#: ``ALIVE_PREFIX + process id``: set (with a short expiry) by every running process.
ALIVE_PREFIX: Final = "gammon:alive:"
#: Seconds a process's liveness key lasts without a heartbeat.
ALIVE_TTL: Final = 3.0
#: Seconds between two heartbeats of a running process.
BEAT_INTERVAL: Final = ALIVE_TTL / 6
#: A process whose last heartbeat is younger than this has missed no beat (one is due
#: every :data:`BEAT_INTERVAL`; a quarter of a second late is on time): it was running.
ON_TIME: Final = ALIVE_TTL / 4
#: ``DRIVERS_PREFIX + table id``: a hash of the processes that hold the table.
DRIVERS_PREFIX: Final = "gammon:drivers:"
#: Seconds a table's drivers hash lasts unless a driver renews it; each process renews
#: those of the tables it holds every quarter of that, so only forgotten ones expire.
DRIVERS_TTL: Final = 3600.0

#: A committed entry as announced: its kind, data and time (what the journal holds).
Entry = tuple[str, dict[str, Any], int]
#: Called with (table id, version, the entry or None) for each commit announced by
#: another process.
Listener = Callable[[str, int, Entry | None], Awaitable[None]]
#: An announcement carries its entry when the entry's JSON is at most this long (else
#: the processes that hold the table read it from the journal).
ENTRY_BYTES: Final = 16 * 1024
#: At most this many announcements go to Redis in one round trip.
PUBLISH_BATCH: Final = 512
#: Announcements waiting for Redis beyond this many are dropped, the oldest first (Redis
#: is down or slow: the sync interval catches the processes up).
PUBLISH_BACKLOG: Final = 20_000


class Bus(Protocol):
    """What the server needs from an event bus."""

    #: Whether other processes may write the same tables.
    shared: bool

    async def start(self, listener: Listener) -> None:
        """Begin delivering other processes' announcements to ``listener``."""
        ...

    def post(self, table_id: str, version: int, entry: Entry | None = None) -> None:
        """Announce (soon, in the background) that ``table_id`` reached ``version`` (by
        ``entry``, when given)."""
        ...

    async def claim(self, key: str, ttl: float) -> bool:
        """Whether this process won ``key`` (held for ``ttl`` seconds)."""
        ...

    async def watch(self, table_id: str) -> None:
        """Hear ``table_id``'s announcements from now on (called before reading the table,
        so that no commit falls between the read and the subscription)."""
        ...

    async def adopt(self, table_id: str) -> bool:
        """Register this process as a driver of ``table_id``; whether the table was down
        (no other live process drove it), so the decision in progress must resume."""
        ...

    async def release(self, table_id: str) -> None:
        """This process no longer holds ``table_id`` (one :meth:`watch` undone)."""
        ...

    async def close(self) -> None:
        """Stop listening and disconnect."""
        ...


class LocalBus:
    """One process: nothing to tell anyone, every claim is ours."""

    shared = False

    async def start(self, listener: Listener) -> None:
        """Nothing to listen to."""

    def post(self, table_id: str, version: int, entry: Entry | None = None) -> None:
        """Nobody else to tell."""

    async def claim(self, key: str, ttl: float) -> bool:
        """Always won."""
        return True

    async def watch(self, table_id: str) -> None:
        """Nobody else commits."""

    async def adopt(self, table_id: str) -> bool:
        """One process: a table loaded was down (this process just started)."""
        return True

    async def release(self, table_id: str) -> None:
        """Nobody to tell."""

    async def close(self) -> None:
        """Nothing to close."""


class RedisBus:
    """Redis pub/sub between the processes sharing one database."""

    shared = True

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(url)
        self._origin = secrets.token_hex(8)
        self._task: asyncio.Task[None] | None = None
        self._listener: Listener | None = None
        self._started = asyncio.Event()
        self._beat: asyncio.Task[None] | None = None
        self._held: set[str] = set()  # the tables this process is a driver of
        self._outbox: deque[tuple[str, bytes]] = deque(maxlen=PUBLISH_BACKLOG)
        #: The tables whose channels this process listens to, each with how many
        #: :meth:`watch` calls are not yet released.
        self._watched: dict[str, int] = {}
        self._pubsub: Any = None  # the subscription, while connected
        self._subscribing = asyncio.Lock()  # (un)subscriptions one at a time
        self._queued = asyncio.Event()
        self._publisher: asyncio.Task[None] | None = None
        #: How every announcement of this process begins (its own come back: skipped).
        self._mine = b'{"o":"' + self._origin.encode() + b'"'

    async def start(self, listener: Listener) -> None:
        """Subscribe, and deliver announcements from other processes to ``listener``."""
        await self._redis.ping()
        await self._beat_once()
        self._beat = asyncio.create_task(self._heartbeat(), name="gammon-redis-heartbeat")
        self._listener = listener
        self._task = asyncio.create_task(self._listen(), name="gammon-redis-bus")
        self._publisher = asyncio.create_task(self._publish(), name="gammon-redis-publish")
        await asyncio.wait_for(self._started.wait(), timeout=10)

    async def _beat_once(self) -> None:
        await self._redis.set(ALIVE_PREFIX + self._origin, "1", px=round(ALIVE_TTL * 1000))

    async def _heartbeat(self) -> None:
        """Keep this process's liveness key set while it runs, and now and then the
        drivers hashes of the tables it holds."""
        renew_every = round(DRIVERS_TTL / 4 / BEAT_INTERVAL)
        beats = 0
        while True:
            await asyncio.sleep(BEAT_INTERVAL)
            beats += 1
            try:
                await self._beat_once()
                if beats % renew_every == 0:
                    await self.renew_drivers()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("redis bus: heartbeat failed: %s", exc)

    async def renew_drivers(self) -> None:
        """Make the drivers hashes of the tables this process holds last
        :data:`DRIVERS_TTL` again (one round trip)."""
        if not self._held:
            return
        ttl = round(DRIVERS_TTL * 1000)
        async with self._redis.pipeline(transaction=False) as pipe:
            for table_id in list(self._held):
                pipe.pexpire(DRIVERS_PREFIX + table_id, ttl)
            await pipe.execute()

    async def _other_drivers(self, table_id: str) -> dict[str, float]:
        """The live processes other than this one that hold ``table_id``, each with the
        seconds since its last heartbeat (the dead ones are struck off)."""
        key = DRIVERS_PREFIX + table_id
        drivers = [
            d.decode() if isinstance(d, bytes) else str(d) for d in await self._redis.hkeys(key)
        ]
        others = [d for d in drivers if d != self._origin]
        if not others:
            return {}
        async with self._redis.pipeline(transaction=False) as pipe:
            for d in others:
                pipe.pttl(ALIVE_PREFIX + d)
            left = await pipe.execute()
        dead = [d for d, ms in zip(others, left, strict=True) if ms < 0]
        if dead:
            await self._redis.hdel(key, *dead)
        return {d: ALIVE_TTL - ms / 1000 for d, ms in zip(others, left, strict=True) if ms >= 0}

    async def adopt(self, table_id: str) -> bool:
        """Whether the table was down when this process took it: no other driver had
        beaten within :data:`ON_TIME`, and none of them is still alive after
        :data:`ALIVE_TTL` (one that dies meanwhile was alive when this process took the
        table); then register as a driver.  When Redis cannot answer, the table counts as
        down (a resume only gives time)."""
        try:
            others = await self._other_drivers(table_id)
            down = not others
            if others and min(others.values()) >= ON_TIME:  # all late: dead, or slow?
                await asyncio.sleep(ALIVE_TTL + 0.5)
                down = not others.keys() & (await self._other_drivers(table_id)).keys()
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.hset(DRIVERS_PREFIX + table_id, self._origin, "1")
                pipe.pexpire(DRIVERS_PREFIX + table_id, round(DRIVERS_TTL * 1000))
                await pipe.execute()
            self._held.add(table_id)
            return down
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("redis bus: adopting table %s failed: %s", table_id, exc)
            return True

    async def watch(self, table_id: str) -> None:
        """Listen to the table's channel (a failure is logged: the sync covers it, and the
        next reconnection subscribes it)."""
        count = self._watched.get(table_id, 0)
        self._watched[table_id] = count + 1
        if count == 0:
            await self._resubscribe("subscribe", table_id)

    async def release(self, table_id: str) -> None:
        """Strike this process off the table's drivers, and stop listening to the table's
        channel once every :meth:`watch` of it is released."""
        self._held.discard(table_id)
        count = self._watched.pop(table_id, 0) - 1
        if count > 0:
            self._watched[table_id] = count
        else:
            await self._resubscribe("unsubscribe", table_id)
        try:
            await self._redis.hdel(DRIVERS_PREFIX + table_id, self._origin)
        except Exception as exc:
            log.warning("redis bus: releasing table %s failed: %s", table_id, exc)

    async def _resubscribe(self, verb: str, table_id: str) -> None:
        async with self._subscribing:
            pubsub = self._pubsub
            if pubsub is None:  # not connected: the connection subscribes what is watched
                return
            try:
                await getattr(pubsub, verb)(TABLE_PREFIX + table_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("redis bus: could not %s table %s: %s", verb, table_id, exc)

    async def _listen(self) -> None:
        await subscribe(
            self._redis,
            self._channels,
            self._deliver,
            self._started,
            attach=self._attach,
            lock=self._subscribing,
        )

    def _channels(self) -> list[str]:
        """What to subscribe to on each (re)connection: :data:`CHANNEL` and every table
        watched."""
        return [CHANNEL, *(TABLE_PREFIX + table_id for table_id in self._watched)]

    def _attach(self, pubsub: Any) -> None:
        self._pubsub = pubsub

    async def _deliver(self, raw: object) -> None:
        if not isinstance(raw, bytes | str) or self._listener is None:
            return
        if isinstance(raw, bytes) and raw.startswith(self._mine):
            return  # this process's own, back from Redis
        try:
            data = orjson.loads(raw)
            table_id, version, origin = str(data["t"]), int(data["v"]), str(data["o"])
            entry: Entry | None = None
            if "e" in data:
                kind, fields, at = data["e"]
                if not isinstance(fields, dict):
                    raise TypeError("entry data")
                entry = (str(kind), fields, int(at))
        except (ValueError, KeyError, TypeError):  # orjson.JSONDecodeError is a ValueError
            log.warning("redis bus: ignoring a malformed message")
            return
        if origin == self._origin:
            return
        try:
            await self._listener(table_id, version, entry)
        except Exception:
            log.exception("redis bus: listener failed for table %s", table_id)

    def post(self, table_id: str, version: int, entry: Entry | None = None) -> None:
        """Queue the announcement of a commit, with its entry unless that is long, so that
        the processes holding the table need not read it back from the database; the
        publisher task sends it (see the module's notes)."""
        message = b""
        if entry is not None:
            with_entry = {"o": self._origin, "t": table_id, "v": version, "e": list(entry)}
            message = orjson.dumps(with_entry, option=orjson.OPT_NON_STR_KEYS)
        if not message or len(message) > ENTRY_BYTES:
            message = orjson.dumps({"o": self._origin, "t": table_id, "v": version})
        self._outbox.append((TABLE_PREFIX + table_id, message))
        self._queued.set()

    async def _publish(self) -> None:
        """Send what :meth:`post` queued, up to :data:`PUBLISH_BATCH` announcements per
        round trip, for ever (a failure is logged: the sync interval covers it)."""
        while True:
            await self._queued.wait()
            self._queued.clear()
            await self._flush()

    async def _send_batch(self) -> None:
        """Send the oldest announcements waiting; they leave the queue once sent or failed
        (one cancelled on the way is sent again: a repeated announcement does nothing)."""
        outbox = self._outbox
        batch = list(itertools.islice(outbox, PUBLISH_BATCH))
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for channel, message in batch:
                    pipe.publish(channel, message)
                await pipe.execute()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("redis bus: %d announcement(s) not published: %s", len(batch), exc)
        for _ in range(min(len(batch), len(outbox))):
            outbox.popleft()

    async def claim(self, key: str, ttl: float) -> bool:
        """``SET key NX PX ttl``: True for the one process that set it."""
        try:
            won = await self._redis.set(
                f"gammon:claim:{key}", self._origin, nx=True, px=max(1, round(ttl * 1000))
            )
        except Exception as exc:
            log.warning("redis bus: claim %s failed (%s); acting anyway", key, exc)
            return True
        return bool(won)

    async def close(self) -> None:
        """Send what is queued (for up to a second), stop listening and close the
        connection pool."""
        if self._publisher is not None:
            self._publisher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._publisher
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._flush(), timeout=1.0)
        for task in (self._task, self._beat):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        try:  # stopped: at once no longer alive, so a restart resumes what it held
            await self._redis.delete(ALIVE_PREFIX + self._origin)
        except Exception as exc:
            log.warning("redis bus: could not clear the liveness key: %s", exc)
        await self._redis.aclose()

    async def _flush(self) -> None:
        while self._outbox:
            await self._send_batch()


async def subscribe(
    redis: Any,
    channels: Callable[[], Sequence[str]],
    deliver: Callable[[object], Awaitable[None]],
    ready: asyncio.Event,
    *,
    attach: Callable[[Any], None] | None = None,
    lock: asyncio.Lock | None = None,
) -> None:
    """Pass each message of the ``channels()`` to ``deliver`` for ever, subscribing again
    (with a growing pause, to the channels then named) when the connection drops;
    ``ready`` is set once subscribed.  ``attach`` is given the subscription when it is
    made and None when it drops (to add channels to it meanwhile), ``lock`` held while
    it is attached and subscribed."""
    backoff = 0.2
    while True:
        try:
            pubsub = redis.pubsub(ignore_subscribe_messages=True)
            async with pubsub:
                async with lock or contextlib.nullcontext():
                    if attach is not None:
                        attach(pubsub)
                    await pubsub.subscribe(*channels())
                ready.set()
                backoff = 0.2
                async for message in pubsub.listen():
                    await deliver(message.get("data"))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("redis %s: %s; reconnecting in %.1f s", channels()[0], exc, backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)
        finally:
            if attach is not None:
                attach(None)


def make_bus(redis_url: str | None) -> Bus:
    """A :class:`RedisBus` for a URL, else a :class:`LocalBus`."""
    return RedisBus(redis_url) if redis_url else LocalBus()
