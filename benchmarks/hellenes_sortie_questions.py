"""How often Hellenes asks the Sortie question (8.3) in games between two Heuristic bots.

The besieged side is asked in its own Combat phase about each City it may Sortie from, unless it chose "no Sortie
until the Siege changes" there (on Fortifying or at an earlier question) and nothing it can see has changed. This
script plays seeded games (bots seeded ``seed * 2`` for Athens and ``seed * 2 + 1`` for Sparta, as the golden set
does) and counts the decisions at the Sortie question and at the Fortify question, and the Sorties made.

    PYTHONPATH=src python benchmarks/hellenes_sortie_questions.py --games 40 --seed 0

The last line is JSON.
"""

from __future__ import annotations

import argparse
import json

from muster.ai import make_bot
from muster.games.hellenes import RULES


def count(games: int, seed: int) -> dict[str, float]:
    """The questions and Sorties of ``games`` seeded games from ``seed`` on."""
    sortie_q = fortify_q = sorties = athens = 0
    for n in range(seed, seed + games):
        s = RULES.setup(n, {"quiet": "1"})
        bots = {side: make_bot("heuristic", n * 2 + i, rules=RULES) for i, side in enumerate(RULES.info.seats)}
        while (side := RULES.active_seat(s)) is not None:
            legal = RULES.legal_actions(s)
            action = bots[side].choose(RULES.view(s, side), legal, side)
            kind = s.stack[-1]["kind"]
            sortie_q += kind == "sortie"
            fortify_q += kind == "fortify"
            sorties += action.verb == "sortie"
            RULES.apply(s, action)
        outcome = RULES.outcome(s)
        athens += outcome is not None and outcome.winner == "athens"
    return {"games": games, "sortie_questions": sortie_q, "sortie_questions_per_game": round(sortie_q / games, 2),
            "fortify_questions": fortify_q, "sorties": sorties, "athens_wins": athens}


def main() -> None:
    """Parse the options, play and print the JSON summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(count(args.games, args.seed)))


if __name__ == "__main__":
    main()
