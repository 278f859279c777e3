"""The shipped Alembic migrations build exactly the schema the models describe, and re-running them is harmless."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from typer.testing import CliRunner

from muster.cli.main import app
from muster.server.db import MIGRATIONS, Base, make_engine, migrate

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


@pytest.mark.parametrize("backend", backends())
def test_games_stored_before_rules_versions_get_the_version_that_recorded_them(backend: str, tmp_path: Path) -> None:
    engine = make_engine(database_url(backend, tmp_path))
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:  # a database left by a release before revision 0002, holding one game
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.exec_driver_sql(
            "INSERT INTO games (id, game, seed, options, version, steps, status, bot_delay_ms, created_at, updated_at)"
            " VALUES ('old', 'freedom', 1, '{}', 0, 0, 'active', 0, '2026-11-20', '2026-11-20')")
    migrate(engine)
    with engine.connect() as conn:
        stamp = conn.exec_driver_sql("SELECT rules_version FROM games WHERE id = 'old'").scalar()
        assert stamp == "r1-board1-areas1-cards2-design1"
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
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
