"""One WebSocket client: its identity, its outgoing queue, and its writer task.

Actors never await a socket: they put text on the connection's bounded queue.
A client too slow to drain it (too much waiting, or its oldest message waiting
over :data:`SLOW_AFTER` seconds) is disconnected (close code 4008, or the
connection dropped when it does not even read that) and resumes from its last
version when it reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections import deque
from typing import Any, Final

import orjson
from starlette.websockets import WebSocket

from gammon.storage import UserRow

__all__ = [
    "OUTBOX_BYTES",
    "OUTBOX_SIZE",
    "SEND_BUFFER",
    "SLOW_AFTER",
    "Connection",
    "dumps",
    "finish",
    "limit_buffers",
]

log = logging.getLogger(__name__)

#: Messages that may wait for a client before it is disconnected as too slow.
OUTBOX_SIZE: Final = 256
#: Characters that may wait for a client (a message is refused only when more than this
#: already waits, so a snapshot of any size is sent).
OUTBOX_BYTES: Final = 2 * 1024 * 1024
#: Seconds the oldest message may wait for a client before it is disconnected as too slow.
SLOW_AFTER: Final = 4.0
#: Bytes the kernel and the transport each buffer for a client (``limit_buffers``): a
#: snapshot or two; at 100 ms of latency still over 600 KB/s.
SEND_BUFFER: Final = 64 * 1024


def dumps(obj: Any) -> str:
    """Compact JSON, as sent on the wire (and written to the journal): orjson's, which
    takes a tenth of the time of the standard library's (measured on a state to the
    mover: 2.3 against 29 µs); the standard library's text, the same, for what orjson
    refuses (an integer beyond 64 bits).

    >>> dumps({"move": "24/18 13/11", "steps": [[24, 18, 6, False]], 1: "é"})
    '{"move":"24/18 13/11","steps":[[24,18,6,false]],"1":"é"}'
    >>> dumps({"key": 2**70})
    '{"key":1180591620717411303424}'
    """
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
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
        #: When each queued message was queued (monotonic seconds), oldest first.
        self._times: deque[float] = deque()
        #: When the message being written now was queued (None: none is).
        self._sending: float | None = None
        self._close: tuple[int, str] | None = None
        #: When the session was last checked (monotonic seconds), see ``gammon.server.web.ws``.
        self.checked_at = 0.0
        #: Which legal moves this client was last sent (``gammon.server.table.actor.fanout``):
        #: a state with the same ones says ``moves_kept`` instead of repeating them.
        self.moves_key: object = None
        #: The accounts this client's user blocks (docs/moderation.md): their chat lines
        #: are not sent to it (``gammon.server.table.actor.fanout``).
        self.blocked: frozenset[int] = frozenset()

    @property
    def closing(self) -> bool:
        """Whether the connection is being closed."""
        return self._close is not None

    def lag(self, now: float | None = None) -> float:
        """Seconds the oldest message not yet written has waited (0: none waits)."""
        oldest = (
            self._sending
            if self._sending is not None
            else (self._times[0] if self._times else None)
        )
        if oldest is None:
            return 0.0
        return (time.monotonic() if now is None else now) - oldest

    def send(self, text: str) -> None:
        """Queue a message; a client that cannot keep up is disconnected."""
        if self._close is not None:
            return
        now = time.monotonic()
        if self._queued > OUTBOX_BYTES:  # what waits, not this message: a snapshot passes
            self._too_slow(f"{self._queued} characters")
            return
        if self.lag(now) > SLOW_AFTER:
            self._too_slow(f"{self.lag(now):.1f} s")
            return
        try:
            self._outbox.put_nowait(text)
        except asyncio.QueueFull:
            self._too_slow(f"{OUTBOX_SIZE} messages")
            return
        self._times.append(now)
        self._queued += len(text)

    def _too_slow(self, behind: str) -> None:
        log.info("closing a WebSocket that is %s behind", behind)
        self._close = (4008, "too slow: reconnect and resume")
        if self._sending is not None:
            # the writer is stuck on a client that does not read: drop the connection
            _abort(self.websocket)
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
                self._sending = self._times.popleft()
                await self.websocket.send_text(text)
                self._sending = None
            code, reason = self._close or (1000, "")
            await self.websocket.close(code, reason)
        except Exception as exc:  # the client went away: the reader sees the disconnect
            log.debug("WebSocket writer stopped: %s", exc)


async def finish(conn: Connection, writer: asyncio.Task[None]) -> None:
    """Close a connection and wait (at most 5 s) for its writer to send what is queued."""
    conn.close()
    try:
        await asyncio.wait_for(writer, timeout=5)
    except (TimeoutError, asyncio.CancelledError):
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer


def _transport(websocket: WebSocket) -> Any:
    """The transport under a WebSocket, or None: uvicorn's protocol object holds it, and
    its ``receive`` (Starlette wraps ``send``) is a method of that object."""
    for channel in ("_receive", "_send"):
        protocol = getattr(getattr(websocket, channel, None), "__self__", None)
        transport = getattr(protocol, "transport", None)
        if transport is not None:
            return transport
    return None


def _abort(websocket: WebSocket) -> None:
    """Drop a WebSocket's connection at once: a client that stopped reading would hold
    a close frame up as long as any other message."""
    abort = getattr(_transport(websocket), "abort", None)
    if callable(abort):
        abort()


def limit_buffers(websocket: WebSocket) -> None:
    """Keep what the kernel and the transport buffer for one client small
    (:data:`SEND_BUFFER`), so that a client that reads too slowly shows as messages
    waiting in its outbox within seconds, not after megabytes."""
    transport = _transport(websocket)
    if transport is None:
        return
    with contextlib.suppress(Exception):
        transport.set_write_buffer_limits(high=SEND_BUFFER)
    with contextlib.suppress(Exception):
        transport.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER
        )
