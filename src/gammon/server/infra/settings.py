"""Server settings: defaults, ``GAMMON_*`` environment variables, and command-line flags.

>>> Settings.from_env({"GAMMON_PORT": "9000", "GAMMON_REDIS_URL": ""}).port
9000
>>> Settings.from_env({"GAMMON_RATE_LIMIT": "fast"})
Traceback (most recent call last):
...
gammon.server.infra.settings.SettingsError: GAMMON_RATE_LIMIT must be a number, got 'fast'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal

from gammon.errors import GammonError
from gammon.server.infra.limits import LimitsSyntaxError, parse_limits

__all__ = ["SETTINGS_HELP", "CookieSecure", "Settings", "SettingsError", "parse_setting"]

CookieSecure = Literal["auto", "always", "never"]


class SettingsError(GammonError, ValueError):
    """A setting with a value it cannot take."""

    code = "invalid_settings"


#: One line of help per setting (the CLI's ``--help`` and docs/server.md use it).
SETTINGS_HELP: Final[dict[str, str]] = {
    "host": "address to listen on",
    "port": "TCP port to listen on (0 picks a free one; the address is printed)",
    "database_url": "SQLAlchemy URL: sqlite:///PATH or postgresql://USER@HOST/DB",
    "redis_url": "Redis URL for fanning events out between several server processes "
    "(empty: one process)",
    "cookie_secure": "Secure flag of the session cookie: auto (when the request is HTTPS), "
    "always or never",
    "allowed_origins": "comma-separated extra origins allowed to open WebSockets "
    "(the server's own origin always is)",
    "trust_proxy": "trust X-Forwarded-For/-Proto headers from these comma-separated "
    "addresses (a reverse proxy)",
    "metrics_token": "bearer token that GET /metrics requires (Authorization: Bearer TOKEN, "
    "at least 16 characters); none: /metrics answers 404",
    "starting_balance": "play-money balance of a new account or guest",
    "max_message_bytes": "largest WebSocket message accepted from a client",
    "rate_limit": "WebSocket messages per second allowed per connection",
    "rate_burst": "WebSocket message burst allowed per connection",
    "create_limit": "accounts, guests and tables one client address may create per minute "
    "(twice as many at once)",
    "list_limit": "requests per second one client address may make for the lists of tables "
    "(the lobby, its refresh, the watch page, GET /api/tables; four times as many at once)",
    "limits": "comma-separated kind=per_minute[/burst] overrides of what one account may "
    "ask for (kinds: create, signup, tournament, challenge, import, analysis; "
    "see docs/server.md, Limits)",
    "max_sockets": "WebSockets one client address may hold open at once (more are closed "
    "with 4429)",
    "idle_limit": "seconds a player may leave a decision open at a table without a clock "
    "before forfeiting (the game is abandoned by that player and the table ends; 0: never)",
    "rated_min_age": "hours an account must exist before it plays rated matches (0: at once)",
    "rated_min_matches": "finished matches (any table, any opponent) an account must have "
    "before it plays rated matches (0: none)",
    "rated_pair_limit": "rated matches two accounts may play against each other in one pool "
    "in 24 hours; later ones are refused at the table and settled unrated (0: no limit)",
    "max_imports": "imported matches one player may keep (one more is refused until they "
    "delete one)",
    "import_limit": "largest match file a player may upload, in bytes (every other request "
    "body is at most 64 KiB)",
    "reconnect_grace": "seconds added to the running clock decision when the server resumes "
    "a table (the time it was down never counts)",
    "bot_workers": "processes that compute bot moves (0: a thread in the server process)",
    "bot_delay": "seconds a bot waits before acting, so that people can follow",
    "session_days": "days a sign-in lasts",
    "password_memory": "KiB of memory for each argon2id password hash (8192..1048576); "
    "hashes made before a change still verify",
    "password_passes": "argon2id passes over that memory (time cost, 1..20)",
    "password_lanes": "argon2id lanes (parallelism, 1..16)",
    "db_pool_size": "database connections per process (PostgreSQL)",
    "sync_interval": "seconds between journal checks of live tables when Redis is used "
    "(a safety net for lost pub/sub messages)",
    "ws_compression": "compress WebSocket messages (permessage-deflate): less bandwidth, "
    "more server CPU",
    "access_log": "log every HTTP request",
    "log_level": "logging level: debug, info, warning or error",
    "pairing_bot_after": "seconds a player waits in a quick-pairing pool before the page offers "
    "a bot instead",
    "stall_log": "seconds the event loop may be held by one piece of work before the server "
    "logs a warning with where it was held (0: never; the lateness is on /metrics either way)",
}


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything ``gammon serve`` can be told.  Immutable; build with :meth:`from_env`."""

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = "sqlite:///./gammon.db"
    redis_url: str | None = None
    cookie_secure: CookieSecure = "auto"
    allowed_origins: tuple[str, ...] = ()
    trust_proxy: tuple[str, ...] = ()
    metrics_token: str | None = field(default=None, repr=False)
    starting_balance: int = 1000
    max_message_bytes: int = 4096
    rate_limit: float = 10.0
    rate_burst: int = 30
    create_limit: float = 30.0
    list_limit: float = 10.0
    limits: tuple[str, ...] = ()
    max_sockets: int = 20
    idle_limit: float = 600.0
    rated_min_age: float = 24.0
    rated_min_matches: int = 5
    rated_pair_limit: int = 3
    max_imports: int = 500
    import_limit: int = 1 << 20
    reconnect_grace: float = 30.0
    bot_workers: int = 1
    bot_delay: float = 0.6
    session_days: int = 30
    # argon2-cffi's defaults, RFC 9106's second recommended choice (64 MiB, 3 passes, 4 lanes)
    password_memory: int = 65536
    password_passes: int = 3
    password_lanes: int = 4
    db_pool_size: int = 8
    sync_interval: float = 5.0
    ws_compression: bool = False
    access_log: bool = False
    log_level: str = "info"
    pairing_bot_after: float = 20.0
    stall_log: float = 0.5

    def __post_init__(self) -> None:
        def need(cond: bool, message: str) -> None:
            if not cond:
                raise SettingsError(message)

        need(0 <= self.port <= 65535, f"port must be 0..65535, got {self.port}")
        need(bool(self.database_url), "database_url must not be empty")
        need(
            self.cookie_secure in ("auto", "always", "never"),
            f"cookie_secure must be auto, always or never, got {self.cookie_secure!r}",
        )
        need(
            self.metrics_token is None
            or (
                len(self.metrics_token) >= 16
                and self.metrics_token.isascii()
                and self.metrics_token.isprintable()
                and " " not in self.metrics_token
            ),
            "metrics_token must be at least 16 printable ASCII characters without spaces",
        )
        need(self.starting_balance >= 0, "starting_balance must be >= 0")
        need(256 <= self.max_message_bytes <= 65536, "max_message_bytes must be 256..65536")
        need(self.rate_limit > 0, "rate_limit must be > 0")
        need(self.rate_burst >= 1, "rate_burst must be >= 1")
        need(self.create_limit > 0, "create_limit must be > 0")
        need(self.list_limit > 0, "list_limit must be > 0")
        try:
            parse_limits(self.limits)
        except LimitsSyntaxError as exc:
            raise SettingsError(str(exc)) from None
        need(1 <= self.max_sockets <= 100_000, "max_sockets must be 1..100000")
        need(0 <= self.idle_limit <= 7 * 86400, "idle_limit must be 0..604800 seconds")
        need(0 <= self.rated_min_age <= 24 * 365, "rated_min_age must be 0..8760 hours")
        need(0 <= self.rated_min_matches <= 10_000, "rated_min_matches must be 0..10000")
        need(0 <= self.rated_pair_limit <= 10_000, "rated_pair_limit must be 0..10000")
        need(1 <= self.max_imports <= 100_000, "max_imports must be 1..100000")
        need(
            1024 <= self.import_limit <= 16 << 20,
            f"import_limit must be 1024..16777216 bytes, got {self.import_limit}",
        )
        need(0 <= self.reconnect_grace <= 3600, "reconnect_grace must be 0..3600 seconds")
        need(0 <= self.bot_workers <= 64, "bot_workers must be 0..64")
        need(0 <= self.bot_delay <= 60, "bot_delay must be 0..60 seconds")
        need(1 <= self.session_days <= 3650, "session_days must be 1..3650")
        need(
            8192 <= self.password_memory <= 1 << 20,
            f"password_memory must be 8192..1048576 KiB, got {self.password_memory}",
        )
        need(1 <= self.password_passes <= 20, "password_passes must be 1..20")
        need(1 <= self.password_lanes <= 16, "password_lanes must be 1..16")
        need(1 <= self.db_pool_size <= 200, "db_pool_size must be 1..200")
        need(0.1 <= self.sync_interval <= 3600, "sync_interval must be 0.1..3600 seconds")
        need(0 <= self.pairing_bot_after <= 3600, "pairing_bot_after must be 0..3600 seconds")
        need(0 <= self.stall_log <= 60, "stall_log must be 0..60 seconds")
        need(
            self.log_level in ("debug", "info", "warning", "error"),
            f"log_level must be debug, info, warning or error, got {self.log_level!r}",
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then ``GAMMON_<NAME>`` variables, then ``overrides`` (flags) that are not None."""
        environ = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            key = f"GAMMON_{f.name.upper()}"
            if key in environ:
                values[f.name] = _parse(f.name, key, environ[key])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        """A copy with some settings changed."""
        return replace(self, **changes)


_INTS: Final = {
    "port",
    "starting_balance",
    "max_message_bytes",
    "rate_burst",
    "max_sockets",
    "max_imports",
    "import_limit",
    "rated_min_matches",
    "rated_pair_limit",
    "bot_workers",
    "session_days",
    "password_memory",
    "password_passes",
    "password_lanes",
    "db_pool_size",
}
_FLOATS: Final = {
    "rate_limit",
    "create_limit",
    "list_limit",
    "idle_limit",
    "rated_min_age",
    "reconnect_grace",
    "bot_delay",
    "sync_interval",
    "pairing_bot_after",
    "stall_log",
}
_LISTS: Final = {"allowed_origins", "trust_proxy", "limits"}


def parse_setting(name: str, raw: str, key: str | None = None) -> Any:
    """A setting's value from text (an environment variable or a flag).

    >>> parse_setting("allowed_origins", "https://a.example, https://b.example")
    ('https://a.example', 'https://b.example')
    """
    return _parse(name, key or name, raw)


def _parse(name: str, key: str, raw: str) -> Any:
    text = raw.strip()
    if name in _INTS:
        try:
            return int(text)
        except ValueError:
            raise SettingsError(f"{key} must be an integer, got {raw!r}") from None
    if name in _FLOATS:
        try:
            return float(text)
        except ValueError:
            raise SettingsError(f"{key} must be a number, got {raw!r}") from None
    if name in _LISTS:
        return tuple(part.strip() for part in text.split(",") if part.strip())
    if name in ("access_log", "ws_compression"):
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("", "0", "false", "no", "off"):
            return False
        raise SettingsError(f"{key} must be true or false, got {raw!r}")
    if name in ("redis_url", "metrics_token"):
        return text or None
    if name == "cookie_secure" and text not in ("auto", "always", "never"):
        raise SettingsError(f"{key} must be auto, always or never, got {raw!r}")
    if name == "log_level" and text.lower() not in ("debug", "info", "warning", "error"):
        raise SettingsError(f"{key} must be debug, info, warning or error, got {raw!r}")
    if name == "log_level":
        return text.lower()
    return text
