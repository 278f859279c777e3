"""The web's Hellenes battle odds: CPU time to answer one decision's state message (every choice's hint and
confirmation), over the decisions of heuristic games where a block may Engage.

Run: ``python benchmarks/hellenes_odds.py [--games 4]``. The last line printed is one JSON object with the keys
``decisions``, ``engagements_max``, ``ms_median``, ``ms_p95`` and ``ms_max`` (CPU time, ``time.process_time``,
so other load on the machine does not count; the server computes the odds on its event loop, so ``ms_max``
is how long one state message can hold it up).
"""

from __future__ import annotations

import argparse
import json
import time

from rich.console import Console
from rich.progress import track
from rich.table import Table

from muster.ai import make_bot
from muster.core import get_rules
from muster.games.hellenes.web import HellenesAdapter


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    rules = get_rules("hellenes")
    times: list[float] = []
    most = 0
    for seed in track(range(args.games), description="games"):
        state = rules.setup(seed, {"quiet": "1"})
        bots = {seat: make_bot("heuristic", seed, rules) for seat in rules.info.seats}
        adapter = HellenesAdapter()
        while (seat := rules.active_seat(state)) is not None:
            legal = rules.legal_actions(state)
            if state.stack[-1]["kind"] in ("group", "free_move"):
                view = rules.view(state, seat)
                view.pop("log")  # as the server does before asking for hints
                t0 = time.process_time()
                engaging = 0
                for action in legal:
                    engaging += adapter.hint(view, action, seat).startswith("Engage")
                    adapter.warning(view, action, seat, legal)
                if engaging:
                    times.append(time.process_time() - t0)
                    most = max(most, engaging)
            action = legal[0] if len(legal) == 1 else bots[seat].choose(rules.view(state, seat), legal, seat)
            rules.apply(state, action)
    times.sort()
    ms = [1000 * t for t in times]
    result = {"decisions": len(ms), "engagements_max": most, "ms_median": round(ms[len(ms) // 2], 1),
              "ms_p95": round(ms[int(0.95 * (len(ms) - 1))], 1), "ms_max": round(ms[-1], 1)}
    table = Table(title="Hellenes web odds per decision with an Engage choice (CPU)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(key, str(value))
    Console().print(table)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
