"""Initial schema: games, seats, actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("active_seat", sa.String(16), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner", sa.String(16), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("bot_delay_ms", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot_spec", sa.String(200), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_seats_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_seats"),
        sa.UniqueConstraint("game_id", "seat", name="uq_seats_game_id"),
        sa.UniqueConstraint("token_hash", name="uq_seats_token_hash"),
    )
    op.create_index("ix_seats_game_id", "seats", ["game_id"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_actions_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "step", name="pk_actions"),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("actions")
    op.drop_index("ix_seats_game_id", table_name="seats")
    op.drop_table("seats")
    op.drop_table("games")
