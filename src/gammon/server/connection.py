"""One WebSocket client: its identity, its outgoing queue, and its writer task.

Actors never await a socket: they put text on the connection's bounded queue.
A client too slow to drain it is disconnected (close code 4008) and resumes
from its last version when it reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Final

from starlette.websockets import WebSocket

from gammon.storage import UserRow

__all__ = ["OUTBOX_BYTES", "OUTBOX_SIZE", "Connection", "dumps"]

log = logging.getLogger(__name__)

#: Messages that may wait for a client before it is disconnected as too slow.
OUTBOX_SIZE: Final = 256
#: Characters that may wait for a client (one message over this is still sent alone).
OUTBOX_BYTES: Final = 2 * 1024 * 1024


def dumps(obj: Any) -> str:
    """Compact JSON, as sent on the wire."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """A joined (or joining) WebSocket client of one table."""

    def __init__(self, websocket: WebSocket, user: UserRow | None) -> None:
        self.websocket = websocket
        self.user = user
        self.user_id = user.id if user is not None else None
        self.joined = False
        #: A client seed the client gave that is not in the journal yet.
        self.pending_seed: str | None = None
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_SIZE)
        self._queued = 0
        self._close: tuple[int, str] | None = None
        #: When the session was last checked (monotonic seconds), see ``gammon.server.ws``.
        self.checked_at = 0.0

    @property
    def closing(self) -> bool:
        """Whether the connection is being closed."""
        return self._close is not None

    def send(self, text: str) -> None:
        """Queue a message; a client that cannot keep up is disconnected."""
        if self._close is not None:
            return
        if self._queued > OUTBOX_BYTES:  # what waits, not this message: a snapshot passes
            self._too_slow(f"{self._queued} characters")
            return
        try:
            self._outbox.put_nowait(text)
        except asyncio.QueueFull:
            self._too_slow(f"{OUTBOX_SIZE} messages")
            return
        self._queued += len(text)

    def _too_slow(self, behind: str) -> None:
        log.info("closing a WebSocket that is %s behind", behind)
        self._close = (4008, "too slow: reconnect and resume")
        self._wake()

    def send_json(self, obj: Any) -> None:
        """Queue an object as JSON."""
        self.send(dumps(obj))

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued."""
        if self._close is None:
            self._close = (code, reason)
            self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self._outbox.put_nowait(None)

    async def writer(self) -> None:
        """Send queued messages until closed (run as a task per connection)."""
        try:
            while True:
                if self._close is not None and self._close[0] == 4008:
                    break
                text = await self._outbox.get()
                if text is None:
                    if self._close is not None:
                        break
                    continue
                self._queued -= len(text)
                await self.websocket.send_text(text)
            code, reason = self._close or (1000, "")
            await self.websocket.close(code, reason)
        except Exception as exc:  # the client went away: the reader sees the disconnect
            log.debug("WebSocket writer stopped: %s", exc)
