"""Hellenes engine speed on one core: random decisions per CPU-second, games/s, state copies/s, JSON size.

Run: ``python benchmarks/hellenes_engine.py [--games 40]``. The last line printed is one JSON object with the
keys ``decisions_per_cpu_s``, ``games_per_cpu_s`` and ``clones_per_s`` (the issue's goal: 50,000 decisions per
CPU-second). CPU time (``time.process_time``) is used, so other load on the machine does not count.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from rich.console import Console
from rich.progress import track
from rich.table import Table

from muster.games.hellenes import RULES
from muster.games.hellenes.state import State


def random_games(count: int) -> tuple[float, float, list[State]]:
    """Play ``count`` quiet random games; return (games per CPU-s, decisions per CPU-s, mid-game states)."""
    decisions = 0
    samples: list[State] = []
    start = time.process_time()
    for seed in track(range(count), description="random games"):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        step = 0
        while RULES.active_seat(state) is not None:
            RULES.apply(state, chooser.choice(RULES.legal_actions(state)))
            step += 1
            if step == 120 and len(samples) < 20:
                samples.append(RULES.clone(state))
        decisions += step
    elapsed = time.process_time() - start
    return count / elapsed, decisions / elapsed, samples


def clones_per_s(states: list[State], rounds: int = 5000) -> float:
    """State copies per CPU-second."""
    start = time.process_time()
    for k in range(rounds):
        states[k % len(states)].clone()
    return rounds / (time.process_time() - start)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    games, decisions, samples = random_games(args.games)
    clones = clones_per_s(samples)
    size = len(json.dumps(samples[0].to_json()))
    table = Table(title="Hellenes engine (one core, CPU time)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("random games / CPU-s", f"{games:.1f}")
    table.add_row("random decisions / CPU-s", f"{decisions:,.0f}")
    table.add_row("state copies / CPU-s", f"{clones:,.0f}")
    table.add_row("state JSON bytes (mid-game)", f"{size:,}")
    Console().print(table)
    print(json.dumps({"decisions_per_cpu_s": round(decisions), "games_per_cpu_s": round(games, 2),
                      "clones_per_s": round(clones), "state_json_bytes": size}))


if __name__ == "__main__":
    main()
