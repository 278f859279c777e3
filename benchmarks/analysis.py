"""Speed of the game analysis on one core: the win-probability estimate, a hint, a whole game's analysis.

    python benchmarks/analysis.py [--games 2]

Plays quick games (Heuristic without planning, seeded), then times, in CPU seconds of this process:
the estimate at every card point (from the view of the side to choose), the hints at a few card
points, and ``postgame.analyze`` of one finished game. The last line printed is JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from muster.ai import make_bot
from muster.core import Game, get_rules
from muster.games.freedom.analysis.advice import hints
from muster.games.freedom.analysis.postgame import analyze
from muster.games.freedom.analysis.winprob import imperial_chance
from muster.games.freedom.bots.features import is_card_point


def play(seed: int) -> tuple[Game, list[tuple[dict[str, Any], str, list[Any]]]]:
    """A quick bot game and the (view, seat, legal) of each card point."""
    rules = get_rules("freedom")
    game = Game(rules, seed)
    bot = make_bot("heuristic:plan=off,samples=1", seed=seed, rules=rules)
    points = []
    while game.active_seat is not None:
        seat = game.active_seat
        view = game.view(seat)
        legal = game.legal_actions()
        if is_card_point(view):
            points.append((view, seat, legal))
        game.apply(legal[0] if len(legal) == 1 else bot.choose(view, legal, seat))
    return game, points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    rules = get_rules("freedom")
    games = [play(100 + k) for k in range(args.games)]
    points = [p for _game, ps in games for p in ps]
    t0 = time.process_time()
    for view, seat, _legal in points:
        imperial_chance(view, seat, rules)
    ms_estimate = 1000 * (time.process_time() - t0) / len(points)
    sample = points[5::max(1, len(points) // 6)][:6]
    t0 = time.process_time()
    for view, seat, legal in sample:
        hints(view, legal, seat, rules=rules)
    s_hint = (time.process_time() - t0) / len(sample)
    t0 = time.process_time()
    analyze(games[0][0])
    s_analyze = time.process_time() - t0
    print(f"estimate: {ms_estimate:.3f} ms per position over {len(points)} card points")
    print(f"hints: {s_hint:.2f} s per decision over {len(sample)} card points")
    print(f"analysis of one game ({len(games[0][1])} cards): {s_analyze:.1f} s")
    print(json.dumps({"estimate_ms": round(ms_estimate, 3), "hint_s": round(s_hint, 2),
                      "analyze_s": round(s_analyze, 1), "positions": len(points)}))


if __name__ == "__main__":
    main()
