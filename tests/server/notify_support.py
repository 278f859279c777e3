"""Real outside services for the notification tests: an SMTP server process (aiosmtpd) and an HTTP
receiver for webhooks, both started by the test, plus small clients of the notification API."""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from .helpers import free_port


class SmtpServer:
    """``python -m aiosmtpd`` storing every message it receives in a Maildir."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.maildir = workdir / "maildir"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.port}", "-c",
             "aiosmtpd.handlers.Mailbox", str(self.maildir)],
            stdout=(workdir / "smtp.log").open("ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                assert self.proc.poll() is None, "the SMTP server exited"
                assert time.monotonic() < deadline, "the SMTP server did not start"
                time.sleep(0.05)

    def env(self) -> dict[str, str]:
        """The server settings that send through this SMTP server."""
        return {"MUSTER_SMTP_HOST": "127.0.0.1", "MUSTER_SMTP_PORT": str(self.port), "MUSTER_SMTP_TLS": "none",
                "MUSTER_MAIL_FROM": "muster@example.org"}

    def messages(self) -> list[EmailMessage]:
        """Every message received so far, oldest first."""
        if not self.maildir.exists():
            return []
        box = mailbox.Maildir(self.maildir, create=False)
        found = []
        for key in box.iterkeys():
            with box.get_file(key) as f:
                found.append(email.message_from_binary_file(f, policy=email.policy.default))
        found.sort(key=lambda m: email.utils.parsedate_to_datetime(m["Date"]).timestamp())
        return found  # type: ignore[return-value]

    def wait_for(self, count: int, where: Callable[[EmailMessage], bool] = lambda m: True,
                 timeout: float = 60) -> list[EmailMessage]:
        """Wait until at least ``count`` messages that satisfy ``where`` arrived; those messages."""
        deadline = time.monotonic() + timeout
        while True:
            found = [m for m in self.messages() if where(m)]
            if len(found) >= count:
                return found
            assert time.monotonic() < deadline, f"{len(found)} of {count} e-mails arrived"
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the process."""
        self.proc.terminate()
        self.proc.wait(10)


def text_of(message: EmailMessage) -> str:
    """The plain-text body of a message."""
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def link_in(message: EmailMessage, marker: str) -> str:
    """The first link in a message's body holding ``marker``."""
    return next(word for word in text_of(message).split() if marker in word and word.startswith("http"))


class Receiver:
    """An HTTP server in a thread receiving webhooks: each path answers with the statuses queued for it
    (then 200), and may be held (the request waits until released)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.statuses: dict[str, list[int]] = {}
        self.always: dict[str, int] = {}
        self.hold: dict[str, threading.Event] = {}
        self.arrived = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", "0")))
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:  # a push message: encrypted bytes
                    body = {"raw": raw, "headers": dict(self.headers.items())}
                owner.received.append((self.path, body))
                owner.arrived.set()
                if self.path in owner.hold:
                    owner.hold[self.path].wait(60)
                queued = owner.statuses.get(self.path)
                status = queued.pop(0) if queued else owner.always.get(self.path, 200)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        """The address of one of its paths."""
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def bodies(self, path: str) -> list[dict[str, Any]]:
        """What arrived at a path, in order."""
        return [body for p, body in self.received if p == path]

    def wait_for(self, path: str, count: int, timeout: float = 60) -> list[dict[str, Any]]:
        """Wait until ``count`` requests arrived at ``path``."""
        deadline = time.monotonic() + timeout
        while len(self.bodies(path)) < count:
            assert time.monotonic() < deadline, f"{len(self.bodies(path))} of {count} webhooks arrived at {path}"
            time.sleep(0.05)
        return self.bodies(path)

    def stop(self) -> None:
        """Stop serving (a held request is released)."""
        for event in self.hold.values():
            event.set()
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def receiver() -> Iterator[Receiver]:
    """A webhook receiver for the duration of a test."""
    found = Receiver()
    try:
        yield found
    finally:
        found.stop()


NOTIFY_ENV = {"MUSTER_NOTIFY_TURN_DELAY_S": "0", "MUSTER_NOTIFY_POLL_S": "0.2", "MUSTER_NOTIFY_RETRY_S": "0.3",
              "MUSTER_NOTIFY_ATTEMPTS": "3", "MUSTER_WEBHOOK_ALLOW_PRIVATE": "true",
              "MUSTER_NOTIFY_TIMEOUT_S": "5"}
"""Notices at once, retried quickly, webhooks to the test's own receiver allowed."""


def signup(client: httpx.Client, email_address: str | None = None) -> str:
    """Sign up a new account (with an address, if given); its name."""
    name = "p" + secrets.token_hex(5)
    answer = client.post("/api/account/signup", json={"name": name, "password": "pw-" + secrets.token_hex(8),
                                                      "email": email_address})
    assert answer.status_code == 201, answer.text
    return name


def csrf(client: httpx.Client) -> dict[str, str]:
    """The header the account endpoints want."""
    return {"X-Muster-CSRF": client.get("/api/account").json()["csrf"]}
