"""Web server load: real websocket clients against a real ``muster serve`` process, on loopback.

Two phases, each against a freshly started server (temporary SQLite database unless
``--database-url`` is given):

1. **Saturation**: ``--games`` person-vs-person games (default 100) whose two seats act flat out:
   as soon as a seat's state offers legal actions it sends a random one. Gives acknowledged
   (durable) actions per second, the server processes' CPU time per action, and the push sizes.
2. **Human pace**: ``--human-games`` games (default 1,000), both seats connected, each acting
   on average every ``--think`` seconds (default 2). Gives the latency from sending an action to
   its acknowledgement (which comes after the commit), and the server's memory per live game.

    python3 benchmarks/server.py [--games 100 --seconds 15 --human-games 1000 --human-seconds 30]

The load client is lean because it shares the machine's cores with the server: each seat is a websocket
client written straight on an asyncio protocol (:class:`SeatProtocol`, on uvloop: no task or timer per
message, an acknowledgement recognised without decoding it, orjson for the states), and the seats are
shared out over ``--clients`` processes (default 2), so that no single client event loop is what the
figures measure. The last line is one JSON object with
``saturation_actions_per_s``, ``server_cpu_ms_per_action``, ``human_games``, ``human_p99_ms``,
``push_bytes_p50``, ``rss_mb`` and more.

Latency is measured twice. ``*_p99_ms``: by the load client, from just before sending an action to
reading its acknowledgement; this includes the client's own scheduling delay, so the client also
samples its event loop's lag (``client_lag_p99_ms``: how late a 10 ms timer fires). ``*_server_ack_*``:
by the server itself (``muster.server.metrics``), from reading the action to handing its
acknowledgement to the socket; this leaves out the client, the kernel and the network. Each phase
also records the machine's load average at its start and end (the cores are shared).

Where the saturation round trip goes: ``saturation_commits`` (the server's group commits over the
measured period: per second, changes per commit, the commit's time with its fsync, how long the writer
waited for work, and how late the event loop completed a committed batch) and
``saturation_server_threads_cpu_share`` (each server thread's share of a core; ``loop`` is the event loop).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import multiprocessing
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
import orjson
import typer
import uvloop
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

console = Console(stderr=True)


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, database_url: str, extra: list[str], ack_times: str) -> subprocess.Popen[bytes]:
    """``muster serve`` on the port, waiting until it answers; each server process writes its own
    acknowledgement times to ``ack_times``.<pid>.json at shutdown (muster.server.metrics)."""
    # the per-client limits on game creation would refuse the load client's 1,000 games, and the caps per
    # address its 2,000 sockets, all from loopback; its seats act faster than people (docs/security.md)
    env = {**os.environ, "MUSTER_CREATE_PER_MINUTE": "0", "MUSTER_REPLAY_PER_SECOND": "0",
           "MUSTER_WS_MESSAGES_PER_SECOND": "0", "MUSTER_WS_PER_ADDRESS": "0", "MUSTER_CONNECTIONS_PER_ADDRESS": "0",
           "MUSTER_ACK_TIMES": ack_times, "MUSTER_LOG_LEVEL": "warning"}  # no per-action log lines in the figures
    proc = subprocess.Popen([sys.executable, "-m", "muster.cli.main", "serve", "--port", str(port),
                             "--database-url", database_url, *extra], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def process_tree(pid: int) -> list[int]:
    """The process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and its descendants (Linux /proc)."""
    total = 0.0
    for p in process_tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
    return total


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds so far of each thread of a process and its descendants, summed by thread name (the
    event loop's thread is ``loop``; Python 3.11 does not name the others in the kernel, so the group
    writer and the SQLite checkpointer are counted under the interpreter's name)."""
    out: dict[str, float] = {}
    for p in process_tree(pid):
        try:
            tasks = list(Path(f"/proc/{p}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                head, tail = (task / "stat").read_text().rsplit(")", 1)
                fields = tail.split()
            except (OSError, ValueError):
                continue
            name = "loop" if task.name == str(p) else head.split("(", 1)[1]
            out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its descendants, in MB."""
    total = 0
    for p in process_tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


@dataclass
class Stats:
    """Latencies of acknowledged actions, sizes of state pushes, and refusals."""

    latencies: list[float] = field(default_factory=list)
    push_bytes: list[int] = field(default_factory=list)
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    dropped: int = 0
    lag: list[float] = field(default_factory=list)
    """How late the load client's own event loop woke for a 10 ms timer (its scheduling delay, which
    every latency it measures includes)."""

    def merge(self, other: Stats) -> None:
        """Add another load-client process's numbers to these."""
        self.latencies += other.latencies
        self.push_bytes += other.push_bytes
        self.refused += other.refused
        self.errors += other.errors
        self.finished += other.finished
        self.dropped += other.dropped
        self.lag += other.lag


