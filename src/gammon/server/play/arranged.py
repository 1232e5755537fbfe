"""Tables the server arranges for two players: accepted challenges and tournament matches.

An arranged table has an id derived from what it is for (:func:`arranged_id`), so every
step that makes it can run again (after a restart, or in two processes at once) and
lands on the same table: :func:`ensure_table` creates it if it is not there and seats
whoever is not seated yet.  The match starts when both are seated.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass

from gammon.match import TableOptions
from gammon.server.infra.clock import now_ms
from gammon.server.table.actor import TableActor
from gammon.server.table.connection import dumps
from gammon.server.table.hub import Hub
from gammon.server.table.results import check_rated_seat, check_rated_sitters, check_unblocked
from gammon.storage import ConflictError, UserRow

__all__ = ["BotSeat", "arranged_id", "derived_id", "ensure_table"]


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A bot to seat: the name shown and its level."""

    name: str
    level: str


def derived_id(text: str) -> str:
    """A table id derived from ``text`` (the first 12 characters of its SHA-256, base64).

    >>> derived_id("gammon-rematch:Ab3dE5fG7hJ9")
    'T88GQJXoU58v'
    """
    digest = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:12]


def arranged_id(purpose: str) -> str:
    """The table id for a purpose (``challenge:<id>``, ``tournament:<id>:<round>:<slot>``).

    >>> arranged_id("tournament:1:1:0")
    'rWuIz10rpCCB'
    """
    return derived_id(f"gammon-arranged:{purpose}")


async def ensure_table(
    hub: Hub,
    table_id: str,
    options: TableOptions,
    by: UserRow | None,
    seats: tuple[UserRow | BotSeat, UserRow | BotSeat],
    *,
    private: bool,
    despite_blocks: bool = False,
) -> TableActor:
    """The table ``table_id`` with ``seats`` seated (made and filled as far as missing).

    A rated table takes two signed-in accounts: a guest or a bot among ``seats`` is
    refused (``invalid_options``) before anything is made or seated.  Two accounts one of
    which blocks the other are refused (``forbidden``) before anything is made, unless
    ``despite_blocks`` (a tournament's pairing: its bracket decides).
    """
    for who in seats:
        kind = "bot" if isinstance(who, BotSeat) else "guest" if who.guest else "user"
        check_rated_seat(options, kind)
    first, second = seats
    if isinstance(first, UserRow) and isinstance(second, UserRow):
        if not despite_blocks:  # before anything is made
            await check_unblocked(hub.db, first, second.id, second.name)
        for me, other in ((first, second), (second, first)):  # before anything is made
            await check_rated_sitters(hub.db, hub.settings, options, (me, other), now_ms())
    if await hub.db.run(hub.store.table, table_id) is None:
        data = {
            "by": by.name if by is not None else "gammon",
            "private": private,
            "options": options.to_dict(),
        }
        try:
            await hub.db.run(
                hub.store.create_table,
                table_id,
                by.id if by is not None else None,
                dumps(options.to_dict()),
                private,
                now_ms(),
                "created",
                json.dumps(data, separators=(",", ":")),
            )
        except Exception:  # made by another step at the same moment: fill it
            if await hub.db.run(hub.store.table, table_id) is None:
                raise
    actor = await hub.get(table_id)
    if actor is None or actor.stopped:
        actor = await hub.get(table_id)
    assert actor is not None

    async def fill() -> None:
        for seat, who in enumerate(seats):
            state = actor.state
            assert state is not None
            if state.status != "waiting" or state.seats[seat] is not None:
                continue
            if isinstance(who, BotSeat):
                await actor.commit(
                    "sit",
                    {
                        "seat": seat,
                        "name": who.name,
                        "kind": "bot",
                        "user": None,
                        "level": who.level,
                    },
                )
            elif state.seat_of(who.id) is None:
                await actor.seating.sit_user(who, seat, despite_blocks=despite_blocks)
        try:
            await actor.seating.start_if_full()
        except ConflictError:
            await actor.catch_up()
            actor.drive()

    await actor.call(fill)
    return actor
