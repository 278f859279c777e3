"""The lobby, resignations, rematches, chat, block lists, ratings and presence (docs/web.md, "The lobby",
"Resign and rematch", "Chat", "Ratings").

Only new tables: nothing already stored changes, so every stored game stays playable (a game without a row
in ``game_endings`` is played out by its rules, as before).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=f"fk_{table}_game_id", ondelete="CASCADE")


def _account_fk(table: str, column: str = "account_id") -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ["accounts.id"], name=f"fk_{table}_{column}", ondelete="CASCADE")


def upgrade() -> None:
    """Create the tables of the lobby, endings, rematches, chat, blocks, ratings and presence."""
    op.create_table(
        "game_endings",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("game_endings"),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_endings"),
    )
    op.create_table(
        "lobby_posts",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False),
        sa.Column("poster", sa.String(80), nullable=False),
        sa.Column("poster_name", sa.String(40), nullable=False),
        sa.Column("address", sa.String(60), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("lobby_posts"),
        sa.PrimaryKeyConstraint("id", name="pk_lobby_posts"),
    )
    for column in ("game_id", "poster", "address", "expires_at"):
        op.create_index(f"ix_lobby_posts_{column}", "lobby_posts", [column])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=True),
        _game_fk("rated_games"),
        sa.PrimaryKeyConstraint("game_id", name="pk_rated_games"),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("side", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _account_fk("ratings"),
        sa.PrimaryKeyConstraint("account_id", "game", "side", name="pk_ratings"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(16), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        _game_fk("rating_changes"),
        _account_fk("rating_changes"),
        sa.PrimaryKeyConstraint("id", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_game_id", "rating_changes", ["game_id"])
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("offered_by", sa.String(16), nullable=False),
        sa.Column("new_game_id", sa.String(32), nullable=True),
        sa.Column("invites", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("rematches"),
        sa.PrimaryKeyConstraint("game_id", name="pk_rematches"),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("chat_messages"),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    op.create_table(
        "account_blocks",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("blocked_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _account_fk("account_blocks"),
        _account_fk("account_blocks", "blocked_id"),
        sa.PrimaryKeyConstraint("account_id", "blocked_id", name="pk_account_blocks"),
    )
    op.create_table(
        "seat_presence",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("seat_presence"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seat_presence"),
    )


def downgrade() -> None:
    """Drop them again (a resigned game then reads as unfinished)."""
    for table in ("seat_presence", "account_blocks", "chat_messages", "rematches", "rating_changes", "ratings",
                  "rated_games", "lobby_posts", "game_endings"):
        op.drop_table(table)
