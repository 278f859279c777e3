"""Webhook notices delivered to a real HTTP receiver started by the test: Discord/Slack JSON, retries with
back-off, disabling after repeated failures without delaying the game, per-seat webhooks for guests, SSRF
refusals, and two server processes never sending one notice twice."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from muster.server import notify
from muster.server.db import NoticeRow, NotifySettingsRow, make_engine, migrate, utcnow
from muster.server.notify.senders import check_webhook_host
from muster.server.settings import reload

from .helpers import Server, backends, create, database_url, device_headers, wait_for_turn
from .notify_support import NOTIFY_ENV, SmtpServer, csrf, link_in, receiver, signup
from .test_notify_email import play_one_turn


def human_first(c: httpx.Client) -> tuple[dict[str, Any], str]:
    """A game where the person moves first (so nothing is sent before the test sets up its webhook)."""
    made = create(c, imperial="human", insurgent="beginner", seed=4)
    return made, made["tokens"]["imperial"]


def test_a_guest_seat_webhook_is_retried_after_a_failure_and_delivered_once(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env=NOTIFY_ENV)
    srv.start()
    try:
        with srv.client() as c, receiver() as hooks:
            made, token = human_first(c)
            hooks.statuses["/flaky"] = [500]  # the first try fails, the next succeeds
            saved = c.post(f"/api/seat/{token}/notify", json={"webhook_url": hooks.url("/flaky")},
                           headers=device_headers(token))
            assert saved.status_code == 200, saved.text
            assert saved.json()["webhook_url"] == hooks.url("/flaky")
            play_one_turn(c, token, wait_for_turn(c, token))
            st = wait_for_turn(c, token)
            first, again = hooks.wait_for("/flaky", 2)
            assert first == again  # the same notice, tried twice
            assert "Your turn" in first["content"] and made["game_id"] in first["content"]  # Discord's field
            assert first["allowed_mentions"] == {"parse": []}
            play_one_turn(c, token, st)
            wait_for_turn(c, token)
            assert len(hooks.wait_for("/flaky", 3)) == 3  # the next turn: one delivery
            shown = c.get(f"/api/seat/{token}/notify", headers=device_headers(token)).json()
            assert shown["webhook_error"] is None
            # another device (no device session of this seat) cannot read or change the seat's settings
            with httpx.Client(base_url=srv.url) as stranger:
                assert stranger.get(f"/api/seat/{token}/notify").status_code in (403, 404)
    finally:
        srv.stop()


def test_a_failing_webhook_is_disabled_and_never_delays_a_move(tmp_path: Path) -> None:
    smtp = SmtpServer(tmp_path)
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env={**NOTIFY_ENV, **smtp.env()})
    srv.env["MUSTER_PUBLIC_URL"] = srv.url
    srv.start()
    try:
        with srv.client() as c, receiver() as hooks:
            address = "w@example.org"
            signup(c, address)
            # e-mail too: its notices show when a turn's notices went out
            c.get(link_in(smtp.wait_for(1)[0], "/notify/verify/"))
            hooks.always["/down"] = 500
            hooks.hold["/down"] = held = threading.Event()  # the first try hangs until released
            saved = c.post("/api/notify/settings", json={"webhook_url": hooks.url("/down")}, headers=csrf(c))
            assert saved.status_code == 200, saved.text
            _, token = human_first(c)
            play_one_turn(c, token, wait_for_turn(c, token))
            st = wait_for_turn(c, token)
            assert hooks.arrived.wait(60)  # the webhook is being called, and hangs
            play_one_turn(c, token, st)  # moves are acknowledged meanwhile
            st = wait_for_turn(c, token)
            assert hooks.received and not held.is_set()
            held.set()
            hooks.wait_for("/down", 3)  # NOTIFY_ENV: three tries
            deadline = time.monotonic() + 60
            while (shown := c.get("/api/notify/settings").json())["webhook_error"] is None:
                assert time.monotonic() < deadline, "the webhook was never disabled"
                time.sleep(0.1)
            assert "500" in shown["webhook_error"]
            tries = len(hooks.bodies("/down"))
            mails = len(smtp.wait_for(1, lambda m: "Your turn" in str(m["Subject"])))
            play_one_turn(c, token, st)
            wait_for_turn(c, token)
            smtp.wait_for(mails + 1, lambda m: "Your turn" in str(m["Subject"]))  # this turn's notices went out
            assert len(hooks.bodies("/down")) == tries  # none to the disabled webhook
            # saving it again turns it back on
            hooks.always["/down"] = 200
            again = c.post("/api/notify/settings", json={"webhook_url": hooks.url("/down")}, headers=csrf(c))
            assert again.json()["webhook_error"] is None
    finally:
        srv.stop()
        smtp.stop()


@pytest.mark.parametrize("backend", backends())
def test_two_server_processes_never_send_one_notice_twice(backend: str, tmp_path: Path) -> None:
    url = database_url(backend, tmp_path)
    engine = make_engine(url)
    migrate(engine)
    servers = [Server(url, tmp_path / str(i), env=NOTIFY_ENV) for i in range(2)]
    with receiver() as hooks:
        with Session(engine) as s, s.begin():
            s.add(NotifySettingsRow(owner="account:0", events="{}", digest=False, lang="en", email_verified=False,
                                    webhook_url=hooks.url("/many"), webhook_format="json", webhook_failures=0,
                                    updated_at=utcnow()))
        try:
            for i, srv in enumerate(servers):
                (tmp_path / str(i)).mkdir()
                srv.start()
            for _ in range(4):  # in bursts, while both processes poll
                with Session(engine) as s, s.begin():
                    for _ in range(25):
                        notify.enqueue(s, "test", None, None, owner="account:0", target=("webhook", hooks.url("/many")))
                time.sleep(0.1)
            bodies = hooks.wait_for("/many", 100)
            deadline = time.monotonic() + 60
            while True:
                with Session(engine) as s:
                    statuses = set(s.scalars(select(NoticeRow.status)))
                if statuses == {"sent"}:
                    break
                assert time.monotonic() < deadline, statuses
                time.sleep(0.1)
            ids = [body["id"] for body in hooks.bodies("/many")]
            assert len(ids) == 100 and len(set(ids)) == 100, bodies[:3]
        finally:
            for srv in servers:
                srv.stop()
            engine.dispose()


def test_webhooks_to_private_addresses_are_refused_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", raising=False)
    reload()
    try:
        for url in ("http://127.0.0.1:9/x", "http://10.1.2.3/x", "http://[::1]/x", "http://169.254.169.254/latest",
                    "http://localhost/x", "http://[::ffff:127.0.0.1]/x"):
            assert asyncio.run(check_webhook_host(url)) is not None, url
        for url in ("ftp://example.org/x", "http://user:pw@example.org/x", "notaurl"):
            assert asyncio.run(check_webhook_host(url)) is not None, url
        monkeypatch.setenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", "true")
        reload()
        assert asyncio.run(check_webhook_host("http://127.0.0.1:9/x")) is None
    finally:
        monkeypatch.delenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", raising=False)
        reload()


def test_the_settings_endpoint_refuses_a_private_webhook_by_default(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path)
    srv.start()
    try:
        with srv.client() as c:
            signup(c)
            refused = c.post("/api/notify/settings", json={"webhook_url": "http://127.0.0.1:1/hook"}, headers=csrf(c))
            assert refused.status_code == 400 and refused.json()["code"] == "bad_webhook"
            assert c.post("/api/notify/settings", json={"digest": True}).status_code == 403  # no CSRF token
            bad = c.post("/api/notify/settings", json={"events": {"email": ["nope"]}}, headers=csrf(c))
            assert bad.status_code == 400
            assert json.loads(c.get("/api/notify/settings").text)["digest"] is False
    finally:
        srv.stop()




def test_a_turn_whose_notice_was_lost_in_a_crash_is_announced_once_after_the_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'muster.db'}"
    srv = Server(url, tmp_path, env=NOTIFY_ENV)
    srv.start()
    engine = make_engine(url)
    try:
        with srv.client() as c, receiver() as hooks:
            made, token = human_first(c)
            c.post(f"/api/seat/{token}/notify", json={"webhook_url": hooks.url("/turn")}, headers=device_headers(token))
            play_one_turn(c, token, wait_for_turn(c, token))
            wait_for_turn(c, token)
            hooks.wait_for("/turn", 1)
            srv.kill()
            with Session(engine) as s, s.begin():  # as if the process died between the move and its notice
                s.query(NoticeRow).delete()
            srv.start()  # the sweep runs before the server answers
            assert made["game_id"] in hooks.wait_for("/turn", 2)[1]["content"]
            srv.stop()
            srv.start()  # and again: the turn was announced, its key is taken
            with Session(engine) as s:
                assert len(s.scalars(select(NoticeRow)).all()) == 1
            assert len(hooks.bodies("/turn")) == 2
    finally:
        srv.stop()
        engine.dispose()


def rebinding_resolver(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[str]:
    """Make every ``*.test`` name resolve to the next of ``answers`` (the last one repeats), as a DNS server
    that rebinds a name between two lookups would; the names asked are returned. (The operating system's
    resolver is replaced: asyncio's and httpx's lookups both go through it.)"""
    asked: list[str] = []
    real = socket.getaddrinfo

    def resolve(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)  # anyio asks with IDNA bytes
        if not name.endswith(".test"):
            return real(host, port, *args, **kwargs)
        address = answers[min(len(asked), len(answers) - 1)]
        asked.append(name)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port or 80)))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    return asked


def test_a_webhook_goes_to_the_address_that_was_checked_not_to_a_second_lookup(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from muster.server.notify.senders import DeliveryError, send_webhook

    monkeypatch.delenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", raising=False)
    monkeypatch.setenv("MUSTER_NOTIFY_TIMEOUT_S", "3")
    reload()
    try:
        with receiver() as hooks:
            port = hooks.server.server_address[1]
            # public at the check, this machine at a second lookup: the request must not reach the receiver
            asked = rebinding_resolver(monkeypatch, ["93.184.216.34", "127.0.0.1"])
            with pytest.raises(DeliveryError):
                asyncio.run(send_webhook(f"http://rebind.test:{port}/inside", {"content": "x"}))
            assert asked == ["rebind.test"]  # one lookup: the connection used the address it checked
            time.sleep(0.3)
            assert hooks.bodies("/inside") == []
            # allowed private addresses: the request still goes to the looked-up address, named as the host
            monkeypatch.setenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", "true")
            reload()
            asked = rebinding_resolver(monkeypatch, ["127.0.0.1"])
            asyncio.run(send_webhook(f"http://hook.test:{port}/named", {"content": "hello"}))
            assert hooks.wait_for("/named", 1) == [{"content": "hello"}]
            assert asked == ["hook.test"]
    finally:
        monkeypatch.delenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", raising=False)
        monkeypatch.delenv("MUSTER_NOTIFY_TIMEOUT_S", raising=False)
        reload()


def test_a_webhook_host_whose_first_address_refuses_is_reached_at_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    from muster.server.notify.senders import send_webhook

    real = socket.getaddrinfo

    def two_addresses(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if not name.endswith(".test"):
            return real(host, port, *args, **kwargs)
        # nothing listens on 127.0.0.2 (the receiver is on 127.0.0.1): that connection is refused
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port or 80)))
                for address in ("127.0.0.2", "127.0.0.1")]

    monkeypatch.setenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", "true")
    reload()
    try:
        with receiver() as hooks:
            monkeypatch.setattr(socket, "getaddrinfo", two_addresses)
            asyncio.run(send_webhook(f"http://two.test:{hooks.server.server_address[1]}/next", {"content": "hi"}))
            assert hooks.wait_for("/next", 1) == [{"content": "hi"}]
    finally:
        monkeypatch.delenv("MUSTER_WEBHOOK_ALLOW_PRIVATE", raising=False)
        reload()
