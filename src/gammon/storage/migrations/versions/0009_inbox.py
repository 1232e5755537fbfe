"""Notifications and correspondence play: the ``inbox`` table (a player's notices) and,
on ``tables``, ``wake_at`` and ``turn_user`` (a correspondence table waiting on a
person: when it times out, and whose move it is; docs/notifications.md).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns and their indexes, and create ``inbox``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("wake_at", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("turn_user", sa.Integer(), nullable=True))
    op.create_index("ix_tables_wake_at", "tables", ["wake_at"])
    op.create_index("ix_tables_turn_user", "tables", ["turn_user"])
    op.create_table(
        "inbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_inbox_user"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("read_at", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_inbox_user_read", "inbox", ["user_id", "read_at"])


def downgrade() -> None:
    """Drop ``inbox`` and the columns (the notices are lost)."""
    op.drop_index("ix_inbox_user_read", table_name="inbox")
    op.drop_table("inbox")
    op.drop_index("ix_tables_turn_user", table_name="tables")
    op.drop_index("ix_tables_wake_at", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turn_user")
        batch.drop_column("wake_at")
