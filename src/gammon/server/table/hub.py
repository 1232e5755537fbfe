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
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gammon.match import TableOptions
from gammon.server.infra.bus import ALIVE_TTL, Bus, Entry
from gammon.server.infra.clock import now_ms
from gammon.server.infra.settings import Settings
from gammon.server.infra.workqueue import WorkQueue
from gammon.server.protocol import ServerError
from gammon.server.table.actor import TableActor
from gammon.server.table.actor.host import NoMetrics, TableMetrics
from gammon.server.table.actor.seating import SeatHold
from gammon.server.table.bots import BOT_LEVELS, BotRunner, bots_available
from gammon.server.table.connection import dumps
from gammon.server.table.correspondence import dormant
from gammon.server.table.results import check_rated_seat, check_rated_sitters
from gammon.server.table.state import TableState
from gammon.server.table.steps import warm_rules
from gammon.storage import Database, Store, UserRow
from gammon.storage.turns import Turns

__all__ = ["EVICT_AFTER", "IDLE_ENTRIES", "TABLE_ID", "Hub", "TableRequest"]

log = logging.getLogger(__name__)

#: What a table id looks like (``secrets.token_urlsafe(9)``).
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{12}")
#: The journal kinds that change how a table is listed (the lobby, the watch page).
LISTING_KINDS: Final = frozenset({"created", "sit", "leave", "start", "end"})
#: Seconds an actor with no connections and no match in play is kept (``Hub.evict_after``):
#: the tables opened by a page (a finished match's record, its downloads) or by a socket
#: that has left are forgotten then, and loaded again on demand.
EVICT_AFTER: Final = 30.0
#: Journal entries that this process's idle actors may hold together (a finished money
#: session of 85 games has about 5,200, some 40 MB in memory): past it the least recently
#: used idle actors are forgotten at once, however many tables visitors open.
IDLE_ENTRIES: Final = 20_000
#: Threads replaying the journals of the tables loaded (``TableHost.loads``): one, so that
#: however many tables are opened at once the event loop competes with one of them.
LOAD_WORKERS: Final = 1
#: Tables this process may be loading at once (each holds its journal while it waits
#: for the loader); past it a request is refused (``rate_limited``) and changes nothing.
LOADING_LIMIT: Final = 64
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
    #: A seat kept for one player for a while (a rematch's, for the previous opponent).
    hold: SeatHold | None = None


