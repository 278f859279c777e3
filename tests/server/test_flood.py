"""Floods from one client (docs/security.md, "Floods"): of websocket messages from one socket, and of
connections from one address. Each runs against a real ``muster serve`` process while another client
plays; the other client must be served throughout."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import resource
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .helpers import (
    Server,
    create,
    database_url,
    device_headers,
    flood_websocket,
    ws_connect,
    ws_recv,
)

FLOOD_SECONDS = 3.0
MESSAGES = {
    "sync": '{"type":"sync"}',
    "action": '{"type":"action","version":-1,"action":["pass",null]}',
    "unknown": '{"type":"bogus","id":1}',
    "junk": "not json at all",
}


def _flood_into(queue: Any, url: str, headers: dict[str, str], text: str, seconds: float) -> None:
    began = time.monotonic()  # the system's monotonic clock: the same in every process
    queue.put((began, flood_websocket(url, headers, text, seconds)))


def _burn(queue: Any, seconds: float) -> None:
    began = time.monotonic()
    while time.monotonic() < began + seconds:
        pass
    queue.put((began, []))


def in_process(target: Any, *args: Any) -> tuple[float, Any]:
    """Run ``target(queue, *args)`` in a process of its own (so a flooding client does not hold this
    process's interpreter while the other client is timed); its (start time, result)."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=target, args=(queue, *args), daemon=True)
    proc.start()
    try:
        began, result = queue.get(timeout=FLOOD_SECONDS + 120)
    finally:
        proc.join(30)
    return began, result


def play_and_time(srv: Server, stop: threading.Event, ready: threading.Event,
                  samples: list[tuple[float, float]]) -> None:
    """Play games between two people over their websockets until ``stop``, recording (start, seconds) from
    sending each action to its acknowledgement (an error or a timeout counts as taking forever)."""
    k = 0
    with srv.client() as c:
        while not stop.is_set():
            tokens = create(c, imperial="human", insurgent="human")["tokens"]
            with contextlib.ExitStack() as stack:
                sockets = {seat: stack.enter_context(ws_connect(srv.ws_url, token)) for seat, token in tokens.items()}
                latest = {seat: ws_recv(ws, "state") for seat, ws in sockets.items()}
                while not stop.is_set():
                    seat = next((s for s, st in latest.items() if st["legal"]), None)
                    if seat is None:  # over: another game
                        break
                    st = latest[seat]
                    started = time.monotonic()
                    try:
                        sockets[seat].send(json.dumps({"type": "action", "id": k, "version": st["version"],
                                                       "action": st["legal"][k % len(st["legal"])]["action"]}))
                        answer = ws_recv(sockets[seat], timeout=10)
                        while answer["type"] == "state":
                            answer = ws_recv(sockets[seat], timeout=10)
                        assert answer["type"] == "ack", answer
                        samples.append((started, time.monotonic() - started))
                        latest[seat] = ws_recv(sockets[seat], "state", timeout=10)  # the new state
                        while latest[seat]["version"] < answer["version"]:
                            latest[seat] = ws_recv(sockets[seat], "state", timeout=10)
                        if not latest[seat]["legal"]:  # the turn is committed: the other seat now sees it
                            for s, ws in sockets.items():
                                if s != seat:
                                    latest[s] = ws_recv(ws, "state", timeout=10)
                                    while not latest[s]["legal"] and not latest[s].get("outcome"):
                                        latest[s] = ws_recv(ws, "state", timeout=10)
                    except (TimeoutError, AssertionError, OSError, ConnectionClosed):
                        samples.append((started, 1e9))
                        break
                    k += 1
                    ready.set()


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def flood_while_playing(srv: Server, url: str, headers: dict[str, str], text: str) -> tuple[Any, list[float],
                                                                                           list[float]]:
    """Flood ``url`` for :data:`FLOOD_SECONDS` while another client plays; returns the flood's connections
    (messages sent, close code), the other client's action times in as long a time just before the flood
    (the machine's baseline, with one process spinning), and during it."""
    stop, ready = threading.Event(), threading.Event()
    samples: list[tuple[float, float]] = []
    player = threading.Thread(target=play_and_time, args=(srv, stop, ready, samples), daemon=True)
    player.start()
    try:
        assert ready.wait(30)
        # the baseline: as long, with a process of ours spinning as the flooding client will (the machine
        # has few cores: the flooding client's own appetite for one must not count against the server)
        quiet, _ = in_process(_burn, FLOOD_SECONDS)
        baseline = [seconds for started, seconds in samples if quiet <= started <= quiet + FLOOD_SECONDS]
        began, runs = in_process(_flood_into, url, headers, text, FLOOD_SECONDS)
    finally:
        stop.set()
        player.join(60)
    ended = time.monotonic()
    # the server must answer at once after the flood (no backlog of the flood's messages left to work through)
    assert httpx.get(srv.url + "/api/meta", timeout=1).status_code == 200
    during = [seconds for started, seconds in samples if began <= started <= ended]
    return runs, baseline, during


def flood_and_check(srv: Server, url: str, headers: dict[str, str], text: str) -> None:
    """Flood ``url`` while another client plays (:func:`flood_while_playing`): the flooding socket must be
    closed with 1008 every time, and the other game served quickly throughout.

    Quickly: a p99 under 100 ms, the target on a machine doing nothing else. The test machine may be
    shared and busy (this client, the flooding one and the server share its cores), so the bound is
    three times the baseline's p99 when that is more, and a measurement over the bound is made once
    more (other work on the machine can throw one): a flood that held the server (as before the bounds)
    costs seconds, far beyond either, every time."""
    for attempt in range(2):
        runs, baseline, during = flood_while_playing(srv, url, headers, text)
        assert runs and runs[0][1] == 1008, runs[:5]
        assert all(code == 1008 for _, code in runs[:-1]), runs  # the last may end with the flood itself
        assert len(during) >= 20, f"the other game acted only {len(during)} times during the flood"
        bound = max(0.100, 3 * p99(baseline))
        if p99(during) < bound:
            break
        assert attempt == 0, (f"the other game's action p99 was {p99(during) * 1000:.0f} ms during the flood "
                              f"({p99(baseline) * 1000:.0f} ms before it)")
    log = srv.log()
    assert "Traceback" not in log and "ERROR" not in log


BUDGET = {"MUSTER_WS_MESSAGES_PER_SECOND": "200", "MUSTER_WS_MESSAGE_BURST": "100"}
"""The message budget of the servers here: the other player is a script acting as fast as it is answered
(about 100 actions a second), over the default 50 a second meant for people; the flood sends thousands."""


@pytest.fixture(scope="module")
def one_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of one process with a message budget (the test servers have none unless asked)."""
    tmp = tmp_path_factory.mktemp("flood")
    srv = Server(database_url("sqlite", tmp), tmp, env=BUDGET)
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize("kind", sorted(MESSAGES))
def test_a_message_flood_from_one_socket_is_closed_and_stalls_no_other_game(one_process: Server, kind: str) -> None:
    with one_process.client() as c:
        token = create(c, imperial="human", insurgent="human")["tokens"]["imperial"]
    flood_and_check(one_process, f"{one_process.ws_url}/ws/{token}", device_headers(token), MESSAGES[kind])


def test_a_spectator_flood_is_closed_too(one_process: Server) -> None:
    with one_process.client() as c:
        game_id = create(c, imperial="beginner", insurgent="beginner", bot_delay_ms=2000)["game_id"]
    flood_and_check(one_process, f"{one_process.ws_url}/ws/watch/{game_id}", {}, MESSAGES["sync"])


def test_a_message_flood_stalls_neither_process_of_two(tmp_path: Path) -> None:
    srv = Server(database_url("sqlite", tmp_path), tmp_path, env=BUDGET, args=["--workers", "2"])
    try:
        srv.start()
        with srv.client() as c:
            token = create(c, imperial="human", insurgent="human")["tokens"]["imperial"]
        flood_and_check(srv, f"{srv.ws_url}/ws/{token}", device_headers(token), MESSAGES["sync"])
    finally:
        srv.stop()


def test_a_repeated_sync_at_one_version_is_answered_without_the_state_again(one_process: Server) -> None:
    with one_process.client() as c:
        token = create(c, imperial="human", insurgent="human")["tokens"]["imperial"]
    with connect(f"{one_process.ws_url}/ws/{token}", additional_headers=device_headers(token)) as ws:
        first = ws_recv(ws, "state")
        ws.send('{"type":"sync","id":1}')
        again = ws_recv(ws)
        assert again["type"] == "synced" and again["version"] == first["version"] and again["id"] == 1
        ws.send(json.dumps({"type": "action", "id": 2, "version": first["version"],
                            "action": first["legal"][0]["action"]}))
        assert ws_recv(ws, "ack")["id"] == 2
        moved = ws_recv(ws, "state")
        ws.send('{"type":"sync","id":3}')
        full = ws_recv(ws, "state")  # a new version: the whole state once more, log and all
        assert full["version"] == moved["version"] and full["log_from"] == 0 and len(full["log"]) >= len(first["log"])


# --- connections from one address ------------------------------------------------------------------


def _handshake(port: int, path: str, forwarded: str | None = None) -> bytes:
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode()


def first_bytes(socks: list[socket.socket], seconds: float) -> list[bytes]:
    """What each socket received first within ``seconds`` (b"" if closed unanswered, b"?" if silent)."""
    got: dict[socket.socket, bytes] = {}
    with selectors.DefaultSelector() as selector:  # epoll: descriptors past 1,024 too
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds
        while len(got) < len(socks) and time.monotonic() < deadline:
            for key, _ in selector.select(0.2):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    got[sock] = sock.recv(64)
                except OSError:
                    got[sock] = b""
                selector.unregister(sock)
    return [got.get(sock, b"?") for sock in socks]


@contextlib.contextmanager
def open_file_limit(soft: int) -> Iterator[None]:
    """This process's soft limit on open files set to ``soft`` in the block (a server started in it inherits it)."""
    old = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, old[1]), old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, old)