async def watch_lag(stats: Stats, clock: Clock) -> None:
    """Sample the load client's event-loop lag every 10 ms while the clock runs."""
    await clock.start.wait()
    while time.monotonic() < clock.stop_at:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.lag.append(time.perf_counter() - before - 0.01)


@dataclass
class Clock:
    """When the measured period starts and stops (set once every client is connected)."""

    start: asyncio.Event = field(default_factory=asyncio.Event)
    stop_at: float = float("inf")
    connected: int = 0


class SeatProtocol(asyncio.Protocol):
    """One seat's websocket client (RFC 6455) written straight on an asyncio protocol.

    It is a real client of the real protocol (the HTTP upgrade with its key check, masked client frames,
    pings answered, a close frame at the end), but it does only what the load needs: no task, timer or
    future per message, frames parsed in place from the received bytes, and a message decoded only when
    it is a state (an acknowledgement is recognised by its first bytes, which the server writes in a
    fixed order, with a full decode as the fallback). The seat plays as :func:`seat_client` describes."""

    def __init__(self, host: str, path: str, seed: int, stats: Stats, clock: Clock, think: float) -> None:
        self.host, self.path, self.stats, self.clock, self.think = host, path, stats, clock, think
        self.chooser = random.Random(seed)
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False
        self.key = base64.b64encode(os.urandom(16)).decode()
        self.first: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.latest: dict[str, Any] | None = None
        self.sent_at: float | None = None
        self.pending: asyncio.TimerHandle | None = None
        self.done = False
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.fragments = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Send the upgrade request."""
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports do not subclass asyncio's
        self.transport.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                              f"Cookie: muster_device={DEVICE}\r\n"
                              f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key}\r\n"
                              "Sec-WebSocket-Version: 13\r\n\r\n").encode())

    def connection_lost(self, exc: Exception | None) -> None:
        """A connection that ends before the stop (or before it got going) is counted as dropped."""
        if not self.done:
            self.done = True
            self.stats.dropped += 1
            if not self.first.done():
                self.first.set_exception(ConnectionError("closed before the first state"))
        if not self.ended.done():
            self.ended.set_result(None)

    def data_received(self, data: bytes) -> None:
        """Parse every whole frame in the buffer."""
        buf = self.buffer
        buf += data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end]).decode("latin-1")
            accept = base64.b64encode(hashlib.sha1((self.key + WS_GUID).encode()).digest()).decode()
            if not head.startswith("HTTP/1.1 101") or accept not in head:
                self.first.set_exception(ConnectionError(head.split("\r\n", 1)[0]))
                self.done = True
                assert self.transport is not None
                self.transport.close()
                return
            del buf[:end + 4]
            self.upgraded = True
        pos, size = 0, len(buf)
        while size - pos >= 2:
            opcode, length = buf[pos] & 0x0F, buf[pos + 1] & 0x7F
            fin = buf[pos] & 0x80
            head = 2
            if length == 126:
                if size - pos < 4:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
            if size - pos < head + length:
                break
            payload = bytes(buf[pos + head:pos + head + length])  # server frames are never masked
            pos += head + length
            if opcode == 0x0 or (opcode == 0x1 and not fin):  # a fragmented message: gather it
                self.fragments += payload
                if not fin:
                    continue
                payload, self.fragments = bytes(self.fragments), bytearray()
                opcode = 0x1
            if opcode == 0x1:
                self.message(payload)
            elif opcode == 0x9:
                self.send_frame(0xA, payload)
            elif opcode == 0x8:
                self.close()
        del buf[:pos]

    def send_frame(self, opcode: int, payload: bytes) -> None:
        """One masked client frame (a fresh random key per frame, as the RFC asks)."""
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        head = bytes([0x80 | opcode, 0x80 | n]) if n < 126 else bytes([0x80 | opcode, 0xFE]) + n.to_bytes(2, "big")
        mask = os.urandom(4)
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big") if n else b""
        self.transport.write(head + mask + masked)

    def close(self) -> None:
        """Say goodbye (close frame 1000) and close the socket; not counted as a drop."""
        if self.done:
            return
        self.done = True
        if self.pending is not None:
            self.pending.cancel()
        self.send_frame(0x8, (1000).to_bytes(2, "big"))
        assert self.transport is not None
        self.transport.close()

    def message(self, raw: bytes) -> None:
        """One server message."""
        if raw.startswith(ACK_PREFIX):
            kind, message = "ack", None
        else:
            message = orjson.loads(raw)
            kind = message["type"]
        if not self.first.done():  # the first state, before the clock starts
            self.latest = message
            self.first.set_result(None)
            return
        if kind == "state":
            assert message is not None
            self.stats.push_bytes.append(len(raw))
            if message.get("outcome"):
                self.stats.finished += 1
                self.close()
                return
            # a newer state may follow at once (the other seat's bot-free reply): keep the latest
            self.latest = message
        elif kind == "ack" and self.sent_at is not None:
            self.stats.latencies.append(time.perf_counter() - self.sent_at)
            self.sent_at = None
        elif kind == "error":
            assert message is not None
            self.stats.refused += 1
            self.stats.errors.append(message["error"])
            self.sent_at = None
        self.maybe_act()

    def maybe_act(self) -> None:
        """Choose an action when the newest state offers some and none is in flight (after the think time)."""
        latest = self.latest
        if self.done or self.sent_at is not None or self.pending is not None or not latest or not latest.get("legal"):
            return
        action = self.chooser.choice(latest["legal"])["action"]
        self.latest = None  # wait for the state that follows our action before choosing again
        frame = orjson.dumps({"type": "action", "version": latest["version"], "action": action})
        if self.think:
            self.pending = asyncio.get_running_loop().call_later(
                self.chooser.uniform(0, 2 * self.think), self.send_action, frame)
        else:
            self.send_action(frame)

    def send_action(self, frame: bytes) -> None:
        """Send a chosen action (unless the clock has stopped) and start timing it."""
        self.pending = None
        if self.done or time.monotonic() >= self.clock.stop_at:
            return
        self.sent_at = time.perf_counter()
        self.send_frame(0x1, frame)


WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
DEVICE = secrets.token_urlsafe(32)
"""The device session every seat of this benchmark belongs to (seats open only with their holder's session)."""
ACK_PREFIX = b'{"type":"ack"'
"""How the server's acknowledgements begin (orjson keeps the dict's order: ``type`` first)."""


async def seat_client(url: str, seed: int, stats: Stats, clock: Clock, think: float,
                      gate: asyncio.Semaphore) -> None:
    """Play one seat: when the newest state offers legal actions, wait ``think`` seconds on average,
    send a random one and time its acknowledgement. Connects first; acts once the clock starts, stops
    at the clock's stop (or when the game ends)."""
    loop = asyncio.get_running_loop()
    rest = url.split("://", 1)[1]
    hostport, path = rest.split("/", 1)
    host, port = hostport.rsplit(":", 1)
    try:
        async with gate:
            _, proto = await loop.create_connection(
                lambda: SeatProtocol(hostport, "/" + path, seed, stats, clock, think), host, int(port))
            await asyncio.wait_for(proto.first, 120)
    except (OSError, TimeoutError, ConnectionError):
        stats.dropped += 1
        return
    clock.connected += 1
    await clock.start.wait()
    stopper = loop.call_at(loop.time() + max(0.0, clock.stop_at - time.monotonic()), proto.close)
    proto.maybe_act()
    await proto.ended
    stopper.cancel()


async def create_games(base: str, games: int) -> list[str]:
    """Create person-vs-person games (a few requests at a time) and return their seat tokens."""
    tokens: list[str] = []
    limits = httpx.Limits(max_connections=4)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits,
                                 cookies={"muster_device": DEVICE}) as client:
        async def one(k: int) -> None:
            response = await client.post("/api/games", json={"imperial": "human", "insurgent": "human"})
            response.raise_for_status()
            made = response.json()
            tokens.extend(made["tokens"].values())
            for code in made["invitations"].values():  # this benchmark plays both seats, from one device
                claimed = await client.post(f"/api/invitations/{code}/claim", json={})
                claimed.raise_for_status()
                tokens.append(claimed.json()["token"])
        for start in range(0, games, 50):
            await asyncio.gather(*(one(k) for k in range(start, min(games, start + 50))))
    return tokens


