"""The community room's services (:class:`CommunityRoom`): accounts and sessions, the
user sockets, the players' inboxes and moderation.

It runs on the infra room and the table room: a notice is written when a table's turn
is committed (``Hub.commit_listeners``), a sanction closes the account's table sockets.
"""

from __future__ import annotations

from gammon.server.community.auth import Auth
from gammon.server.community.inbox import Notices
from gammon.server.community.moderation import ModerationService
from gammon.server.community.notify import Notifier
from gammon.server.infra.ratelimit import KeyedLimiter
from gammon.server.infra.room import InfraRoom, started
from gammon.server.table.room import TableRoom

__all__ = ["CommunityRoom"]


class CommunityRoom:
    """The players: the :attr:`signin_limiter` and once started :attr:`auth`, the
    :attr:`notifier`, the :attr:`notices` and :attr:`moderation`.

    >>> from gammon.server.infra.settings import Settings
    >>> infra = InfraRoom(Settings())
    >>> community = CommunityRoom(infra, TableRoom(infra))
    >>> community.notices
    Traceback (most recent call last):
    ...
    RuntimeError: the gammon app is not started (run it under its lifespan)
    """

    def __init__(self, infra: InfraRoom, table: TableRoom) -> None:
        self._infra = infra
        self._table = table
        #: Sign-in attempts per client address.
        self.signin_limiter = KeyedLimiter(rate=0.2, burst=10)
        self._auth: Auth | None = None
        self._notifier: Notifier | None = None
        self._notices: Notices | None = None
        self._moderation: ModerationService | None = None

    @property
    def auth(self) -> Auth:
        """Accounts and sessions (once started)."""
        return started(self._auth)

    @property
    def notifier(self) -> Notifier:
        """The user sockets (once started)."""
        return started(self._notifier)

    @property
    def notices(self) -> Notices:
        """The players' inboxes (once started): docs/notifications.md."""
        return started(self._notices)

    @property
    def moderation(self) -> ModerationService:
        """Moderation: checks, sanctions, moderators' actions (once started)."""
        return started(self._moderation)

    async def start(self) -> None:
        """Make the accounts' service, start the user sockets, hear the tables' commits
        for the notices (docs/notifications.md), start moderation (the address bans)."""
        infra, hub = self._infra, self._table.hub
        db, settings = infra.db, infra.settings
        self._auth = Auth(db, infra.store, settings)
        self._notifier = Notifier(settings.redis_url)
        await self._notifier.start()
        self._notices = Notices(db, self._notifier)
        hub.commit_listeners.append(self._notices.table_committed)
        self._moderation = ModerationService(db, hub, self._notifier)
        await self._moderation.start()

    async def stop(self) -> None:
        """Let the notices under way finish; stop moderation, the user sockets and the
        sessions' re-checks."""
        if self._notices is not None:
            await self._notices.close()
        if self._moderation is not None:
            await self._moderation.stop()
        if self._notifier is not None:
            await self._notifier.close()
        if self._auth is not None:
            await self._auth.close()
