"""Small clients of the web app API used by several test modules."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

POSTGRES_URL = os.environ.get("MUSTER_TEST_POSTGRES_URL", "")
CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive with Playwright."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
"""Chromium's flags here: no sandbox (root), and no background traffic (this machine reaches no other host)."""


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A ``muster serve`` subprocess; ``start``/``kill``/``stop`` may be called repeatedly (restart tests)."""

    def __init__(self, database_url: str, workdir: Path, bot_delay_ms: int = 0,
                 env: dict[str, str] | None = None, args: list[str] | None = None) -> None:
        self.args = args or []
        self.database_url = database_url
        self.workdir = workdir
        self.bot_delay_ms = bot_delay_ms
        # Tests create games and step replays far faster than people: the per-client rate limits are
        # off unless a test asks for them (tests/server/test_security.py does).
        self.env = {"MUSTER_CREATE_PER_MINUTE": "0", "MUSTER_REPLAY_PER_SECOND": "0",
                    "MUSTER_WS_MESSAGES_PER_SECOND": "0", **(env or {})}
        self.port = free_port()
        self.rebinds = 0
        """How often the server was started again on another port because its free port was taken meanwhile."""
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base HTTP URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The base websocket URL."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the process and wait until it answers."""
        cmd = [sys.executable, "-m", "muster.cli.main", "serve", "--port", str(self.port),
               "--database-url", self.database_url, "--bot-delay-ms", str(self.bot_delay_ms), *self.args]
        log = (self.workdir / "server.log").open("ab")
        self.proc = subprocess.Popen(cmd, cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT,
                                     env={**os.environ, **self.env})
        deadline = time.monotonic() + 120  # generous: a loaded 2-core machine starts several processes slowly
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                said = (self.workdir / "server.log").read_text()[-2000:]
                if "address already in use" in said and self.rebinds < 5:
                    # another test (in parallel, pytest -n) took the free port between our look and the bind
                    self.rebinds += 1
                    self.port = free_port()
                    self.start()
                    return
                raise RuntimeError(f"server exited: {said}")
            try:
                if httpx.get(self.url + "/api/meta", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start within 120 s")

    def kill(self) -> None:
        """SIGKILL: no chance to flush or shut down cleanly."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop politely (SIGTERM), killing it if it hangs."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        """What the server wrote so far."""
        return (self.workdir / "server.log").read_text(errors="replace")

    def client(self) -> httpx.Client:
        """An HTTP client for this server."""
        return httpx.Client(base_url=self.url, timeout=20)


def backends() -> list[Any]:
    """SQLite always; PostgreSQL when scripts/postgres.sh gave us a URL."""
    return ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
        not POSTGRES_URL, reason="MUSTER_TEST_POSTGRES_URL not set (scripts/postgres.sh starts one)"))]


def database_url(backend: str, tmp: Path) -> str:
    """A fresh database for a backend: a temp SQLite file, or a new schema-free database name on PostgreSQL."""
    if backend == "sqlite":
        return f"sqlite:///{tmp / 'muster.db'}"
    return fresh_postgres_database()


def fresh_postgres_database() -> str:
    """Create an empty database next to MUSTER_TEST_POSTGRES_URL's and return its URL."""
    import psycopg

    base = POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://")
    name = f"muster_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    head, _, _ = base.rpartition("/")
    return f"{head}/{name}"



DEVICE_COOKIE = "muster_device"
"""The cookie holding a browser's device session (the seats it holds are bound to it)."""

_DEVICES: dict[str, str] = {}
"""Seat token -> the device session it is bound to, so :func:`ws_connect` can present it."""


def remember_device(client: httpx.Client, *tokens: str) -> None:
    """Note that ``client``'s device session holds these seat tokens (for :func:`ws_connect`)."""
    device = client.cookies.get(DEVICE_COOKIE)
    if device:
        for token in tokens:
            _DEVICES[token] = device


def device_headers(token: str) -> dict[str, str]:
    """The Cookie header a websocket of ``token``'s seat must carry (empty if none is known)."""
    device = _DEVICES.get(token)
    return {"Cookie": f"{DEVICE_COOKIE}={device}"} if device else {}


def create(client: httpx.Client, **body: Any) -> dict[str, Any]:
    """Create a game (bots move without pause unless told otherwise) and return the answer.

    The creator gets its own seat and one invitation per other seat played by a person; this helper
    claims those invitations with the same client (one device holding every seat, as in hot-seat play),
    so ``answer["tokens"]`` holds a token for every human seat, as tests expect."""
    body.setdefault("bot_delay_ms", 0)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    tokens = dict(data.get("tokens", {}))
    for seat, invitation in data.get("invitations", {}).items():
        claimed = client.post(f"/api/invitations/{invitation}/claim", json={})
        assert claimed.status_code == 200, claimed.text
        tokens[seat] = claimed.json()["token"]
    data["tokens"] = tokens
    data["links"] = {seat: f"/play/{token}" for seat, token in tokens.items()}
    remember_device(client, *tokens.values())
    return data


def state(client: httpx.Client, token: str) -> dict[str, Any]:
    """The seat's state."""
    response = client.get(f"/api/seat/{token}", headers=device_headers(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def act(client: httpx.Client, token: str, version: Any, action: Any) -> httpx.Response:
    """Send one action over HTTP."""
    return client.post(f"/api/seat/{token}/action", json={"version": version, "action": action},
                       headers=device_headers(token))


def wait_for_turn(client: httpx.Client, token: str, timeout: float = 20) -> dict[str, Any]:
    """Poll until it is this seat's turn (or the game is over); the bot moves in between."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = state(client, token)
        if st["legal"] or st["outcome"]:
            return st
        time.sleep(0.02)
    raise AssertionError("the seat never got its turn")


def wait_finished(client: httpx.Client, game_id: str, timeout: float = 60) -> dict[str, Any]:
    """Poll a game's public status until it is finished."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status: dict[str, Any] = client.get(f"/api/games/{game_id}/status").json()
        if status["status"] == "finished":
            return status
        time.sleep(0.1)
    raise AssertionError("the game did not finish in time")


def ws_connect(ws_url: str, token: str, query: str = "") -> ClientConnection:
    """Open a seat's websocket, presenting the device session the seat is bound to (see :func:`create`)."""
    return connect(f"{ws_url}/ws/{token}{query}", max_size=2**24, open_timeout=10,
                   additional_headers=device_headers(token))


def ws_recv(ws: ClientConnection, kind: str | None = None, timeout: float = 20) -> dict[str, Any]:
    """The next message (of a type, skipping others)."""
    deadline = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if kind is None or message["type"] == kind:
            return message


def hand_device(context: Any, base_url: str, token: str) -> None:
    """Give a Playwright browser context the device session holding ``token``'s seat (as if that browser had
    created the game), so it may open the seat's page."""
    device = _DEVICES.get(token)
    if device:
        context.add_cookies([{"name": DEVICE_COOKIE, "value": device, "url": base_url}])


_UNREDACTED = re.compile(r"/(?:play|ws|join|api/seat|api/invitations)/(?!watch/)[A-Za-z0-9_-]{5,}|"
                         r"[?&]token=[A-Za-z0-9_-]{5,}|muster_device=[A-Za-z0-9_-]{5,}")


def secrets_in_log(server: Server) -> list[str]:
    """Log lines of ``server`` that hold a seat token, an invitation code or a device session uncut (there
    should be none: the server logs every path with its secrets cut to four characters)."""
    return [line for line in server.log().splitlines() if _UNREDACTED.search(line)]


def flood_websocket(url: str, headers: dict[str, str], text: str, seconds: float) -> list[tuple[int, int | None]]:
    """Send ``text`` on a websocket at ``url`` as fast as possible for ``seconds``, opening it again
    whenever the server closes it; per connection: (messages sent, the server's close code or None).

    The client buffers whatever the server sends (``max_queue=None``), so it keeps reading while it
    writes and learns of the server's close at once."""
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    runs: list[tuple[int, int | None]] = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        sent, code = 0, None
        try:
            with connect(url, max_queue=None, max_size=2**24, open_timeout=10, close_timeout=2,
                         additional_headers=headers) as ws:
                while time.monotonic() < until:
                    ws.send(text)
                    sent += 1
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
        except (OSError, InvalidHandshake, TimeoutError):
            time.sleep(0.05)
        runs.append((sent, code))
    return runs


def ws_close_code(server: Server, token: str, headers: dict[str, str]) -> int:
    """1000 if the seat's websocket opens (with these headers, e.g. a Cookie) and sends its state, else the close
    code it is refused with (4000 + the HTTP status)."""
    from websockets.exceptions import ConnectionClosed

    with connect(f"{server.ws_url}/ws/{token}", open_timeout=10, additional_headers=headers) as ws:
        try:
            message = ws_recv(ws, timeout=10)
            if message["type"] == "error":
                ws.recv(timeout=10)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else 0
        return 1000
