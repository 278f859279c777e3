"""Bots are bounded (validated specs, a hard time limit per choice, a legal
fallback) and websocket clients that do not read are dropped, never waited for."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, update

from muster.ai import BotSpecError, make_bot
from muster.core import Game, get_rules
from muster.server.bots import BotPool, Job, check_spec
from muster.server.db import SeatRow

from .helpers import Server, act, create, state, wait_finished, wait_for_turn, ws_connect, ws_recv

HUGE = ["ismcts:seconds=inf", "ismcts:seconds=nan", "ismcts:width=1e20", "ismcts:c=1e999",
        "ismcts:seconds=Infinity", "ismcts:iterations=10000000", "ismcts:seconds=3600", "heuristic:nodes=1e9",
        "ismcts:seconds=-1", "nosuchbot", "x" * 300]


@pytest.fixture()
def quick_bots(tmp_path: Path) -> Iterator[Server]:
    """A server whose bots have 0.3 s per choice (so an ISMCTS with many iterations overruns)."""
    srv = Server(f"sqlite:///{tmp_path / 'muster.db'}", tmp_path, args=["--bot-time-limit", "0.3"])
    srv.start()
    yield srv
    srv.stop()


def never_reading_socket(port: int, path: str) -> socket.socket:
    """Open a websocket by hand and never read from it (a tiny receive buffer, so it fills at once)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock


@pytest.mark.parametrize("spec", HUGE)
def test_unbounded_bot_specs_are_refused(server: Server, spec: str) -> None:
    with server.client() as c:
        response = c.post("/api/games", json={"imperial": spec, "insurgent": "human"})
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "malformed"


@pytest.mark.parametrize("spec", ["ismcts:seconds=inf", "ismcts:seconds=nan", "ismcts:width=1e20", "ismcts:c=1e999"])
def test_non_finite_numbers_are_refused_wherever_specs_are_parsed(spec: str) -> None:
    with pytest.raises(BotSpecError, match="finite"):
        make_bot(spec, game="freedom")
    with pytest.raises(BotSpecError):
        check_spec(spec, "freedom")


def test_bounded_specs_are_accepted() -> None:
    for spec in ("random", "heuristic", "ismcts", "ismcts:iterations=200,width=4", "ismcts:seconds=2"):
        check_spec(spec, "freedom")


def store_spec(server: Server, game_id: str, seat: str, spec: str) -> None:
    """Stop the server and write a bot spec into a stored game by hand (the web offers levels only), then
    start it again: a spec from the database is as untrusted as one from a client."""
    server.stop()
    engine = create_engine(server.database_url)
    with engine.begin() as db:
        db.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat).values(bot_spec=spec))
    engine.dispose()
    server.start()


def test_a_stored_unbounded_spec_is_not_trusted_after_a_restart(fresh_server: Server) -> None:
    """A game stored with ``seconds=inf`` (e.g. before the limits) is played by a random bot instead,
    and the server stays responsive."""
    with fresh_server.client() as c:
        made = create(c, imperial="standard", insurgent="human", bot_delay_ms=1000)
    store_spec(fresh_server, made["game_id"], "imperial", "ismcts:seconds=inf")
    with fresh_server.client() as c:
        st = wait_for_turn(c, made["tokens"]["insurgent"], timeout=30)
        assert st["step"] > 0
        assert c.get("/api/meta").status_code == 200
    assert "is refused" in fresh_server.log()


def test_a_bot_that_overruns_falls_back_and_the_game_goes_on(quick_bots: Server) -> None:
    with quick_bots.client() as c:
        made = create(c, imperial="strongest", insurgent="human", seed=5, bot_delay_ms=1000)
    store_spec(quick_bots, made["game_id"], "imperial", "ismcts:iterations=20000,width=8")
    with quick_bots.client() as c:
        token = made["tokens"]["insurgent"]
        # the bot overruns on each card choice; each time a legal move is played (the log says it overran: the
        # fallback, not a finished search, moved; the wait is only a bound against hanging on a loaded machine)
        for _ in range(3):
            st = wait_for_turn(c, token, timeout=180)
            assert act(c, token, st["version"], st["legal"][0]["action"]).status_code == 200
        assert state(c, token)["step"] > 3
    assert "overran" in quick_bots.log()