async def play_seats(ws_base: str, tokens: list[str], first: int, think: float, stats: Stats,
                     connected: Any, start_at: Any) -> float:
    """One load-client process: connect every seat of ``tokens``, call ``connected()`` once all are in,
    wait for ``start_at()`` (a ``time.monotonic`` instant, the same clock in every process of the machine)
    and play until the stop. Returns this process's CPU seconds over the measured period."""
    clock = Clock()
    lag_task = asyncio.create_task(watch_lag(stats, clock))
    gate = asyncio.Semaphore(50)  # connecting: a few at a time, like people arriving
    tasks = [asyncio.create_task(seat_client(f"{ws_base}/ws/{t}?board=0", first + i, stats, clock, think, gate))
             for i, t in enumerate(tokens)]
    deadline = time.monotonic() + 300
    while clock.connected + stats.dropped < len(tasks) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    connected()
    start, seconds = await start_at()
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    cpu = time.process_time()
    clock.stop_at = start + seconds
    clock.start.set()
    await asyncio.gather(*tasks, lag_task, return_exceptions=True)
    return time.process_time() - cpu


def client_process(pipe: Any, ws_base: str, tokens: list[str], first: int, think: float) -> None:
    """A second (third, ...) load-client process: plays its share of the seats and sends back its numbers."""
    stats = Stats()

    async def start_at() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        got: tuple[float, float] = await loop.run_in_executor(None, pipe.recv)
        return got

    cpu = uvloop.run(play_seats(ws_base, tokens, first, think, stats, lambda: pipe.send("connected"), start_at))
    pipe.send((stats, cpu))
    pipe.close()


