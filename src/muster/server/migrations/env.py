"""Alembic environment: migrations run on the connection handed over by ``muster.server.db.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from muster.server.db import Base, make_engine

config = context.config
target_metadata = Base.metadata


def run() -> None:
    """Run the migrations on the given connection, or on ``sqlalchemy.url`` when run by the alembic CLI."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    engine = make_engine(url) if url else create_engine("sqlite:///muster.db")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
