"""Hellenes' movement searches keep their answers across decisions: what they are keyed by must make those
answers exact, and keeping them must not grow the heap game after game (a garbage collector's full pass walks
every object kept, so a growing store of answers slows every long simulation a little more)."""

from __future__ import annotations

import gc
import random

from muster.games.hellenes import RULES
from muster.games.hellenes.rules.movement import destinations
from muster.games.hellenes.state import State


def _play(seeds: range, stop_at: int | None = None) -> list[State]:
    """Random games through the playout fast path; with ``stop_at``, the state at that decision of each."""
    kept: list[State] = []
    for seed in seeds:
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n, step = RULES.legal_count(state), 0
        while n:
            n = RULES.apply_nth(state, chooser.choice(range(n)))
            step += 1
            if step == stop_at:
                kept.append(RULES.clone(state))
        if stop_at is None:
            kept.clear()
    return kept


def test_random_games_leave_the_heap_as_they_found_it() -> None:
    _play(range(1000, 1005))  # the first games fill what every game shares (actions, tables)
    gc.collect()
    before = len(gc.get_objects())
    _play(range(40))
    gc.collect()
    grown = len(gc.get_objects()) - before
    # keyed by frozensets of whole-map positions, the kept answers grew by some 20,000 objects in these games
    assert grown < 2000, f"the heap grew by {grown} objects over 40 random games"


def test_a_destination_asked_alone_is_the_full_answers() -> None:
    checked = 0
    for state in _play(range(30), stop_at=60) + _play(range(30, 45), stop_at=150):
        for bid, unit in state.units.items():
            if unit.area is None:
                continue
            for muster in (False, True):
                full = destinations(state, bid, muster=muster)
                for dest, route in full.items():
                    assert destinations(state, bid, muster=muster, only=dest)[dest] == route
                    checked += 1
    assert checked > 1000
