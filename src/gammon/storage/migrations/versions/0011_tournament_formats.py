"""Swiss and arena tournaments, seeding ratings, final places (trophies): new columns of
``tournaments`` and ``entrants`` (docs/tournaments.md).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-11
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (all nullable: the tournaments before keep working)."""
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("rounds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("duration", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("ends_at", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("entrants") as batch:
        batch.add_column(sa.Column("rating", sa.Float(), nullable=True))
        batch.add_column(sa.Column("points", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("place", sa.Integer(), nullable=True))
    op.create_index("ix_entrants_place", "entrants", ["user_id", "place"])


def downgrade() -> None:
    """Drop the columns."""
    op.drop_index("ix_entrants_place", "entrants")
    with op.batch_alter_table("entrants") as batch:
        for name in ("place", "points", "rating"):
            batch.drop_column(name)
    with op.batch_alter_table("tournaments") as batch:
        for name in ("ends_at", "duration", "rounds"):
            batch.drop_column(name)