async def drive(base: str, games: int, seconds: float, think: float, label: str,
                on_start: Any = None, on_running: Any = None, clients: int = 2) -> tuple[Stats, float, float]:
    """Create the games, connect every seat, then let them all play for ``seconds``.

    The seats are shared out over ``clients`` load-client processes (this one and ``clients - 1`` forked
    ones), so that no single client event loop is what limits the figures. Returns the merged stats, the
    measured period and the load clients' CPU seconds over it."""
    tokens = await create_games(base, games)
    ws_base = base.replace("http://", "ws://")
    shares = [tokens[k::clients] for k in range(clients)]
    ctx = multiprocessing.get_context("fork")
    pipes, procs = [], []
    for k in range(1, clients):
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=client_process, args=(theirs, ws_base, shares[k], k * len(tokens), think),
                           daemon=True)
        proc.start()
        pipes.append(mine)
        procs.append(proc)
    stats = Stats()
    ready = asyncio.Event()
    go: asyncio.Future[tuple[float, float]] = asyncio.get_running_loop().create_future()
    own = asyncio.create_task(play_seats(ws_base, shares[0], 0, think, stats, ready.set, lambda: go))
    await ready.wait()
    loop = asyncio.get_running_loop()
    for pipe in pipes:
        if await loop.run_in_executor(None, pipe.recv) != "connected":
            raise RuntimeError("a load-client process failed")
    if on_start:
        on_start()
    start = time.monotonic() + 0.05
    for pipe in pipes:
        pipe.send((start, seconds))
    go.set_result((start, seconds))
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn(), console=console) as progress:
        bar = progress.add_task(label, total=seconds)
        sampled = False
        while not own.done() and time.monotonic() < start + seconds:
            await asyncio.sleep(0.25)
            progress.update(bar, completed=time.monotonic() - start)
            if on_running and not sampled and time.monotonic() > start + seconds * 0.8:
                on_running()
                sampled = True
    cpu = await own
    for pipe, proc in zip(pipes, procs, strict=True):
        theirs, their_cpu = await loop.run_in_executor(None, pipe.recv)
        stats.merge(theirs)
        cpu += their_cpu
        proc.join(10)
    return stats, min(time.monotonic(), start + seconds) - start, cpu


