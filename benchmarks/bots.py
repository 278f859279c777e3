"""Bot speed: ISMCTS iterations per second and Heuristic decisions per second, on one core.

Usage: ``python benchmarks/bots.py [--positions N] [--iterations N] [--playouts N]``. Prints the
numbers; the last line is one JSON object with the keys ``ismcts_iterations_per_s`` (the default
``tree=cards``: playouts of a card and the opponent's answer, measured at card turns),
``ismcts_actions_iterations_per_s`` (``tree=actions``: iterations over single moves) and
``heuristic_decisions_per_s``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from rich.progress import track

from muster.ai import make_bot
from muster.core import get_rules


def _ready(state: object, card_turns: bool) -> bool:
    """True at a real choice (and, if ``card_turns``, a choice of card)."""
    if len(get_rules("freedom").legal_actions(state)) < 2:
        return False
    stack = getattr(state, "stack", [])
    return not card_turns or (bool(stack) and stack[-1]["kind"] == "card_turn")


def positions(count: int, seed: int = 0, card_turns: bool = False) -> list[object]:
    """Varied positions (early to late game) reached by heuristic play, each with a real choice to make
    (with ``card_turns``, a choice of the next card to play)."""
    rules = get_rules("freedom")
    rnd = random.Random(seed)
    out: list[object] = []
    bot = make_bot("heuristic", seed=seed)
    for g in range(count):
        state = rules.setup(seed + g, {"quiet": "1"})
        stop = rnd.randrange(20, 500)
        for _ in range(stop):
            if rules.outcome(state) is not None:
                break
            seat = rules.active_seat(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            rules.apply(state, bot.choose(rules.view(state, seat), legal, seat))
        while rules.outcome(state) is None and not _ready(state, card_turns):
            seat = rules.active_seat(state)
            assert seat is not None
            rules.apply(state, bot.choose(rules.view(state, seat), rules.legal_actions(state), seat))
        if rules.outcome(state) is None:
            out.append(state)
    return out


def bench_ismcts(states: list[object], spec: str) -> tuple[float, float]:
    """(ISMCTS iterations per second, seconds per decision) over the positions."""
    rules = get_rules("freedom")
    bot = make_bot(spec, seed=1)
    total, spent = 0, 0.0
    for state in track(states, description=spec):
        seat = rules.active_seat(state)
        assert seat is not None
        view, legal = rules.view(state, seat), rules.legal_actions(state)
        t0 = time.process_time()
        bot.choose(view, legal, seat)
        spent += time.process_time() - t0
        total += getattr(bot, "last_iterations", 0)
    return total / spent, spent / len(states)


def bench_heuristic(games: int) -> float:
    """Heuristic decisions (with a real choice) per second in heuristic-vs-heuristic games."""
    rules = get_rules("freedom")
    decisions, spent = 0, 0.0
    for g in track(range(games), description="Heuristic"):
        state = rules.setup(1000 + g, {"quiet": "1"})
        bots = {seat: make_bot("heuristic", seed=g * 2 + i) for i, seat in enumerate(rules.info.seats)}
        while rules.outcome(state) is None:
            seat = rules.active_seat(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            if len(legal) > 1:
                view = rules.view(state, seat)
                t0 = time.process_time()
                action = bots[seat].choose(view, legal, seat)
                spent += time.process_time() - t0
                decisions += 1
            else:
                action = legal[0]
            rules.apply(state, action)
    return decisions / spent


def main() -> None:
    """Run both benchmarks and print the results."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=300, help="tree=actions iterations per decision")
    parser.add_argument("--playouts", type=int, default=8, help="tree=cards playouts per card turn")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    cards, per_card = bench_ismcts(positions(args.positions, card_turns=True), f"ismcts:iterations={args.playouts}")
    states = positions(args.positions)
    actions, _ = bench_ismcts(states, f"ismcts:tree=actions,iterations={args.iterations}")
    heuristic = bench_heuristic(args.games)
    print(f"ISMCTS (tree=cards): {cards:.1f} playouts/s on one core, {per_card:.2f} s per card turn "
          f"({args.positions} card turns, {args.playouts} playouts each)")
    print(f"ISMCTS (tree=actions): {actions:.0f} iterations/s on one core ({len(states)} positions, "
          f"{args.iterations} each)")
    print(f"Heuristic: {heuristic:.1f} decisions/s on one core ({args.games} games)")
    print(json.dumps({"ismcts_iterations_per_s": round(cards, 1), "ismcts_actions_iterations_per_s": round(actions, 1),
                      "heuristic_decisions_per_s": round(heuristic, 1)}))


if __name__ == "__main__":
    main()
