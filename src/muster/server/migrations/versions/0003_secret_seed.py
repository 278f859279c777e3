"""Keep each game's secret generator key: server games are dealt from a key of 2**128 or more.

``games.seed`` is a 64-bit integer, too small for such a key, so the key goes in its own column
(decimal text). Games stored before this revision have none: their ``seed`` stays their seed, and
they replay exactly as before.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.secret_seed`` (NULL for games seeded by a small integer)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("secret_seed", sa.String(200), nullable=True))


def downgrade() -> None:
    """Drop the key column."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("secret_seed")
