"""Accounts and sessions: argon2id password hashes, session tokens, guests, CSRF tokens.

The session cookie holds a random token; the database holds only its SHA-256,
so a copy of the database signs nobody in.  Each session has its own CSRF token
(synchronizer pattern); visitors without a session get a double-submit token.

>>> check_username("alice_2")
'alice_2'
>>> check_username("guest-12ab")
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: user names starting with 'guest-' are kept for guests
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable
from typing import Final
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from gammon.server.infra.clock import now_ms
from gammon.server.infra.settings import Settings
from gammon.server.protocol import ServerError
from gammon.storage import ConflictError, Database, SessionInfo, Store, UserRow

__all__ = [
    "CSRF_COOKIE",
    "SESSION_COOKIE",
    "Auth",
    "check_password",
    "check_username",
    "origin_allowed",
    "token_hash",
]

SESSION_COOKIE: Final = "gammon_session"
CSRF_COOKIE: Final = "gammon_csrf"
_USERNAME: Final = re.compile(r"[A-Za-z0-9_-]{3,20}")


def token_hash(token: str) -> str:
    """What the database stores of a session token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_username(name: str) -> str:
    """A valid user name, or ``invalid_username``."""
    if not isinstance(name, str) or not _USERNAME.fullmatch(name):
        raise ServerError("invalid_username", "a user name is 3 to 20 letters, digits, '_' or '-'")
    if name.lower().startswith("guest-"):
        raise ServerError(
            "invalid_username", "user names starting with 'guest-' are kept for guests"
        )
    return name


def check_password(password: str) -> str:
    """A password of acceptable length, or ``weak_password``."""
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise ServerError("weak_password", "a password has 8 to 200 characters")
    return password


def csrf_equal(given: str | None, expected: str | None) -> bool:
    """Constant-time comparison of CSRF tokens (False if either is missing)."""
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


#: Sessions closed by this process that ``Auth.closed_here`` remembers.
_CLOSED_KEPT: Final = 10_000
#: Seconds a session re-check waits for the others due, to go in the same query.
RECHECK_GATHER: Final = 1.0

log = logging.getLogger(__name__)


class Auth:
    """Sign-up, sign-in, guests and sessions on one store."""

    def __init__(self, db: Database, store: Store, settings: Settings) -> None:
        self.db = db
        self.store = store
        self.settings = settings
        self._hasher = PasswordHasher(
            time_cost=settings.password_passes,
            memory_cost=settings.password_memory,
            parallelism=settings.password_lanes,
        )
        self._dummy_hash: str | None = None
        #: Sessions closed by this process lately (token hashes, oldest first): a socket
        #: opened with one stops at once, without asking the database.
        self._closed: OrderedDict[str, None] = OrderedDict()
        #: Sockets whose session is to be checked again: (token hash, user id, on gone).
        self._due: list[tuple[str, int, Callable[[], None]]] = []
        self._rechecks: asyncio.Task[None] | None = None

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def _verify(self, password_hash: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self._hasher.verify(password_hash, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(verify)

    async def session(self, token: str | None) -> SessionInfo | None:
        """The session of a cookie's token, if it is live."""
        if not token or len(token) > 200:
            return None
        return await self.db.run(self.store.session, token_hash(token), now_ms())

    async def open_session(self, user_id: int) -> tuple[str, str]:
        """A new session for a user: ``(token for the cookie, csrf token)``."""
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        now = now_ms()
        expires = now + self.settings.session_days * 86_400_000
        await self.db.run(self.store.create_session, token_hash(token), user_id, csrf, now, expires)
        return token, csrf

    async def close_session(self, token: str | None) -> None:
        """Sign out (nothing if there is no such session)."""
        if token:
            hashed = token_hash(token)
            await self.db.run(self.store.delete_session, hashed)
            self._closed[hashed] = None
            while len(self._closed) > _CLOSED_KEPT:
                self._closed.popitem(last=False)

    def recheck(self, token: str | None, user_id: int, gone: Callable[[], None]) -> None:
        """Check in the database, within :data:`RECHECK_GATHER` seconds, that ``token``'s
        session is live and ``user_id``'s; call ``gone`` if not.

        Every socket due for a check in that second goes in one query, in the background:
        checked one by one, the sockets of a busy process made a database round trip
        each, and the action that found its socket due waited for it.  A session closed
        by this process is known at once (:meth:`closed_here`); one closed by another
        process, or expired, ends its sockets here within a second of their next check.
        """
        if not token or len(token) > 200:
            gone()
            return
        self._due.append((token_hash(token), user_id, gone))
        if self._rechecks is None:
            self._rechecks = asyncio.create_task(self._recheck_due(), name="gammon-rechecks")

    async def _recheck_due(self) -> None:
        try:
            while self._due:
                await asyncio.sleep(RECHECK_GATHER)
                due, self._due = self._due, []
                hashes = list(dict.fromkeys(hashed for hashed, _, _ in due))
                try:
                    live = await self.db.run(self.store.live_sessions, hashes, now_ms())
                except Exception as exc:  # checked again at their next turn
                    log.warning("session re-check of %d socket(s) failed: %s", len(due), exc)
                    continue
                for hashed, user_id, gone in due:
                    if live.get(hashed) != user_id:
                        gone()
        finally:
            self._rechecks = None

    async def close(self) -> None:
        """Stop the session re-checks."""
        task = self._rechecks
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def closed_here(self, token: str | None) -> bool:
        """Whether this process closed ``token``'s session lately (no database query)."""
        return bool(token) and token_hash(token or "") in self._closed

    async def new_guest(self) -> UserRow:
        """A guest account with the starting balance."""
        for _ in range(5):
            name = f"guest-{secrets.token_hex(3)}"
            try:
                return await self.db.run(
                    lambda n=name: self.store.create_user(
                        n, None, guest=True, balance=self.settings.starting_balance, now=now_ms()
                    )
                )
            except ConflictError:
                continue
        raise ServerError("conflict", "could not find a free guest name; try again")

    async def sign_up(self, name: str, password: str, current: UserRow | None) -> UserRow:
        """A new account, or the current guest turned into one."""
        check_username(name)
        check_password(password)
        password_hash = await self._hash(password)
        if current is not None and current.guest:
            return await self.db.run(self.store.register_guest, current.id, name, password_hash)
        return await self.db.run(
            lambda: self.store.create_user(
                name,
                password_hash,
                guest=False,
                balance=self.settings.starting_balance,
                now=now_ms(),
            )
        )

    async def sign_in(self, name: str, password: str) -> UserRow:
        """The account for a name and password, or ``bad_credentials``."""
        user = None
        if isinstance(name, str) and 0 < len(name) <= 40 and isinstance(password, str):
            user = await self.db.run(self.store.user_by_name, name)
        if user is None or user.password_hash is None:
            # spend the same time as a real check, so names cannot be probed by timing
            if self._dummy_hash is None:
                self._dummy_hash = await self._hash(secrets.token_hex(8))
            await self._verify(self._dummy_hash, str(password)[:200])
            raise ServerError("bad_credentials", "wrong user name or password")
        if not await self._verify(user.password_hash, password[:200]):
            raise ServerError("bad_credentials", "wrong user name or password")
        return user


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a browser ``Origin`` may talk to this server (no ``Origin``: not a browser).

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ())
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8000", ())
    False
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    netloc = urlsplit(origin).netloc
    return bool(host) and netloc.lower() == (host or "").lower()
