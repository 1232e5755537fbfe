"""News for one player wherever they are on the site, through the user sockets.

Every page of a signed-in visitor (guests too) opens ``/ws/user``
(:mod:`gammon.server.web.user_ws`); the server sends on it what concerns that player
outside any one table (today: challenges, see :mod:`gammon.server.play.challenges` and
docs/protocol.md, "The user socket").

:class:`Notifier` keeps this process's user sockets.  With Redis (several
processes) a message for a user is also published on ``gammon:users``; every
other process passes it to its own sockets of that user.  A lost pub/sub message
only delays the news to the next page load, which renders the same counts.

A sign-out closes the user sockets opened with that session (4401) in every process
(:meth:`Notifier.signed_out`: ``{"o": process, "x": session hash}`` on the same channel).
A ban closes every socket of the account (4401) in every process within the bus's delay
(:meth:`Notifier.banned`: ``{"o": process, "b": user id}``): its user sockets here, its
table sockets through :attr:`Notifier.ban_listeners` (the moderation service's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any, Final

from gammon.server.community.auth import token_hash
from gammon.server.infra.bus import subscribe
from gammon.server.table.connection import Connection, dumps

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
        #: The user sockets of each session (by its token's hash): closed at its sign-out.
        self._sessions: dict[str, set[Connection]] = {}
        self._session_of: dict[Connection, str] = {}
        self._origin = secrets.token_hex(8)
        #: Called with the id of an account banned here or in another process (its
        #: table sockets are closed by the moderation service's listener).
        self.ban_listeners: list[Callable[[int], None]] = []
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
            if "x" in data:  # a session signed out in another process
                self._close_session(str(data["x"]))
                return
            if "b" in data:  # an account banned in another process
                if str(data["o"]) != self._origin:
                    self._close_account(int(data["b"]))
                return
            user_id, origin, message = int(data["u"]), str(data["o"]), data["m"]
        except (ValueError, KeyError, TypeError):
            log.warning("user bus: ignoring a malformed message")
            return
        if origin != self._origin:
            self._local(user_id, message)

    def _close_session(self, hashed: str) -> None:
        for conn in list(self._sessions.get(hashed, ())):
            conn.close(4401, "signed out")

    def _close_account(self, user_id: int) -> None:
        for conn in list(self.sockets.get(user_id, ())):
            conn.close(4401, "banned")
        for listener in list(self.ban_listeners):
            try:
                listener(user_id)
            except Exception:  # one listener's failure never stops the others
                log.exception("ban listener failed for user %d", user_id)

    async def banned(self, user_id: int) -> None:
        """The account ``user_id`` was banned: close its user sockets (4401) and tell the
        :attr:`ban_listeners`, here and, through Redis, in every other process."""
        self._close_account(user_id)
        if self._redis is None:
            return
        try:
            await self._redis.publish(USER_CHANNEL, json.dumps({"o": self._origin, "b": user_id}))
        except Exception as exc:
            log.warning("user bus: could not publish the ban of user %d: %s", user_id, exc)

    async def signed_out(self, token: str | None) -> None:
        """The session of ``token`` signed out: close its user sockets (4401), here and,
        through Redis, in every other process."""
        if not token:
            return
        hashed = token_hash(token)
        self._close_session(hashed)
        if self._redis is None:
            return
        try:
            await self._redis.publish(USER_CHANNEL, json.dumps({"o": self._origin, "x": hashed}))
        except Exception as exc:
            log.warning("user bus: could not publish a sign-out: %s", exc)

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

    def add(self, conn: Connection, token: str | None = None) -> None:
        """A user socket opened (with the session ``token`` it was opened with: its
        sign-out closes it)."""
        assert conn.user_id is not None
        self.sockets.setdefault(conn.user_id, set()).add(conn)
        if token:
            hashed = token_hash(token)
            self._sessions.setdefault(hashed, set()).add(conn)
            self._session_of[conn] = hashed

    def remove(self, conn: Connection) -> None:
        """A user socket closed."""
        assert conn.user_id is not None
        conns = self.sockets.get(conn.user_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.sockets[conn.user_id]
        hashed = self._session_of.pop(conn, None)
        if hashed is not None:
            same = self._sessions.get(hashed)
            if same is not None:
                same.discard(conn)
                if not same:
                    del self._sessions[hashed]

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
