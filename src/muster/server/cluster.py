"""Several server processes on one machine: ``muster serve --workers N``.

The supervisor migrates the database once, binds the listening socket, and starts N worker
processes that all accept on it (the kernel shares the connections out). Each worker is a whole
server (:func:`muster.server.create_app`) told its index; the workers tell each other about every
committed change over a :mod:`muster.server.bus` (Unix datagram sockets in a private directory, or
PostgreSQL ``LISTEN``/``NOTIFY`` with a PostgreSQL database), and a game's bots run in the worker
that owns the game's id. A worker that dies is started again; if the supervisor itself is killed,
the kernel kills the workers too (``PR_SET_PDEATHSIG``), so a restart finds the port free.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import ctypes
import functools
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn

from muster.server.guard import HeadTimeoutProtocol

log = logging.getLogger("muster.server.cluster")

UVICORN_OPTIONS: dict[str, Any] = {
    # No uvicorn access log: seat tokens travel in URLs; muster.server.logs.RequestLog logs requests with
    # them redacted. No per-message
    # deflate: it cost a third of the server's CPU under load, and most messages are small deltas.
    # HeadTimeoutProtocol: a request's head must arrive within seconds and stay small (no slowloris).
    "access_log": False, "log_level": "warning", "ws_max_size": 64 * 1024, "ws_per_message_deflate": False,
    "http": HeadTimeoutProtocol, "timeout_keep_alive": 5, "server_header": False,
    "log_config": None,  # logging is set up by muster.server.logs.configure: JSON lines, secrets redacted
}


def uvicorn_options() -> dict[str, Any]:
    """:data:`UVICORN_OPTIONS`, this process's connection cap (:func:`muster.server.sockets.connection_limit`,
    read after the open-file limit was raised) and the websocket protocol that parses a little at a time
    (:class:`muster.server.sockets.SlicedWebSocketProtocol`)."""
    from muster.server.sockets import SlicedWebSocketProtocol, connection_limit, raise_file_limit

    raise_file_limit()
    return {**UVICORN_OPTIONS, "limit_concurrency": connection_limit(), "ws": SlicedWebSocketProtocol}


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket the workers inherit."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(4096)
    sock.set_inheritable(True)
    return sock


def serve_workers(host: str, port: int, database_url: str, bot_delay_ms: int, workers: int,
                  on_start: Callable[[], None] | None = None, ready: Callable[[], None] | None = None) -> None:
    """Run ``workers`` server processes on one port until SIGTERM/SIGINT. ``on_start`` is called once the metrics
    directory they share is set up; ``ready`` once the port listens (the kernel queues connections until a worker
    accepts them)."""
    from muster.server.db import make_engine, migrate

    engine = make_engine(database_url)
    migrate(engine)  # once, before the workers start (they then find the schema current)
    engine.dispose()
    sock = listening_socket(host, port)
    if ready is not None:
        ready()
    bus_dir = Path(tempfile.mkdtemp(prefix="muster-bus-"))
    bus = "postgres" if database_url.startswith("postgres") else f"unix:{bus_dir}"
    env = {**os.environ, "MUSTER_WORKERS": str(workers), "MUSTER_BUS": bus, "MUSTER_HANDOFF": str(bus_dir)}
    own_metrics_dir = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    if own_metrics_dir:  # every worker writes its metrics here; a scrape of any of them adds them up
        env["PROMETHEUS_MULTIPROC_DIR"] = os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(bus_dir / "metrics")
        (bus_dir / "metrics").mkdir()

    def start(index: int) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", "muster.server.cluster", "--fd", str(sock.fileno()),
               "--database-url", database_url, "--bot-delay-ms", str(bot_delay_ms)]
        return subprocess.Popen(cmd, pass_fds=(sock.fileno(),), env={**env, "MUSTER_WORKER_INDEX": str(index)})

    if on_start is not None:
        on_start()
    children = [start(k) for k in range(workers)]
    stopping = False

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping:
            time.sleep(0.2)
            for k, child in enumerate(children):
                if child.poll() is not None and not stopping:
                    print(f"muster: worker {k} exited ({child.returncode}); starting it again", file=sys.stderr)
                    forget_metrics_of(child.pid)
                    children[k] = start(k)
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children:
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(max(0.1, deadline - time.monotonic()))
            if child.poll() is None:
                child.kill()
        sock.close()
        shutil.rmtree(bus_dir, ignore_errors=True)


def forget_metrics_of(pid: int) -> None:
    """A worker died: its gauges no longer count towards the live sums (its counters still do)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        with contextlib.suppress(OSError):
            multiprocess.mark_process_dead(pid)


