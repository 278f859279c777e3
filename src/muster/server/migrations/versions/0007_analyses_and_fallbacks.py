"""Stored post-game analyses and the bots' random fallback moves (docs/analysis.md, docs/security.md).

``analyses`` holds each finished game's analysis once it is computed (and its progress while it is), so
it is worked out once per game, by an analysis worker process, and served from the database afterwards.
``bot_fallbacks`` records each move a bot could not choose in time and that was played at random for it,
so the game's players are told, also after a restart.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``analyses`` and ``bot_fallbacks``."""
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("method", sa.String(40), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_analyses_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name="pk_analyses"),
    )
    op.create_table(
        "bot_fallbacks",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("log_at", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_bot_fallbacks_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_bot_fallbacks"),
    )
    op.create_index("ix_bot_fallbacks_game_id", "bot_fallbacks", ["game_id"])


def downgrade() -> None:
    """Drop both tables."""
    op.drop_index("ix_bot_fallbacks_game_id", table_name="bot_fallbacks")
    op.drop_table("bot_fallbacks")
    op.drop_table("analyses")
