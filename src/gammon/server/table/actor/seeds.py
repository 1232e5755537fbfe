"""A table's fair dice: the server seed, the stream of rolls, and the client seeds.

Per match a secret 32-byte server seed is drawn when the match starts; only its
SHA-256 goes into the ``start`` entry.  Each seated player's client seed is
journalled (a ``seed`` entry) before the first roll, which locks them.  Rolls are
:class:`gammon.match.fairdice.VerifiableDice`, resumed from the number of rolls in
the journal: the dice are a pure function of the journal and the server seed.

>>> check_seed("r4nd0m")
'r4nd0m'
>>> check_seed("a:b")
Traceback (most recent call last):
...
gammon.errors.InvalidSeedError: a client seed is printable ASCII without ':'
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any, Final

from gammon.dice import Dice
from gammon.errors import GammonError, InvalidSeedError
from gammon.match.fairdice import CLIENT_SEED_MAX_LENGTH, VerifiableDice, commit
from gammon.server.protocol import ServerError
from gammon.server.table.actor.host import Record, Table
from gammon.server.table.connection import Connection
from gammon.server.table.state import DICE_SCHEME, TableState
from gammon.storage import ConflictError

__all__ = ["SEED_WAIT", "Seeds", "check_seed"]

#: Seconds after the start during which a player's roll waits for a seated player's
#: client seed: sitting over HTTP starts the match before that player's page says hello.
SEED_WAIT: Final = 2.0


def check_seed(seed: str) -> str:
    """A client seed as given, if the dice can use it (else :class:`InvalidSeedError`)."""
    if len(seed) > CLIENT_SEED_MAX_LENGTH:
        raise InvalidSeedError(
            f"a client seed is at most {CLIENT_SEED_MAX_LENGTH} characters, got {len(seed)}"
        )
    if not all(" " <= c <= "~" for c in seed) or ":" in seed:
        raise InvalidSeedError("a client seed is printable ASCII without ':'")
    return seed


class Seeds:
    """The dice of one table's match (a collaborator of its actor)."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self._server_seed: bytes | None = None
        self._stream: VerifiableDice | None = None
        self._next: tuple[tuple[int, tuple[str, str]], Dice] | None = None

    @property
    def server_seed(self) -> bytes | None:
        """The match's secret server seed (None before the match starts)."""
        return self._server_seed

    def set_server_seed(self, seed: bytes | None) -> None:
        """Use ``seed`` from now on (a new match, or one read from the database)."""
        self._server_seed = seed
        self._stream = None
        self._next = None

    def next_dice(self, state: TableState) -> Dice:
        """The match's next roll (the stream is kept, so each roll costs one step)."""
        seeds = state.seeds_locked
        key = (state.rolls, seeds)
        if self._next is not None and self._next[0] == key:
            return self._next[1]
        stream = self._stream
        if stream is None or stream.client_seeds != seeds or stream.dice_drawn != 2 * state.rolls:
            if self._server_seed is None:
                raise ServerError("not_started", "the match has not started")
            stream = VerifiableDice(self._server_seed, state.id, seeds, dice_drawn=2 * state.rolls)
        dice = stream.roll()
        self._stream = stream
        self._next = (key, dice)
        return dice

    def awaited(self, state: TableState, now: int) -> bool:
        """Whether a roll at ``now`` (ms) should wait a moment for a client seed: the dice
        are not locked, a seated person has given none yet, and the match started less
        than :data:`SEED_WAIT` ago.  (The wait is bounded: past it the roll goes ahead
        and the missing seed counts as empty.)"""
        if state.status != "playing" or state.locked:
            return False
        if all(
            seed is not None or (who is not None and who.kind == "bot")
            for seed, who in zip(state.seeds, state.seats, strict=True)
        ):
            return False
        started = next((r.at for r in reversed(self._table.records) if r.kind == "start"), None)
        return started is not None and now - started < SEED_WAIT * 1000

    def start_entry(self, state: TableState) -> tuple[dict[str, Any], bytes]:
        """The ``start`` entry of a full table, and the server seed it commits to.

        Seeds the seated players gave before the start (e.g. in their hello) go into
        the start itself, so no roll can come between the start and them.
        """
        server_seed = secrets.token_bytes(32)
        seeds: list[str | None] = [None, None]
        for conn in self._table.conns:
            seat = self._table.seat(conn)
            if seat is not None and conn.pending_seed is not None:
                with contextlib.suppress(GammonError):
                    seeds[seat] = check_seed(conn.pending_seed)
        # the money at stake is held in escrow (``Seating.sit_user``), so the engine needs
        # no balances to apply seed 004's rule: a player always covers the table's need
        data = {
            "match_id": state.id,
            "scheme": DICE_SCHEME,
            "commitment": commit(server_seed),
            "players": [s.name if s is not None else "" for s in state.seats],
            "balances": None,
            "seeds": seeds,
        }
        return data, server_seed

    async def give(self, conn: Connection, seed: str) -> Record | None:
        """A seated player's ``client_seed`` message: kept until the match starts,
        journalled once it plays, refused once the dice are locked."""
        state = self._table.state
        assert state is not None
        conn.pending_seed = check_seed(seed)
        if state.status != "playing":
            return None  # applied when the match starts
        if state.locked:
            raise ServerError("seeds_locked", "the dice are locked: the first roll was made")
        return await self.apply(conn)

    async def apply(self, conn: Connection) -> Record | None:
        """Journal a connection's pending seed (None when there is nothing new to say)."""
        state = self._table.state
        assert state is not None
        seed = conn.pending_seed
        seat = self._table.seat(conn)
        if seed is None or seat is None or state.status != "playing" or state.locked:
            return None
        check_seed(seed)
        if state.seeds[seat] == seed:
            return None
        return await self._table.commit("seed", {"seat": seat, "seed": seed})

    async def apply_pending(self) -> bool:
        """Journal the seeds that connected players gave before the match started."""
        for conn in list(self._table.conns):
            if conn.pending_seed is None or self._table.seat(conn) is None:
                continue
            try:
                if await self.apply(conn) is not None:
                    return True
            except ConflictError:
                raise
            except GammonError as exc:
                conn.pending_seed = None
                self._table.error(conn, None, exc)
        return False