def _die_with_parent() -> None:
    """Linux: have the kernel kill this worker when the supervisor dies (even by SIGKILL)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:  # the supervisor died before we got here
        sys.exit(1)


def worker_main() -> None:
    """One worker process: the web app on the inherited socket."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--bot-delay-ms", type=int, default=400)
    args = parser.parse_args()
    _die_with_parent()
    from muster.server import create_app
    from muster.server.logs import configure

    configure()

    sock = socket.socket(fileno=args.fd)  # the family is read from the socket (TCP: no Nagle delay)
    app = create_app(args.database_url, args.bot_delay_ms)
    config = uvicorn.Config(app, **uvicorn_options())
    handoff = os.environ.get("MUSTER_HANDOFF", "")
    if handoff:
        RoutingServer(app, config, sock, Path(handoff), int(os.environ["MUSTER_WORKER_INDEX"]),
                      int(os.environ["MUSTER_WORKERS"])).run(sockets=[])
    else:
        uvicorn.Server(config).run(sockets=[sock])


def owner_of(game_id: str, size: int) -> int | None:
    """The worker owning a game id (as :meth:`muster.server.bus.Bus.owns` decides), or None if it is no id."""
    try:
        return int(game_id[:8], 16) % size
    except ValueError:
        return None


class RoutingServer(uvicorn.Server):
    """A uvicorn server that accepts the connections itself and sends each game's websocket to the
    worker owning the game (the socket itself is passed over a Unix socket, ``SCM_RIGHTS``), so a
    game's sockets meet in one process and each change is applied once. Everything else is served
    where it arrived."""

    def __init__(self, app: Any, config: Any, listener: socket.socket, directory: Path, index: int,
                 size: int) -> None:
        super().__init__(config)
        self.app = app
        self.listener, self.directory, self.index, self.size = listener, directory, index, size
        self.routed = 0
        self._tasks: set[asyncio.Task[Any]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start the app, then accept on the shared socket and take connections handed over."""
        await super().startup(sockets=[])
        loop = asyncio.get_running_loop()
        protocol: Any = self.config.http_protocol_class  # as uvicorn's own startup builds it
        self._factory = functools.partial(protocol, config=self.config, server_state=self.server_state,
                                          app_state=self.lifespan.state)
        self._inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = self.directory / f"handoff-{self.index}.sock"
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        self._inbox.bind(str(path))
        self._inbox.setblocking(False)
        loop.add_reader(self._inbox.fileno(), self._take_handed)
        self.listener.setblocking(False)
        self._spawn(self._accept())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.should_exit:
            try:
                conn, _ = await loop.sock_accept(self.listener)
            except OSError:
                await asyncio.sleep(0.01)
                continue
            self._spawn(self._route(conn))

    async def _route(self, conn: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(10):  # a client that sends no request line in time is closed
                line = await self._request_line(conn)
            target = await self._target(line)
        except (TimeoutError, OSError, ValueError):
            conn.close()
            return
        if target is not None and target != self.index:
            try:
                # sendmsg itself: socket.send_fds ignores its address argument
                self._inbox.sendmsg([b"c"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [conn.fileno()]))],
                                    0, str(self.directory / f"handoff-{target}.sock"))
                self.routed += 1
                conn.close()  # the owner holds its own copy of the descriptor now
                return
            except OSError as exc:
                log.debug("worker %d could not hand a socket to worker %d: %s", self.index, target, exc)
                # the owner is restarting: serve it here (the processes share every change anyway)
        await loop.connect_accepted_socket(self._factory, conn)

    @staticmethod
    async def _request_line(conn: socket.socket) -> bytes:
        """The request's first line, peeked at (the bytes stay for the HTTP server to read)."""
        loop = asyncio.get_running_loop()
        while True:
            ready = loop.create_future()
            loop.add_reader(conn.fileno(), ready.set_result, None)
            try:
                await ready
            finally:
                loop.remove_reader(conn.fileno())
            data = conn.recv(2048, socket.MSG_PEEK)
            if not data:
                raise OSError("closed before the request")
            if b"\r\n" in data or len(data) >= 2048:
                return data.split(b"\r\n", 1)[0]
            await asyncio.sleep(0.005)  # a partial line: more is on its way

    async def _target(self, line: bytes) -> int | None:
        parts = line.split(b" ")
        if len(parts) < 2 or parts[0] != b"GET" or not parts[1].startswith(b"/ws/"):
            return None
        path = parts[1].split(b"?", 1)[0].decode("latin-1")
        if path.startswith("/ws/watch/"):
            return owner_of(path[len("/ws/watch/"):], self.size)
        from muster.server.hub import hash_token

        token = path[len("/ws/"):]
        if not 8 <= len(token) <= 128:
            return None
        hub = getattr(self.app.state, "hub", None)
        if hub is None:
            return None
        found = await asyncio.to_thread(hub.store.seat_for_token, hash_token(token))  # route by game, whoever holds it
        return owner_of(found[0], self.size) if found else None

    def _take_handed(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                _, fds, _, _ = socket.recv_fds(self._inbox, 16, 8)
            except (BlockingIOError, InterruptedError):
                return
            for fd in fds:
                conn = socket.socket(fileno=fd)
                conn.setblocking(False)
                self._spawn(loop.connect_accepted_socket(self._factory, conn))

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop accepting and taking connections, then shut down as uvicorn does."""
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self._inbox.fileno())
        for task in list(self._tasks):
            task.cancel()
        self.listener.close()
        await super().shutdown(sockets=sockets)



if __name__ == "__main__":
    worker_main()
