"""The hub: this process's table actors, table creation, and cross-process sync.

On start the hub resumes every table in play (their journals are replayed),
so clocks and bots carry on after a restart and reconnecting clients find
their tables exactly as they left them.  A table that no live process held
(``Bus.adopt``) gets a ``resume``: the time it was down never counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gammon.match import TableOptions
from gammon.server.actor import TableActor
from gammon.server.auth import now_ms
from gammon.server.bots import BOT_LEVELS, BotRunner, bots_available
from gammon.server.bus import ALIVE_TTL, Bus, Entry
from gammon.server.connection import dumps
from gammon.server.protocol import ServerError
from gammon.server.results import check_rated_seat
from gammon.server.settings import Settings
from gammon.server.steps import warm_rules
from gammon.server.table import TableState
from gammon.server.workqueue import WorkQueue
from gammon.storage import Database, Store, UserRow

__all__ = ["TABLE_ID", "Hub", "TableRequest"]

log = logging.getLogger(__name__)

#: What a table id looks like (``secrets.token_urlsafe(9)``).
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{12}")
#: The journal kinds that change how a table is listed (the lobby, the watch page).
LISTING_KINDS: Final = frozenset({"created", "sit", "leave", "start", "end"})
#: Seconds an actor with no connections and no match in play is kept.
_EVICT_AFTER: Final = 30.0
#: Workers for the rules' heavy work off the backgammon board (``TableHost.work``): worker
#: processes at a lower priority when the bots run in processes, else threads.
RULES_WORKERS: Final = 2


@dataclass(frozen=True, slots=True)
class TableRequest:
    """A request to create a table: the options and who sits where."""

    options: TableOptions
    seat: int = 0
    opponent: str = "human"
    bot_level: str = "intermediate"
    private: bool = False
    #: The new table's id (a rematch's is derived from the old table's); None: a random one.
    table_id: str | None = None


class Hub:
    """Every table actor of this process."""

    def __init__(
        self, settings: Settings, db: Database, store: Store, bus: Bus, bots: BotRunner
    ) -> None:
        self.settings = settings
        self.db = db
        self.store = store
        self.bus = bus
        self.bots = bots
        self.actors: dict[str, TableActor] = {}
        # in processes, a table's legal moves (thousands at an acey-deucey 1-2) never hold
        # the interpreter lock that the event loop needs to answer every other table
        self.work = WorkQueue(
            "gammon-rules",
            RULES_WORKERS,
            per_key=64,
            processes=settings.bot_workers > 0,
            warm=warm_rules,
        )
        self._loading: dict[str, asyncio.Future[TableActor | None]] = {}
        self._adopting: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sync_task: asyncio.Task[None] | None = None
        self._cleanup_task: asyncio.Task[None] | None = None
        #: Called with a table's id when one of this process's actors writes its ``end``.
        self.end_listeners: list[Callable[[str], None]] = []
        #: Counts the commits heard here that change a table's listing (LISTING_KINDS): the
        #: lists shared by every visitor (``gammon.server.shared``) are kept while it holds.
        self.listings = 0

    async def start(self) -> None:
        """Listen to other processes and resume every table in play."""
        if self.work.processes:
            # the rules' worker processes start now, in the background: an interpreter
            # loading gammon costs a second of CPU, which is not to fall on the tables
            # in play when the first of them needs a worker
            warming = asyncio.create_task(self.work.started(), name="gammon-rules-start")
            self._tasks.add(warming)
            warming.add_done_callback(self._tasks.discard)
        await self.bus.start(self._on_remote)
        live = await self.db.run(self.store.table_ids, "playing")
        for table_id in live:
            try:
                await self.get(table_id)  # its resume, if it was down: ``_adopt``
            except Exception:
                log.exception("could not resume table %s", table_id)
        if not self.bus.shared:  # one process: every table was down; resumed before serving
            await asyncio.gather(*self._adopting.values(), return_exceptions=True)
        if live:
            log.info("resumed %d table(s) in play", len(live))
        if self.bus.shared:
            self._sync_task = asyncio.create_task(self._sync(), name="gammon-sync")
        self._cleanup_task = asyncio.create_task(self._cleanup(), name="gammon-cleanup")

    async def stop(self) -> None:
        """Stop every actor and background task."""
        for background in (self._sync_task, self._cleanup_task):
            if background is not None:
                background.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await background
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
        for task in list(self._tasks):
            task.cancel()
        self.work.close()
        await self.bus.close()

    async def get(self, table_id: str) -> TableActor | None:
        """The actor of a table (loaded on first use), or None if there is no such table."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        if not TABLE_ID.fullmatch(table_id):
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            await self.bus.watch(table_id)  # its news from now on, then its journal
            actor = TableActor(self, table_id)
            try:
                found = await actor.load()
            except BaseException:
                await self.bus.release(table_id)
                raise
            result = actor if found else None
            if result is not None:
                self.actors[table_id] = result
                result.start()
                self._adopt_later(result)
            else:
                await self.bus.release(table_id)
            future.set_result(result)
            return result
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it through their own await
            raise
        finally:
            del self._loading[table_id]

    def _adopt_later(self, actor: TableActor) -> None:
        """Hold the table with the bus; if no other process drove it (it was down: this
        process restarted, or took over from one that was killed or stopped), the
        decision in progress resumes (``Autopilot.resume``)."""
        if self.bus.shared:  # no timeout while the bus finds out (``Bus.adopt``)
            actor.autopilot.hold(ALIVE_TTL + 1.0)

        async def adopt() -> None:
            try:
                if await self.bus.adopt(actor.id) and not actor.stopped:
                    await actor.call(actor.autopilot.resume)
            except Exception:
                log.exception("could not resume table %s", actor.id)
            finally:
                self._adopting.pop(actor.id, None)

        task = asyncio.create_task(adopt(), name=f"gammon-adopt-{actor.id}")
        self._adopting[actor.id] = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def announce(self, table_id: str, version: int, entry: Entry | None = None) -> None:
        """Tell other processes about a commit (in the background)."""
        if entry is None or entry[0] in LISTING_KINDS:
            self.listings += 1
        self.bus.post(table_id, version, entry)

    def ended(self, table_id: str) -> None:
        """A table ended (its ``end`` entry was committed here): tell the listeners."""
        for listener in self.end_listeners:
            listener(table_id)

    async def _on_remote(self, table_id: str, version: int, entry: Entry | None) -> None:
        if entry is None or entry[0] in LISTING_KINDS:
            self.listings += 1
        actor = self.actors.get(table_id)
        if actor is not None:
            actor.notify(version, entry)

    async def _sync(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sync_interval)
            held = list(self.actors)
            if not held:
                continue
            try:  # all the tables held, in a query per VERSIONS_BATCH
                versions = await self.db.run(self.store.versions, held)
            except Exception as exc:
                log.warning("sync of %d tables failed: %s", len(held), exc)
                continue
            for table_id, version in versions.items():
                actor = self.actors.get(table_id)
                if actor is not None:
                    actor.notify(version)

    async def _cleanup(self) -> None:
        """Forget expired sessions, hourly."""
        while True:
            try:
                removed = await self.db.run(self.store.delete_expired_sessions, now_ms())
                if removed:
                    log.info("removed %d expired session(s)", removed)
            except Exception as exc:
                log.warning("session clean-up failed: %s", exc)
            await asyncio.sleep(3600)

    def maybe_evict(self, table_id: str) -> None:
        """Forget an idle actor after a while (it is reloaded on demand)."""

        async def later() -> None:
            await asyncio.sleep(_EVICT_AFTER)
            actor = self.actors.get(table_id)
            if actor is not None and actor.idle:
                del self.actors[table_id]
                actor.stopped = True  # at once: a socket that has it sees this
                await actor.stop()
                await self.bus.release(table_id)

        task = asyncio.create_task(later())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def create_table(self, user: UserRow, request: TableRequest) -> TableState:
        """Create a table, seat its creator (and a bot), and return its state."""
        options = request.options
        check_rated_seat(options, "guest" if user.guest else "user")
        if request.opponent == "bot":
            check_rated_seat(options, "bot")
            if request.bot_level not in BOT_LEVELS:
                raise ServerError(
                    "bad_message", f"bot_level must be one of {', '.join(BOT_LEVELS)}"
                )
            if not bots_available():
                raise ServerError("not_available", "this build has no bot (gammon.bots.seat)")
        need = options.required_balance()
        if need:
            available = (await self.db.run(self.store.available, [user.id])).get(user.id, 0)
            if available < need:
                raise ServerError(
                    "insufficient_balance",
                    f"your balance not held at other tables, {available}, does not cover this "
                    f"table's stake x cube limit x end coefficient = {need}",
                )
        table_id = request.table_id or secrets.token_urlsafe(9)
        data = {"by": user.name, "private": request.private, "options": options.to_dict()}
        await self.db.run(
            self.store.create_table,
            table_id,
            user.id,
            dumps(options.to_dict()),
            request.private,
            now_ms(),
            "created",
            json.dumps(data, separators=(",", ":")),
        )
        self.listings += 1
        actor = await self.get(table_id)
        assert actor is not None
        try:
            await actor.call(lambda: actor.seating.sit_user(user, request.seat))
        except Exception:
            await actor.call(actor.seating.close_if_empty)
            raise
        if request.opponent == "bot":
            await actor.call(lambda: actor.seating.sit_bot(1 - request.seat, request.bot_level))
        assert actor.state is not None
        return actor.state
