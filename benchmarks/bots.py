"""Bot speed: ISMCTS iterations per second and Heuristic decisions per second, on one core.

Usage: ``python benchmarks/bots.py [--positions N] [--iterations N] [--playouts N]``. Prints the
numbers; the last line is one JSON object with the keys ``ismcts_iterations_per_s`` (the default
``tree=cards``: playouts of a card and the opponent's answer, measured at card turns),
``ismcts_actions_iterations_per_s`` (``tree=actions``: iterations over single moves),
``heuristic_decisions_per_s`` and ``strongest_card_think_p95_s``: the 95th percentile of the CPU seconds the
strongest bot (``--strongest``, default :data:`STRONGEST`) spends on one card — the choice of
the card and every decision of its own until its next card, its worker processes' CPU included — over
``--card-games`` games against the Heuristic, with seats swapped (the target: at most 1.0 s at p95), and
``strongest_card_wall_p95_s``, the same in wall-clock seconds (what a player waits; less than the CPU for a bot
whose playouts run in worker processes on several cores). ``install`` says which rules ran (``compiled`` or
``pure``: ``MUSTER_PURE_PYTHON=1`` runs the pure-Python rules beside a compiled build), ``load_average`` the
machine's one-minute load when the run ended (CPU time on a shared machine still varies with it), and
``strongest_card_think_median_s`` the median of the per-card CPU times. ``learned_eval_per_s`` is how many positions
the learned value (:mod:`muster.games.freedom.bots.learned`, numpy, no torch) evaluates a second on one core, and
``belief_loglik_vs_uniform`` how much more likely the belief over the opponent's hand
(:mod:`muster.games.freedom.bots.belief`) makes the true hand than a uniform deal does: the mean over the card turns
of ``--belief-games`` fresh Heuristic games (seeds from 840000) at which the opponent has played this phase, in nats
(0: no better than uniform; ``belief_positions`` says over how many turns).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time

from rich.progress import track

from muster import _native
from muster.ai import make_bot
from muster.core import get_rules
from muster.core.registry import game_module

STRONGEST = game_module("freedom").levels["strongest"].spec
"""What the web's Strongest level plays for Freedom! (the game module says)."""


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
    bot = make_bot("heuristic", seed=seed, game="freedom")
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
    bot = make_bot(spec, seed=1, game="freedom")
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
        bots = {seat: make_bot("heuristic", seed=g * 2 + i, game="freedom") for i, seat in enumerate(rules.info.seats)}
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


def card_think_times(spec: str, games: int, wall: list[float] | None = None,
                     moves: list[str] | None = None) -> list[float]:
    """CPU seconds ``spec`` spends per card: from choosing a card to just before choosing its next one. A bot
    with worker processes (``ismcts:workers=2``) reports their CPU as ``last_worker_cpu``, which is counted
    too; the wall-clock seconds per card go to ``wall`` if given, and every action played to ``moves`` (to
    check that two builds or two specs play the same games)."""
    rules = get_rules("freedom")
    times: list[float] = []
    walls: list[float] = [] if wall is None else wall
    for g in track(range(games), description=spec):
        state = rules.setup(2000 + g, {"quiet": "1"})
        seat_of = dict(zip(rules.info.seats, (spec, "heuristic") if g % 2 == 0 else ("heuristic", spec), strict=True))
        bots = {seat: make_bot(s, seed=g * 2 + i, game="freedom") for i, (seat, s) in enumerate(seat_of.items())}
        for bot in bots.values():
            getattr(bot, "start_workers", lambda: False)()  # worker processes start before the clock does
        pending: float | None = None
        pending_wall = 0.0
        while rules.outcome(state) is None:
            seat = rules.active_seat(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            if len(legal) == 1:
                rules.apply(state, legal[0])
                continue
            new_card = bool(state.stack) and state.stack[-1]["kind"] == "card_turn"
            view = rules.view(state, seat)
            t0, w0 = time.process_time(), time.perf_counter()
            action = bots[seat].choose(view, legal, seat)
            spent = time.process_time() - t0 + getattr(bots[seat], "last_worker_cpu", 0.0)
            if seat_of[seat] == spec:
                if new_card:
                    if pending is not None:
                        times.append(pending)
                        walls.append(pending_wall)
                    pending, pending_wall = 0.0, 0.0
                pending = (pending or 0.0) + spent
                pending_wall += time.perf_counter() - w0
            if moves is not None:
                moves.append(str(action))
            rules.apply(state, action)
        if pending is not None:
            times.append(pending)
            walls.append(pending_wall)
    return times


BELIEF_SEEDS = 840_000
"""The first seed of the games that measure the belief (never used to train the play model)."""


def bench_learned(states: list[object], repeat: int = 20) -> float:
    """Positions a second the learned value evaluates (the inputs read from the position and the network)."""
    from muster.games.freedom.bots.learned import load

    model = load()
    model.imperial_win(states[0])  # type: ignore[arg-type]
    t0 = time.process_time()
    for _ in range(repeat):
        for s in states:
            model.imperial_win(s)  # type: ignore[arg-type]
    return repeat * len(states) / (time.process_time() - t0)


def bench_belief(games: int) -> tuple[float, int]:
    """(mean ``log P_belief(true hand) - log P_uniform(true hand)`` in nats, turns measured) at the card turns of
    Heuristic games where the opponent has played this phase."""
    from muster.games.freedom.bots.belief import Belief
    from muster.games.freedom.bots.learned import load
    from muster.games.freedom.constants import other

    rules = get_rules("freedom")
    model = load()
    scores: list[float] = []
    rnd = random.Random(0)
    for g in track(range(games), description="belief"):
        state = rules.setup(BELIEF_SEEDS + g, {"quiet": "1"})
        bot = make_bot("heuristic", seed=g, game="freedom")
        while rules.outcome(state) is None:
            seat = rules.active_seat(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            view = rules.view(state, seat)
            if bool(state.stack) and state.stack[-1]["kind"] == "card_turn":
                belief = Belief(view, seat, model)
                if belief.informed:
                    scores.append(belief.loglik_vs_uniform(list(state.hands[other(seat)]), rnd, samples=400))
            rules.apply(state, legal[0] if len(legal) == 1 else bot.choose(view, legal, seat))
    return (statistics.fmean(scores) if scores else 0.0), len(scores)


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(0.95 * len(ordered)) - 1))]


