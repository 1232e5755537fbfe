"""News for one player wherever they are on the site, through the user sockets.

Every page of a signed-in visitor (guests too) opens ``/ws/user``
(:mod:`gammon.server.user_ws`); the server sends on it what concerns that player
outside any one table (today: challenges, see :mod:`gammon.server.challenges` and
docs/protocol.md, "The user socket").

:class:`Notifier` keeps this process's user sockets.  With Redis (several
processes) a message for a user is also published on ``gammon:users``; every
other process passes it to its own sockets of that user.  A lost pub/sub message
only delays the news to the next page load, which renders the same counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any, Final

from gammon.server.bus import subscribe
from gammon.server.connection import Connection, dumps

__all__ = ["USER_CHANNEL", "Notifier"]

log = logging.getLogger(__name__)

#: The Redis channel of the messages for users.
USER_CHANNEL: Final = "gammon:users"


class Notifier:
    """This process's user sockets, and the Redis channel between processes."""

    def __init__(self, redis_url: str | None) -> None:
        self.sockets: dict[int, set[Connection]] = {}
        #: Open user sockets per client address (limited like table sockets).
        self.per_address: dict[str, int] = {}
        self._origin = secrets.token_hex(8)
        self._redis: Any = None
        self._task: asyncio.Task[None] | None = None
        if redis_url:
            import redis.asyncio as aioredis

            self._redis = aioredis.Redis.from_url(redis_url)

    async def start(self) -> None:
        """Subscribe to the other processes' messages (with Redis)."""
        if self._redis is None:
            return
        ready = asyncio.Event()
        self._task = asyncio.create_task(
            subscribe(self._redis, lambda: [USER_CHANNEL], self._deliver, ready),
            name="gammon-user-bus",
        )
        await asyncio.wait_for(ready.wait(), timeout=10)

    async def _deliver(self, raw: object) -> None:
        if not isinstance(raw, bytes | str):
            return
        try:
            data = json.loads(raw)
            user_id, origin, message = int(data["u"]), str(data["o"]), data["m"]
        except (ValueError, KeyError, TypeError):
            log.warning("user bus: ignoring a malformed message")
            return
        if origin != self._origin:
            self._local(user_id, message)

    def _local(self, user_id: int, message: Any) -> None:
        text = dumps(message)
        for conn in list(self.sockets.get(user_id, ())):
            conn.send(text)

    async def send(self, user_id: int, message: dict[str, Any]) -> None:
        """Send ``message`` to every socket of a user, in every process."""
        self._local(user_id, message)
        if self._redis is None:
            return
        payload = json.dumps({"u": user_id, "o": self._origin, "m": message})
        try:
            await self._redis.publish(USER_CHANNEL, payload)
        except Exception as exc:
            log.warning("user bus: could not publish to user %d: %s", user_id, exc)

    def add(self, conn: Connection) -> None:
        """A user socket opened."""
        assert conn.user_id is not None
        self.sockets.setdefault(conn.user_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        """A user socket closed."""
        assert conn.user_id is not None
        conns = self.sockets.get(conn.user_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.sockets[conn.user_id]

    async def close(self) -> None:
        """Close every user socket and the Redis connection."""
        for conns in list(self.sockets.values()):
            for conn in list(conns):
                conn.close(1001, "server shutting down")
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._redis is not None:
            await self._redis.aclose()
