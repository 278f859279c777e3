"""What a clock costs a move: the time to acknowledge a move over HTTP in games with and without a pace.

    python benchmarks/clocks.py [--moves 200] [--paces none,fast]

Starts a ``muster serve`` process on a fresh SQLite database, creates for each pace a game between two people
(one client holding both seats) and plays ``--moves`` random legal actions in it over HTTP, timing each
``POST /api/seat/<token>/action`` until its answer. The clock's own write happens after the answer, so what
it may cost shows as the pace's acknowledgement time against ``none``'s (and as the clock's writes competing
for the database). The last line printed is JSON, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _play(client: httpx.Client, pace: str, moves: int, chooser: random.Random) -> list[float]:
    body = {"imperial": "human", "insurgent": "human", "seat": "imperial"}
    if pace != "none":
        body["pace"] = pace
    made = client.post("/api/games", json=body).json()
    tokens = dict(made["tokens"])
    tokens["insurgent"] = client.post(f"/api/invitations/{made['invitations']['insurgent']}/claim",
                                      json={}).json()["token"]
    times: list[float] = []
    while len(times) < moves:
        states = [client.get(f"/api/seat/{t}").json() for t in tokens.values()]
        acting = next((s for s in states if s["legal"]), None)
        if acting is None:
            break  # the game ended
        token = tokens[acting["seat"]]
        started = time.perf_counter()
        answer = client.post(f"/api/seat/{token}/action", json={"version": acting["version"],
                                                                "action": chooser.choice(acting["legal"])["action"]})
        times.append((time.perf_counter() - started) * 1e3)
        answer.raise_for_status()
    return times


def main() -> None:
    """Run the measurement and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--paces", default="none,fast")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        env = {**os.environ, "MUSTER_CREATE_PER_MINUTE": "0", "MUSTER_LOG_LEVEL": "warning"}
        proc = subprocess.Popen([sys.executable, "-m", "muster.cli.main", "serve", "--port", str(port),
                                 "--database-url", f"sqlite:///{Path(tmp) / 'muster.db'}"], cwd=tmp, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                for _ in range(600):
                    try:
                        if client.get("/api/meta").status_code == 200:
                            break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                for pace in args.paces.split(","):
                    times = _play(client, pace, args.moves, random.Random(7))
                    results[pace] = {"moves": len(times), "median_ms": round(statistics.median(times), 2),
                                     "p90_ms": round(statistics.quantiles(times, n=10)[-1], 2)}
        finally:
            proc.terminate()
            proc.wait(10)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
