"""Finished match analyses, kept so that a second visit is instant (and survives a restart).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The ``analyses`` table: one row per analysed subject (table or import) and level."""
    op.create_table(
        "analyses",
        sa.Column("subject", sa.String(32), primary_key=True),
        sa.Column("level", sa.String(16), primary_key=True),
        sa.Column("schema", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    """Drop the table (the analyses are computed again on demand)."""
    op.drop_table("analyses")
