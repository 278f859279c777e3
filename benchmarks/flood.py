"""A websocket message flood from one socket, and what the rest of the server sees meanwhile and after.

Starts a real server (``muster serve``, SQLite in a temporary directory; ``--workers 2`` for two
processes), then one socket of the attacker's own game sends ``--kind`` messages (``sync`` by default;
also ``action`` (stale), ``bogus`` (an unknown type) or ``junk`` (not JSON)) as fast as it can for
``--seconds`` and hangs up, while a person plays another game over HTTP. Prints one JSON line: the
messages sent, how the flooding socket was closed, the other game's action latencies during the flood
(p50, p99, max, and how many timed out), how long ``GET /api/meta`` went unanswered after the attacker
left, and the server's CPU seconds over the whole run.

    python benchmarks/flood.py [--seconds 3 --kind sync --workers 1 --no-budget]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import Server, act, create, device_headers, flood_websocket, state

MESSAGES = {"sync": '{"type":"sync"}', "action": '{"type":"action","version":-1,"action":["pass",null]}',
            "bogus": '{"type":"bogus"}', "junk": "not json at all"}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its children so far (Linux /proc)."""
    total = 0.0
    pids = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    pids.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
    return total


def _flood_into(queue: Any, url: str, headers: dict[str, str], text: str, seconds: float) -> None:
    began = time.monotonic()
    queue.put((began, flood_websocket(url, headers, text, seconds)))


def flood(srv: Server, token: str, seconds: float, kind: str) -> dict[str, Any]:
    """Send messages of ``kind`` as fast as possible for ``seconds`` from a process of its own, on one
    socket at a time, opening another whenever the server closes one."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_flood_into, args=(queue, f"{srv.ws_url}/ws/{token}", device_headers(token),
                                                 MESSAGES[kind], seconds))
    proc.start()
    began, runs = queue.get(timeout=seconds + 900)
    proc.join(30)
    return {"began": began, "sent": sum(n for n, _ in runs), "connections": len(runs),
            "close_codes": sorted({str(code) for _, code in runs})}


def victim(srv: Server, stop: threading.Event, latencies: list[tuple[float, float]], timeouts: list[int]) -> None:
    """Play a game between two people over HTTP, timing each action, until ``stop``."""
    with httpx.Client(base_url=srv.url, timeout=5) as c:
        made = create(c, imperial="human", insurgent="human")
        seats = list(made["tokens"].values())
        k = 0
        while not stop.is_set():
            try:
                st = next((s for s in (state(c, t) for t in seats) if s["legal"]), None)
                if st is None:  # finished: a new game
                    made = create(c, imperial="human", insurgent="human")
                    seats = list(made["tokens"].values())
                    continue
                token = made["tokens"][st["seat"]]
                started = time.monotonic()
                response = act(c, token, st["version"], st["legal"][k % len(st["legal"])]["action"])
                latencies.append((started, time.monotonic() - started))
                assert response.status_code == 200, response.text
                k += 1
            except httpx.TimeoutException:
                timeouts[0] += 1


def run(srv: Server, seconds: float, kind: str) -> dict[str, Any]:
    """The flood, the other game's latencies, and the stall after."""
    assert srv.proc is not None
    with srv.client() as c:
        token = create(c, imperial="human", insurgent="human")["tokens"]["imperial"]
    latencies: list[tuple[float, float]] = []
    timeouts = [0]
    stop = threading.Event()
    player = threading.Thread(target=victim, args=(srv, stop, latencies, timeouts), daemon=True)
    cpu0 = cpu_seconds(srv.proc.pid)
    player.start()
    time.sleep(1)
    result = flood(srv, token, seconds, kind)
    began = result.pop("began")
    during = [x for started, x in latencies if started >= began]
    stop.set()
    left = time.monotonic()
    stalled = None
    while time.monotonic() - left < 600:
        try:
            if httpx.get(srv.url + "/api/meta", timeout=1).status_code == 200:
                stalled = time.monotonic() - left
                break
        except httpx.HTTPError:
            pass
    player.join(30)
    ms = sorted(x * 1000 for x in during)
    return {**result, "kind": kind, "seconds": seconds,
            "other_game_actions": len(ms), "other_game_timeouts": timeouts[0],
            "other_p50_ms": round(statistics.median(ms), 1) if ms else None,
            "other_p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1) if ms else None,
            "other_max_ms": round(ms[-1], 1) if ms else None,
            "meta_stalled_s": None if stalled is None else round(stalled, 2),
            "server_cpu_s": round(cpu_seconds(srv.proc.pid) - cpu0, 2)}


def main() -> None:
    """Run the measurement and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--kind", choices=sorted(MESSAGES), default="sync")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-budget", action="store_true", help="turn the per-socket message budget off")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # the server's own defaults for the message budget (the test suite's servers turn it off)
        env = {} if args.no_budget else {"MUSTER_WS_MESSAGES_PER_SECOND": "50", "MUSTER_WS_MESSAGE_BURST": "100"}
        srv = Server(f"sqlite:///{Path(tmp) / 'muster.db'}", Path(tmp), env=env,
                     args=["--workers", str(args.workers)] if args.workers > 1 else [])
        srv.start()
        try:
            print(json.dumps(run(srv, args.seconds, args.kind)))
        finally:
            srv.stop()


if __name__ == "__main__":
    main()
