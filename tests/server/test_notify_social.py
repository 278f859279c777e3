"""Notices of what happens between two people (webhooks to a real HTTP receiver): a game begins when the
other joins from the lobby, chat, resignation and a rematch offer reach the other player, never the one who
did it; a blocked person's chat notifies nobody."""

from __future__ import annotations

import secrets
import time
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from muster.server.db import NoticeRow, make_engine

from .helpers import Server, state
from .notify_support import NOTIFY_ENV, csrf, receiver, signup


def _events(bodies: list[dict[str, object]]) -> list[object]:
    return sorted(str(body["event"]) for body in bodies)


def test_join_chat_resign_and_rematch_reach_only_the_other_player(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env=NOTIFY_ENV)
    srv.start()
    engine = make_engine(srv.database_url)
    try:
        with srv.client() as alice, srv.client() as bob, receiver() as hooks:
            signup(alice)
            bob_name = signup(bob)
            for client, path in ((alice, "/alice"), (bob, "/bob")):
                saved = client.post("/api/notify/settings", json={"webhook_url": hooks.url(path),
                                                                  "webhook_format": "json"}, headers=csrf(client))
                assert saved.status_code == 200, saved.text
            posted = alice.post("/api/lobby", json={"side": "imperial"}).json()
            joined = bob.post(f"/api/lobby/{posted['post_id']}/join", json={})
            assert joined.status_code == 200, joined.text
            bob_token = joined.json()["token"]
            started = hooks.wait_for("/alice", 2)
            assert _events(started) == ["game_started", "your_turn"]  # the poster moves first
            assert bob_name in next(b for b in started if b["event"] == "game_started")["text"]
            said = bob.post(f"/api/seat/{bob_token}/chat", json={"text": "hello " + secrets.token_hex(2)})
            assert said.status_code == 201
            assert hooks.wait_for("/alice", 3)[-1]["event"] == "chat"
            assert alice.post(f"/api/seat/{posted['token']}/resign", json={}).status_code == 200
            assert state(alice, posted["token"])["outcome"]
            assert _events(hooks.wait_for("/bob", 1)) == ["resigned"]
            assert bob.post(f"/api/seat/{bob_token}/rematch", json={}).status_code == 200
            assert hooks.wait_for("/alice", 4)[-1]["event"] == "invitation"
            # everything was sent, and nothing more: nobody heard of their own doing
            deadline = time.monotonic() + 30
            while True:
                with Session(engine) as s:
                    statuses = set(s.scalars(select(NoticeRow.status)))
                if statuses == {"sent"}:
                    break
                assert time.monotonic() < deadline, statuses
                time.sleep(0.1)
            assert _events(hooks.bodies("/alice")) == ["chat", "game_started", "invitation", "your_turn"]
            assert _events(hooks.bodies("/bob")) == ["resigned"]
    finally:
        srv.stop()
        engine.dispose()


def test_a_blocked_persons_chat_notifies_nobody(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env=NOTIFY_ENV)
    srv.start()
    engine = make_engine(srv.database_url)
    try:
        with srv.client() as alice, srv.client() as bob, receiver() as hooks:
            signup(alice)
            bob_name = signup(bob)
            alice.post("/api/notify/settings", json={"webhook_url": hooks.url("/alice"), "webhook_format": "json"},
                       headers=csrf(alice))
            posted = alice.post("/api/lobby", json={"side": "insurgent"}).json()  # the joiner moves first
            bob_token = bob.post(f"/api/lobby/{posted['post_id']}/join", json={}).json()["token"]
            assert _events(hooks.wait_for("/alice", 1)) == ["game_started"]
            blocked = alice.post("/api/account/blocks", json={"name": bob_name}, headers=csrf(alice))
            assert blocked.status_code == 200, blocked.text
            assert bob.post(f"/api/seat/{bob_token}/chat", json={"text": "psst"}).status_code == 201
            with Session(engine) as s:  # written in the message's own transaction: none for alice
                assert s.scalars(select(NoticeRow.kind).where(NoticeRow.kind == "chat")).all() == []
    finally:
        srv.stop()
        engine.dispose()


