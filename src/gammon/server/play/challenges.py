"""Challenges: a player invites a named player to a table with chosen options.

The challenged player hears of it at once on their user socket
(:mod:`gammon.server.community.notify`), on every page: a badge with the number of pending
challenges and a notice to accept or decline.  Accepting seats both at a new private
table whose id derives from the challenge (:func:`gammon.server.play.arranged.arranged_id`)
and sends both there.  A player may refuse challenges from guests (account page).
Challenges are rationed per account and per address (kind ``challenge`` of
:mod:`gammon.server.infra.limits`: :data:`RATE_BURST` at once, then :data:`RATE_PER_MINUTE`
a minute, by default); a player may have at most :data:`MAX_PENDING` pending and be
waiting to answer at most :data:`MAX_INCOMING`, both counted in the transaction that
makes the challenge (:meth:`gammon.storage.ChallengeStore.create`).  The news of
challenges made, declined or withdrawn is coalesced per player (one summary per
:data:`NEWS_DELAY`), so a crowd challenging one player sends their socket a bounded
trickle.  A bot cannot be asked: challenging one makes its table at once (rationed
like any table).

Accepting is one transaction (:meth:`gammon.storage.ChallengeStore.accept`): the
answer, the table with both players seated and both escrows held.  Of several
acceptances racing for one balance, one table is made; the others are refused
(``insufficient_balance``) and stay pending, holding nothing.

A challenge may be rated (docs/ratings.md, "When a match is rated"): both players must
then be signed-in accounts, checked when it is made and again when it is accepted
(:func:`check_rated_challenge`); a bot's table refuses a rated one as the lobby does.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any, Final

from gammon.match import TableOptions
from gammon.server.community.inbox import Notices
from gammon.server.community.notify import Notifier
from gammon.server.infra.clock import now_ms
from gammon.server.infra.limits import KINDS, Limits
from gammon.server.play.arranged import arranged_id, ensure_table
from gammon.server.protocol import ServerError
from gammon.server.table.connection import dumps
from gammon.server.table.hub import Hub, TableRequest
from gammon.server.table.results import check_rated_seat, check_unblocked
from gammon.server.table.state import TableState, initial_state, reduce
from gammon.storage import ChallengeRow, ChallengeStore, InsufficientFundsError, UserRow
from gammon.storage.challenges import MAX_FROM, MAX_TO, ChallengeCapError, NewTable
from gammon.storage.moderation import Moderation
from gammon.storage.store import TableUpdate

__all__ = [
    "MAX_INCOMING",
    "MAX_PENDING",
    "NEWS_DELAY",
    "RATE_BURST",
    "RATE_PER_MINUTE",
    "Challenges",
    "challenge_json",
    "check_rated_challenge",
]

#: Challenges an account may make in a burst, then per minute (``--limits challenge=``).
RATE_BURST: Final = KINDS["challenge"].burst
RATE_PER_MINUTE: Final = KINDS["challenge"].per_minute
#: Pending challenges one player may have made.
MAX_PENDING: Final = MAX_FROM
#: Pending challenges one player may be waiting to answer.
MAX_INCOMING: Final = MAX_TO
#: Seconds the news of challenges made, declined or withdrawn waits, gathered into one
#: summary per player.
NEWS_DELAY: Final = 0.5


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

    def __init__(self, hub: Hub, notifier: Notifier, limits: Limits) -> None:
        self.hub = hub
        self.notifier = notifier
        self.limits = limits
        self.store = ChallengeStore(hub.db)
        #: Players whose news trickles (:data:`NEWS_DELAY`), and the latest to tell.
        self._news: dict[int, asyncio.Task[None]] = {}
        self._latest: dict[int, tuple[ChallengeRow, str]] = {}
        #: Where the challenged player's notice goes (docs/notifications.md).
        self.notices: Notices | None = None

    async def summary(self, user_id: int) -> dict[str, Any]:
        """The ``challenges`` message: a user's pending challenges, both ways."""
        incoming = await self.hub.db.run(self.store.incoming, user_id, MAX_INCOMING)
        outgoing = await self.hub.db.run(self.store.outgoing, user_id, MAX_PENDING)
        return {
            "type": "challenges",
            "incoming": [challenge_json(c) for c in incoming],
            "outgoing": [challenge_json(c) for c in outgoing],
        }

    async def _tell(self, row: ChallengeRow, event: str) -> None:
        """Tell both players: the ``challenge`` event with their new summary.  An
        acceptance goes at once (it takes the challenger to the table); other news goes at
        once too, then at most once per :data:`NEWS_DELAY` seconds per player (the latest
        event with the summary of that moment), however many challenges arrive."""
        for user_id in (row.from_user, row.to_user):
            if event == "accepted":
                await self._send(user_id, row, event)
                continue
            self._latest[user_id] = (row, event)
            if user_id not in self._news:
                self._news[user_id] = asyncio.create_task(self._trickle(user_id))

    async def stop(self) -> None:
        """Cancel the news still trickling (the site stops: the database goes next, and a
        player's news would find it closed)."""
        tasks = list(self._news.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._latest.clear()

    async def _trickle(self, user_id: int) -> None:
        try:
            while (latest := self._latest.pop(user_id, None)) is not None:
                await self._send(user_id, *latest)
                await asyncio.sleep(NEWS_DELAY)
        finally:
            self._news.pop(user_id, None)

    async def _send(self, user_id: int, row: ChallengeRow, event: str) -> None:
        message = {"type": "challenge", "event": event, "challenge": challenge_json(row)}
        await self.notifier.send(user_id, {**message, **await self._counts(user_id)})

    async def _counts(self, user_id: int) -> dict[str, Any]:
        summary = await self.summary(user_id)
        return {"incoming": summary["incoming"], "outgoing": summary["outgoing"]}

    async def create(
        self, user: UserRow, opponent: str, request: TableRequest, address: str
    ) -> ChallengeRow:
        """Challenge the player named ``opponent`` from client ``address``
        (``not_found``, ``forbidden``, ``rate_limited``...)."""
        db = self.hub.db
        target = await db.run(self.hub.store.user_by_name, opponent.strip())
        if target is None:
            raise ServerError("not_found", "no player has that name")
        if target.id == user.id:
            raise ServerError("forbidden", "you cannot challenge yourself")
        if user.guest and await db.run(self.store.refuses_guests, target.id):
            raise ServerError("forbidden", "this player does not take challenges from guests")
        if await db.run(Moderation(db).blocks, target.id, user.id):  # docs/moderation.md
            raise ServerError("forbidden", "this player does not take your challenges")
        await check_unblocked(db, user, target.id, target.name)  # one the challenger blocks
        check_rated_challenge(request.options, user, target)
        await self.limits.need("challenge", user.id, address)
        challenge_id = secrets.token_urlsafe(9)
        try:
            await db.run(
                self.store.create,
                challenge_id,
                user.id,
                target.id,
                json.dumps(request.options.to_dict(), separators=(",", ":")),
                request.seat,
                now_ms(),
            )
        except ChallengeCapError as exc:
            raise ServerError("rate_limited", str(exc)) from None
        row = await db.run(self.store.challenge, challenge_id)
        assert row is not None
        await self._tell(row, "new")
        if self.notices is not None:
            length = request.options.match_length
            data = {"challenge": row.id, "from": user.name, "length": length}
            await self.notices.add(target.id, "challenge", data)
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
        seats = (challenger, user) if row.seat == 0 else (user, challenger)
        if row.status == "pending":
            check_rated_challenge(options, user, challenger)
            # a block made since the challenge (either way) holds: they are not seated
            await check_unblocked(self.hub.db, user, challenger.id, challenger.name)
            table = new_table(table_id, options, challenger, seats, now_ms())
            try:
                await self.hub.db.run(self.store.accept, row.id, table)
            except InsufficientFundsError:
                need = options.required_balance()
                raise ServerError(
                    "insufficient_balance",
                    f"a balance does not cover this table's escrow of {need}",
                ) from None
        elif row.status != "accepted":
            raise ServerError("stale", "the challenge was answered already")
        row = await self._pending(challenge_id, user, "to")
        if row.status != "accepted":
            raise ServerError("stale", "the challenge was answered already")
        # seated by the acceptance, which checked the blocks: a retry finds the same table
        await ensure_table(
            self.hub, table_id, options, challenger, seats, private=True, despite_blocks=True
        )
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


def new_table(
    table_id: str, options: TableOptions, by: UserRow, seats: tuple[UserRow, UserRow], at: int
) -> NewTable:
    """An accepted challenge's table as :meth:`ChallengeStore.accept` writes it: entry 1
    (``created``, as :func:`~gammon.server.play.arranged.ensure_table` writes it) and a ``sit``
    for each player, holding the table's escrow as a sit at the table would."""
    created = {"by": by.name, "private": True, "options": options.to_dict()}
    state: TableState = initial_state(table_id, created, at)
    entries: list[tuple[str, str, TableUpdate]] = [
        ("created", json.dumps(created, separators=(",", ":")), TableUpdate())
    ]
    need = options.required_balance()
    for seat, who in enumerate(seats):
        data: dict[str, Any] = {
            "seat": seat,
            "name": who.name,
            "kind": "guest" if who.guest else "user",
            "user": who.id,
            "level": None,
        }
        if need:
            data["escrow"] = need
        state, _events = reduce(state, "sit", data, at)
        holds = ((who.id, need, None),) if need else ()
        entries.append(("sit", dumps(data), TableUpdate(holds=holds)))
    return NewTable(
        id=table_id,
        created_by=by.id,
        options=dumps(options.to_dict()),
        seats=dumps([s.public() if s is not None else None for s in state.seats]),
        at=at,
        entries=tuple(entries),
    )
