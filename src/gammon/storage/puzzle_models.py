"""The training's tables (:mod:`gammon.storage.puzzles`, docs/training.md): the puzzles
harvested from analysed matches, each player's answers, and each player's puzzle rating.

A puzzle belongs to a *scope*: ``u<user id>`` for the decisions one player got wrong
("your mistakes"), ``shared`` for the set drawn from every analysed public match.  One
decision of a public match is then two puzzles, one in each scope, each with its own
rating and counts.  ``key`` says what makes two puzzles the same (the variant, the kind,
the position with the dice, cube and score): a scope holds each at most once.
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
from sqlalchemy.orm import Mapped, mapped_column

from gammon.storage.models import Base

__all__ = ["Puzzle", "PuzzleAttempt", "PuzzlePlayer"]


class Puzzle(Base):
    """A decision somebody got wrong, to be found again (a checker play or a cube action)."""

    __tablename__ = "puzzles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: ``u<user id>`` (the player's own mistakes) or ``shared``.
    scope: Mapped[str] = mapped_column(String(16), nullable=False)
    #: The player whose mistake it is, in their own scope (None: the shared set).
    owner_id: Mapped[int | None] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_puzzles_owner"),
        nullable=True,
    )
    #: Whether the match it comes from was played at a public table.
    public: Mapped[bool] = mapped_column(Boolean, nullable=False)
    #: The analysed match: a table id (or ``import-KEY``), its game and action index.
    source: Mapped[str] = mapped_column(String(32), nullable=False)
    game: Mapped[int] = mapped_column(Integer, nullable=False)
    action_index: Mapped[int] = mapped_column(Integer, nullable=False)
    variant: Mapped[str] = mapped_column(String(16), nullable=False)
    #: ``checker``, ``cube`` (double or not) or ``response`` (take, pass or beaver).
    kind: Mapped[str] = mapped_column(String(8), nullable=False)
    #: The gnubg Position ID seen from the player on roll (the doubler for a response).
    position_id: Mapped[str] = mapped_column(String(64), nullable=False)
    #: The full XGID of the moment ("" off the backgammon board).
    xgid: Mapped[str] = mapped_column(String(80), nullable=False)
    #: The roll of a checker play (``"31"``), None for a cube decision.
    dice: Mapped[str | None] = mapped_column(String(4), nullable=True)
    #: The cube and score as the deciding player sees them, as JSON.
    cube: Mapped[str] = mapped_column(Text, nullable=False)
    #: The answers judged, with the decider's equity after each, as JSON.
    candidates: Mapped[str] = mapped_column(Text, nullable=False)
    best: Mapped[str] = mapped_column(String(120), nullable=False)
    #: The answer played in the match, and the equity it lost.
    played: Mapped[str] = mapped_column(String(120), nullable=False)
    error: Mapped[float] = mapped_column(Float, nullable=False)
    rating: Mapped[float] = mapped_column(Float, nullable=False)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    solved: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: What makes two puzzles the same (see the module notes).
    key: Mapped[str] = mapped_column(String(160), nullable=False)

    __table_args__ = (
        UniqueConstraint("scope", "key", name="uq_puzzles_scope_key"),
        Index("ix_puzzles_scope_variant_rating", "scope", "variant", "rating"),
        Index("ix_puzzles_scope_rating", "scope", "rating"),
    )


class PuzzleAttempt(Base):
    """A player's first answer to a puzzle (the one that counts: later ones change nothing)."""

    __tablename__ = "puzzle_attempts"

    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_puzzle_attempts_user"),
        primary_key=True,
    )
    puzzle_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("puzzles.id", ondelete="CASCADE", name="fk_puzzle_attempts_puzzle"),
        primary_key=True,
    )
    answer: Mapped[str] = mapped_column(String(120), nullable=False)
    correct: Mapped[bool] = mapped_column(Boolean, nullable=False)
    #: The equity the answer lost (None: a move the analysis did not rank).
    error: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: The player's puzzle rating before and after (equal: an unrated puzzle, one's own).
    rating_before: Mapped[float] = mapped_column(Float, nullable=False)
    rating_after: Mapped[float] = mapped_column(Float, nullable=False)

    __table_args__ = (Index("ix_puzzle_attempts_user_at", "user_id", "at"),)


class PuzzlePlayer(Base):
    """A player's puzzle rating and counts (made on their first answer)."""

    __tablename__ = "puzzle_players"

    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_puzzle_players_user"),
        primary_key=True,
    )
    rating: Mapped[float] = mapped_column(Float, nullable=False)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False)
    solved: Mapped[int] = mapped_column(Integer, nullable=False)
    updated_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
