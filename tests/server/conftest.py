"""Fixtures of the web app tests: a real ``muster serve`` process on a free port with a fresh database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import Server, backends, database_url


@pytest.fixture(scope="module", params=backends())
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module and backend (bots move without pause)."""
    tmp = tmp_path_factory.mktemp(f"server-{request.param}")
    srv = Server(database_url(request.param, tmp), tmp)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture()
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own (SQLite), for tests that kill and restart it."""
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path)
    srv.start()
    yield srv
    srv.stop()
