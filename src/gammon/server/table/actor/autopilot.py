"""What the server does at a table by itself: start, auto-roll, clocks, idle
forfeits, bots, escrow top-ups, the end of a finished match, and resuming.

:meth:`Autopilot.run` is the actor's ``drive``: it looks at the table, commits
what is due (each step a journal entry, through the actor), and sets a timer for
the next deadline.  Bot decisions are computed off the actor (in the hub's bot
workers) and come back through :meth:`Table.call`, in the actor's order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from gammon.dice import Dice
from gammon.errors import GammonError
from gammon.match import (
    Abandon,
    Action,
    Double,
    Drop,
    Play,
    RejectResign,
    Roll,
    Take,
    Timeout,
    action_to_dict,
    allowed_actions,
    to_act,
)
from gammon.server.infra.clock import now_ms
from gammon.server.protocol import ServerError
from gammon.server.table.actor.host import Record, Table
from gammon.server.table.actor.seating import Seating
from gammon.server.table.actor.seeds import Seeds
from gammon.server.table.correspondence import is_correspondence
from gammon.server.table.state import TableState, auto_roll_due, clock_deadline, escrow_due
from gammon.storage import ConflictError

__all__ = ["Autopilot", "safe_action"]

log = logging.getLogger(__name__)

#: Seconds a process waits for another's claimed bot decision before trying itself.
_BOT_CLAIM_TTL: Final = 30.0


class Autopilot:
    """The server's own moves at one table (a collaborator of its actor)."""

    def __init__(self, table: Table, seeds: Seeds, seating: Seating) -> None:
        self._table = table
        self._seeds = seeds
        self._seating = seating
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_version = -1
        #: When this process took the table over: no decision times out before then.
        self.resumed_at = now_ms()

    async def stop(self) -> None:
        """Cancel the timer and any bot decision under way."""
        self.cancel_timer()
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._bot_task

    async def _auto(self, action: Action, by: str, reason: str | None) -> Record:
        return await self._table.commit(
            "action", {"action": action_to_dict(action), "by": by, "reason": reason}
        )

    async def run(self) -> None:
        """Do what is due: end a finished match, roll when rolling is the only choice,
        start a bot's decision, time out a player, or set the clock's timer."""
        for _ in range(8):  # each step commits; the next step looks again
            state = self._table.state
            if state is not None and state.status == "waiting" and None not in state.seats:
                try:
                    await self._seating.start_if_full()
                except ServerError as exc:  # a player can no longer pay: the table waits
                    log.info("table %s cannot start: %s", self._table.id, exc)
                    return
                continue
            if state is None or state.status != "playing" or state.match is None:
                self.cancel_timer()
                return
            if not await self._step(state):
                return

    async def _step(self, state: TableState) -> bool:
        """One thing due at a table in play; True if it committed (look again)."""
        match = state.match
        assert match is not None
        if match.over:
            await self._seating.end("match_over", match.winner)
            return False
        if not state.locked and await self._seeds.apply_pending():
            return True
        if escrow_due(state):
            await self._seating.top_up()
            return True
        g = match.game
        if auto_roll_due(state):
            seat = g.turn if g.turn is not None else 0
            await self._auto(Roll(seat, self._seeds.next_dice(state)), "server", "auto_roll")
            return True
        if g.phase == "opening":
            self.cancel_timer()
            return False
        if await self._deadline_passed(state):
            return True
        self._maybe_bot(state)
        return False

    async def _deadline_passed(self, state: TableState) -> bool:
        """Time out (clock) or forfeit (idle) the late seat, or set the timer."""
        deadline = clock_deadline(state)
        if deadline is not None:
            clock = state.options.clock
            assert clock is not None
            # a correspondence deadline is the journal's alone: loading the table (the
            # sweep, a visit) never gives the late player days more
            grace = 0 if clock.correspondence else round(clock.delay * 1000)
            deadline = max(deadline, self.resumed_at + grace)
            if now_ms() >= deadline:
                late = state.clock_seat
                assert late is not None
                await self._auto(Timeout(late), "server", "timeout")
                return True
            self._set_timer(deadline)
            return False
        idle = self.idle_deadline(state)
        if idle is not None and now_ms() >= idle:
            late = state.clock_seat
            assert late is not None
            log.info("table %s: seat %d forfeits after inactivity", self._table.id, late)
            await self._seating.forfeit(late, "idle", "idle")
            return True
        if idle is not None:
            self._set_timer(idle)
        else:
            self.cancel_timer()
        return False

    def idle_deadline(self, state: TableState) -> int | None:
        """When a player who keeps a decision open at a table without a clock forfeits."""
        limit = self._table.host.settings.idle_limit
        seat = state.clock_seat
        if not limit or state.options.clock is not None or seat is None:
            return None
        who = state.seats[seat]
        if who is None or who.kind == "bot":
            return None
        return max(state.clock_since, self.resumed_at) + round(limit * 1000)

    def cancel_timer(self) -> None:
        """Forget the next deadline."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _set_timer(self, deadline_ms: int) -> None:
        self.cancel_timer()
        loop = asyncio.get_running_loop()
        delay = max(0.0, (deadline_ms - now_ms()) / 1000) + 0.005
        self._timer = loop.call_later(delay, self._table.drive)

    def hold(self, seconds: float) -> None:
        """No decision times out for ``seconds`` from now (while finding out whether the
        table was down)."""
        self.resumed_at = max(self.resumed_at, now_ms() + round(seconds * 1000))

    async def resume(self) -> None:
        """After a restart: the decision that was running starts again after a grace, so
        that the time the server was down never counts against anyone."""
        state = self._table.state
        records = self._table.records
        if (
            state is None
            or state.status != "playing"
            or state.clock_seat is None
            or (records and records[-1].kind == "resume")
            or is_correspondence(state.options)  # days per move: its deadline stands
        ):
            return
        grace = round(self._table.host.settings.reconnect_grace * 1000)
        await self._table.commit("resume", {"grace": grace})

    # ------------------------------------------------------------------ bots

    def _maybe_bot(self, state: TableState) -> None:
        match = state.match
        assert match is not None
        seats = to_act(match)
        if len(seats) != 1:
            return
        who = state.seats[seats[0]]
        if who is None or who.kind != "bot" or who.level is None:
            return
        if self._bot_version == state.version and self._bot_task is not None:
            return
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()
        self._bot_version = state.version
        self._bot_task = asyncio.create_task(
            self._bot(state, seats[0], who.level), name=f"gammon-bot-{self._table.id}"
        )

    async def _bot(self, state: TableState, seat: int, level: str) -> None:
        host = self._table.host
        await asyncio.sleep(host.settings.bot_delay)
        if not await host.bus.claim(f"bot:{self._table.id}:{state.version}", _BOT_CLAIM_TTL):
            await asyncio.sleep(_BOT_CLAIM_TTL)
            self._bot_version = -1
            self._table.drive()
            return
        assert state.match is not None
        action: Action | None
        try:
            deadline = clock_deadline(state)
            # the clock's time left, less a second for the worker round trip
            left = None if deadline is None else (deadline - now_ms()) / 1000 - 1.0
            action = await host.bots.choose(
                state.match,
                seat,
                level,
                self._seeds.next_dice(state),
                bot_key(state, seat, self._table.id),
                left,
            )
        except Exception as exc:
            log.warning("table %s: bot %s failed: %s", self._table.id, level, exc)
            action = None
        try:
            await self._table.call(lambda: self._bot_result(state.version, action))
        except Exception:
            log.exception("table %s: the bot's action failed", self._table.id)

    async def _bot_result(self, version: int, action: Action | None) -> None:
        state = self._table.state
        if state is None or state.version != version or state.match is None:
            return  # the table moved on; the drive looks again
        seats = to_act(state.match)
        if len(seats) != 1:
            return
        seat = seats[0]
        dice = self._seeds.next_dice(state)
        if action is None or action.player != seat:
            action = safe_action(state, seat, dice)
        if isinstance(action, Roll):
            action = Roll(seat, dice)
        try:
            await self._auto(action, "bot", None)
        except ConflictError:
            raise
        except GammonError as exc:
            log.warning("table %s: the bot chose %r, refused: %s", self._table.id, action, exc)
            await self._auto(safe_action(state, seat, dice), "bot", None)


def bot_key(state: TableState, seat: int, table_id: str) -> tuple[str, object]:
    """Whose turn the bot's decision takes in the bot workers' fair line: the person the
    bot plays against, so that one player's many bot tables share one line and cannot
    crowd out another player's table (a table with no person in it has a line of its own).

    >>> from gammon.match import TableOptions
    >>> from gammon.server.table.state import Seat
    >>> bot = Seat("gnu", "bot", None, "expert")
    >>> s = TableState("t1", TableOptions(), False, "Ann", 0, seats=(Seat("Ann", "user", 7), bot))
    >>> bot_key(s, 1, "t1"), bot_key(TableState("t1", TableOptions(), False, "", 0, seats=(None, bot)), 1, "t1")
    (('player', 7), ('table', 't1'))
    """
    other = state.seats[1 - seat]
    if other is not None and other.kind != "bot" and other.user_id is not None:
        return ("player", other.user_id)
    return ("table", table_id)


def safe_action(state: TableState, seat: int, dice: Dice) -> Action:
    """A legal action for a seat whose bot failed: keep the game going simply."""
    assert state.match is not None
    g = state.match.game
    names = allowed_actions(state.match).get(seat, ())
    if g.phase == "moving" and g.dice is not None:
        move = g.position.first_legal_move(g.dice)  # not every play of a 1-2
        return Play(seat, "pass" if move is None else str(move))
    if "take" in names:
        return Take(seat)
    if "reject_resign" in names:
        return RejectResign(seat)
    if "roll" in names:
        return Roll(seat, dice)
    if "drop" in names:
        return Drop(seat)
    if "double" in names:
        return Double(seat)
    return Abandon(seat)
