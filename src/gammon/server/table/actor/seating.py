"""Who sits at a table, the escrow they hold, and how a table starts and ends.

Seed 004's rule (a player covers stake x cube limit x end coefficient) is kept by
holding that much of the player's balance in escrow while the player sits at a
staked table: the store holds it atomically with the ``sit`` entry, and holds it
again (an ``escrow`` entry) before each game after a loss used part of it.  This
is a seating concern; the rule check of an action is the engine's alone.

A table may keep a seat for one player until a time (:class:`SeatHold`, in its
``created`` entry): a rematch keeps its free seat for the previous opponent, who may
sit or decline; anyone else is refused (``seat_reserved``) until the hold runs out.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from gammon.match import Abandon, action_to_dict
from gammon.server.infra.clock import now_ms
from gammon.server.protocol import ServerError
from gammon.server.table.actor.host import Record, Table, loaded
from gammon.server.table.actor.seeds import Seeds
from gammon.server.table.results import check_rated_seat, check_rated_sitters, check_unblocked
from gammon.server.table.state import escrow_due, is_fresh_game
from gammon.storage import ConflictError, InsufficientFundsError, UserRow

__all__ = ["SeatHold", "Seating"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatHold:
    """A seat kept for the player named ``name`` until ``until`` (ms): a rematch's free
    seat, for the previous opponent.  Kept in the ``created`` entry as ``reserved``
    (the name, public like the old table's players: never a user id)."""

    seat: int
    name: str
    until: int

    def to_dict(self) -> dict[str, Any]:
        """The ``reserved`` field of the ``created`` entry."""
        return {"seat": self.seat, "name": self.name, "until": self.until}

    @classmethod
    def of(cls, table: Table) -> SeatHold | None:
        """The hold written in the table's ``created`` entry, if any."""
        data = table.records[0].data.get("reserved") if table.records else None
        if not isinstance(data, dict):
            return None
        return cls(int(data["seat"]), str(data["name"]), int(data["until"]))


class Seating:
    """Sits, leaves, escrow top-ups, the start and the end of one table."""

    def __init__(self, table: Table, seeds: Seeds) -> None:
        self._table = table
        self._seeds = seeds

    async def sit_user(self, user: UserRow, seat: int, *, despite_blocks: bool = False) -> Record:
        """Seat a user (from the lobby, the API or the socket); starts the match when full.
        An account is not seated with one that blocks it or that it blocks
        (:func:`~gammon.server.community.moderation.check_unblocked`) unless ``despite_blocks`` (a
        tournament's pairing)."""
        state = loaded(self._table)
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if state.seat_of(user.id) is not None:
            raise ServerError("already_seated", "you already sit at this table")
        if state.status != "waiting" or state.seats[seat] is not None:
            raise ServerError("seat_taken", f"seat {seat} is taken")
        hold = SeatHold.of(self._table)
        if hold is not None and hold.seat == seat and hold.name != user.name:
            left = -(-(hold.until - now_ms()) // 1000)  # seconds, rounded up
            if left > 0:
                raise ServerError(
                    "seat_reserved",
                    f"seat {seat} is kept for {hold.name}, the previous opponent, "
                    f"for {left} more seconds",
                )
        check_rated_seat(state.options, "guest" if user.guest else "user")
        other = state.seats[1 - seat]
        host = self._table.host
        if not despite_blocks and other is not None and other.user_id is not None:
            await check_unblocked(host.db, user, other.user_id, other.name)
        if state.options.rated:  # the account's age and record, and the pair's limit
            opponent = None
            if other is not None and other.user_id is not None:
                opponent = await host.db.run(host.store.user, other.user_id)
            await check_rated_sitters(
                host.db, host.settings, state.options, (user, opponent), now_ms()
            )
        state = loaded(self._table)  # the checks awaited: seated since?
        if state.status != "waiting" or state.seats[seat] is not None:
            raise ServerError("seat_taken", f"seat {seat} is taken")
        data: dict[str, Any] = {
            "seat": seat,
            "name": user.name,
            "kind": "guest" if user.guest else "user",
            "user": user.id,
            "level": None,
        }
        need = state.options.required_balance()
        if need:
            # the table's largest loss in one game is held in escrow, atomically with the
            # sit: a balance covers any number of tables only as far as it goes
            data["escrow"] = need
        try:
            record = await self._table.commit("sit", data)
        except InsufficientFundsError as exc:
            raise ServerError(
                "insufficient_balance",
                f"this table holds stake {state.options.stake} x cube limit "
                f"{state.options.cube_max} x end coefficient {state.options.end_coefficient}"
                f" = {need} of your balance in escrow while you sit: {exc}",
            ) from None
        await self._start_after_sit()
        return record

    async def sit_bot(self, seat: int, level: str) -> Record:
        """Seat a bot of some level."""
        state = loaded(self._table)
        if state.status != "waiting" or state.seats[seat] is not None:
            raise ServerError("seat_taken", f"seat {seat} is taken")
        check_rated_seat(state.options, "bot")
        data = {
            "seat": seat,
            "name": f"gammon-bot ({level})",
            "kind": "bot",
            "user": None,
            "level": level,
        }
        record = await self._table.commit("sit", data)
        await self._start_after_sit()
        return record

    async def _start_after_sit(self) -> None:
        """Start the match if the sit filled the table (the sit itself is already done:
        a lost race here is left to the drive, which starts a full table)."""
        try:
            await self.start_if_full()
        except ConflictError:
            await self._table.catch_up()
            self._table.drive()

    async def start_if_full(self) -> None:
        """Write the ``start`` entry once both seats are taken."""
        state = loaded(self._table)
        if state.status != "waiting" or None in state.seats:
            return
        data, server_seed = self._seeds.start_entry(state)
        await self._table.commit("start", data, server_seed=server_seed)

    async def leave_user(self, user: UserRow) -> Record:
        """A user leaves: frees the seat before the match, forfeits during it."""
        state = loaded(self._table)
        seat = state.seat_of(user.id)
        if seat is None:
            raise ServerError("not_seated", "you are not seated at this table")
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if state.status == "waiting":
            record = await self._table.commit("leave", {"seat": seat, "name": user.name})
            if all(s is None or s.kind == "bot" for s in loaded(self._table).seats):
                record = await self.end("closed", None)
            return record
        return await self.forfeit(seat, "leave", "left")

    async def forfeit(self, seat: int, reason: str, end_reason: str) -> Record:
        """End a table in play because of one seat: its game in progress is abandoned by
        that seat (scored and settled), then the other seat wins a match by forfeit."""
        match = loaded(self._table).match
        assert match is not None
        if not match.over and not is_fresh_game(match):
            await self._table.commit(
                "action",
                {"action": action_to_dict(Abandon(seat)), "by": "server", "reason": reason},
            )
        after = loaded(self._table)
        assert after.match is not None
        if after.match.over:
            return await self.end("match_over", after.match.winner)
        winner = 1 - seat if after.options.is_match else None
        return await self.end(end_reason, winner, by=seat)

    async def top_up(self) -> None:
        """Hold each player's escrow again before a staked session's next game; a player
        whose balance no longer covers it ends the session (reason ``balance``)."""
        for seat, amount in escrow_due(loaded(self._table)):
            try:
                await self._table.commit("escrow", {"seat": seat, "amount": amount})
            except InsufficientFundsError as exc:
                log.info(
                    "table %s: seat %d cannot cover the next game: %s", self._table.id, seat, exc
                )
                await self.end("balance", None)
                return

    async def decline_hold(self, user: UserRow) -> Record:
        """The player a seat is kept for declines it: the table, still waiting for them,
        is closed (its asker learns it at once; a new table is a new request)."""
        state = loaded(self._table)
        hold = SeatHold.of(self._table)
        if hold is None or hold.name != user.name:
            raise ServerError("forbidden", "only the player the seat is kept for may decline it")
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if state.status != "waiting":
            raise ServerError("stale", "the match has already started")
        return await self.end("closed", None)

    async def close_if_empty(self) -> None:
        """Finish a waiting table that nobody sits at (e.g. its creator could not sit)."""
        state = loaded(self._table)
        if state.status == "waiting" and state.seats == (None, None):
            await self.end("closed", None)

    async def end(self, reason: str, winner: int | None, *, by: int | None = None) -> Record:
        """Write the ``end`` entry, which reveals the server seed."""
        state = loaded(self._table)
        seed = self._seeds.server_seed
        data: dict[str, Any] = {
            "reason": reason,
            "winner": winner,
            "score": list(state.match.score) if state.match is not None else None,
            "server_seed": seed.hex() if seed is not None else None,
        }
        if by is not None:
            data["by"] = by
        return await self._table.commit("end", data)
