"""Persistence for the server: SQLAlchemy 2 models, migrations and the store.

SQLite by default (``sqlite:///./gammon.db``), PostgreSQL by URL.  The journal of
every table (``entries``) is the source of truth: a table's state is rebuilt by
replaying it.  Imported match files are kept in ``imports``
(:mod:`gammon.storage.imports`), finished analyses in ``analyses``
(:mod:`gammon.storage.analyses`), decisions rolled out in ``rollouts``
(:mod:`gammon.storage.rollouts`), both keyed JSON documents
(:mod:`gammon.storage.documents`).  Needs the ``server`` extra (and ``postgres`` for
PostgreSQL).
"""

from gammon.storage import (
    inbox,  # noqa: F401  (registers the inbox table)
    moderation_models,  # noqa: F401  (registers the tables)
    puzzle_models,  # noqa: F401  (registers the training's tables)
)
from gammon.storage.analyses import Analyses
from gammon.storage.challenges import ChallengeRow, ChallengeStore
from gammon.storage.db import Database, normalize_url
from gammon.storage.imports import ImportLimitError, ImportListing, ImportPage, ImportRow, Imports
from gammon.storage.rollouts import Rollouts
from gammon.storage.standings import (
    HistoryRow,
    LeaderRow,
    MatchResult,
    RatingRow,
    ResultSeat,
    Standings,
)
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
    "Analyses",
    "ChallengeRow",
    "ChallengeStore",
    "ConflictError",
    "Database",
    "EntrantRow",
    "EntryRow",
    "HistoryRow",
    "ImportLimitError",
    "ImportListing",
    "ImportPage",
    "ImportRow",
    "Imports",
    "InsufficientFundsError",
    "LeaderRow",
    "LedgerLine",
    "MatchResult",
    "PairingRow",
    "RatingRow",
    "RegistrationError",
    "ResultSeat",
    "Rollouts",
    "SessionInfo",
    "Standings",
    "Store",
    "TableRow",
    "TableUpdate",
    "TournamentRow",
    "TournamentStore",
    "UserRow",
    "normalize_url",
]
