"""Accounts: people who sign up with a name and a password, their sign-in sessions, the login throttle and the
extra seat tokens an account mints to open its games on another device (docs/web.md, "Accounts").

Nothing already stored changes: every seat keeps its token and holder, so every stored game stays playable;
a guest's seats move to an account only when that guest signs up or logs in on the same browser.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``accounts``, ``account_sessions``, ``login_throttle`` and ``account_seat_tokens``."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("suspended", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_account_sessions_account_id",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id_hash", name="pk_account_sessions"),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_login_throttle"),
    )
    op.create_table(
        "account_seat_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_account_seat_tokens_account_id",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_account_seat_tokens_game_id",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_account_seat_tokens"),
    )
    op.create_index("ix_account_seat_tokens_account_id", "account_seat_tokens", ["account_id"])
    op.create_index("ix_seats_holder", "seats", ["holder"])


def downgrade() -> None:
    """Drop the account tables (seats an account held keep their ``account:<id>`` holder)."""
    op.drop_index("ix_seats_holder", table_name="seats")
    op.drop_index("ix_account_seat_tokens_account_id", table_name="account_seat_tokens")
    op.drop_table("account_seat_tokens")
    op.drop_table("login_throttle")
    op.drop_index("ix_account_sessions_account_id", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
