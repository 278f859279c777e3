"""Game leases: which server node runs each game's bots, for nodes that fail over (docs/hosting.md).

Several independent ``muster serve --node NAME`` instances share one PostgreSQL database. A node runs a
game's bots only while it holds the game's lease, renewing it every few seconds; when a node dies its
leases expire and another node adopts the games.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``game_leases`` (one row per leased game)."""
    op.create_table(
        "game_leases",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_leases_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_leases"),
    )
    op.create_index("ix_game_leases_node", "game_leases", ["node"])


def downgrade() -> None:
    """Drop the leases."""
    op.drop_index("ix_game_leases_node", table_name="game_leases")
    op.drop_table("game_leases")
