"""Challenges: a player invites a named player to a table with chosen options.

The challenged player hears of it at once on their user socket
(:mod:`gammon.server.notify`), on every page: a badge with the number of pending
challenges and a notice to accept or decline.  Accepting seats both at a new private
table whose id derives from the challenge (:func:`gammon.server.arranged.arranged_id`)
and sends both there.  A player may refuse challenges from guests (account page).
Each player may make :data:`RATE_BURST` challenges at once, then one every
``60 / RATE_PER_MINUTE`` seconds, and have at most :data:`MAX_PENDING` pending.
A bot cannot be asked: challenging one makes its table at once.

A challenge may be rated (docs/ratings.md, "When a match is rated"): both players must
then be signed-in accounts, checked when it is made and again when it is accepted
(:func:`check_rated_challenge`); a bot's table refuses a rated one as the lobby does.
"""

from __future__ import annotations

import json
import secrets
from typing import Any, Final

from gammon.match import TableOptions
from gammon.server.arranged import arranged_id, ensure_table
from gammon.server.auth import now_ms
from gammon.server.hub import Hub, TableRequest
from gammon.server.notify import Notifier
from gammon.server.protocol import ServerError
from gammon.server.ratelimit import KeyedLimiter
from gammon.server.results import check_rated_seat
from gammon.storage import ChallengeRow, ChallengeStore, UserRow

__all__ = [
    "MAX_PENDING",
    "RATE_BURST",
    "RATE_PER_MINUTE",
    "Challenges",
    "challenge_json",
    "check_rated_challenge",
]

#: Challenges a player may make in a burst, then per minute.
RATE_BURST: Final = 5
RATE_PER_MINUTE: Final = 6
#: Pending challenges one player may have made.
MAX_PENDING: Final = 10


def challenge_json(row: ChallengeRow) -> dict[str, Any]:
    """A challenge as the user socket and the JSON API show it."""
    return {
        "id": row.id,
        "from": row.from_name,
        "to": row.to_name,
        "options": json.loads(row.options),
        "seat": row.seat,
        "status": row.status,
        "table": row.table_id,
        "created_at": row.created_at,
    }


def check_rated_challenge(options: TableOptions, me: UserRow, other: UserRow) -> None:
    """Refuse a rated challenge, made or accepted by ``me``, unless both players are
    signed-in accounts (``invalid_options``: the lobby's refusal when ``me`` is a guest).

    >>> from gammon.storage import UserRow
    >>> ann = UserRow(1, "ann", False, 0, None, 0)
    >>> guest = UserRow(2, "guest-7", True, 0, None, 0)
    >>> check_rated_challenge(TableOptions(match_length=3), guest, ann)   # casual: anyone
    >>> check_rated_challenge(TableOptions(match_length=3, rated=True), ann, guest)
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: a rated match is played between two signed-in accounts: this player plays as a guest
    >>> check_rated_challenge(TableOptions(match_length=3, rated=True), guest, ann)
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: a rated match is played between two signed-in accounts: sign up or sign in to sit at a rated table
    """
    check_rated_seat(options, "guest" if me.guest else "user")
    if options.rated and other.guest:
        raise ServerError(
            "invalid_options",
            "a rated match is played between two signed-in accounts: this player plays as a guest",
        )


