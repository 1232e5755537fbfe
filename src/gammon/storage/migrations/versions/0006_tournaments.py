"""Challenges and tournaments: challenges, challenge settings, tournaments, entrants, pairings.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The five tables of :mod:`gammon.storage.contest_models`."""
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "from_user",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_challenges_from"),
            nullable=False,
        ),
        sa.Column(
            "to_user",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_challenges_to"),
            nullable=False,
        ),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("answered_at", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_challenges_to_status", "challenges", ["to_user", "status"])
    op.create_index("ix_challenges_from_status", "challenges", ["from_user", "status"])
    op.create_table(
        "challenge_settings",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_challenge_settings_user"),
            primary_key=True,
        ),
        sa.Column("refuse_guests", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column(
            "created_by",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_tournaments_creator"),
            nullable=False,
        ),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.BigInteger(), nullable=True),
        sa.Column("grace", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.BigInteger(), nullable=True),
        sa.Column("finished_at", sa.BigInteger(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "created_at"])
    op.create_table(
        "entrants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_entrants_tournament"),
            nullable=False,
        ),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_entrants_user"),
            nullable=True,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("registered_at", sa.BigInteger(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
    )
    op.create_index("ux_entrants_user", "entrants", ["tournament_id", "user_id"], unique=True)
    op.create_index("ix_entrants_user", "entrants", ["user_id"])
    op.create_table(
        "pairings",
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_pairings_tournament"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("slot", sa.Integer(), primary_key=True),
        sa.Column("player0", sa.Integer(), nullable=True),
        sa.Column("player1", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("finished_at", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_pairings_table", "pairings", ["table_id"])


def downgrade() -> None:
    """Drop the five tables."""
    for name in ("pairings", "entrants", "tournaments", "challenge_settings", "challenges"):
        op.drop_table(name)
