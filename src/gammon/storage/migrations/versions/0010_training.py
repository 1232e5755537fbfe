"""Training: the ``puzzles`` harvested from analysed matches, the players' answers
(``puzzle_attempts``) and puzzle ratings (``puzzle_players``); docs/training.md.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _users_fk(name: str) -> sa.ForeignKey:
    return sa.ForeignKey("users.id", ondelete="CASCADE", name=name)


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("owner_id", sa.Integer(), _users_fk("fk_puzzles_owner"), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("action_index", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("position_id", sa.String(64), nullable=False),
        sa.Column("xgid", sa.String(80), nullable=False),
        sa.Column("dice", sa.String(4), nullable=True),
        sa.Column("cube", sa.Text(), nullable=False),
        sa.Column("candidates", sa.Text(), nullable=False),
        sa.Column("best", sa.String(120), nullable=False),
        sa.Column("played", sa.String(120), nullable=False),
        sa.Column("error", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("key", sa.String(160), nullable=False),
        sa.UniqueConstraint("scope", "key", name="uq_puzzles_scope_key"),
    )
    op.create_index("ix_puzzles_scope_variant_rating", "puzzles", ["scope", "variant", "rating"])
    op.create_index("ix_puzzles_scope_rating", "puzzles", ["scope", "rating"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("user_id", sa.Integer(), _users_fk("fk_puzzle_attempts_user"), primary_key=True),
        sa.Column(
            "puzzle_id",
            sa.Integer(),
            sa.ForeignKey("puzzles.id", ondelete="CASCADE", name="fk_puzzle_attempts_puzzle"),
            primary_key=True,
        ),
        sa.Column("answer", sa.String(120), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("error", sa.Float(), nullable=True),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
    )
    op.create_index("ix_puzzle_attempts_user_at", "puzzle_attempts", ["user_id", "at"])
    op.create_table(
        "puzzle_players",
        sa.Column("user_id", sa.Integer(), _users_fk("fk_puzzle_players_user"), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_table("puzzle_players")
    op.drop_index("ix_puzzle_attempts_user_at", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzles_scope_rating", table_name="puzzles")
    op.drop_index("ix_puzzles_scope_variant_rating", table_name="puzzles")
    op.drop_table("puzzles")
