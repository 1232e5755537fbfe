"""The database schema (SQLAlchemy 2 declarative models).

Times are integers, milliseconds since the Unix epoch.  JSON documents are
stored as text so that SQLite and PostgreSQL hold exactly the same bytes.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import false as sa_false

__all__ = [
    "Analysis",
    "Base",
    "Entry",
    "History",
    "Import",
    "Ledger",
    "PlayerRecord",
    "Rating",
    "RatingChange",
    "Result",
    "Rollout",
    "SessionToken",
    "Table",
    "User",
]


class Base(DeclarativeBase):
    """Declarative base of every gammon table."""


class User(Base):
    """An account: a signed-up user or a guest (no password)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    #: ``name`` in lower case: user names are unique regardless of case.
    name_key: Mapped[str] = mapped_column(String(40), nullable=False)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    #: Play-money balance; every change has a line in ``ledger``.
    balance: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
    #: The part of ``balance`` held for the staked tables the user sits at (escrow):
    #: never more than ``balance``; only ``balance - held`` can be staked elsewhere.
    held: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0, server_default="0")
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: ``player`` or ``moderator`` (granted with ``gammon admin``).
    role: Mapped[str] = mapped_column(
        String(16), nullable=False, default="player", server_default="player"
    )
    #: No chat before this time (None: not muted).
    muted_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: No sign-in or play before this time (None: not banned).
    banned_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ban_reason: Mapped[str | None] = mapped_column(Text, nullable=True)

    __table_args__ = (UniqueConstraint("name_key", name="uq_users_name_key"),)


class SessionToken(Base):
    """A signed-in browser: only the SHA-256 of the cookie's token is stored."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_sessions_user"),
        nullable=False,
        index=True,
    )
    csrf: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    expires_at: Mapped[int] = mapped_column(BigInteger, nullable=False)


class Table(Base):
    """A table and its match.  ``version`` is the number of its newest journal entry."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    created_by: Mapped[int | None] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="SET NULL", name="fk_tables_creator"),
        nullable=True,
    )
    #: ``TableOptions.to_dict()`` as JSON.
    options: Mapped[str] = mapped_column(Text, nullable=False)
    private: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    #: waiting, playing or finished.
    status: Mapped[str] = mapped_column(String(16), nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    #: The two seats for listings, as JSON (the journal is the truth).
    seats: Mapped[str] = mapped_column(Text, nullable=False, default="[null, null]")
    #: The secret dice seed (hex).  Never sent to a client before the table is finished.
    server_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    finished_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: The ``end`` entry's data, as JSON, once finished.
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: A correspondence table in play waiting on a person (docs/notifications.md): when
    #: its decision times out, and whose it is; None otherwise.  A periodic sweep finds
    #: the tables due by this index, so that no actor waits for days in memory.
    wake_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    turn_user: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)

    __table_args__ = (Index("ix_tables_status_created", "status", "created_at"),)


class Entry(Base):
    """One journal entry of a table: the source of truth, replayed to rebuild the table."""

    __tablename__ = "entries"

    table_id: Mapped[str] = mapped_column(
        String(16),
        ForeignKey("tables.id", ondelete="CASCADE", name="fk_entries_table"),
        primary_key=True,
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    data: Mapped[str] = mapped_column(Text, nullable=False)
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)


class Ledger(Base):
    """One change of a user's play-money balance."""

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE", name="fk_ledger_user"), nullable=False
    )
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    amount: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: The balance after this line.
    balance: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: The amount held in escrow after this line.
    held: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0, server_default="0")
    #: ``opening`` (the starting balance), ``game`` (a settled game), ``hold`` (escrow
    #: taken for a staked table: amount 0, ``held`` grows) or ``release`` (escrow given
    #: back or used by a loss: amount 0, ``held`` shrinks).
    reason: Mapped[str] = mapped_column(String(32), nullable=False)
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    game: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (Index("ix_ledger_user_at", "user_id", "id"),)


class Import(Base):
    """A match file a player uploaded (``POST /import``), kept as its record."""

    __tablename__ = "imports"

    #: A random URL-safe key: the imported match's address is ``/imports/{id}``.
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    owner_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE", name="fk_imports_owner"), nullable=False
    )
    #: The uploaded file's name (at most 100 characters, no folders).
    file_name: Mapped[str] = mapped_column(String(100), nullable=False)
    #: ``mat``, ``sgf`` or ``xg``: the reader that read it.
    format: Mapped[str] = mapped_column(String(8), nullable=False)
    uploaded_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: The record as an action log (``gammon.match.record.write_log``).
    log: Mapped[str] = mapped_column(Text, nullable=False)
    #: The reader's warnings, as JSON: ``[{"line", "game", "message", "exact"}, ...]``.
    warnings: Mapped[str] = mapped_column(Text, nullable=False)
    #: The numbers of the games not replayed exactly (so not rule-checked), as JSON.
    unchecked: Mapped[str] = mapped_column(Text, nullable=False)
    #: The file's size in bytes.
    size: Mapped[int] = mapped_column(Integer, nullable=False)
    #: What its page shows (players, length, score, each game), as JSON: worked out once,
    #: with the upload, so that a view replays nothing.
    summary: Mapped[str] = mapped_column(Text, nullable=False)

    __table_args__ = (Index("ix_imports_owner_uploaded", "owner_id", "uploaded_at"),)


