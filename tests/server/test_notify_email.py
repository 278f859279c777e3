"""E-mail notices through a real SMTP server process (aiosmtpd): address verification, exactly one "your
turn" per turn and none for one's own moves, one-click unsubscribe, the digest, and pending notices
sent once after ``kill -9`` and a restart."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from muster.server.db import NoticeRow, make_engine

from .helpers import Server, act, backends, create, database_url, state, wait_for_turn
from .notify_support import NOTIFY_ENV, SmtpServer, csrf, link_in, receiver, signup, text_of


@pytest.fixture
def smtp(tmp_path: Path) -> Iterator[SmtpServer]:
    """A real SMTP server process for one test."""
    found = SmtpServer(tmp_path)
    yield found
    found.stop()


def start_server(url: str, tmp_path: Path, smtp: SmtpServer, **env: str) -> Server:
    """A muster server sending mail through ``smtp``, its links pointing at itself."""
    srv = Server(url, tmp_path, env={**NOTIFY_ENV, **smtp.env(), **env})
    srv.env["MUSTER_PUBLIC_URL"] = srv.url
    srv.start()
    return srv


def verified_account(c: httpx.Client, smtp: SmtpServer) -> str:
    """Sign up with an address and open the link of the verification e-mail; the address."""
    address = f"{secrets.token_hex(4)}@example.org"
    signup(c, address)
    mail = smtp.wait_for(1, lambda m: m["To"] == address)[0]
    assert "List-Unsubscribe" not in mail  # an answer to one's own request, not a notice
    page = c.get(link_in(mail, "/notify/verify/"))
    assert page.status_code == 200
    assert c.get("/api/notify/settings").json()["email_verified"] is True
    return address


def turn_mails(smtp: SmtpServer, address: str) -> list[Any]:
    return [m for m in smtp.messages() if m["To"] == address and str(m["Subject"]).startswith("Your turn")]


def play_one_turn(c: httpx.Client, token: str, st: dict[str, Any]) -> None:
    """Act until the turn passes to the bot (another version than our own last one, or no choices)."""
    while True:
        answer = act(c, token, st["version"], st["legal"][0]["action"])
        assert answer.status_code == 200, answer.text
        st = state(c, token)
        if st["version"] != answer.json()["version"] or not st["legal"] or st["outcome"]:
            return


@pytest.mark.parametrize("backend", backends())
def test_one_turn_notice_per_turn_none_for_own_moves_and_none_after_unsubscribe(
        backend: str, tmp_path: Path, smtp: SmtpServer) -> None:
    srv = start_server(database_url(backend, tmp_path), tmp_path, smtp)
    try:
        with srv.client() as c, receiver() as hooks:
            address = verified_account(c, smtp)
            made = create(c, imperial="beginner", insurgent="human", seed=4)
            token = made["tokens"]["insurgent"]
            for turn in range(1, 4):
                st = wait_for_turn(c, token)
                mails = smtp.wait_for(turn, lambda m: m["To"] == address and "Your turn" in str(m["Subject"]))
                assert len(mails) == turn  # one per turn: none for our own moves in between
                assert made["game_id"] in str(mails[-1]["Subject"])
                play_one_turn(c, token, st)
            st = wait_for_turn(c, token)
            mail = smtp.wait_for(4, lambda m: m["To"] == address and "Your turn" in str(m["Subject"]))[-1]
            assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            unsubscribe = str(mail["List-Unsubscribe"]).strip("<>")
            assert unsubscribe in text_of(mail)
            assert "/account" in text_of(mail)  # the account's games, on any device
            # one click, as a mail program sends it (RFC 8058)
            assert httpx.post(unsubscribe, data={"List-Unsubscribe": "One-Click"}).status_code == 200
            assert c.get("/api/notify/settings").json()["events"]["email"] == []
            # a webhook on the same account shows when the next notices went out: none by e-mail
            saved = c.post("/api/notify/settings", json={"webhook_url": hooks.url("/hook"), "webhook_format": "slack"},
                           headers=csrf(c))
            assert saved.status_code == 200, saved.text
            play_one_turn(c, token, st)
            wait_for_turn(c, token)
            assert "Your turn" in hooks.wait_for("/hook", 1)[0]["text"]
            play_one_turn(c, token, state(c, token))
            wait_for_turn(c, token)
            hooks.wait_for("/hook", 2)
            assert len(turn_mails(smtp, address)) == 4
    finally:
        srv.stop()


def test_digest_gathers_notices_into_one_mail(tmp_path: Path, smtp: SmtpServer) -> None:
    srv = start_server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, smtp, MUSTER_NOTIFY_DIGEST_S="15")
    try:
        with srv.client() as c:
            address = verified_account(c, smtp)
            assert c.post("/api/notify/settings", json={"digest": True}, headers=csrf(c)).status_code == 200
            games = [create(c, imperial="beginner", insurgent="human", seed=4) for _ in range(2)]
            for made in games:
                wait_for_turn(c, made["tokens"]["insurgent"])
            digest = smtp.wait_for(2, lambda m: m["To"] == address)[1]  # the first is the verification
            assert str(digest["Subject"]) == "muster: 2 notices"
            body = text_of(digest)
            assert all(made["game_id"] in body for made in games)  # both turns, in one e-mail
            assert digest["List-Unsubscribe"]
            assert len(smtp.messages()) == 2
    finally:
        srv.stop()


def test_pending_notices_are_sent_once_after_kill_9(tmp_path: Path, smtp: SmtpServer) -> None:
    url = f"sqlite:///{tmp_path / 'muster.db'}"
    # "your turn" waits 3 s: the server is killed while the notice waits in the outbox
    srv = start_server(url, tmp_path, smtp, MUSTER_NOTIFY_TURN_DELAY_S="3")
    engine = make_engine(url)
    try:
        with srv.client() as c:
            address = verified_account(c, smtp)
            made = create(c, imperial="beginner", insurgent="human", seed=4)
            wait_for_turn(c, made["tokens"]["insurgent"])
            deadline = time.monotonic() + 30
            while True:
                with Session(engine) as s:
                    pending = s.scalars(select(NoticeRow).where(NoticeRow.kind == "your_turn")).all()
                if pending:
                    break
                assert time.monotonic() < deadline, "the notice was never queued"
                time.sleep(0.05)
            assert [n.status for n in pending] == ["pending"]
        srv.kill()
        assert turn_mails(smtp, address) == []
        srv.start()
        smtp.wait_for(1, lambda m: m["To"] == address and "Your turn" in str(m["Subject"]))
        deadline = time.monotonic() + 30
        while True:  # sent is marked after the mail server took it: from then on none can follow
            with Session(engine) as s:
                statuses = [n.status for n in s.scalars(select(NoticeRow).where(NoticeRow.kind == "your_turn"))]
            if statuses == ["sent"]:
                break
            assert time.monotonic() < deadline, statuses
            time.sleep(0.05)
        assert len(turn_mails(smtp, address)) == 1
    finally:
        srv.stop()
        engine.dispose()
