"""The shipped Alembic migrations build exactly the schema the models describe, and re-running them is harmless."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from typer.testing import CliRunner

from muster.cli.main import app
from muster.server.db import Base, make_engine, migrate

from .helpers import backends, database_url


@pytest.mark.parametrize("backend", backends())
def test_migrations_match_the_models_and_are_idempotent(backend: str, tmp_path: Path) -> None:
    engine = make_engine(database_url(backend, tmp_path))
    migrate(engine)
    migrate(engine)  # every start runs them: the second time does nothing
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        if backend == "sqlite":
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL: durable commits
    engine.dispose()


def test_serve_offers_host_port_and_database_url() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database-url", "--bot-delay-ms", "127.0.0.1", "8000", "muster.db"):
        assert option in result.output


def test_serve_refuses_a_database_it_cannot_open(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'no-such-dir' / 'x.db'}"
    result = CliRunner().invoke(app, ["serve", "--database-url", url])
    assert result.exit_code == 2
    assert "cannot open the database" in result.output + getattr(result, "stderr", "")
