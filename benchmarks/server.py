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

The load client is lean (uvloop, orjson, no per-message work beyond what it needs) because it shares
the machine's cores with the server, and its seats are shared out over ``--clients`` processes (default
2), so that no single client event loop is what the figures measure. The last line is one JSON object with
``saturation_actions_per_s``, ``server_cpu_ms_per_action``, ``human_games``, ``human_p99_ms``,
``push_bytes_p50``, ``rss_mb`` and more.

Latency is measured twice. ``*_p99_ms``: by the load client, from just before sending an action to
reading its acknowledgement; this includes the client's own scheduling delay, so the client also
samples its event loop's lag (``client_lag_p99_ms``: how late a 10 ms timer fires). ``*_server_ack_*``:
by the server itself (``muster.server.metrics``), from reading the action to handing its
acknowledgement to the socket; this leaves out the client, the kernel and the network. Each phase
also records the machine's load average at its start and end (the cores are shared).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import typer
import uvloop
import websockets
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
    # the per-client limits on game creation would refuse the load client's 1,000 games (docs/security.md)
    env = {**os.environ, "MUSTER_CREATE_PER_MINUTE": "0", "MUSTER_REPLAY_PER_SECOND": "0",
           "MUSTER_ACK_TIMES": ack_times}
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


async def seat_client(url: str, seed: int, stats: Stats, clock: Clock, think: float,
                      gate: asyncio.Semaphore) -> None:
    """Play one seat: when the newest state offers legal actions, wait ``think`` seconds on average,
    send a random one and time its acknowledgement. Connects first; acts once the clock starts."""
    chooser = random.Random(seed)
    latest: dict[str, Any] | None = None
    sent_at: float | None = None
    try:
        async with gate:
            ws = await websockets.connect(url, max_size=2**24, open_timeout=120, ping_interval=None,
                                          compression=None)
            first = await ws.recv()
        async with ws:
            latest = orjson.loads(first)
            clock.connected += 1
            await clock.start.wait()
            while True:
                if sent_at is None and latest and latest.get("legal"):
                    action = chooser.choice(latest["legal"])["action"]
                    version = latest["version"]
                    latest = None  # wait for the state that follows our action before choosing again
                    if think:
                        await asyncio.sleep(chooser.uniform(0, 2 * think))
                    if time.monotonic() >= clock.stop_at:
                        return
                    sent_at = time.perf_counter()
                    await ws.send(orjson.dumps({"type": "action", "version": version, "action": action}).decode())
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, clock.stop_at - time.monotonic()))
                except TimeoutError:
                    return
                message = orjson.loads(raw)
                kind = message["type"]
                if kind == "state":
                    stats.push_bytes.append(len(raw))
                    if message.get("outcome"):
                        stats.finished += 1
                        return
                    # a newer state may follow at once (the other seat's bot-free reply): keep the latest
                    latest = message
                elif kind == "ack" and sent_at is not None:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                elif kind == "error":
                    stats.refused += 1
                    stats.errors.append(message["error"])
                    sent_at = None
    except (OSError, TimeoutError, websockets.WebSocketException):
        stats.dropped += 1


async def create_games(base: str, games: int) -> list[str]:
    """Create person-vs-person games (a few requests at a time) and return their seat tokens."""
    tokens: list[str] = []
    limits = httpx.Limits(max_connections=4)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        async def one(k: int) -> None:
            response = await client.post("/api/games", json={"imperial": "human", "insurgent": "human"})
            response.raise_for_status()
            tokens.extend(response.json()["tokens"].values())
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
