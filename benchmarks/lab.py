"""CPU seconds per lab game (random against random, one process) for every installed game.

Run: ``python benchmarks/lab.py [--games 20]``. One game of each is played first, so imports and data
loading are not counted; then ``--games`` games on seeds 0, 1, … through :func:`muster.lab.play.play_game`
(the lab's play loop with the game's tracker) and, for comparison, the same games with only
``legal_actions`` and ``apply`` (the engine alone). The last line printed is one JSON object: per game, the
CPU seconds of a lab game, of an engine-only game, and the lab's overhead factor.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from muster.core import get_rules
from muster.core.registry import game_names
from muster.lab.play import play_game


def engine_only(game: str, seed: int) -> None:
    """One game with uniformly random choices (the random bot's), straight through the rules."""
    rules = get_rules(game)
    state = rules.setup(seed, {"quiet": "1"})
    chooser = random.Random(seed)
    while rules.active_seat(state) is not None:
        legal = rules.legal_actions(state)
        rules.apply(state, legal[0] if len(legal) == 1 else chooser.choice(legal))


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    out = {}
    for game in game_names():
        seats = len(get_rules(game).info.seats)
        play_game(["random"] * seats, 10_000, game)
        engine_only(game, 10_000)
        t0 = time.process_time()
        for seed in range(args.games):
            play_game(["random"] * seats, seed, game)
        lab = (time.process_time() - t0) / args.games
        t0 = time.process_time()
        for seed in range(args.games):
            engine_only(game, seed)
        engine = (time.process_time() - t0) / args.games
        out[game] = {"lab_cpu_s_per_game": round(lab, 4), "engine_cpu_s_per_game": round(engine, 4),
                     "overhead": round(lab / engine, 2) if engine else None}
        print(f"{game}: {lab:.4f} s a lab game, {engine:.4f} s the engine alone", flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
