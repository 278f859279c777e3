"""The web server's own work per action, in one process, without sockets: a steadier figure than
``benchmarks/server.py`` on a shared machine (no second process, no kernel, no client to compete with).

``--games`` person-vs-person games (both seats "connected" through connections that only encode their
messages, as the real sender does, and count the bytes) take random legal actions through
:meth:`muster.server.hub.Hub.act`, concurrently, with the real group writer and a temporary SQLite file. The
figure is the process's CPU time (all threads: the event loop and the writer) per acknowledged action. The
cyclic garbage collector is tuned as in a server process (:func:`muster.server.app.tune_gc`; ``--default-gc``
keeps Python's defaults, which add 10–15% of collections the server does not make).
``--profile out.prof`` writes a cProfile of the event loop's thread.

    python benchmarks/hub.py [--games 100 --actions 6000 --profile hub.prof]

The last line is JSON: ``cpu_ms_per_action``, ``loop_cpu_ms_per_action`` (the event loop's thread alone; the
rest is the group writer's thread, SQLite and its system calls), ``actions``, ``wall_s``, ``push_bytes_p50``.
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import typer

from muster.server.app import tune_gc
from muster.server.db import make_engine, migrate
from muster.server.hub import Connection, Hub
from muster.server.store import Store


async def _run(games: int, actions: int, seed: int, profile: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'hub.db'}")
        migrate(engine)
        hub = Hub(Store(engine), default_bot_delay_ms=0, keep_games=games + 10)
        sizes: list[int] = []

        class Counter:
            """A writer that only counts the bytes (the messages are encoded as for a real socket)."""

            def ready(self) -> bool:
                return True

            def write_now(self, texts: list[bytes]) -> None:
                sizes.extend(len(t) for t in texts)

            async def __call__(self, texts: list[bytes]) -> None:
                self.write_now(texts)

        async def send_text(text: str) -> None:
            sizes.append(len(text))

        async def close(code: int) -> None:
            return None

        lives = []
        for _ in range(games):
            made = await hub.create({"imperial": "human", "insurgent": "human"}, {"ruleset": "2nd"}, None, 0, "freedom",
                                    "imperial", "device:benchmark")
            live = await hub.get(made.game_id)
            conns = {}
            for seat in live.seats:
                try:
                    conn = Connection(seat, send_text, close, writer=Counter())
                except TypeError:  # a server before batched writes (for before/after runs)
                    conn = Connection(seat, send_text, close)
                live.attach(conn)
                conns[seat] = conn
            lives.append((live, conns))
        done = 0
        chooser = random.Random(seed)

        async def play(live: Any, conns: dict[str, Connection]) -> None:
            nonlocal done
            while done < actions and live.game.active_seat is not None:
                seat = live.game.active_seat
                action = chooser.choice(live.game.legal_actions())
                await hub.act(live, seat, live.version, action.to_json(),
                              ack=lambda v, c=conns[seat]: c.push({"type": "ack", "id": None, "version": v}))
                done += 1
                await asyncio.sleep(0)  # let the senders run, as a real client's next message would

        profiler = cProfile.Profile() if profile else None
        wall, cpu, loop_cpu = time.perf_counter(), time.process_time(), time.thread_time()
        if profiler:
            profiler.enable()
        await asyncio.gather(*(play(live, conns) for live, conns in lives))
        if profiler:
            profiler.disable()
            profiler.dump_stats(profile)
        cpu, wall, loop_cpu = time.process_time() - cpu, time.perf_counter() - wall, time.thread_time() - loop_cpu
        await hub.close()
        engine.dispose()
    sizes.sort()
    return {"games": games, "actions": done, "wall_s": round(wall, 2),
            "cpu_ms_per_action": round(cpu * 1000 / max(done, 1), 4),
            "loop_cpu_ms_per_action": round(loop_cpu * 1000 / max(done, 1), 4),
            "push_bytes_p50": sizes[len(sizes) // 2] if sizes else None}


def main(games: int = typer.Option(100, help="Games played at once."),
         actions: int = typer.Option(6000, help="Acknowledged actions in all."),
         seed: int = typer.Option(1, help="Seed of the random players."),
         profile: str = typer.Option("", help="Write a cProfile of the run to this file."),
         repeat: int = typer.Option(1, help="Runs; the JSON gives each run's figure and their median."),
         server_gc: bool = typer.Option(True, "--server-gc/--default-gc",
                                        help="Tune the garbage collector as a server process does.")) -> None:
    """Run and print the figures (last line: JSON)."""
    if server_gc:
        tune_gc()
    runs = [asyncio.run(_run(games, actions, seed, profile if k == 0 else "")) for k in range(repeat)]
    figures = sorted(r["cpu_ms_per_action"] for r in runs)
    result = {**runs[0], "cpu_ms_per_action_runs": [r["cpu_ms_per_action"] for r in runs],
              "cpu_ms_per_action": figures[len(figures) // 2]}
    print(json.dumps(result))


if __name__ == "__main__":
    typer.run(main)
