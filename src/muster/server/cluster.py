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
import contextlib
import ctypes
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("muster.server.cluster")

UVICORN_OPTIONS: dict[str, Any] = {
    # No access log: seat tokens travel in URLs and must not end up in log files. No per-message
    # deflate: it cost a third of the server's CPU under load, and most messages are small deltas.
    "access_log": False, "log_level": "warning", "ws_max_size": 64 * 1024, "ws_per_message_deflate": False,
}


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket the workers inherit."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(4096)
    sock.set_inheritable(True)
    return sock


def serve_workers(host: str, port: int, database_url: str, bot_delay_ms: int, workers: int) -> None:
    """Run ``workers`` server processes on one port until SIGTERM/SIGINT."""
    from muster.server.db import make_engine, migrate

    engine = make_engine(database_url)
    migrate(engine)  # once, before the workers start (they then find the schema current)
    engine.dispose()
    sock = listening_socket(host, port)
    bus_dir = Path(tempfile.mkdtemp(prefix="muster-bus-"))
    bus = "postgres" if database_url.startswith("postgres") else f"unix:{bus_dir}"
    env = {**os.environ, "MUSTER_WORKERS": str(workers), "MUSTER_BUS": bus}

    def start(index: int) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", "muster.server.cluster", "--fd", str(sock.fileno()),
               "--database-url", database_url, "--bot-delay-ms", str(bot_delay_ms)]
        return subprocess.Popen(cmd, pass_fds=(sock.fileno(),), env={**env, "MUSTER_WORKER_INDEX": str(index)})

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
    import uvicorn

    from muster.server import create_app

    sock = socket.socket(fileno=args.fd)  # the family is read from the socket (TCP: no Nagle delay)
    server = uvicorn.Server(uvicorn.Config(create_app(args.database_url, args.bot_delay_ms), **UVICORN_OPTIONS))
    server.run(sockets=[sock])


if __name__ == "__main__":
    worker_main()
