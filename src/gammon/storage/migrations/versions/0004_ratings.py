"""Ratings: finished matches (results), each player's list of them and totals, ratings per
pool and every rating change.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _user(name: str, constraint: str, *, primary: bool = False) -> sa.Column[int]:
    ondelete = "SET NULL" if constraint.startswith("fk_results") else "CASCADE"
    return sa.Column(
        name,
        sa.Integer(),
        sa.ForeignKey("users.id", ondelete=ondelete, name=constraint),
        primary_key=primary,
        nullable=not primary and ondelete == "SET NULL",
    )


def upgrade() -> None:
    """Create results, history, player_records, ratings and rating_changes, with indexes."""
    op.create_table(
        "results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=False),
        _user("user0", "fk_results_user0"),
        _user("user1", "fk_results_user1"),
        sa.Column("name0", sa.String(40), nullable=False),
        sa.Column("name1", sa.String(40), nullable=False),
        sa.Column("kind0", sa.String(8), nullable=False),
        sa.Column("kind1", sa.String(8), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("score0", sa.Integer(), nullable=False),
        sa.Column("score1", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("ended_at", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("error0", sa.Float(), nullable=True),
        sa.Column("error1", sa.Float(), nullable=True),
        sa.UniqueConstraint("table_id", name="uq_results_table"),
    )
    op.create_table(
        "history",
        _user("user_id", "fk_history_user", primary=True),
        sa.Column("ended_at", sa.BigInteger(), primary_key=True),
        sa.Column(
            "result_id",
            sa.Integer(),
            sa.ForeignKey("results.id", ondelete="CASCADE", name="fk_history_result"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(8), nullable=False),
    )
    for name, column in (
        ("ix_history_variant", "variant"),
        ("ix_history_opponent", "opponent_id"),
        ("ix_history_outcome", "outcome"),
    ):
        op.create_index(name, "history", ["user_id", column, "ended_at", "result_id"])
    op.create_table(
        "player_records",
        _user("user_id", "fk_player_records_user", primary=True),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("others", sa.Integer(), nullable=False),
        sa.Column("analysed", sa.Integer(), nullable=False),
        sa.Column("error_sum", sa.Float(), nullable=False),
    )
    op.create_table(
        "ratings",
        _user("user_id", "fk_ratings_user", primary=True),
        sa.Column("pool", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_ratings_pool_rating", "ratings", ["pool", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_rating_changes_user"),
            nullable=False,
        ),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.UniqueConstraint("table_id", "user_id", name="uq_rating_changes_table_user"),
    )
    op.create_index(
        "ix_rating_changes_user_pool_at", "rating_changes", ["user_id", "pool", "at", "id"]
    )


def downgrade() -> None:
    """Drop the five tables."""
    op.drop_index("ix_rating_changes_user_pool_at", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_pool_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("player_records")
    for name in ("ix_history_outcome", "ix_history_opponent", "ix_history_variant"):
        op.drop_index(name, table_name="history")
    op.drop_table("history")
    op.drop_table("results")
