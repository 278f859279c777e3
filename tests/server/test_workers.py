"""Several server processes on one port (``muster serve --workers 2``): every connection sees every
change whichever process made it, bots run once, and a SIGKILL of the supervisor loses nothing."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from muster.server.store import NOTE_BYTES, pack_notes

from .helpers import (
    Server,
    act,
    backends,
    create,
    database_url,
    device_headers,
    state,
    wait_finished,
    ws_connect,
    ws_recv,
)


@pytest.fixture(params=backends())
def two_workers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server of two worker processes (SQLite: Unix datagram fan-out; PostgreSQL: LISTEN/NOTIFY)."""
    srv = Server(database_url(request.param, tmp_path), tmp_path, args=["--workers", "2"])
    srv.start()
    yield srv
    srv.stop()


def test_every_connection_of_the_acting_seat_sees_every_change(two_workers: Server) -> None:
    with two_workers.client() as c:
        made = create(c, imperial="human", insurgent="human")
        tokens = made["tokens"]
        # several sockets per seat: the kernel shares them out over both processes
        with contextlib.ExitStack() as stack:
            sockets = [(seat, stack.enter_context(ws_connect(two_workers.ws_url, token)))
                       for seat, token in tokens.items() for _ in range(4)]
            for _, ws in sockets:
                assert ws_recv(ws, "state")["version"] == 0
            for k in range(15):  # each action over HTTP, so it is taken by either process
                token = tokens["imperial"] if state(c, tokens["imperial"])["legal"] else tokens["insurgent"]
                st = state(c, token)
                response = act(c, token, st["version"], st["legal"][k % len(st["legal"])]["action"])
                assert response.status_code == 200, response.text
                actor = next(s for s, t in tokens.items() if t == token)
                for seat, ws in sockets:
                    if seat != actor:
                        continue  # the other seat sees the turn once it is committed (docs/web.md, "Undo")
                    pushed = ws_recv(ws, "state", timeout=10)
                    while pushed["version"] < k + 1:  # commits shown while this seat was waiting
                        pushed = ws_recv(ws, "state", timeout=10)
                    assert pushed["version"] == k + 1 and pushed["seat"] == seat


def test_a_bot_game_finishes_and_watchers_see_the_end(two_workers: Server) -> None:
    with two_workers.client() as c:
        made = create(c, imperial="beginner", insurgent="beginner", seed=32)
        status = wait_finished(c, made["game_id"], timeout=120)
        assert status["status"] == "finished"
        log = two_workers.log()
        assert "refused" not in log and "Traceback" not in log


def test_sigkill_of_the_supervisor_loses_nothing(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, args=["--workers", "2"])
    srv.start()
    try:
        with srv.client() as c:
            made = create(c, imperial="human", insurgent="human")
            imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
            for k in range(10):
                token = imp if state(c, imp)["legal"] else ins
                st = state(c, token)
                assert act(c, token, st["version"], st["legal"][k % len(st["legal"])]["action"]).status_code == 200
            before = state(c, imp)
        srv.kill()  # the workers die with it (PR_SET_PDEATHSIG), so the port is free again
        srv.start()
        with srv.client() as c:
            after = state(c, imp)
            assert (after["version"], after["view"]) == (before["version"], before["view"])
    finally:
        srv.stop()


def test_a_new_player_name_reaches_every_connection(two_workers: Server) -> None:
    with two_workers.client() as c:
        made = create(c, imperial="human", insurgent="human")
    imp, ins = made["tokens"]["imperial"], made["tokens"]["insurgent"]
    with ws_connect(two_workers.ws_url, imp) as ws:
        ws_recv(ws, "state")
        for k in range(6):  # a fresh connection each time: the name reaches either process
            with two_workers.client() as c:
                assert c.post(f"/api/seat/{ins}/name", json={"name": f"Botsaris {k}"},
                              headers=device_headers(ins)).status_code == 200
            while (pushed := ws_recv(ws, "state", timeout=10))["seats"]["insurgent"]["name"] != f"Botsaris {k}":
                pass  # an earlier push may still be on its way
            assert pushed["seats"]["insurgent"]["name"] == f"Botsaris {k}"


def test_notifications_of_one_commit_are_packed_in_order_under_the_payload_limit() -> None:
    notes = [("muster_changes", orjson.dumps([f"g{k}", k, "act", ["imperial", ["move", k]], False, "s"]).decode())
             for k in range(300)]
    packed = pack_notes(notes)
    assert 1 < len(packed) < 10 and all(len(payload.encode()) < NOTE_BYTES for _, payload in packed)
    assert [change for _, payload in packed for change in orjson.loads(payload)] == [
        orjson.loads(payload) for _, payload in notes]