class Result(Base):
    """One finished match or session (a table that started), written with its ``end`` entry."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(16), nullable=False)
    variant: Mapped[str] = mapped_column(String(16), nullable=False)
    #: The rating pool of the variant (``gammon.match.ratings.rating_pool``).
    pool: Mapped[str] = mapped_column(String(16), nullable=False)
    #: 0 for a money session.
    match_length: Mapped[int] = mapped_column(Integer, nullable=False)
    user0: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL", name="fk_results_user0")
    )
    user1: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL", name="fk_results_user1")
    )
    #: The seats' names and kinds (``user``, ``guest``, ``bot``) when the table ended.
    name0: Mapped[str] = mapped_column(String(40), nullable=False)
    name1: Mapped[str] = mapped_column(String(40), nullable=False)
    kind0: Mapped[str] = mapped_column(String(8), nullable=False)
    kind1: Mapped[str] = mapped_column(String(8), nullable=False)
    #: The seat that won the match, or None (a money session, a table closed early).
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score0: Mapped[int] = mapped_column(Integer, nullable=False)
    score1: Mapped[int] = mapped_column(Integer, nullable=False)
    rated: Mapped[bool] = mapped_column(Boolean, nullable=False)
    ended_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: The ``end`` entry's reason (match_over, left, idle, timeout, balance, closed).
    reason: Mapped[str] = mapped_column(String(16), nullable=False)
    #: Each seat's error rate (mEMG per decision) once the match has been analysed.
    error0: Mapped[float | None] = mapped_column(Float, nullable=True)
    error1: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Why a result is not rated (None: rated): ``casual``, ``no_winner``, ``not_accounts``,
    #: ``not_played`` (forfeited before anyone moved) or ``pair_limit`` (docs/ratings.md).
    unrated: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: Voided by a moderator: its rating changes undone (docs/moderation.md).
    voided: Mapped[bool] = mapped_column(
        Boolean, nullable=False, default=False, server_default=sa_false()
    )

    __table_args__ = (UniqueConstraint("table_id", name="uq_results_table"),)


class History(Base):
    """A result as one player's match list sees it: one row per account at the table.

    The key leads with the user and the end time, so a profile's list is read in order
    and paginated by ``(ended_at, result_id)``; each filter has its own such index.
    """

    __tablename__ = "history"

    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_history_user"),
        primary_key=True,
    )
    ended_at: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    result_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("results.id", ondelete="CASCADE", name="fk_history_result"),
        primary_key=True,
    )
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    variant: Mapped[str] = mapped_column(String(16), nullable=False)
    #: The other seat's account (None: a bot).
    opponent_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: ``win``, ``loss`` or ``none`` (a money session, a table closed before a winner).
    outcome: Mapped[str] = mapped_column(String(8), nullable=False)

    __table_args__ = (
        Index("ix_history_variant", "user_id", "variant", "ended_at", "result_id"),
        Index("ix_history_opponent", "user_id", "opponent_id", "ended_at", "result_id"),
        Index("ix_history_outcome", "user_id", "outcome", "ended_at", "result_id"),
    )


class PlayerRecord(Base):
    """A player's totals over their match list, kept with each result (a profile reads
    one row, however many matches the player has)."""

    __tablename__ = "player_records"

    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_player_records_user"),
        primary_key=True,
    )
    wins: Mapped[int] = mapped_column(Integer, nullable=False)
    losses: Mapped[int] = mapped_column(Integer, nullable=False)
    #: Money sessions and tables that ended without a winner.
    others: Mapped[int] = mapped_column(Integer, nullable=False)
    #: Analysed matches, and the sum of the player's error rates in them.
    analysed: Mapped[int] = mapped_column(Integer, nullable=False)
    error_sum: Mapped[float] = mapped_column(Float, nullable=False)


class Rating(Base):
    """A player's rating in one pool (docs/ratings.md)."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_ratings_user"),
        primary_key=True,
    )
    pool: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float, nullable=False)
    #: The total length of the player's rated matches in the pool (the formula's experience).
    experience: Mapped[int] = mapped_column(Integer, nullable=False)
    matches: Mapped[int] = mapped_column(Integer, nullable=False)
    wins: Mapped[int] = mapped_column(Integer, nullable=False)
    losses: Mapped[int] = mapped_column(Integer, nullable=False)
    updated_at: Mapped[int] = mapped_column(BigInteger, nullable=False)

    __table_args__ = (Index("ix_ratings_pool_rating", "pool", "rating"),)


class RatingChange(Base):
    """One player's rating change in one rated match: at most one per table and player."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(16), nullable=False)
    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_rating_changes_user"),
        nullable=False,
    )
    pool: Mapped[str] = mapped_column(String(16), nullable=False)
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    rating_before: Mapped[float] = mapped_column(Float, nullable=False)
    rating_after: Mapped[float] = mapped_column(Float, nullable=False)
    #: The player's experience after the match.
    experience: Mapped[int] = mapped_column(Integer, nullable=False)

    __table_args__ = (
        UniqueConstraint("table_id", "user_id", name="uq_rating_changes_table_user"),
        Index("ix_rating_changes_user_pool_at", "user_id", "pool", "at", "id"),
    )


class Analysis(Base):
    """A finished analysis of a match (a table's, or an imported one's) at one level."""

    __tablename__ = "analyses"

    #: The table id, or ``import-KEY`` for an imported match.
    subject: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The analysis level (``expert``, ``world-class``).
    level: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: The schema version of ``data`` (``gammon.bots.analysis.SCHEMA_VERSION``).
    schema: Mapped[int] = mapped_column(Integer, nullable=False)
    #: ``MatchAnalysis.to_dict()`` as JSON (docs/analysis.md).
    data: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)


class Rollout(Base):
    """A rollout of one decision of an analysed match (:mod:`gammon.storage.rollouts`)."""

    __tablename__ = "rollouts"

    #: The table id, or ``import-KEY`` for an imported match.
    subject: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The decision: ``{action index}:{kind}`` (``12:checker``, ``30:cube``, ``31:response``).
    decision: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The result as JSON (docs/analysis.md, "Rollouts").
    data: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
