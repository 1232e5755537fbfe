"""Moderation in the running site (docs/moderation.md): who may do what, the sanctions
enforced in the request path, and the moderators' actions that go through a table's actor.

The checks on a request's path cost no database query as a rule: the address bans are
held in memory and read again from the database every :data:`REFRESH` seconds by each
process (so a ban made in one process holds in all within that time), an account's
sanctions are kept :data:`REFRESH` seconds, and the addresses an account uses are written
at most once per account and address per :data:`SEEN_EVERY` seconds.  A moderator's action
forgets what this process kept at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from gammon.server.community.notify import Notifier
from gammon.server.infra.clock import now_ms
from gammon.server.protocol import ServerError
from gammon.server.table.connection import Connection
from gammon.storage import Database, UserRow
from gammon.storage.moderation import Moderation, ModerationError, Sanctions, address_in

if TYPE_CHECKING:
    from gammon.server.table.hub import Hub

__all__ = ["REFRESH", "SEEN_EVERY", "ModerationService"]

log = logging.getLogger(__name__)

#: Seconds the address bans and an account's sanctions are kept in memory.
REFRESH: Final = 5.0
#: Seconds between two writes of the same account's same address.
SEEN_EVERY: Final = 600
#: Accounts and (account, address) pairs kept in memory at most.
_KEPT: Final = 10_000


def _bounded_put(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > _KEPT:
        cache.popitem(last=False)


class ModerationService:
    """The moderation of one process: checks, caches and the actions on tables."""

    def __init__(self, db: Database, hub: Hub, notifier: Notifier | None = None) -> None:
        self.db = db
        self.hub = hub
        #: The user sockets and the bus: a ban closes the account's sockets everywhere.
        self.notifier = notifier
        if notifier is not None:
            notifier.ban_listeners.append(self._banned)
        self.queries = Moderation(db)
        self._bans: list[str] = []
        self._bans_at = 0.0
        self._sanctions: OrderedDict[int, tuple[float, Sanctions | None]] = OrderedDict()
        self._seen: OrderedDict[tuple[int, str], float] = OrderedDict()
        self._task: asyncio.Task[None] | None = None
        self._open_reports: tuple[float, int] | None = None

    async def start(self) -> None:
        """Read the address bans, then keep reading them every :data:`REFRESH` seconds."""
        await self.refresh_bans()
        self._task = asyncio.create_task(self._refresh_loop(), name="gammon-address-bans")

    async def stop(self) -> None:
        """Stop reading the bans."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _refresh_loop(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            try:
                await self.refresh_bans()
            except Exception as exc:  # kept as they were; read again next time
                log.warning("address bans not read again: %s", exc)

    async def refresh_bans(self) -> None:
        """Read the address bans now."""
        self._bans = await self.db.run(self.queries.address_bans, now_ms())
        self._bans_at = time.monotonic()

    # ------------------------------------------------------------------ checks

    def check_address(self, address: str) -> None:
        """Refuse (``banned``) a banned address: no sign-in, sign-up, guest, table or
        challenge from it.  No query: the bans in memory."""
        if self._bans and address_in(address, self._bans):
            raise ServerError("banned", "your address may not sign in or play here")

    async def sanctions(self, user_id: int) -> Sanctions | None:
        """An account's sanctions, kept :data:`REFRESH` seconds."""
        kept = self._sanctions.get(user_id)
        now = time.monotonic()
        if kept is not None and now - kept[0] < REFRESH:
            return kept[1]
        found = await self.db.run(self.queries.sanctions, user_id)
        _bounded_put(self._sanctions, user_id, (now, found))
        return found

    def forget(self, user_id: int) -> None:
        """Read an account's sanctions again at its next check."""
        self._sanctions.pop(user_id, None)

    async def check_chat(self, user: UserRow | None) -> None:
        """Refuse (``muted``) a muted account's chat line."""
        if user is None:
            return
        found = await self.sanctions(user.id)
        if found is not None and found.muted(now_ms()):
            raise ServerError("muted", "a moderator muted you: you cannot chat for now")

    async def check_sign_in(self, user: UserRow, address: str) -> None:
        """Refuse (``banned``) a banned account or address; note the address otherwise."""
        self.check_address(address)
        self.forget(user.id)
        found = await self.sanctions(user.id)
        if found is not None and found.banned(now_ms()):
            raise ServerError("banned", "this account is banned")
        await self.seen(user.id, address)

    async def seen(self, user_id: int, address: str) -> None:
        """Note the address an account uses (at most one write per :data:`SEEN_EVERY`)."""
        key = (user_id, address)
        now = time.monotonic()
        last = self._seen.get(key)
        if last is not None and now - last < SEEN_EVERY:
            return
        _bounded_put(self._seen, key, now)
        try:
            await self.db.run(self.queries.seen, user_id, address, now_ms(), SEEN_EVERY * 1000)
        except Exception as exc:  # a note for moderators: never a reason to refuse
            log.warning("address of user %d not noted: %s", user_id, exc)

    async def is_moderator(self, user: UserRow | None) -> bool:
        """Whether an account is a moderator now (asked of the database each time)."""
        if user is None or user.guest:
            return False
        found = await self.db.run(self.queries.sanctions, user.id)
        _bounded_put(self._sanctions, user.id, (time.monotonic(), found))  # fresh: kept
        return found is not None and found.moderator

    async def header(self, user: UserRow | None) -> dict[str, int] | None:
        """What the site header shows a moderator (its *Moderation* link and the number of
        open reports): None for anyone else.  The role is read as :meth:`sanctions` (kept
        :data:`REFRESH` seconds) and the count kept :data:`REFRESH` seconds for everyone."""
        if user is None or user.guest:
            return None
        found = await self.sanctions(user.id)
        if found is None or not found.moderator:
            return None
        return {"open": await self.open_reports()}

    async def open_reports(self) -> int:
        """How many reports are open, kept :data:`REFRESH` seconds."""
        now = time.monotonic()
        kept = self._open_reports
        if kept is not None and now - kept[0] < REFRESH:
            return kept[1]
        count: int = await self.db.run(self.queries.open_reports)
        self._open_reports = (now, count)
        return count

    def reports_changed(self) -> None:
        """Count the open reports again at the next page (a moderator handled one)."""
        self._open_reports = None

    async def blocked_by(self, user: UserRow | None) -> frozenset[int]:
        """The accounts a user blocks (none for a visitor)."""
        if user is None:
            return frozenset()
        return await self.db.run(self.queries.blocked_by, user.id)

    # ------------------------------------------------------------------ players

    async def block(self, user: UserRow, target_id: int, on: bool) -> None:
        """Block (``on``) or unblock an account; this process's sockets of ``user`` know
        at once."""
        if on:
            await self.query(self.queries.block, user.id, target_id, now_ms())
        else:
            await self.query(self.queries.unblock, user.id, target_id)
        blocked = await self.blocked_by(user)
        for conn in self._conns(lambda uid: uid == user.id):
            conn.blocked = blocked

    async def query(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A query, its refusal as a :class:`ServerError` with the same code."""
        try:
            return await self.db.run(lambda: fn(*args, **kwargs))
        except ModerationError as exc:
            raise ServerError(exc.code, str(exc)) from None

    # ------------------------------------------------------------------ moderators

    async def mute(self, by: UserRow, target_id: int, hours: float, reason: str = "") -> None:
        """Mute an account for ``hours`` (0: lift the mute)."""
        until = now_ms() + int(hours * 3_600_000) if hours > 0 else None
        await self.query(self.queries.mute, target_id, until, by=by.id, now=now_ms(), reason=reason)
        self.forget(target_id)

    async def ban(self, by: UserRow, target_id: int, hours: float | None, reason: str = "") -> None:
        """Ban an account (``hours`` None: for good): its sessions end, and its sockets,
        user and table ones, close (4401) at once in this process and, through the
        notifier's bus, in every other one."""
        until = now_ms() + int(hours * 3_600_000) if hours else None
        await self.query(self.queries.ban, target_id, until, by=by.id, now=now_ms(), reason=reason)
        if self.notifier is not None:
            await self.notifier.banned(target_id)
        else:
            self._banned(target_id)

    def _banned(self, user_id: int) -> None:
        """An account was banned (here or in another process): forget its sanctions and
        close its table sockets in this process."""
        self.forget(user_id)
        for conn in self._conns(lambda uid: uid == user_id):
            conn.close(4401, "banned")

    async def unban(self, by: UserRow, target_id: int) -> None:
        """Lift an account's ban."""
        await self.query(self.queries.unban, target_id, by=by.id, now=now_ms())
        self.forget(target_id)

    async def ban_address(
        self, by: UserRow, address: str, hours: float | None, reason: str = ""
    ) -> str:
        """Ban an address or network; it holds in this process at once."""
        until = now_ms() + int(hours * 3_600_000) if hours else None
        key: str = await self.query(
            self.queries.ban_address, address, until, by=by.id, now=now_ms(), reason=reason
        )
        await self.refresh_bans()
        return key

    async def unban_address(self, by: UserRow, address: str) -> None:
        """Lift an address ban."""
        await self.query(self.queries.unban_address, address, by=by.id, now=now_ms())
        await self.refresh_bans()

    async def remove_chat(self, by: UserRow, table_id: str, seq: int) -> None:
        """Remove a chat line: a ``chat_removed`` entry, which every client of the table
        applies at once, and the table's state (so a reload) no longer holds the line."""
        line = await self.db.run(self.queries.chat_line, table_id, seq)
        if line is None:
            raise ServerError("not_found", "no such chat line")
        if not line.removed:
            actor = await self.hub.get(table_id)
            if actor is None or actor.state is None:
                raise ServerError("not_found", "no such table")
            await actor.call(lambda: actor.commit("chat_removed", {"seq": seq, "by": by.name}))
        await self.query(
            self.queries.log,
            "remove-chat",
            by=by.id,
            now=now_ms(),
            target=line.user,
            table_id=table_id,
            seq=seq,
            text=line.text[:200],
        )

    async def close_table(self, by: UserRow, table_id: str, reason: str = "") -> None:
        """End a table (reason ``closed``, no winner): not rated, every escrow released,
        the game in progress not scored."""
        actor = await self.hub.get(table_id)
        if actor is None or actor.state is None:
            raise ServerError("not_found", "no such table")

        async def close() -> None:
            state = actor.state
            assert state is not None
            if state.status == "finished":
                raise ServerError("table_finished", "the table is finished")
            await actor.seating.end("closed", None)

        await actor.call(close)
        await self.query(
            self.queries.log,
            "close-table",
            by=by.id,
            now=now_ms(),
            table_id=table_id,
            reason=reason,
        )

    async def void(self, by: UserRow, result_id: int, reason: str = "") -> str:
        """Void a result (its pool's ratings recomputed); its table's id."""
        table_id: str = await self.query(
            self.queries.void_result, result_id, by=by.id, now=now_ms(), reason=reason
        )
        return table_id

    def _conns(self, which: Callable[[int | None], bool]) -> list[Connection]:
        """This process's table sockets whose user ``which`` picks."""
        found: list[Connection] = []
        for actor in list(self.hub.actors.values()):
            found.extend(conn for conn in actor.conns if which(conn.user_id))
        return found
