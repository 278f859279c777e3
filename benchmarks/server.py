"""Web server load: N concurrent games driven over websockets by scripted clients, on loopback.

Starts ``muster serve`` (a subprocess, temporary SQLite database in WAL mode), creates N
person-vs-person games, connects both seats of each over a websocket, and lets scripted clients
play random legal actions for a bounded time. Measures applied actions per second and the latency
from sending an action to receiving its acknowledgement (which comes after the durable write).

    python3 benchmarks/server.py --games 100 --seconds 20 [--plot latency.png]

Prints the numbers; the last line is one JSON object with actions_per_s, p50_ms and p99_ms.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import typer
import websockets
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

console = Console(stderr=True)


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, database_url: str) -> subprocess.Popen[bytes]:
    """``muster serve`` on the port, waiting until it answers."""
    proc = subprocess.Popen([sys.executable, "-m", "muster.cli.main", "serve", "--port", str(port),
                             "--database-url", database_url], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class Stats:
    """Latencies of acknowledged actions and counts of refusals."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.refused = 0
        self.errors: list[str] = []
        self.finished = 0


async def seat_client(url: str, seed: int, stats: Stats, stop_at: float) -> None:
    """Play one seat: whenever the newest state offers legal actions, send a random one and time its ack."""
    chooser = random.Random(seed)
    latest: dict[str, Any] | None = None
    sent_at: float | None = None
    async with websockets.connect(url, max_size=2**24) as ws:
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] == "state":
                latest = message
                if message["outcome"]:
                    stats.finished += 1
                    return
            elif message["type"] == "ack" and sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            elif message["type"] == "error":
                stats.refused += 1
                stats.errors.append(message["error"])
                sent_at = None
            if sent_at is None and latest and latest["legal"]:
                action = chooser.choice(latest["legal"])["action"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "version": latest["version"], "action": action}))
                latest = None  # wait for the state that follows our action before choosing again


async def drive(base: str, games: int, seconds: float) -> tuple[Stats, float]:
    """Create the games, then run every seat's client concurrently for ``seconds``."""
    stats = Stats()
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        tokens: list[str] = []
        for k in range(games):
            made = (await client.post("/api/games", json={"imperial": "human", "insurgent": "human",
                                                           "seed": k})).json()
            tokens += list(made["tokens"].values())
    ws_base = base.replace("http://", "ws://")
    start = time.monotonic()
    stop_at = start + seconds
    tasks = [asyncio.create_task(seat_client(f"{ws_base}/ws/{t}", i, stats, stop_at)) for i, t in enumerate(tokens)]
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[done]} actions"),
                  TimeRemainingColumn(), console=console) as progress:
        bar = progress.add_task(f"{games} games over websockets", total=seconds, done=0)
        while not all(t.done() for t in tasks) and time.monotonic() < stop_at:
            await asyncio.sleep(0.25)
            progress.update(bar, completed=time.monotonic() - start, done=len(stats.latencies))
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, time.monotonic() - start


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), or NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main(games: int = typer.Option(100, help="Concurrent games (two websocket clients each)."),
         seconds: float = typer.Option(20.0, help="How long to drive them."),
         plot: Path | None = typer.Option(None, help="Also save a latency histogram (PNG) here."),
         server_url: str = typer.Option("", help="Drive a server already running here instead of starting one."),
         database_url: str = typer.Option("", help="Database of the server started (default: a temporary SQLite "
                                                   "file)."),
         ) -> None:
    """Run the load test and print the numbers (last line: JSON)."""
    server_cpu = float("nan")
    if server_url:
        stats, elapsed = asyncio.run(drive(server_url.rstrip("/"), games, seconds))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            proc = start_server(port, database_url or f"sqlite:///{Path(tmp) / 'bench.db'}")
            try:
                before = cpu_seconds(proc.pid)
                stats, elapsed = asyncio.run(drive(f"http://127.0.0.1:{port}", games, seconds))
                server_cpu = cpu_seconds(proc.pid) - before
            finally:
                proc.terminate()
                proc.wait(10)
    if not stats.latencies:
        raise typer.Exit("no action was acknowledged")
    ms = [x * 1000 for x in stats.latencies]
    backend = "external" if server_url else (database_url or "sqlite").split(":")[0]
    result = {"database": backend, "games": games, "seconds": round(elapsed, 1), "actions": len(ms),
              "actions_per_s": round(len(ms) / elapsed, 1), "p50_ms": round(percentile(ms, 50), 2),
              "p99_ms": round(percentile(ms, 99), 2), "refused": stats.refused, "finished_games": stats.finished,
              "server_cpu_ms_per_action": round(server_cpu * 1000 / len(ms), 2)}
    print(f"{result['actions']} actions in {result['seconds']} s over {games} games: "
          f"{result['actions_per_s']} actions/s, latency p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms "
          f"({stats.refused} refused, {stats.finished} seat clients saw their game end; "
          f"server CPU {result['server_cpu_ms_per_action']} ms per action, load average {os.getloadavg()[0]:.1f})")
    for error in sorted(set(stats.errors))[:5]:
        print(f"refused: {error}")
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
        ax.hist(ms, bins=60, color="#2457a6")
        ax.set_xlabel("action → acknowledgement (ms)")
        ax.set_ylabel("actions")
        ax.set_title(f"{games} concurrent games: {result['actions_per_s']} actions/s")
        fig.tight_layout()
        fig.savefig(plot)
        print(f"histogram written to {plot}")
    print(json.dumps(result))


if __name__ == "__main__":
    typer.run(main)
