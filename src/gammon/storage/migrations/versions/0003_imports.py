"""Imported matches: the match files players upload, kept as their records.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The ``imports`` table and its index by owner and upload time."""
    op.create_table(
        "imports",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "owner_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_imports_owner"),
            nullable=False,
        ),
        sa.Column("file_name", sa.String(100), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("uploaded_at", sa.BigInteger(), nullable=False),
        sa.Column("log", sa.Text(), nullable=False),
        sa.Column("warnings", sa.Text(), nullable=False),
        sa.Column("unchecked", sa.Text(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
    )
    op.create_index("ix_imports_owner_uploaded", "imports", ["owner_id", "uploaded_at"])


def downgrade() -> None:
    """Drop the table (every imported match is lost)."""
    op.drop_index("ix_imports_owner_uploaded", table_name="imports")
    op.drop_table("imports")
