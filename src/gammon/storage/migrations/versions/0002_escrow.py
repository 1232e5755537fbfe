"""Escrow: the part of a balance held for the staked tables a user sits at.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``users.held`` (what the user's staked tables hold) and ``ledger.held`` (after each line)."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("held", sa.BigInteger(), nullable=False, server_default="0"))
    with op.batch_alter_table("ledger") as batch:
        batch.add_column(sa.Column("held", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop the two columns."""
    with op.batch_alter_table("ledger") as batch:
        batch.drop_column("held")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("held")
