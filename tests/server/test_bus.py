"""RedisBus.adopt: whether a table was down when a process took it (issue #20), against
a real Redis.  A killed process is a bus whose heartbeat stops and whose liveness key
stays until it expires, as after SIGKILL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Awaitable, Callable

from gammon.server.infra.bus import (
    ALIVE_PREFIX,
    ALIVE_TTL,
    CHANNEL,
    DRIVERS_PREFIX,
    DRIVERS_TTL,
    ENTRY_BYTES,
    ON_TIME,
    Entry,
    RedisBus,
)
from serverkit import REDIS_URL, need_services, run_async


async def _nobody(table_id: str, version: int, entry: Entry | None) -> None:
    """No process listens to announcements here."""


async def _started() -> RedisBus:
    bus = RedisBus(REDIS_URL)
    await bus.start(_nobody)
    return bus


async def _kill(bus: RedisBus) -> None:
    """SIGKILL: no more heartbeats, the liveness key is left to expire."""
    for task in (bus._task, bus._beat, bus._publisher):
        assert task is not None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    await bus._redis.aclose()


async def _late(bus: RedisBus, redis: RedisBus) -> None:
    """Wait until ``bus`` (stopped) has missed a beat: its key is older than ON_TIME."""
    key = ALIVE_PREFIX + bus._origin
    while await redis._redis.pttl(key) > round((ALIVE_TTL - ON_TIME) * 1000):
        await asyncio.sleep(0.05)


def _asked(bus: RedisBus) -> asyncio.Event:
    """Set once ``bus`` has first asked Redis for a table's other drivers."""
    asked = asyncio.Event()
    ask = bus._other_drivers

    async def asking(table_id: str) -> dict[str, float]:
        found = await ask(table_id)
        asked.set()
        return found

    bus._other_drivers = asking  # type: ignore[method-assign]
    return asked


def _run(scenario: Callable[[str], Awaitable[None]]) -> None:
    need_services()
    table = "test" + secrets.token_hex(4)

    async def main() -> None:
        probe = RedisBus(REDIS_URL)
        try:
            await scenario(table)
        finally:
            await probe._redis.delete(DRIVERS_PREFIX + table)
            await probe._redis.aclose()

    run_async(main)  # not asyncio.run: a browser test may hold this thread's loop


def test_a_new_table_was_down_and_its_second_process_takes_it_held() -> None:
    async def scenario(table: str) -> None:
        first, second = await _started(), await _started()
        try:
            assert await first.adopt(table)  # nobody drove it
            assert not await second.adopt(table)  # the first did
        finally:
            await first.close()
            await second.close()

    _run(scenario)


def test_a_driver_killed_while_another_takes_the_table_leaves_it_held() -> None:
    """The case that wrote a ``resume`` on a busy machine: the surviving process took the
    table a moment before the other was killed; nothing was ever down."""

    async def scenario(table: str) -> None:
        first, second = await _started(), await _started()
        try:
            assert await first.adopt(table)
            asked = _asked(second)
            taking = asyncio.create_task(second.adopt(table))
            await asked.wait()
            await _kill(first)
            assert not await taking
        finally:
            await second.close()

    _run(scenario)


def test_a_driver_killed_before_the_table_is_taken_leaves_it_down() -> None:
    """Its liveness key is still there (not expired), but it has missed a beat."""

    async def scenario(table: str) -> None:
        first, second = await _started(), await _started()
        try:
            assert await first.adopt(table)
            await _kill(first)
            await _late(first, second)
            assert await second.adopt(table)
        finally:
            await second.close()

    _run(scenario)


def test_a_late_driver_that_beats_again_held_the_table() -> None:
    """A driver that missed a beat (a busy machine) but is alive after ALIVE_TTL."""

    async def scenario(table: str) -> None:
        first, second = await _started(), await _started()
        try:
            assert await first.adopt(table)
            beat = first._beat
            assert beat is not None
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
            await _late(first, second)
            asked = _asked(second)
            taking = asyncio.create_task(second.adopt(table))
            await asked.wait()  # the first looked late; it beats again while the second waits
            await first._beat_once()
            first._beat = asyncio.create_task(first._heartbeat())
            assert not await taking
        finally:
            await first.close()
            await second.close()

    _run(scenario)


def test_processes_taking_a_down_table_together_do_not_vouch_for_each_other() -> None:
    async def scenario(table: str) -> None:
        dead, second, third = await _started(), await _started(), await _started()
        try:
            assert await dead.adopt(table)
            await _kill(dead)
            await _late(dead, second)
            assert await asyncio.gather(second.adopt(table), third.adopt(table)) == [True, True]
        finally:
            await second.close()
            await third.close()

    _run(scenario)


def test_a_drivers_hash_expires_unless_a_driver_renews_it() -> None:
    """``gammon:drivers:<table>`` used to live for ever: it now lasts DRIVERS_TTL, and a
    process renews those of the tables it holds (not those it released)."""

    async def scenario(table: str) -> None:
        bus, other_bus = await _started(), await _started()
        key, other = DRIVERS_PREFIX + table, DRIVERS_PREFIX + table + "x"
        try:
            assert await bus.adopt(table) and await bus.adopt(table + "x")
            assert not await other_bus.adopt(table + "x")
            full = round(DRIVERS_TTL * 1000)
            assert full - 5_000 < await bus._redis.pttl(key) <= full
            await bus.release(table + "x")  # the other process still holds it
            for k in (key, other):
                await bus._redis.pexpire(k, 10_000)
            await bus.renew_drivers()
            assert full - 5_000 < await bus._redis.pttl(key) <= full
            assert 0 < await bus._redis.pttl(other) <= 10_000
        finally:
            await bus._redis.delete(other)
            await bus.close()
            await other_bus.close()

    _run(scenario)


