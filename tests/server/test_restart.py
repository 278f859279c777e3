"""Games survive the server being killed (SIGKILL) mid-game: every acknowledged action was stored."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from muster.server.db import make_engine

from .helpers import Server, act, create, state


def test_sigkill_mid_game_loses_nothing(fresh_server: Server) -> None:
    with fresh_server.client() as c:
        made = create(c, imperial="human", insurgent="human")
        imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
        for k in range(12):  # take turns: whichever seat is to act takes a legal choice
            token = imp if state(c, imp)["legal"] else ins
            st = state(c, token)
            assert act(c, token, st["version"], st["legal"][k % len(st["legal"])]["action"]).status_code == 200
        before = state(c, imp)
    fresh_server.kill()
    fresh_server.start()
    with fresh_server.client() as c:
        after = state(c, imp)
        assert (after["version"], after["step"], after["view"], after["log"]) == (
            before["version"], before["step"], before["view"], before["log"])
        token = imp if after["legal"] else ins
        response = act(c, token, after["version"], state(c, token)["legal"][0]["action"])
        assert response.status_code == 200, response.text
        assert state(c, imp)["step"] == before["step"] + 1


def test_a_waiting_bot_resumes_after_a_restart(fresh_server: Server) -> None:
    with fresh_server.client() as c:
        made = create(c, imperial="beginner", insurgent="human", seed=4, bot_delay_ms=1000)
        token = made["tokens"]["insurgent"]
        assert state(c, token)["step"] == 0
    fresh_server.kill()  # the bot had not moved yet
    fresh_server.start()
    with fresh_server.client() as c:
        deadline = time.monotonic() + 30
        while state(c, token)["step"] == 0:  # the bot's first move after the restart
            assert time.monotonic() < deadline, "the bot did not resume"
            time.sleep(0.05)
        assert c.get(f"/api/games/{made['game_id']}/status").json()["players"]["imperial"] == "random"


def test_sigkill_loses_nothing_with_sqlite_sync_normal(tmp_path: Path) -> None:
    """``--sqlite-sync normal`` skips the fsync per commit: a killed server process still loses no
    acknowledged action (the committed log is in the operating system's hands; only an OS crash or a
    power cut could lose the last commits, docs/web.md)."""
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, args=["--sqlite-sync", "normal"])
    srv.start()
    try:
        with srv.client() as c:
            made = create(c, imperial="human", insurgent="human")
            imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
            for k in range(12):
                token = imp if state(c, imp)["legal"] else ins
                st = state(c, token)
                assert act(c, token, st["version"], st["legal"][k % len(st["legal"])]["action"]).status_code == 200
            before = state(c, imp)
        srv.kill()
        srv.start()
        with srv.client() as c:
            after = state(c, imp)
            assert (after["version"], after["view"], after["log"]) == (before["version"], before["view"], before["log"])
    finally:
        srv.stop()


def test_the_sqlite_sync_level_is_applied_and_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MUSTER_SQLITE_SYNC", "normal")
    engine = make_engine(f"sqlite:///{tmp_path / 'a.db'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    engine.dispose()
    monkeypatch.delenv("MUSTER_SQLITE_SYNC")
    engine = make_engine(f"sqlite:///{tmp_path / 'b.db'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL, the default
    engine.dispose()
    monkeypatch.setenv("MUSTER_SQLITE_SYNC", "off")
    with pytest.raises(ValueError, match="full, normal"):
        make_engine(f"sqlite:///{tmp_path / 'c.db'}")