class Challenges:
    """Making and answering challenges."""

    def __init__(self, hub: Hub, notifier: Notifier) -> None:
        self.hub = hub
        self.notifier = notifier
        self.store = ChallengeStore(hub.db)
        self.limiter = KeyedLimiter(rate=RATE_PER_MINUTE / 60.0, burst=RATE_BURST)

    async def summary(self, user_id: int) -> dict[str, Any]:
        """The ``challenges`` message: a user's pending challenges, both ways."""
        incoming = await self.hub.db.run(self.store.incoming, user_id)
        outgoing = await self.hub.db.run(self.store.outgoing, user_id)
        return {
            "type": "challenges",
            "incoming": [challenge_json(c) for c in incoming],
            "outgoing": [challenge_json(c) for c in outgoing],
        }

    async def _tell(self, row: ChallengeRow, event: str) -> None:
        """Send both players the ``challenge`` event and their new summary."""
        for user_id in (row.from_user, row.to_user):
            message = {"type": "challenge", "event": event, "challenge": challenge_json(row)}
            await self.notifier.send(user_id, {**message, **await self._counts(user_id)})

    async def _counts(self, user_id: int) -> dict[str, Any]:
        summary = await self.summary(user_id)
        return {"incoming": summary["incoming"], "outgoing": summary["outgoing"]}

    async def create(self, user: UserRow, opponent: str, request: TableRequest) -> ChallengeRow:
        """Challenge the player named ``opponent`` (``not_found``, ``forbidden``,
        ``rate_limited``...)."""
        db = self.hub.db
        target = await db.run(self.hub.store.user_by_name, opponent.strip())
        if target is None:
            raise ServerError("not_found", "no player has that name")
        if target.id == user.id:
            raise ServerError("forbidden", "you cannot challenge yourself")
        if user.guest and await db.run(self.store.refuses_guests, target.id):
            raise ServerError("forbidden", "this player does not take challenges from guests")
        check_rated_challenge(request.options, user, target)
        if await db.run(self.store.pending_from, user.id) >= MAX_PENDING:
            raise ServerError("rate_limited", "too many of your challenges wait for an answer")
        if not self.limiter.allow(str(user.id)):
            raise ServerError("rate_limited", "too many challenges; wait a minute")
        challenge_id = secrets.token_urlsafe(9)
        await db.run(
            self.store.create,
            challenge_id,
            user.id,
            target.id,
            json.dumps(request.options.to_dict(), separators=(",", ":")),
            request.seat,
            now_ms(),
        )
        row = await db.run(self.store.challenge, challenge_id)
        assert row is not None
        await self._tell(row, "new")
        return row

    async def _pending(self, challenge_id: str, user: UserRow, side: str) -> ChallengeRow:
        row = await self.hub.db.run(self.store.challenge, challenge_id)
        if row is None or user.id != (row.to_user if side == "to" else row.from_user):
            raise ServerError("not_found", "no such challenge")
        return row

    async def accept(self, user: UserRow, challenge_id: str) -> str:
        """Accept a challenge: both players are seated at its table; the table's id.
        Accepting again (a second click, a retry) gives the same table.  A rated
        challenge is checked again (:func:`check_rated_challenge`): it stays pending
        when refused."""
        row = await self._pending(challenge_id, user, "to")
        table_id = arranged_id(f"challenge:{row.id}")
        options = TableOptions.from_dict(json.loads(row.options))
        challenger = await self.hub.db.run(self.hub.store.user, row.from_user)
        assert challenger is not None
        if row.status == "pending":
            check_rated_challenge(options, user, challenger)
            need = options.required_balance()
            if need:
                have = await self.hub.db.run(self.hub.store.available, [row.from_user, user.id])
                if min(have.get(row.from_user, 0), have.get(user.id, 0)) < need:
                    raise ServerError(
                        "insufficient_balance",
                        f"a balance does not cover this table's escrow of {need}",
                    )
            if not await self.hub.db.run(self.store.answer, row.id, "accepted", table_id, now_ms()):
                row = await self._pending(challenge_id, user, "to")
        elif row.status != "accepted":
            raise ServerError("stale", "the challenge was answered already")
        row = await self._pending(challenge_id, user, "to")
        if row.status != "accepted":
            raise ServerError("stale", "the challenge was answered already")
        seats = (challenger, user) if row.seat == 0 else (user, challenger)
        await ensure_table(self.hub, table_id, options, challenger, seats, private=True)
        await self._tell(row, "accepted")
        return table_id

    async def decline(self, user: UserRow, challenge_id: str) -> None:
        """Decline a challenge made to ``user``."""
        await self._close(user, challenge_id, "to", "declined")

    async def withdraw(self, user: UserRow, challenge_id: str) -> None:
        """Withdraw a challenge ``user`` made."""
        await self._close(user, challenge_id, "from", "withdrawn")

    async def _close(self, user: UserRow, challenge_id: str, side: str, status: str) -> None:
        row = await self._pending(challenge_id, user, side)
        if not await self.hub.db.run(self.store.answer, row.id, status, None, now_ms()):
            raise ServerError("stale", "the challenge was answered already")
        row = await self._pending(challenge_id, user, side)
        await self._tell(row, status)
