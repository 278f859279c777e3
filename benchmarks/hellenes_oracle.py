"""How much hidden information costs Hellenes' Strongest: the same search shown the true state against the Heuristic.

Run: ``python benchmarks/hellenes_oracle.py [--games 100] [--seed 16000] [--bot "cpu=0.9"] [--out FILE]``. Plays
each seed twice, seats swapped: the ISMCTS bot (``--bot``: its options) whose every determinization is the true
state — the enemy blocks' strength, the enemy hand and the deck order as they are, only the dice generator reseeded
— against the Heuristic (which reads its view as usual). Compare with the Strongest's arena games on the same seeds
(``benchmarks/results/hellenes/strongest-vs-heuristic-16000.jsonl``): if seeing everything wins no more, a better
guess at the hidden blocks cannot lift the search either. Games go to ``--out`` (JSONL, one per line); the last
line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.progress import track

from muster.ai import make_bot
from muster.ai.search import GameIsmctsBot
from muster.core import get_rules
from muster.core import rng as core_rng
from muster.core.stats import wilson


class SeeingRules:
    """The Hellenes rules, except that ``determinize`` returns the true state (the dice generator reseeded)."""

    def __init__(self, rules: Any) -> None:
        self._rules = rules
        self.truth: Any = None
        """The state being played (set before each choice)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def determinize(self, view: dict[str, Any], seat: str, seed: int) -> Any:
        """The true state, with a fresh dice generator."""
        s = self._rules.clone(self.truth)
        s.rng = core_rng.seed_state(seed)
        return s


def play(task: tuple[int, str, str]) -> dict[str, Any]:
    """One game: the seeing search on ``bot_side`` against the Heuristic."""
    seed, bot_side, spec = task
    rules = get_rules("hellenes")
    seeing = SeeingRules(rules)
    options = dict(item.split("=", 1) for item in spec.split(",") if item)
    search = GameIsmctsBot(seeing, seed, options)
    heuristic = make_bot("heuristic", seed=seed + 1, game="hellenes")
    s = rules.setup(seed, {"quiet": "1"})
    while (seat := rules.active_seat(s)) is not None:
        legal = rules.legal_actions(s)
        if seat == bot_side:
            seeing.truth = s
            choice = search.choose(rules.view(s, seat), legal, seat)
        else:
            choice = heuristic.choose(rules.view(s, seat), legal, seat)
        rules.apply(s, choice)
    result = s.result or {}
    return {"seed": seed, "bot": bot_side, "spec": spec, "winner": result.get("winner"),
            "reason": result.get("reason")}


def main() -> None:
    """Play and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="seeds (each played twice)")
    parser.add_argument("--seed", type=int, default=16000)
    parser.add_argument("--bot", default="cpu=0.9", help="the search's ismcts options")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("reports/hellenes-oracle.jsonl"))
    args = parser.parse_args()
    tasks = [(args.seed + i, side, args.bot) for i in range(args.games) for side in ("athens", "sparta")]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    won = {"athens": 0, "sparta": 0}
    with ProcessPoolExecutor(args.workers) as pool, args.out.open("w", encoding="utf-8") as out:
        for game in track(pool.map(play, tasks), total=len(tasks), description=f"{len(tasks)} games"):
            out.write(json.dumps(game) + "\n")
            won[game["bot"]] += game["winner"] == game["bot"]
    total = won["athens"] + won["sparta"]
    _, low, high = wilson(total, len(tasks))
    print(json.dumps({"games": len(tasks), "seed": args.seed, "bot": args.bot, "won": total,
                      "won_as": won, "share": round(total / len(tasks), 3),
                      "interval_95": [round(low, 3), round(high, 3)]}))


if __name__ == "__main__":
    main()
