"""How long Hellenes battles last between two bots, and how many would have met the former round limit.

The rules let Combat Rounds follow one another until a side is eliminated, Panics or Retreats (6.1/6.2). The
engine used to stop a battle after 8 rounds and make the attacker withdraw; this script plays seeded games
(seeded like ``muster simulate --game hellenes``: bots ``seed * 2 + 1`` for Athens and ``seed * 2 + 2`` for
Sparta) and counts every battle, Assault and Sortie by the rounds it lasted, listing those that went beyond
``--bound`` rounds (the ones the former limit would have decided differently) with how they ended.

    PYTHONPATH=src python benchmarks/hellenes_battle_rounds.py --games 200 --seed 0

One JSON line per game as it ends, then the long battles in words and a JSON summary as the last line.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from muster.ai import make_bot
from muster.games.hellenes import RULES
from muster.games.hellenes.state import State

WINS = ("{winner} wins the battle in {area} ({why}).", "{winner} wins the Assault on {area} ({why}).")


def battle_keys(s: State) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The battles on the stack now, by a key that stays the same for the whole battle."""
    out = {}
    for f in s.stack:
        if f.get("kind") == "battle":
            key = (s.year, s.season, s.active, f["area"], tuple(f["att"]), tuple(f["dfn"]), bool(f.get("assault")),
                   bool(f.get("sortie")))
            out[key] = f
    return out


def play(seed: int, athens: str, sparta: str, bound: int) -> dict[str, Any]:
    """One game; every battle's length, and the long ones in detail."""
    s = RULES.setup(seed, {"quiet": "0"})
    bots = {"athens": make_bot(athens, seed=seed * 2 + 1, rules=RULES),
            "sparta": make_bot(sparta, seed=seed * 2 + 2, rules=RULES)}
    live: dict[tuple[Any, ...], dict[str, Any]] = {}
    lengths: list[int] = []
    long: list[dict[str, Any]] = []
    while (seat := RULES.active_seat(s)) is not None:
        legal = RULES.legal_actions(s)
        action = legal[0] if len(legal) == 1 else bots[seat].choose(RULES.view(s, seat), legal, seat)
        RULES.apply(s, action)
        now = battle_keys(s)
        for key, f in now.items():
            seen = live.setdefault(key, {"log": len(s.log), "round": 0})
            seen["round"] = max(seen["round"], int(f["round"]))
        for key in [k for k in live if k not in now]:
            seen = live.pop(key)
            lengths.append(seen["round"])
            if seen["round"] > bound:
                ends = [e["a"] for e in s.log[seen["log"]:] if e["m"] in WINS and e["a"].get("area") == key[3]]
                long.append({"seed": seed, "year": key[0], "season": key[1], "area": key[3], "rounds": seen["round"],
                             "assault": key[6], "sortie": key[7], "attacker": key[2],
                             "winner": ends[0]["winner"] if ends else None,
                             "how": ends[0]["why"] if ends else None})
    outcome = RULES.outcome(s)
    return {"lengths": lengths, "long": long, "winner": outcome.winner if outcome else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--athens", default="heuristic")
    parser.add_argument("--sparta", default="heuristic")
    parser.add_argument("--bound", type=int, default=8, help="the former round limit")
    args = parser.parse_args()
    lengths: Counter[int] = Counter()
    long: list[dict[str, Any]] = []
    wins = 0
    for seed in range(args.seed, args.seed + args.games):
        got = play(seed, args.athens, args.sparta, args.bound)
        lengths.update(got["lengths"])
        long.extend(got["long"])
        wins += got["winner"] == "athens"
        # one line per game, so that a run cut short still says what it saw
        print(json.dumps({"seed": seed, "winner": got["winner"], "battles": len(got["lengths"]),
                          "max_rounds": max(got["lengths"], default=0), "long": got["long"]}), flush=True)
    for row in long:
        print(f"seed {row['seed']}: {row['rounds']} rounds in {row['area']} -> {row['winner']} ({row['how']})")
    print(json.dumps({"games": args.games, "first_seed": args.seed, "rules_version": RULES.info.version,
                      "battles": sum(lengths.values()), "max_rounds": max(lengths, default=0),
                      "rounds": dict(sorted(lengths.items())), "beyond_bound": len(long), "bound": args.bound,
                      "long_battles": long, "athens_wins": wins}))


if __name__ == "__main__":
    main()