def served(srv: Server) -> None:
    """Another client is served: five metadata requests, a game created, a websocket of its own."""
    for _ in range(5):
        assert httpx.get(srv.url + "/api/meta", timeout=5).status_code == 200
    with httpx.Client(base_url=srv.url, timeout=5, headers={"X-Forwarded-For": "198.51.100.7"}) as other:
        made = create(other, imperial="human", insurgent="beginner")
        token = made["tokens"]["imperial"]
        headers = {**device_headers(token), "X-Forwarded-For": "198.51.100.7"}
        with connect(f"{srv.ws_url}/ws/{token}", additional_headers=headers, open_timeout=5) as ws:
            assert ws_recv(ws, "state", timeout=5)["seat"] == "imperial"


def test_a_thousand_idle_sockets_from_one_address_leave_other_clients_served(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 4096:
        pytest.skip("needs a hard limit of open files of at least 4,096 for the client's own sockets")
    srv = Server(database_url("sqlite", tmp_path), tmp_path)
    socks: list[socket.socket] = []
    try:
        with open_file_limit(1024):  # the server starts as on a system whose default soft limit is 1,024
            srv.start()
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        with srv.client() as c:
            game_id = create(c, imperial="beginner", insurgent="beginner", bot_delay_ms=10_000)["game_id"]
        for _ in range(1100):
            sock = socket.socket()
            sock.settimeout(10)
            try:
                sock.connect(("127.0.0.1", srv.port))
                sock.sendall(_handshake(srv.port, f"/ws/watch/{game_id}"))
            except OSError:
                sock.close()
                continue
            socks.append(sock)
        answers = first_bytes(socks, 15)
        opened = sum(a.startswith(b"HTTP/1.1 101") for a in answers)
        assert opened <= 100, f"{opened} websockets open from one address"  # MUSTER_WS_PER_ADDRESS
        assert sum(a.startswith(b"HTTP/1.1 403") for a in answers) >= 1000
        served(srv)
    finally:
        for sock in socks:
            sock.close()
        srv.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_websocket_cap_per_address_is_configurable_and_per_forwarded_client(tmp_path: Path) -> None:
    srv = Server(database_url("sqlite", tmp_path), tmp_path, env={"MUSTER_WS_PER_ADDRESS": "5"})
    try:
        srv.start()
        with srv.client() as c:
            game_id = create(c, imperial="beginner", insurgent="beginner", bot_delay_ms=10_000)["game_id"]
        url = f"{srv.ws_url}/ws/watch/{game_id}"
        with contextlib.ExitStack() as stack:
            for _ in range(5):
                ws_recv(stack.enter_context(connect(url)), "state")
            with pytest.raises(Exception, match="403"):
                connect(url, open_timeout=5)
            # behind the trusted proxy (here: loopback), each forwarded client has its own five
            forwarded = stack.enter_context(connect(url, additional_headers={"X-Forwarded-For": "203.0.113.9"}))
            assert ws_recv(forwarded, "state")["game_id"] == game_id
        with connect(url) as again:  # the five were closed: the address may open one more
            assert ws_recv(again, "state")["game_id"] == game_id
    finally:
        srv.stop()


def test_idle_connections_from_one_untrusted_address_are_capped(tmp_path: Path) -> None:
    # loopback is not a trusted proxy here, so its connections count as one client's
    srv = Server(database_url("sqlite", tmp_path), tmp_path,
                 env={"FORWARDED_ALLOW_IPS": "192.0.2.1", "MUSTER_CONNECTIONS_PER_ADDRESS": "20"})
    socks: list[socket.socket] = []
    try:
        srv.start()
        for _ in range(200):  # connected, and silent
            socks.append(socket.create_connection(("127.0.0.1", srv.port), timeout=10))
        answers = first_bytes(socks, 3)  # well before the 10 s a request's head may take
        assert sum(a == b"" for a in answers) >= 180, "connections over the cap were not closed at once"
        transport = httpx.HTTPTransport(local_address="127.0.0.2")  # another client
        with httpx.Client(transport=transport, base_url=srv.url, timeout=5) as other:
            for _ in range(5):
                assert other.get("/api/meta").status_code == 200
    finally:
        for sock in socks:
            sock.close()
        srv.stop()


def test_the_server_raises_its_open_file_limit(tmp_path: Path) -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard <= 1024:
        pytest.skip("the hard limit leaves nothing to raise")
    srv = Server(database_url("sqlite", tmp_path), tmp_path)
    try:
        with open_file_limit(1024):
            srv.start()
        assert srv.proc is not None
        limits = Path(f"/proc/{srv.proc.pid}/limits").read_text()
        line = next(ln for ln in limits.splitlines() if ln.startswith("Max open files"))
        assert int(line.split()[3]) == hard, line
    finally:
        srv.stop()

