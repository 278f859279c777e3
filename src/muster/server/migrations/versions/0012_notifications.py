"""Notifications: the outbox of notices, each person's notification settings, the server's own keys, and
whether an account's e-mail address is verified (docs/web.md, "Notifications").

Only new tables and one new column with a default: every stored game and account stays as it was.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the notice outbox, the settings and the key tables; mark every account's address unverified."""
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("dedup", sa.String(200), nullable=True),
        sa.Column("recipient", sa.String(120), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.String(16), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("digest", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.BigInteger(), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.BigInteger(), nullable=False),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_notices"),
        sa.UniqueConstraint("dedup", name="uq_notices_dedup"),
    )
    for column in ("recipient", "game_id", "status", "next_at"):
        op.create_index(f"ix_notices_{column}", "notices", [column])
    op.create_table(
        "notify_settings",
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("events", sa.Text(), nullable=False),
        sa.Column("digest", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_verified", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("webhook_url", sa.String(500), nullable=True),
        sa.Column("webhook_format", sa.String(16), nullable=False),
        sa.Column("webhook_failures", sa.Integer(), nullable=False),
        sa.Column("webhook_error", sa.String(300), nullable=True),
        sa.Column("push", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner", name="pk_notify_settings"),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_server_keys"),
    )
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email_verified", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("email_verified")
    op.drop_table("server_keys")
    op.drop_table("notify_settings")
    for column in ("recipient", "game_id", "status", "next_at"):
        op.drop_index(f"ix_notices_{column}", "notices")
    op.drop_table("notices")