def main() -> None:
    """Run both benchmarks and print the results."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=300, help="tree=actions iterations per decision")
    parser.add_argument("--playouts", type=int, default=8, help="tree=cards playouts per card turn")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--strongest", default=STRONGEST, help="the bot spec the web app offers as strongest")
    parser.add_argument("--card-games", type=int, default=2, help="games for the strongest bot's time per card")
    parser.add_argument("--belief-games", type=int, default=4, help="fresh games measuring the belief")
    args = parser.parse_args()
    card_walls: list[float] = []
    card_times = card_think_times(args.strongest, args.card_games, card_walls)
    card_p95 = p95(card_times)
    cards, per_card = bench_ismcts(positions(args.positions, card_turns=True), f"ismcts:iterations={args.playouts}")
    states = positions(args.positions)
    actions, _ = bench_ismcts(states, f"ismcts:tree=actions,iterations={args.iterations}")
    heuristic = bench_heuristic(args.games)
    learned = bench_learned(states)
    belief, belief_turns = bench_belief(args.belief_games)
    print(f"Learned value: {learned:.0f} positions/s; belief: {belief:+.3f} nats a turn over a uniform deal "
          f"({belief_turns} turns of {args.belief_games} games)")
    print(f"ISMCTS (tree=cards): {cards:.1f} playouts/s on one core, {per_card:.2f} s per card turn "
          f"({args.positions} card turns, {args.playouts} playouts each)")
    print(f"ISMCTS (tree=actions): {actions:.0f} iterations/s on one core ({len(states)} positions, "
          f"{args.iterations} each)")
    print(f"Heuristic: {heuristic:.1f} decisions/s on one core ({args.games} games)")
    print(f"Strongest ({args.strongest}): {len(card_times)} cards, median {statistics.median(card_times):.3f} s, "
          f"95th percentile {card_p95:.3f} s, max {max(card_times):.3f} s of CPU per card (worker processes "
          f"included); wall clock: median {statistics.median(card_walls):.3f} s, 95th percentile "
          f"{p95(card_walls):.3f} s")
    print(json.dumps({"install": "compiled" if _native.ACTIVE else "pure",
                      "load_average": round(os.getloadavg()[0], 2),
                      "strongest_card_think_median_s": round(statistics.median(card_times), 3),
                      "ismcts_iterations_per_s": round(cards, 1), "ismcts_actions_iterations_per_s": round(actions, 1),
                      "heuristic_decisions_per_s": round(heuristic, 1),
                      "strongest_card_think_p95_s": round(card_p95, 3),
                      "strongest_card_wall_p95_s": round(p95(card_walls), 3),
                      "learned_eval_per_s": round(learned, 1),
                      "belief_loglik_vs_uniform": round(belief, 4), "belief_positions": belief_turns,
                      "strongest": args.strongest}))


if __name__ == "__main__":
    main()