def test_the_pool_falls_back_when_a_bot_raises_or_overruns() -> None:
    """Real worker processes: a failing bot and an overrunning one each give a legal action, and the
    pool keeps working afterwards."""
    game = Game(get_rules("freedom"), 3)
    chooser = random.Random(1)
    while "play card" not in game.prompt:  # a card turn: where the search thinks longest
        game.apply(chooser.choice(game.legal_actions()))
    seat = game.active_seat
    assert seat is not None
    legal = game.legal_actions()
    view = game.view(seat)

    async def scenario() -> None:
        pool = BotPool(workers=1, time_limit=0.3)
        try:
            jobs = [Job("a", "nosuchbot", 1, seat, view, [a.to_json() for a in legal], "freedom"),
                    Job("b", "ismcts:seconds=5", 1, seat, view, [a.to_json() for a in legal], "freedom"),
                    Job("c", "random", 1, seat, view, [a.to_json() for a in legal], "freedom")]
            for job in jobs:
                assert await pool.choose(job, "test") in legal
            assert pool.fallbacks == 2
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_watcher_that_never_reads_does_not_stall_a_bot_game(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="beginner", insurgent="beginner", seed=8)
        sockets = [never_reading_socket(server.port, f"/ws/watch/{made['game_id']}") for _ in range(3)]
        try:
            status = wait_finished(c, made["game_id"], timeout=120)
            assert status["status"] == "finished"
            assert c.get("/api/meta").status_code == 200
        finally:
            for sock in sockets:
                sock.close()


def test_a_seat_socket_that_never_reads_does_not_hold_back_the_acknowledgement(server: Server) -> None:
    with server.client() as c:
        made = create(c, imperial="human", insurgent="beginner", seed=9)
        token = made["tokens"]["imperial"]
        stuck = never_reading_socket(server.port, f"/ws/{token}")
        try:
            with ws_connect(server.ws_url, token) as ws:
                latest = ws_recv(ws, "state")
                acted = 0
                while acted < 40 and not latest["outcome"]:
                    if not latest["legal"]:
                        latest = ws_recv(ws, "state", timeout=20)
                        continue
                    sent = time.monotonic()
                    ws.send(json.dumps({"type": "action", "id": acted, "version": latest["version"],
                                        "action": latest["legal"][-1]["action"]}))
                    ack = ws_recv(ws, timeout=10)
                    while ack["type"] == "state":  # a state pushed before our ack (the bot's move)
                        ack = ws_recv(ws, timeout=10)
                    assert ack["type"] == "ack", ack
                    assert time.monotonic() - sent < 5
                    acted += 1
                    latest = ws_recv(ws, "state", timeout=20)
                assert acted >= 10
        finally:
            stuck.close()


def test_a_lagging_reader_gets_the_newest_state_with_every_log_line() -> None:
    from muster.server.hub import coalesce

    first = {"type": "state", "version": 1, "log_from": 0, "log": ["a", "b"]}
    second = {"type": "state", "version": 2, "log_from": 2, "log": ["c"]}
    merged = coalesce(first, second)
    assert (merged["version"], merged["log_from"], merged["log"]) == (2, 0, ["a", "b", "c"])
    after_undo = {"type": "state", "version": 3, "log_from": 0, "log": ["a"]}
    assert coalesce(merged, after_undo)["log"] == ["a"]


def test_a_socket_whose_send_hangs_is_dropped_and_the_others_are_served() -> None:
    """The socket layer stands in for a client that never reads: its send never completes."""
    from muster.server.hub import Connection

    async def scenario() -> None:
        closed: list[int] = []
        delivered: list[str] = []

        async def hang(_text: str) -> None:
            await asyncio.Event().wait()

        async def deliver(text: str) -> None:
            delivered.append(text)

        async def close(code: int) -> None:
            closed.append(code)

        stuck = Connection(None, hang, close, send_timeout=0.2)
        fine = Connection(None, deliver, close, send_timeout=0.2)
        for k in range(5):
            for conn in (stuck, fine):
                conn.push({"type": "ack", "id": k})
        await asyncio.sleep(0.5)
        assert stuck.closed and closed == [1013]
        assert len(delivered) == 5 and not fine.closed
        stuck.push({"type": "ack", "id": 99})  # ignored: it is gone

    asyncio.run(scenario())


