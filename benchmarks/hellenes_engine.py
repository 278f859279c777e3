"""Hellenes engine speed on one core: random decisions per CPU-second, games/s, state copies/s, JSON size.

Run: ``python benchmarks/hellenes_engine.py [--games 40]``. The last line printed is one JSON object with the
keys ``decisions_per_s`` (also as ``decisions_per_cpu_s``), ``games_per_cpu_s``, ``clones_per_s`` and ``compiled``
(the goal: 50,000 decisions per CPU-second). CPU time (``time.process_time``) is used, so other load on
the machine counts less. The general command, ``python benchmarks/engine.py --game hellenes``, runs the same
random-game loop (it is imported from there) and adds save/load figures and python-chess for scale; this
script is the short Hellenes-only form.
"""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from engine import clones_per_s, random_games  # benchmarks/engine.py: the same loops for any game
from muster import _native
from muster.games.hellenes import RULES


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    games, decisions, samples = random_games(args.games, RULES, sample_at=120, warmup=1)
    clones = clones_per_s(samples)
    size = len(json.dumps(samples[0].to_json()))
    table = Table(title="Hellenes engine (one core, CPU time)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("random games / CPU-s", f"{games:.1f}")
    table.add_row("random decisions / CPU-s", f"{decisions:,.0f}")
    table.add_row("state copies / CPU-s", f"{clones:,.0f}")
    table.add_row("state JSON bytes (mid-game)", f"{size:,}")
    table.add_row("compiled rules (mypyc)", "yes" if _native.ACTIVE else "no")
    Console().print(table)
    print(json.dumps({"decisions_per_s": round(decisions), "decisions_per_cpu_s": round(decisions),
                      "games_per_cpu_s": round(games, 2), "clones_per_s": round(clones), "state_json_bytes": size,
                      "compiled": _native.ACTIVE}))


if __name__ == "__main__":
    main()
