"""The schema of challenges and tournaments (migrations ``0006``, ``0011``).

Times are integers, milliseconds since the Unix epoch; options are
``TableOptions.to_dict()`` as JSON text, as in ``tables.options``.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from gammon.storage.models import Base

__all__ = ["Challenge", "ChallengeSetting", "Entrant", "Pairing", "Tournament"]


class Challenge(Base):
    """One player's challenge to another: pending until accepted, declined or withdrawn."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_user: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_challenges_from"),
        nullable=False,
    )
    to_user: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE", name="fk_challenges_to"), nullable=False
    )
    options: Mapped[str] = mapped_column(Text, nullable=False)
    #: The challenger's seat (0 or 1).
    seat: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    #: pending, accepted, declined, withdrawn.
    status: Mapped[str] = mapped_column(String(16), nullable=False)
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    answered_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (
        Index("ix_challenges_to_status", "to_user", "status"),
        Index("ix_challenges_from_status", "from_user", "status"),
    )


class ChallengeSetting(Base):
    """A player's challenge settings (no row: the defaults)."""

    __tablename__ = "challenge_settings"

    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_challenge_settings_user"),
        primary_key=True,
    )
    refuse_guests: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)


class Tournament(Base):
    """A tournament: its settings, phase and winner (its rounds are ``pairings``)."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(60), nullable=False)
    created_by: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_tournaments_creator"),
        nullable=False,
    )
    created_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: knockout, round_robin, swiss or arena (docs/tournaments.md).
    format: Mapped[str] = mapped_column(String(16), nullable=False)
    options: Mapped[str] = mapped_column(Text, nullable=False)
    max_players: Mapped[int] = mapped_column(Integer, nullable=False)
    #: When registration closes and round 1 starts; None: as soon as it is full.
    starts_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: Seconds a player may take to come to a match's table before forfeiting it.
    grace: Mapped[int] = mapped_column(Integer, nullable=False)
    #: registering, running, finished or cancelled.
    status: Mapped[str] = mapped_column(String(16), nullable=False)
    #: The round being played (0 before the start).
    round: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    started_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    finished_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: The winning entrant (``entrants.id``) once finished.
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: A Swiss tournament's number of rounds (None: the other formats).
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: An arena's length in minutes (None: the other formats).
    duration: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: An arena's deadline, set at the start: no new pairing after it.
    ends_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (Index("ix_tournaments_status", "status", "created_at"),)


class Entrant(Base):
    """A registration: a player, or a bot the creator entered."""

    __tablename__ = "entrants"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_entrants_tournament"),
        nullable=False,
    )
    #: The player's account; None for a bot.
    user_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE", name="fk_entrants_user"), nullable=True
    )
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    #: The bot's level; None for a player.
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    registered_at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: 1 = the top seed; set at the start.
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The rating it was seeded with (a bot's calibrated one); None: none known.
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Its points at the end (Swiss, arena, round robin: wins; knockout: None).
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Its final place, 1 = the winner (set at the end; the podium is places 1 to 3).
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (
        Index("ux_entrants_user", "tournament_id", "user_id", unique=True),
        Index("ix_entrants_user", "user_id"),
        Index("ix_entrants_place", "user_id", "place"),
    )


class Pairing(Base):
    """One match of one round: its two entrants (None: a bye), its table and result."""

    __tablename__ = "pairings"

    tournament_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_pairings_tournament"),
        primary_key=True,
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    player0: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player1: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: The entrant who won (None while playing; both None after a double forfeit).
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: How it ended: bye, match_over, left, timeout, idle, no_show (None: not yet).
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    finished_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (Index("ix_pairings_table", "table_id"),)
