"""Hint consent: the seats that agreed to hints in a game (docs/analysis.md).

A table of its own, like ``player_names``: agreeing never touches the rows the game's replay and
tokens depend on.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``hint_consent`` (one row per agreeing seat)."""
    op.create_table(
        "hint_consent",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_hint_consent_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_hint_consent"),
    )


def downgrade() -> None:
    """Drop the consent table."""
    op.drop_table("hint_consent")