class _FakeWriter:
    """A socket layer for :class:`muster.server.hub.Connection` that writes batches (muster.server.wire.Writer)."""

    def __init__(self) -> None:
        self.calls: list[list[bytes]] = []
        self.open = asyncio.Event()
        self.open.set()

    def ready(self) -> bool:
        return self.open.is_set()

    def write_now(self, texts: list[bytes]) -> None:
        self.calls.append(list(texts))

    async def __call__(self, texts: list[bytes]) -> None:
        await self.open.wait()
        self.write_now(texts)


def test_an_acknowledgement_and_its_state_go_out_together_in_order() -> None:
    """With a batch writer the messages queued in one turn of the event loop are written in one call, in
    the order they were pushed, and no sender task is started while the socket takes writes."""
    from muster.server.hub import Connection

    async def scenario() -> None:
        writer = _FakeWriter()
        conn = Connection("imperial", _never_called, _never_called, writer=writer)
        conn.push({"type": "ack", "id": 1, "version": 5})
        conn.push({"type": "state", "version": 5, "log_from": 0, "log": ["a"]})
        assert writer.calls == []  # written at the loop's next turn, not inside push
        await asyncio.sleep(0)
        assert [[json.loads(t)["type"] for t in call] for call in writer.calls] == [["ack", "state"]]
        assert conn._task is None
        conn.push({"type": "state", "version": 6, "log_from": 1, "log": ["b"]})
        await asyncio.sleep(0)
        assert [json.loads(t)["version"] for t in writer.calls[-1]] == [6]

    asyncio.run(scenario())


def test_a_batch_writer_that_stops_taking_writes_coalesces_then_drops() -> None:
    """A socket over its high-water mark: pushes queue (newer states replacing older ones, every log line
    kept), are written when it drains, and a socket that stays blocked is dropped after the send timeout."""
    from muster.server.hub import Connection

    async def scenario() -> None:
        closed: list[int] = []

        async def close(code: int) -> None:
            closed.append(code)

        writer = _FakeWriter()
        writer.open.clear()
        conn = Connection("imperial", _never_called, close, send_timeout=0.3, writer=writer)
        conn.push({"type": "state", "version": 1, "log_from": 0, "log": ["a"]})
        conn.push({"type": "state", "version": 2, "log_from": 1, "log": ["b"]})
        await asyncio.sleep(0.05)
        assert writer.calls == []
        writer.open.set()
        await asyncio.sleep(0.05)
        sent = [json.loads(t) for call in writer.calls for t in call]
        assert [(m["version"], m["log"]) for m in sent] == [(2, ["a", "b"])]
        writer.open.clear()
        conn.push({"type": "state", "version": 3, "log_from": 2, "log": ["c"]})
        await asyncio.sleep(0.5)
        assert conn.closed and closed == [1013]

    asyncio.run(scenario())


async def _never_called(*_args: object) -> None:
    raise AssertionError("the batch writer should have been used")


def test_the_installed_uvicorn_websocket_protocol_takes_batched_writes() -> None:
    """The batched writes rely on attributes of uvicorn's sans-I/O websocket protocol; an upgrade that
    drops one would silently fall back to one ASGI send per message, so check them on the real class."""
    import uvicorn
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from uvicorn.server import ServerState

    from muster.server.wire import RAW_SEND, BatchWriter, batch_writer

    async def app(scope: object, receive: object, send: object) -> None:
        return None

    async def scenario() -> None:
        config = uvicorn.Config(app=app, ws="websockets-sansio", log_level="warning")
        config.load()
        proto = WebSocketsSansIOProtocol(config, ServerState(), {}, asyncio.get_running_loop())
        assert isinstance(batch_writer({RAW_SEND: proto.send}), BatchWriter)
        assert batch_writer({RAW_SEND: _never_called}) is None  # anything else: one ASGI send per message
        # once the handshake is over, its request and response (header tables) are let go
        proto.request, proto.response, proto.handshake_complete = object(), object(), True
        batch_writer({RAW_SEND: proto.send})
        assert proto.request is None and proto.response is None

    asyncio.run(scenario())
