"""Telling players what concerns them when they are not on the page: the inbox
(docs/notifications.md).

A notice is written (:class:`gammon.storage.inbox.Inbox`: at most 200 a player, an
unread one replaced by its equal) and pushed at once as an ``inbox`` message to the
player's user sockets in every process (:class:`gammon.server.community.notify.Notifier`).  The
page shows the unread count on the header's bell and, if the player allowed it, a
browser notification while the tab is hidden.  The notices' kinds (:data:`KINDS`):

- ``challenge``: a player challenged you (:mod:`gammon.server.play.challenges`);
- ``round``: a tournament round starts with your pairing (:mod:`gammon.server.play.tournaments`);
- ``your_turn``: it is your move at a correspondence table (:meth:`Notices.table_committed`,
  one of the hub's commit listeners);
- ``rematch``: your opponent offered a rematch (:mod:`gammon.server.web.rematch`).

Notices are made only by what is rationed already (a challenge, a table, a tournament) or
by a move at a table, and a table's "your turn" notices replace each other while unread:
none of them lets a sender grow another's inbox past its 200.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Final

from gammon.server.community.notify import Notifier
from gammon.server.infra.bus import Entry
from gammon.server.infra.clock import now_ms
from gammon.server.table.connection import dumps
from gammon.server.table.correspondence import wake
from gammon.server.table.state import TableState
from gammon.storage import Database
from gammon.storage.inbox import Inbox, InboxRow

__all__ = ["KINDS", "Notices", "notice_json"]

log = logging.getLogger(__name__)

#: The kinds of notices.
KINDS: Final = frozenset({"challenge", "round", "your_turn", "rematch"})


def notice_json(row: InboxRow) -> dict[str, Any]:
    """A notice as the user socket and ``/api/inbox`` show it."""
    return {
        "id": row.id,
        "kind": row.kind,
        "data": json.loads(row.data),
        "at": row.at,
        "read": row.read_at is not None,
    }


class Notices:
    """Writing notices and telling their players."""

    def __init__(self, db: Database, notifier: Notifier) -> None:
        self.db = db
        self.store = Inbox(db)
        self.notifier = notifier
        self._tasks: set[asyncio.Task[None]] = set()

    async def summary(self, user_id: int) -> dict[str, Any]:
        """The ``inbox`` message sent on connecting: the unread count."""
        return {"type": "inbox", "unread": await self.db.run(self.store.unread, user_id)}

    async def add(self, user_id: int, kind: str, data: dict[str, Any]) -> None:
        """Write a notice for ``user_id`` and push it to their sockets (a failure is
        logged: a notice never undoes what caused it)."""
        assert kind in KINDS, kind
        try:
            at = now_ms()
            notice_id = await self.db.run(self.store.add, user_id, kind, dumps(data), at)
            unread = await self.db.run(self.store.unread, user_id)
        except Exception as exc:
            log.warning("notice %s for user %d not written: %s", kind, user_id, exc)
            return
        item = {"id": notice_id, "kind": kind, "data": data, "at": at, "read": False}
        await self.notifier.send(user_id, {"type": "inbox", "unread": unread, "item": item})

    def later(self, user_id: int, kind: str, data: dict[str, Any]) -> None:
        """:meth:`add` in the background (from code that must not wait for it)."""
        task = asyncio.create_task(self.add(user_id, kind, data), name="gammon-notice")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def items(self, user_id: int) -> list[dict[str, Any]]:
        """A user's notices, newest first."""
        return [notice_json(r) for r in await self.db.run(self.store.items, user_id)]

    async def mark_read(self, user_id: int, ids: list[int] | None) -> int:
        """Mark notices read (``ids``, or all) and tell the user's other pages."""
        changed = await self.db.run(self.store.mark_read, user_id, ids, now_ms())
        if changed:
            await self.notifier.send(user_id, await self.summary(user_id))
        return int(changed)

    def table_committed(self, state: TableState, entry: Entry) -> None:
        """A commit listener of the hub: when the move passes to a person at a
        correspondence table (another's action, or the server's roll for them), tell
        them it is their turn."""
        kind, data, _at = entry
        if kind != "action":
            return
        waiting = wake(state)
        if waiting is None or state.clock_seat is None:
            return
        action = data.get("action") or {}
        if action.get("player") == state.clock_seat and data.get("by") != "server":
            return  # they are acting themselves: a roll, a move in progress
        opponent = state.seats[1 - state.clock_seat]
        name = opponent.name if opponent is not None else ""
        self.later(waiting[1], "your_turn", {"table": state.id, "opponent": name})

    async def close(self) -> None:
        """Let the notices under way finish."""
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