def test_an_announcement_carries_its_entry_unless_it_is_long() -> None:
    """The processes holding a table apply the announced entry without reading the
    database; a long entry (or a malformed one) is announced by its version alone."""

    async def scenario(table: str) -> None:
        heard: asyncio.Queue[tuple[str, int, Entry | None]] = asyncio.Queue()

        async def listener(table_id: str, version: int, entry: Entry | None) -> None:
            if table_id == table:
                await heard.put((table_id, version, entry))

        sender, receiver = await _started(), RedisBus(REDIS_URL)
        await receiver.start(listener)
        await receiver.watch(table)
        try:
            chat = ("chat", {"name": "ann", "text": "hi", "seat": 0}, 1234)
            sender.post(table, 7, chat)
            assert await asyncio.wait_for(heard.get(), 5) == (table, 7, chat)
            long = ("chat", {"text": "x" * ENTRY_BYTES}, 1235)
            sender.post(table, 8, long)
            assert await asyncio.wait_for(heard.get(), 5) == (table, 8, None)
            sender.post(table, 9)
            assert await asyncio.wait_for(heard.get(), 5) == (table, 9, None)
            bad = {"t": table, "v": 10, "o": "someone", "e": ["chat", "not a dict", 1]}
            await sender._redis.publish(CHANNEL, json.dumps(bad))
            sender.post(table, 11)
            assert await asyncio.wait_for(heard.get(), 5) == (table, 11, None)
        finally:
            await sender.close()
            await receiver.close()

    _run(scenario)


def test_a_burst_of_commits_is_announced_whole_and_in_order() -> None:
    """Two thousand commits at once (a busy process) reach the other process, every one, in
    commit order: they go out in batches on one connection (a round trip and a pooled
    connection each ran Redis's client pool dry at 100, and the rest were lost)."""

    async def scenario(table: str) -> None:
        heard: list[int] = []
        done = asyncio.Event()

        async def listener(table_id: str, version: int, entry: Entry | None) -> None:
            if table_id == table:
                assert entry == ("chat", {"text": str(version)}, version)
                heard.append(version)
                if version == 2000:
                    done.set()

        sender, receiver = await _started(), RedisBus(REDIS_URL)
        await receiver.start(listener)
        await receiver.watch(table)
        try:
            for version in range(1, 2001):
                sender.post(table, version, ("chat", {"text": str(version)}, version))
            await asyncio.wait_for(done.wait(), 10)
            assert heard == list(range(1, 2001))
        finally:
            await sender.close()
            await receiver.close()

    _run(scenario)


def test_a_process_skips_its_own_announcements_and_sends_what_is_queued_when_closing() -> None:
    async def scenario(table: str) -> None:
        mine: list[int] = []
        theirs: list[int] = []

        async def own(table_id: str, version: int, entry: Entry | None) -> None:
            if table_id == table:
                mine.append(version)

        async def other(table_id: str, version: int, entry: Entry | None) -> None:
            if table_id == table:
                theirs.append(version)

        sender, receiver = RedisBus(REDIS_URL), RedisBus(REDIS_URL)
        await sender.start(own)
        await receiver.start(other)
        await sender.watch(table)  # its own channel too: what it hears of itself is skipped
        await receiver.watch(table)
        try:
            sender.post(table, 1)
            sender.post(table, 2)
            await sender.close()  # at once: what was queued still goes out
            for _ in range(100):
                if len(theirs) == 2:
                    break
                await asyncio.sleep(0.05)
            assert theirs == [1, 2] and mine == []
        finally:
            await receiver.close()

    _run(scenario)


def test_a_process_hears_only_the_tables_it_watches_and_again_after_reconnecting() -> None:
    """Each table has its channel: a process hears of the tables it holds (from ``watch``
    to ``release``), not of the site's others; when its connection drops it subscribes
    again to every table it still watches."""

    async def scenario(table: str) -> None:
        heard: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        elsewhere = table + "x"

        async def listener(table_id: str, version: int, entry: Entry | None) -> None:
            await heard.put((table_id, version))

        sender, receiver = await _started(), RedisBus(REDIS_URL)
        await receiver.start(listener)
        try:
            await receiver.watch(table)
            await receiver.watch(table)  # a second holder of the same table
            sender.post(elsewhere, 1)
            sender.post(table, 1)
            assert await asyncio.wait_for(heard.get(), 5) == (table, 1)
            await receiver.release(table)  # one watch left: still heard
            sender.post(table, 2)
            assert await asyncio.wait_for(heard.get(), 5) == (table, 2)
            pubsub = receiver._pubsub
            assert pubsub is not None and pubsub.connection is not None
            await pubsub.connection.disconnect()  # the connection drops
            for _ in range(100):
                if receiver._pubsub is not None and receiver._pubsub is not pubsub:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            sender.post(table, 3)
            assert await asyncio.wait_for(heard.get(), 5) == (table, 3)
            await receiver.release(table)  # the last watch: no longer heard
            await asyncio.sleep(0.2)
            sender.post(table, 4)
            sender.post(elsewhere, 2)
            await asyncio.sleep(0.5)
            assert heard.empty()
        finally:
            await sender.close()
            await receiver.close()

    _run(scenario)
