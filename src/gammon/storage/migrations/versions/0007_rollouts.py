"""Rollouts of single decisions of an analysed match, kept so that a second visit shows them.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The ``rollouts`` table: one row per subject (table or import) and decision."""
    op.create_table(
        "rollouts",
        sa.Column("subject", sa.String(32), primary_key=True),
        sa.Column("decision", sa.String(32), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    """Drop the table (a rollout is run again on demand)."""
    op.drop_table("rollouts")
