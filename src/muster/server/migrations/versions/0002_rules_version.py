"""Stamp every game with the rules version that recorded it.

A game is stored as its seed, options and action list, and rebuilt by replaying them; under rules
that have changed since, the replay could fail or, worse, reach a position the players never saw.
Games stored before this revision were all recorded by the rules below, the last ones without a
stamp (the first game's data files: board 1, areas 1, cards 2, design 1).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

UNSTAMPED = "r1-board1-areas1-cards2-design1"
"""The rules version of every game stored before this revision."""


def upgrade() -> None:
    """Add ``games.rules_version``; existing rows get the version that recorded them."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rules_version", sa.String(80), nullable=False, server_default=UNSTAMPED))
    with op.batch_alter_table("games") as batch:
        batch.alter_column("rules_version", server_default=None)  # new games always name their rules


def downgrade() -> None:
    """Drop the stamp."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rules_version")
