"""Moderation and fair play: roles and sanctions on ``users``, ``results.voided``,
address bans, the addresses an account used, reports, blocks, the moderation log
and the fair-play checks (:mod:`gammon.storage.moderation_models`).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _users_fk(name: str, ondelete: str) -> sa.ForeignKey:
    return sa.ForeignKey("users.id", ondelete=ondelete, name=name)


def upgrade() -> None:
    """Add the columns and create the tables."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("role", sa.String(16), nullable=False, server_default="player"))
        batch.add_column(sa.Column("muted_until", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("banned_until", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("ban_reason", sa.Text(), nullable=True))
    with op.batch_alter_table("results") as batch:
        batch.add_column(
            sa.Column("voided", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        # why a result is not rated (docs/ratings.md): None when it is
        batch.add_column(sa.Column("unrated", sa.String(16), nullable=True))
    op.create_table(
        "address_bans",
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("until", sa.BigInteger(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("by_user", sa.Integer(), _users_fk("fk_address_bans_by", "SET NULL")),
        sa.Column("at", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "user_addresses",
        sa.Column(
            "user_id",
            sa.Integer(),
            _users_fk("fk_user_addresses_user", "CASCADE"),
            primary_key=True,
        ),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("first_seen", sa.BigInteger(), nullable=False),
        sa.Column("last_seen", sa.BigInteger(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
    )
    op.create_index("ix_user_addresses_address", "user_addresses", ["address"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer(), _users_fk("fk_reports_reporter", "SET NULL")),
        sa.Column(
            "target_id",
            sa.Integer(),
            _users_fk("fk_reports_target", "CASCADE"),
            nullable=False,
        ),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("entry_seq", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("handled_by", sa.Integer(), _users_fk("fk_reports_handled_by", "SET NULL")),
        sa.Column("handled_at", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_reports_status_at", "reports", ["status", "at"])
    op.create_index("ix_reports_target", "reports", ["target_id"])
    op.create_table(
        "blocks",
        sa.Column(
            "blocker_id",
            sa.Integer(),
            _users_fk("fk_blocks_blocker", "CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "blocked_id",
            sa.Integer(),
            _users_fk("fk_blocks_blocked", "CASCADE"),
            primary_key=True,
        ),
        sa.Column("at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])
    op.create_table(
        "mod_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("moderator_id", sa.Integer(), _users_fk("fk_mod_log_moderator", "SET NULL")),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target_user", sa.Integer(), _users_fk("fk_mod_log_target", "SET NULL")),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
    )
    op.create_index("ix_mod_log_at", "mod_log", ["at"])
    op.create_index("ix_mod_log_target", "mod_log", ["target_user"])
    op.create_table(
        "fairplay_checks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), _users_fk("fk_fairplay_user", "CASCADE"), nullable=False
        ),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("error_rate", sa.Float(), nullable=False),
        sa.Column("baseline", sa.Float(), nullable=True),
        sa.Column("bot_agreement", sa.Float(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("flagged", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_fairplay_user_at", "fairplay_checks", ["user_id", "at"])
    op.create_index("ix_fairplay_flagged", "fairplay_checks", ["flagged"])
    op.create_index("ix_fairplay_table", "fairplay_checks", ["table_id"])


def downgrade() -> None:
    """Drop the tables and the columns (the moderation history is lost)."""
    for table in (
        "fairplay_checks",
        "mod_log",
        "blocks",
        "reports",
        "user_addresses",
        "address_bans",
    ):
        op.drop_table(table)
    with op.batch_alter_table("results") as batch:
        batch.drop_column("unrated")
        batch.drop_column("voided")
    with op.batch_alter_table("users") as batch:
        for column in ("ban_reason", "banned_until", "muted_until", "role"):
            batch.drop_column(column)
