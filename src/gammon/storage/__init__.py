"""Persistence for the server: SQLAlchemy 2 models, migrations and the store.

SQLite by default (``sqlite:///./gammon.db``), PostgreSQL by URL.  The journal of
every table (``entries``) is the source of truth: a table's state is rebuilt by
replaying it.  Needs the ``server`` extra (and ``postgres`` for PostgreSQL).
"""

from gammon.storage.challenges import ChallengeRow, ChallengeStore
from gammon.storage.db import Database, normalize_url
from gammon.storage.store import (
    ConflictError,
    EntryRow,
    InsufficientFundsError,
    LedgerLine,
    SessionInfo,
    Store,
    TableRow,
    TableUpdate,
    UserRow,
)
from gammon.storage.tournaments import (
    EntrantRow,
    PairingRow,
    RegistrationError,
    TournamentRow,
    TournamentStore,
)

__all__ = [
    "ChallengeRow",
    "ChallengeStore",
    "ConflictError",
    "Database",
    "EntrantRow",
    "EntryRow",
    "InsufficientFundsError",
    "LedgerLine",
    "PairingRow",
    "RegistrationError",
    "SessionInfo",
    "Store",
    "TableRow",
    "TableUpdate",
    "TournamentRow",
    "TournamentStore",
    "UserRow",
    "normalize_url",
]