class Hub:
    """Every table actor of this process."""

    def __init__(
        self,
        settings: Settings,
        db: Database,
        store: Store,
        bus: Bus,
        bots: BotRunner,
        metrics: TableMetrics | None = None,
    ) -> None:
        self.settings = settings
        #: What the tables count for ``/metrics`` (nothing without one).
        self.metrics: TableMetrics = metrics if metrics is not None else NoMetrics()
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
        #: Where journals are replayed (``TableActor.load``): a thread, never the loop.
        self.loads = WorkQueue("gammon-load", LOAD_WORKERS, per_key=2)
        #: Where long journals are replayed: a worker process (started at the first one),
        #: so that the fold does not hold the interpreter lock the loop needs; threads
        #: (``loads``) when the host runs no worker processes.
        self.long_loads = WorkQueue(
            "gammon-load-long", LOAD_WORKERS, per_key=2, processes=settings.bot_workers > 0
        )
        #: Seconds an idle actor is kept (:data:`EVICT_AFTER`).
        self.evict_after = EVICT_AFTER
        #: The actors that may be idle, oldest first: since when, and their entries.
        self._idle: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._idle_entries = 0
        self._evictor: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Future[TableActor | None]] = {}
        self._adopting: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sync_task: asyncio.Task[None] | None = None
        self._cleanup_task: asyncio.Task[None] | None = None
        #: Called with a table's id when one of this process's actors writes its ``end``.
        self.end_listeners: list[Callable[[str], None]] = []
        #: Called with a table's new state and the entry when one of this process's actors
        #: commits (the notices of correspondence turns: gammon.server.community.inbox).
        self.commit_listeners: list[Callable[[TableState, Entry], None]] = []
        #: Counts the commits heard here that change a table's listing (LISTING_KINDS): the
        #: lists shared by every visitor (``gammon.server.infra.shared``) are kept while it holds.
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
        # every table in play but the correspondence tables waiting on a person (their
        # deadlines are the sweep's: gammon.server.table.correspondence)
        live = await self.db.run(Turns(self.db).awake)
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
        for background in (self._sync_task, self._cleanup_task, self._evictor):
            if background is not None:
                background.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await background
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
        self._idle.clear()
        for task in list(self._tasks):
            task.cancel()
        self.work.close()
        self.loads.close()
        self.long_loads.close()
        await self.bus.close()

    async def get(self, table_id: str) -> TableActor | None:
        """The actor of a table (loaded on first use), or None if there is no such table."""
        actor = self.actors.get(table_id)
        if actor is not None:
            if table_id in self._idle:  # used: idle from now on (within the bound)
                self.maybe_evict(table_id)
            return actor
        if not TABLE_ID.fullmatch(table_id):
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        if len(self._loading) >= LOADING_LIMIT:
            raise ServerError(
                "rate_limited", "too many tables are being opened at once: try again in a moment"
            )
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
                self.maybe_evict(table_id)  # opened by a page or a socket: kept while used
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
        actor = self.actors.get(table_id)
        if actor is not None and actor.state is not None and entry is not None:
            for listener in self.commit_listeners:
                listener(actor.state, entry)
            if not actor.conns and dormant(actor.state):  # waits days: forget it meanwhile
                self.maybe_evict(table_id)

    def ended(self, table_id: str) -> None:
        """A table ended (its ``end`` entry was committed here): tell the listeners."""
        for listener in self.end_listeners:
            listener(table_id)
        self.maybe_evict(table_id)

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
        """The table may have gone idle (no connection here, no match in play): forget its
        actor once it has been idle for :attr:`evict_after` seconds, or at once, the least
        recently used first, while the idle actors hold more than :data:`IDLE_ENTRIES`
        journal entries together (it is loaded again on demand)."""
        actor = self.actors.get(table_id)
        if actor is None or actor.conns or _playing(actor):
            return
        self._mark_idle(table_id, len(actor.records))
        while self._idle_entries > IDLE_ENTRIES and len(self._idle) > 1:
            oldest = next(iter(self._idle))
            if oldest == table_id:  # the one just used is kept: it is being answered
                break
            self._unmark_idle(oldest)
            self._evict(oldest)
        if self._evictor is None or self._evictor.done():
            self._evictor = asyncio.create_task(self._evict_idle(), name="gammon-evict")

    def _mark_idle(self, table_id: str, entries: int) -> None:
        self._unmark_idle(table_id)
        self._idle[table_id] = (time.monotonic(), entries)
        self._idle_entries += entries

    def _unmark_idle(self, table_id: str) -> None:
        old = self._idle.pop(table_id, None)
        if old is not None:
            self._idle_entries -= old[1]

    async def _evict_idle(self) -> None:
        """Forget the actors idle for :attr:`evict_after` seconds, as they come due."""
        while self._idle:
            since = next(iter(self._idle.values()))[0]
            due = since + self.evict_after - time.monotonic()
            await asyncio.sleep(min(1.0, max(0.05, due)))  # a second: evict_after may change
            now = time.monotonic()
            for table_id, (since, _entries) in list(self._idle.items()):
                if now - since < self.evict_after:
                    break
                self._unmark_idle(table_id)
                actor = self.actors.get(table_id)
                if actor is None or actor.conns or _playing(actor):
                    continue  # its last connection's part, or its end, marks it again
                if actor.idle:
                    self._evict(table_id)
                else:  # busy this moment (a call, a drive): looked at again later
                    self._mark_idle(table_id, len(actor.records))

    def _evict(self, table_id: str) -> None:
        """Forget an idle actor now (its task and bus subscription end in the background)."""
        actor = self.actors.pop(table_id, None)
        if actor is None:
            return
        actor.stopped = True  # at once: a request or socket that has it sees this

        async def stop() -> None:
            await actor.stop()
            await self.bus.release(table_id)

        task = asyncio.create_task(stop(), name=f"gammon-evict-{table_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def create_table(self, user: UserRow, request: TableRequest) -> TableState:
        """Create a table, seat its creator (and a bot), and return its state."""
        options = request.options
        check_rated_seat(options, "guest" if user.guest else "user")
        # an account too new for rated play makes no table (docs/ratings.md)
        await check_rated_sitters(self.db, self.settings, options, (user, None), now_ms())
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
        data: dict[str, object] = {
            "by": user.name,
            "private": request.private,
            "options": options.to_dict(),
        }
        if request.hold is not None:
            data["reserved"] = request.hold.to_dict()
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


def _playing(actor: TableActor) -> bool:
    """Whether the actor's table has a match in play (its clocks and bots run here), but
    not a correspondence table waiting on a person (loaded again when it is due)."""
    state = actor.state
    return state is not None and state.status == "playing" and not dormant(state)
