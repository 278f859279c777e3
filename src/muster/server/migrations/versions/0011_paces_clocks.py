"""Paces and clocks: each game's clock, and the vacation each account used (docs/web.md, "Paces and clocks").

Only new tables: a game without a row in ``game_clocks`` has pace "none" (no clock), so every stored game
stays playable exactly as before.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``game_clocks`` and ``account_vacations``."""
    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("pace", sa.String(16), nullable=False),
        sa.Column("banks", sa.Text(), nullable=False),
        sa.Column("running", sa.String(16), nullable=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("grace", sa.Float(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("flagged", sa.String(16), nullable=True),
        sa.Column("pause_asked", sa.String(16), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("rev", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_clocks_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_clocks"),
    )
    op.create_index("ix_game_clocks_deadline", "game_clocks", ["deadline"])
    op.create_index("ix_game_clocks_remind_at", "game_clocks", ["remind_at"])
    op.create_table(
        "account_vacations",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("used_days", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_account_vacations_account_id",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", "year", name="pk_account_vacations"),
    )


def downgrade() -> None:
    """Drop them (every game then has pace "none")."""
    op.drop_table("account_vacations")
    op.drop_table("game_clocks")