def run_phase(database_url: str, extra: list[str], games: int, seconds: float, think: float,
              label: str, clients: int = 2) -> dict[str, Any]:
    """Start a server, drive ``games`` games, stop it; return the phase's numbers."""
    if os.environ.get("MUSTER_BENCH_SERVER"):  # drive a server already running (e.g. under a profiler)
        stats, elapsed, _ = uvloop.run(drive(os.environ["MUSTER_BENCH_SERVER"], games, seconds, think, label,
                                             clients=clients))
        ms = [x * 1000 for x in stats.latencies]
        nan = float("nan")
        return {"games": games, "actions": len(ms), "actions_per_s": round(len(ms) / elapsed, 1),
                "p50_ms": round(percentile(ms, 50), 2), "p99_ms": round(percentile(ms, 99), 2),
                "load_average": [nan, round(os.getloadavg()[0], 2)], "client_lag_p50_ms": nan,
                "client_lag_p99_ms": nan,
                "refused": stats.refused, "dropped": stats.dropped, "server_cpu_ms_per_action": nan,
                "client_cpu_share": nan, "rss_mb": nan, "rss_kb_per_game": nan,
                "push_bytes_p50": percentile([float(b) for b in stats.push_bytes], 50),
                "push_bytes_p99": percentile([float(b) for b in stats.push_bytes], 99)}
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(port, database_url or f"sqlite:///{Path(tmp) / 'bench.db'}", extra,
                            str(Path(tmp) / "acks"))
        memory: dict[str, float] = {}
        try:
            time.sleep(0.5)
            idle = rss_mb(proc.pid)
            load_start = os.getloadavg()[0]
            before: dict[str, Any] = {"cpu": cpu_seconds(proc.pid)}
            stats, elapsed, client_cpu = uvloop.run(drive(
                f"http://127.0.0.1:{port}", games, seconds, think, label,
                on_start=lambda: before.update(cpu=cpu_seconds(proc.pid), threads=thread_cpu(proc.pid),
                                               start=time.monotonic() + 0.05),
                on_running=lambda: memory.update(rss=rss_mb(proc.pid)), clients=clients))
            cpu = cpu_seconds(proc.pid) - before["cpu"]
            threads = {name: t - before["threads"].get(name, 0.0) for name, t in thread_cpu(proc.pid).items()}
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        server_ms = [x * 1000 for f in Path(tmp).glob("acks.*.json") for x in json.loads(f.read_text())]
        # the whole run's commits (a few before and after the measured period are in too)
        commits = [c for f in Path(tmp).glob("acks-commits.*.json") for c in json.loads(f.read_text())
                   if before["start"] <= c[3] <= before["start"] + elapsed]
    ms = [x * 1000 for x in stats.latencies]
    rss = memory.get("rss", float("nan"))
    lag = [x * 1000 for x in stats.lag]
    return {"games": games, "seconds": round(elapsed, 1), "actions": len(ms),
            "load_average": [round(load_start, 2), round(os.getloadavg()[0], 2)],
            "client_lag_p50_ms": round(percentile(lag, 50), 2), "client_lag_p99_ms": round(percentile(lag, 99), 2),
            "server_ack_p50_ms": round(percentile(server_ms, 50), 2),
            "server_ack_p99_ms": round(percentile(server_ms, 99), 2),
            "actions_per_s": round(len(ms) / elapsed, 1), "p50_ms": round(percentile(ms, 50), 2),
            "p99_ms": round(percentile(ms, 99), 2), "refused": stats.refused, "dropped": stats.dropped,
            "errors": sorted(set(stats.errors))[:3],
            "server_cpu_ms_per_action": round(cpu * 1000 / max(1, len(ms)), 3),
            "client_cpu_share": round(client_cpu / max(elapsed, 1e-9), 2),
            "push_bytes_p50": percentile([float(b) for b in stats.push_bytes], 50),
            "push_bytes_p99": percentile([float(b) for b in stats.push_bytes], 99),
            "rss_mb": round(rss, 1), "rss_kb_per_game": round((rss - idle) * 1024 / games, 1),
            "server_threads_cpu_share": {name: round(t / max(elapsed, 1e-9), 2) for name, t in sorted(threads.items())
                                         if t > 0.01 * elapsed},
            "commits_per_s": round(len(commits) / max(elapsed, 1e-9), 1),
            "commit_size_p50": percentile([float(c[0]) for c in commits], 50),
            "commit_size_mean": round(sum(c[0] for c in commits) / max(1, len(commits)), 1),
            "commit_ms_p50": round(percentile([c[1] * 1000 for c in commits], 50), 2),
            "commit_ms_p90": round(percentile([c[1] * 1000 for c in commits], 90), 2),
            "writer_idle_ms_p50": round(percentile([c[2] * 1000 for c in commits], 50), 2),
            "writer_idle_ms_mean": round(sum(c[2] for c in commits) * 1000 / max(1, len(commits)), 2),
            "settle_delay_ms_p50": round(percentile([c[4] * 1000 for c in commits if c[4] == c[4]], 50), 2),
            "settle_delay_ms_p90": round(percentile([c[4] * 1000 for c in commits if c[4] == c[4]], 90), 2),
            "writer_busy_share": round(sum(c[1] for c in commits) / max(1e-9, sum(c[1] + c[2] for c in commits)), 2)}


