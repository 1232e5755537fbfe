"""The schema of moderation and fair play (migration ``0008``).

A moderator's every action is a row of ``mod_log``; players' reports wait in
``reports``; a player's blocks are ``blocks``; an address ban is ``address_bans``;
the addresses an account used are ``user_addresses`` (for moderators only); each
rated match's fair-play check per player is ``fairplay_checks``.  Account
sanctions and roles are columns of ``users`` (:class:`gammon.storage.models.User`),
a voided result is ``results.voided``.

Times are integers, milliseconds since the Unix epoch.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from gammon.storage.models import Base

__all__ = ["AddressBan", "Block", "FairPlayCheck", "ModLog", "Report", "UserAddress"]


class AddressBan(Base):
    """A client address (or a network, written as a CIDR) that may not sign in or play."""

    __tablename__ = "address_bans"

    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: None: until lifted.
    until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    reason: Mapped[str] = mapped_column(Text, nullable=False, default="")
    by_user: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL", name="fk_address_bans_by")
    )
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)


class UserAddress(Base):
    """An address an account signed in or played from (seen by moderators only)."""

    __tablename__ = "user_addresses"

    user_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_user_addresses_user"),
        primary_key=True,
    )
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    first_seen: Mapped[int] = mapped_column(BigInteger, nullable=False)
    last_seen: Mapped[int] = mapped_column(BigInteger, nullable=False)
    count: Mapped[int] = mapped_column(Integer, nullable=False, default=1)

    __table_args__ = (Index("ix_user_addresses_address", "address"),)


class Report(Base):
    """A player's report of another player, or of one chat line at a table."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL", name="fk_reports_reporter")
    )
    target_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_reports_target"),
        nullable=False,
    )
    #: The table and journal entry of a reported chat line (None: the player as a whole).
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    entry_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: abuse, cheating, spam, other.
    reason: Mapped[str] = mapped_column(String(16), nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False, default="")
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: open, resolved, dismissed.
    status: Mapped[str] = mapped_column(String(16), nullable=False, default="open")
    handled_by: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL", name="fk_reports_handled_by")
    )
    handled_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (
        Index("ix_reports_status_at", "status", "at"),
        Index("ix_reports_target", "target_id"),
    )


class Block(Base):
    """A player's block of another: no challenges and no chat from them."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_blocks_blocker"),
        primary_key=True,
    )
    blocked_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("users.id", ondelete="CASCADE", name="fk_blocks_blocked"),
        primary_key=True,
    )
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)

    __table_args__ = (Index("ix_blocks_blocked", "blocked_id"),)


class ModLog(Base):
    """One moderation action (a moderator's, or the system's when ``moderator_id`` is None)."""

    __tablename__ = "mod_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    moderator_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL", name="fk_mod_log_moderator")
    )
    #: grant, revoke, mute, unmute, ban, unban, ban-address, unban-address,
    #: remove-chat, close-table, void-result, resolve-report, dismiss-report, flag.
    action: Mapped[str] = mapped_column(String(32), nullable=False)
    target_user: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="SET NULL", name="fk_mod_log_target")
    )
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: Free details as JSON (the reason, the duration, the address, the entry's seq...).
    detail: Mapped[str] = mapped_column(Text, nullable=False, default="{}")

    __table_args__ = (
        Index("ix_mod_log_at", "at"),
        Index("ix_mod_log_target", "target_user"),
    )


class FairPlayCheck(Base):
    """One player's fair-play statistic for one analysed rated match."""

    __tablename__ = "fairplay_checks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(16), nullable=False)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE", name="fk_fairplay_user"), nullable=False
    )
    at: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: The player's non-forced decisions in the match.
    decisions: Mapped[int] = mapped_column(Integer, nullable=False)
    #: The player's error rate in the match (mEMG per decision).
    error_rate: Mapped[float] = mapped_column(Float, nullable=False)
    #: The player's error rate over earlier analysed matches (None: no history).
    baseline: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The share of the player's non-forced decisions equal to the bot's first choice.
    bot_agreement: Mapped[float] = mapped_column(Float, nullable=False)
    #: The statistic (docs/fairplay.md); higher is more suspicious.
    score: Mapped[float] = mapped_column(Float, nullable=False)
    flagged: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)

    __table_args__ = (
        Index("ix_fairplay_user_at", "user_id", "at"),
        Index("ix_fairplay_flagged", "flagged"),
        Index("ix_fairplay_table", "table_id"),
    )
