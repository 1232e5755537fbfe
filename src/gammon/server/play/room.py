"""The play room's services (:class:`PlayRoom`): challenges, quick pairing and
tournaments.

It runs on the infra, table and community rooms: the tables are the hub's, the
challenges and the rounds write notices, a tournament hears its tables end
(``Hub.end_listeners``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gammon.server.community.room import CommunityRoom
from gammon.server.infra.room import InfraRoom, started
from gammon.server.play.challenges import Challenges
from gammon.server.play.pairing import Pairing
from gammon.server.play.seeks import make_store
from gammon.server.play.tournaments import Tournaments
from gammon.server.table.room import TableRoom
from gammon.storage import Standings

__all__ = ["PlayRoom"]


class PlayRoom:
    """Finding opponents: once started the :attr:`challenges`, the :attr:`pairing` and
    the :attr:`tournaments`.

    >>> from gammon.server.infra.settings import Settings
    >>> infra = InfraRoom(Settings())
    >>> table = TableRoom(infra)
    >>> PlayRoom(infra, table, CommunityRoom(infra, table)).pairing
    Traceback (most recent call last):
    ...
    RuntimeError: the gammon app is not started (run it under its lifespan)
    """

    def __init__(self, infra: InfraRoom, table: TableRoom, community: CommunityRoom) -> None:
        self._infra = infra
        self._table = table
        self._community = community
        self._challenges: Challenges | None = None
        self._pairing: Pairing | None = None
        self._tournaments: Tournaments | None = None

    @property
    def challenges(self) -> Challenges:
        """Challenges (once started)."""
        return started(self._challenges)

    @property
    def pairing(self) -> Pairing:
        """Play now: the quick-pairing pools (once started)."""
        return started(self._pairing)

    @property
    def tournaments(self) -> Tournaments:
        """Tournaments and their scheduler (once started)."""
        return started(self._tournaments)

    async def start(self) -> None:
        """Make the challenges and the tournaments (both write notices), start the
        pairing rounds and the tournaments' scheduler."""
        infra, hub = self._infra, self._table.hub
        notifier, notices = self._community.notifier, self._community.notices
        settings, db = infra.settings, infra.db
        self._challenges = Challenges(hub, notifier, infra.limits)
        self._challenges.notices = notices
        standings = Standings(db)

        async def ratings(pool: str, users: Sequence[int]) -> Mapping[int, float]:
            return await db.run(standings.ratings_in, pool, users)

        self._tournaments = Tournaments(hub, ratings)
        self._tournaments.notices = notices

        async def rating(pool: str, user_id: int) -> float | None:
            return (await ratings(pool, [user_id])).get(user_id)

        seeks = make_store(settings.redis_url, settings.database_url)
        self._pairing = Pairing(hub, notifier, infra.limits, seeks, rating)
        await self._pairing.start()
        hub.end_listeners.append(self._tournaments.table_ended)
        await self._tournaments.start()

    async def stop(self) -> None:
        """Stop the tournaments' scheduler, the pairing rounds and the challenges' news."""
        if self._tournaments is not None:
            await self._tournaments.stop()
        if self._pairing is not None:
            await self._pairing.stop()
        if self._challenges is not None:
            await self._challenges.stop()
