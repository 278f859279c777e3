"""Fixtures of the web app tests: a real ``muster serve`` process on a free port with a fresh database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import ARGS, CHROMIUM, Server, backends, database_url, secrets_in_log


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


@pytest.fixture(scope="module")
def web(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One SQLite server per browser test module (bots move without pause); once the module is done, its log must
    hold no seat token, invitation code or device session uncut."""
    tmp = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    srv = Server(f"sqlite:///{tmp / 'muster.db'}", tmp)
    srv.start()
    yield srv
    srv.stop()
    assert secrets_in_log(srv) == []


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, launched by its path (no browser is downloaded)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()
