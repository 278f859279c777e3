"""Player names per seat, shown to the opponent.

A separate small table (not a column of ``seats``) so that naming a seat never touches the rows
the game's replay and tokens depend on.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``player_names`` (one row per named seat)."""
    op.create_table(
        "player_names",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_player_names_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_player_names"),
    )


def downgrade() -> None:
    """Drop the names."""
    op.drop_table("player_names")
