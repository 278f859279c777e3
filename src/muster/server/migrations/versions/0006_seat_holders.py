"""Seats that belong to their players: who holds each seat, and one-use invitations.

A person's seat is bound to its holder (a device session today, an account once accounts exist):
the seat token alone no longer opens it. A seat waiting for its player has no token yet, only the
hash of a one-use invitation; claiming the invitation issues the seat token and forgets the invitation.
Seats stored before this revision keep their tokens and have no holder: the first device to use such
a token becomes its holder (docs/security.md, "Seats and credentials").

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``holder`` and ``invite_hash`` to ``seats``."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("holder", sa.String(80), nullable=True))
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_seats_invite_hash", ["invite_hash"])


def downgrade() -> None:
    """Drop them (seats go back to bearer tokens)."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("uq_seats_invite_hash", type_="unique")
        batch.drop_column("invite_hash")
        batch.drop_column("holder")
