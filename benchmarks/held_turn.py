"""What holding a person's turn from the other seat costs: the state message of each seat during a held turn.

    python benchmarks/held_turn.py [--steps 300]

Plays a seeded random game of Freedom! (reveals held, as the web app does) until a person's turn is held a few
steps deep past ``--steps`` actions, then times, three times in turn, the acting seat's state message and the
other seat's (the position at the turn's start, made once: ``muster.server.hub.sight_state``). The last line
printed is JSON, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from muster.core import Game, get_rules
from muster.server.hub import LiveGame, sight_state
from muster.server.store import SeatInfo


def main() -> None:
    """Run the measurement and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    rules = get_rules("freedom")
    game, chooser = Game(rules, 7), random.Random(7)
    game.hold()
    while len(game.actions) < args.steps or len(game.actions) - game.shown_step < 3:
        if game.active_seat is None:
            raise SystemExit("the game ended first: ask for fewer steps")
        game.apply(chooser.choice(game.legal_actions()))
    live = LiveGame("bench", game, 1, {s: SeatInfo(s, "human", None, "h") for s in rules.info.seats}, 0)
    acting = game.active_seat
    other = next(s for s in rules.info.seats if s != acting)
    rounds = []
    for _ in range(3):
        started = time.perf_counter()
        sight_state(live, acting, "en")
        middle = time.perf_counter()
        sight_state(live, other, "en")
        rounds.append({"acting_ms": round((middle - started) * 1e3, 1),
                       "other_ms": round((time.perf_counter() - middle) * 1e3, 1)})
    print(json.dumps({"steps": len(game.actions), "held_steps": len(game.actions) - game.shown_step,
                      "rounds": rounds}))


if __name__ == "__main__":
    main()
