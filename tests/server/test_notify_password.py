"""Password reset by e-mail, end to end through a real SMTP server process: an address is confirmed by a
link; "forgot password" sends a single-use, expiring, signed link only to a confirmed address, answers the
same whether or not the address exists, and is throttled."""

from __future__ import annotations

import secrets
import time
from pathlib import Path

import httpx

from muster.server.notify.keys import sign, verify

from .helpers import Server
from .notify_support import NOTIFY_ENV, SmtpServer, csrf, link_in


def test_forgotten_password_reset_by_a_single_use_link(tmp_path: Path) -> None:
    smtp = SmtpServer(tmp_path)
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, env={**NOTIFY_ENV, **smtp.env()})
    srv.env["MUSTER_PUBLIC_URL"] = srv.url
    srv.start()
    try:
        with srv.client() as c:
            name, password, address = "resetter", "old-" + secrets.token_hex(6), "r@example.org"
            assert c.post("/api/account/signup", json={"name": name, "password": password}).status_code == 201
            # an address added later is confirmed by the link sent to it
            added = c.post("/api/account/email", json={"email": address}, headers=csrf(c))
            assert added.status_code == 200, added.text
            verification = smtp.wait_for(1)[0]
            assert verification["To"] == address and "Confirm" in str(verification["Subject"])
            c.post("/api/account/logout", json={}, headers=csrf(c))
            # before it is confirmed, nothing is sent to it; the answer says nothing either way
            with httpx.Client(base_url=srv.url) as other:
                assert other.post("/api/account/forgot", json={"email": address}).json() == {"sent": True}
                assert other.post("/api/account/forgot", json={"email": "nobody@example.org"}).json() == {"sent": True}
            assert c.get(link_in(verification, "/notify/verify/")).status_code == 200
            assert c.get("/account/reset").status_code == 200  # the page the link opens
            assert c.post("/api/account/forgot", json={"email": address.upper()}).json() == {"sent": True}
            mail = smtp.wait_for(2)[1]
            assert "Reset" in str(mail["Subject"]) and len(smtp.messages()) == 2  # none for the earlier requests
            assert "List-Unsubscribe" not in mail
            link = link_in(mail, "/account/reset#")
            token = link.split("#", 1)[1]
            new = "new-" + secrets.token_hex(6)
            assert c.post("/api/account/reset", json={"token": token, "password": "short"}).status_code == 400
            assert c.post("/api/account/reset", json={"token": token, "password": new}).status_code == 200
            assert c.post("/api/account/reset", json={"token": token, "password": new + "x"}).status_code == 403
            assert c.post("/api/account/login", json={"name": name, "password": password}).status_code == 401
            assert c.post("/api/account/login", json={"name": name, "password": new}).status_code == 200
            tampered = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
            assert c.post("/api/account/reset", json={"token": tampered, "password": new}).status_code == 403
            # throttled per client address: 5 requests in 15 minutes
            answers = [c.post("/api/account/forgot", json={"email": "x@example.org"}).status_code for _ in range(4)]
            assert answers[-1] == 429
        said = srv.log()
        assert "old-" not in said and new not in said and token not in said
        assert link_in(verification, "/notify/verify/").rsplit("/", 1)[1] not in said  # links in mail: cut in the log
    finally:
        srv.stop()
        smtp.stop()


def test_reset_tokens_expire_and_serve_one_purpose() -> None:
    key = secrets.token_urlsafe(32)
    token = sign(key, "reset", 60, a=1)
    assert verify(key, "reset", token) == {"p": "reset", "e": verify(key, "reset", token)["e"], "a": 1}  # type: ignore[index]
    assert verify(key, "unsub", token) is None  # another purpose
    assert verify("another key", "reset", token) is None
    assert verify(key, "reset", sign(key, "reset", -1, a=1)) is None  # expired
    assert verify(key, "reset", "x" * 5000) is None
    assert time.time() < verify(key, "reset", token)["e"]  # type: ignore[index]