def main(games: int = typer.Option(100, help="Saturation phase: games acting flat out."),
         seconds: float = typer.Option(15.0, help="Saturation phase: how long."),
         human_games: int = typer.Option(1000, help="Human phase: live games acting at human pace (0: skip)."),
         human_seconds: float = typer.Option(30.0, help="Human phase: how long."),
         think: float = typer.Option(2.0, help="Human phase: mean seconds between a game's actions."),
         database_url: str = typer.Option("", help="Database of the servers started (default: a temporary "
                                                   "SQLite file per phase)."),
         server_args: str = typer.Option("", help="Extra arguments for `muster serve`, e.g. '--workers 2'."),
         clients: int = typer.Option(2, min=1, help="Load-client processes the seats are shared out over."),
         ) -> None:
    """Run both phases and print the numbers (last line: JSON)."""
    extra = server_args.split()
    saturation = run_phase(database_url, extra, games, seconds, 0.0, f"{games} games flat out", clients)
    console.print(f"saturation: {saturation}")
    human = (run_phase(database_url, extra, human_games, human_seconds, think,
                       f"{human_games} games at human pace", clients) if human_games else {})
    if human:
        console.print(f"human pace: {human}")
    backend = (database_url or "sqlite").split(":")[0]
    sync = extra[extra.index("--sqlite-sync") + 1] if "--sqlite-sync" in extra else "full"
    result = {
        "database": backend, "server_args": server_args, "load_clients": clients,
        "sqlite_sync": sync if backend == "sqlite" else None,
        "saturation_games": games, "saturation_actions_per_s": saturation["actions_per_s"],
        "saturation_p50_ms": saturation["p50_ms"], "saturation_p99_ms": saturation["p99_ms"],
        "server_cpu_ms_per_action": saturation["server_cpu_ms_per_action"],
        "push_bytes_p50": saturation["push_bytes_p50"], "push_bytes_p99": saturation["push_bytes_p99"],
        "human_games": human_games, "human_actions_per_s": human.get("actions_per_s"),
        "human_p50_ms": human.get("p50_ms"), "human_p99_ms": human.get("p99_ms"),
        "human_server_cpu_ms_per_action": human.get("server_cpu_ms_per_action"),
        "client_cpu_share": [saturation["client_cpu_share"], human.get("client_cpu_share")],
        "rss_mb": human.get("rss_mb", saturation["rss_mb"]),
        "rss_kb_per_game": human.get("rss_kb_per_game", saturation["rss_kb_per_game"]),
        "refused": saturation["refused"] + human.get("refused", 0),
        "dropped_clients": saturation["dropped"] + human.get("dropped", 0),
        "load_average": round(os.getloadavg()[0], 2),
        "load_average_saturation": saturation["load_average"], "load_average_human": human.get("load_average"),
        "client_lag_p99_ms": [saturation["client_lag_p99_ms"], human.get("client_lag_p99_ms")],
        "human_client_lag_p50_ms": human.get("client_lag_p50_ms"),
        "saturation_server_ack_p50_ms": saturation.get("server_ack_p50_ms"),
        "saturation_server_ack_p99_ms": saturation.get("server_ack_p99_ms"),
        "saturation_server_threads_cpu_share": saturation.get("server_threads_cpu_share"),
        "saturation_commits": {k: saturation.get(k) for k in (
            "commits_per_s", "commit_size_p50", "commit_size_mean", "commit_ms_p50", "commit_ms_p90",
            "writer_idle_ms_p50", "writer_idle_ms_mean", "settle_delay_ms_p50", "settle_delay_ms_p90",
            "writer_busy_share")},
        "human_server_ack_p50_ms": human.get("server_ack_p50_ms"),
        "human_server_ack_p99_ms": human.get("server_ack_p99_ms"),
    }
    print(f"saturation: {result['saturation_actions_per_s']} actions/s over {games} games "
          f"(p99 {result['saturation_p99_ms']} ms), server CPU {result['server_cpu_ms_per_action']} ms/action, "
          f"push p50 {result['push_bytes_p50']} B; human pace: {human_games} games, "
          f"p99 {result['human_p99_ms']} ms, RSS {result['rss_mb']} MB ({result['rss_kb_per_game']} KB/game)")
    print(json.dumps(result))


if __name__ == "__main__":
    typer.run(main)
