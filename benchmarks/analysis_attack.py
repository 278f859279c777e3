"""Post-game analyses under attack: what they cost the web process, and a person's actions meanwhile.

Starts a real server (``muster serve``, SQLite in a temporary directory) and finishes ``--games`` games
between random bots. ``--hangups`` clients (each from its own loopback address) ask for the analysis of
one game each and hang up after half a second; then a victim asks for the analysis of another game and
waits for it (polling while the server answers 202), while one person plays a game over HTTP. Prints the
victim's wait, the web process's CPU time over the run, the person's action latencies, and how long a
second request for a finished analysis takes. The last line is JSON. Works against servers that compute
the analysis inside the request as well (they answer 200 at once, when done).

    python benchmarks/analysis_attack.py --hangups 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import Server, act, create, state, wait_finished


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    """Run the measurement and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hangups", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{Path(tmp) / 'muster.db'}", Path(tmp),
                     env={"MUSTER_ANALYSIS_PER_ADDRESS": "1", "MUSTER_HINTS_ADDRESS_PER_MINUTE": "0"})
        srv.start()
        try:
            print(json.dumps(run(srv, args.hangups)))
        finally:
            srv.stop()


def run(srv: Server, hangups: int) -> dict[str, object]:
    """The attack and what it cost."""
    assert srv.proc is not None
    c = srv.client()  # the people's seats are held by this client (its device session): the person plays with it
    games = [create(c, imperial="beginner", insurgent="beginner", seed=100 + seed)["game_id"]
             for seed in range(hangups + 1)]
    for gid in games:
        wait_finished(c, gid, timeout=300)
    people = create(c, imperial="human", insurgent="human")
    cpu_before = cpu_seconds(srv.proc.pid)
    started = time.monotonic()
    for k, gid in enumerate(games[:-1]):  # ask and hang up, each from its own address
        quitter = httpx.Client(base_url=srv.url, timeout=0.5,
                               transport=httpx.HTTPTransport(local_address=f"127.0.0.{10 + k}"))
        with quitter, contextlib.suppress(httpx.TimeoutException):
            quitter.get(f"/api/games/{gid}/analysis")
    latencies: list[float] = []
    done = threading.Event()

    def person() -> None:
        tokens = people["tokens"]
        while not done.is_set():
            token = tokens["imperial"] if state(c, tokens["imperial"])["legal"] else tokens["insurgent"]
            st = state(c, token)
            if st["outcome"]:
                return
            t0 = time.perf_counter()
            act(c, token, st["version"], st["legal"][0]["action"])
            latencies.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.2)

    player = threading.Thread(target=person)
    player.start()
    victim_game = games[-1]
    with httpx.Client(base_url=srv.url, timeout=3600,
                      transport=httpx.HTTPTransport(local_address="127.0.0.99")) as victim:
        asked = time.monotonic()
        first_answer = None
        while True:
            t0 = time.monotonic()
            response = victim.get(f"/api/games/{victim_game}/analysis")
            first_answer = first_answer if first_answer is not None else time.monotonic() - t0
            if response.status_code == 200:
                break
            time.sleep(0.5)
        victim_wait = time.monotonic() - asked
        done.set()
        player.join()
        web_cpu = cpu_seconds(srv.proc.pid) - cpu_before
        t0 = time.perf_counter()
        again = victim.get(f"/api/games/{victim_game}/analysis")
        repeat_ms = (time.perf_counter() - t0) * 1000
        assert again.status_code == 200
    ordered = sorted(latencies)
    return {
        "hangups": hangups, "victim_first_answer_s": round(first_answer, 3), "victim_wait_s": round(victim_wait, 1),
        "web_process_cpu_s": round(web_cpu, 2), "run_s": round(time.monotonic() - started, 1),
        "repeat_request_ms": round(repeat_ms, 1), "person_actions": len(ordered),
        "person_action_ms_p50": round(statistics.median(ordered), 1) if ordered else None,
        "person_action_ms_max": round(ordered[-1], 1) if ordered else None,
    }


if __name__ == "__main__":
    main()
