"""Who sits at a table, the escrow they hold, and how a table starts and ends.

Seed 004's rule (a player covers stake x cube limit x end coefficient) is kept by
holding that much of the player's balance in escrow while the player sits at a
staked table: the store holds it atomically with the ``sit`` entry, and holds it
again (an ``escrow`` entry) before each game after a loss used part of it.  This
is a seating concern; the rule check of an action is the engine's alone.
"""

from __future__ import annotations

import logging
from typing import Any

from gammon.match import Abandon, action_to_dict
from gammon.server.actor.host import Record, Table, loaded
from gammon.server.actor.seeds import Seeds
from gammon.server.protocol import ServerError
from gammon.server.results import check_rated_seat
from gammon.server.table import escrow_due, is_fresh_game
from gammon.storage import ConflictError, InsufficientFundsError, UserRow

__all__ = ["Seating"]

log = logging.getLogger(__name__)


class Seating:
    """Sits, leaves, escrow top-ups, the start and the end of one table."""

    def __init__(self, table: Table, seeds: Seeds) -> None:
        self._table = table
        self._seeds = seeds

    async def sit_user(self, user: UserRow, seat: int) -> Record:
        """Seat a user (from the lobby, the API or the socket); starts the match when full."""
        state = loaded(self._table)
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if state.seat_of(user.id) is not None:
            raise ServerError("already_seated", "you already sit at this table")
        if state.status != "waiting" or state.seats[seat] is not None:
            raise ServerError("seat_taken", f"seat {seat} is taken")
        check_rated_seat(state.options, "guest" if user.guest else "user")
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
