"""A player's action latency while many clients step through a finished game's replay.

Starts a real server (``muster serve``, SQLite in a temporary directory), finishes a game of two bots,
then lets ``--clients`` threads alternate ``step=0`` and the last step of its replay as fast as they can
while one person plays a game over HTTP. The per-client rate limit is off by default (as if every client
came from its own address); ``--rate-limit`` keeps it on. The last line is JSON.

    python benchmarks/replay_attack.py --clients 32 --actions 60
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import Server, act, create, state, wait_finished


def main() -> None:
    """Run the measurement and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--rate-limit", action="store_true", help="keep the per-client replay limit on")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"MUSTER_REPLAY_PER_SECOND": "20"} if args.rate_limit else {}
        srv = Server(f"sqlite:///{Path(tmp) / 'muster.db'}", Path(tmp), env=env)
        srv.start()
        try:
            print(json.dumps(run(srv, args.clients, args.actions)))
        finally:
            srv.stop()


def run(srv: Server, clients: int, actions: int) -> dict[str, object]:
    """The attack and the measured latencies."""
    with srv.client() as c:
        bots = create(c, imperial="random", insurgent="random")
        wait_finished(c, bots["game_id"])
        total = c.get(f"/api/games/{bots['game_id']}/replay", params={"step": 0}).json()["total"]
        people = create(c, imperial="human", insurgent="human")
    stop = threading.Event()
    served = [0] * clients

    def attacker(k: int) -> None:
        with srv.client() as own:
            step = 0
            while not stop.is_set():
                own.get(f"/api/games/{bots['game_id']}/replay", params={"step": step})
                served[k] += 1
                step = total - step

    threads = [threading.Thread(target=attacker, args=(k,), daemon=True) for k in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    latencies = []
    imp, ins = people["tokens"]["imperial"], people["tokens"]["insurgent"]
    started = time.monotonic()
    with srv.client() as c:
        for _ in range(actions):
            token = imp if state(c, imp)["legal"] else ins
            st = state(c, token)
            t0 = time.perf_counter()
            assert act(c, token, st["version"], st["legal"][0]["action"]).status_code == 200
            latencies.append((time.perf_counter() - t0) * 1000)
    elapsed = time.monotonic() - started
    stop.set()
    for t in threads:
        t.join(10)
    latencies.sort()
    return {"clients": clients, "replay_steps": total, "replays_per_s": round(sum(served) / (elapsed + 1.0)),
            "action_p50_ms": round(statistics.median(latencies), 1),
            "action_p90_ms": round(latencies[int(0.9 * len(latencies)) - 1], 1),
            "action_max_ms": round(latencies[-1], 1)}


if __name__ == "__main__":
    main()
