"""Hellenes keeps who stands where (``occupancy``, ``blocks_at``, ``held``) between decisions and recounts only
the areas a move, a placement, an elimination or a step into or out of a City touched: at every decision of
random games the kept answers must be those of a count from scratch."""

from __future__ import annotations

import random

from muster.games.hellenes import RULES
from muster.games.hellenes.rules.common import SEATS, blocks_at, city_lists, held, occupancy
from muster.games.hellenes.state import State


def _afresh(state: State) -> State:
    """A copy with nothing kept: its answers are counted from the blocks."""
    fresh = RULES.clone(state)
    fresh._occ = fresh._where = fresh._held = None
    return fresh


def test_kept_occupancy_is_a_fresh_count_at_every_decision() -> None:
    checked = placed = removed = 0
    for seed in range(12):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n = RULES.legal_count(state)
        while n:
            on_map = sum(u.area is not None for u in state.units.values())
            n = RULES.apply_nth(state, chooser.choice(range(n)))
            now = sum(u.area is not None for u in state.units.values())
            placed += now > on_map
            removed += now < on_map
            kept_occ, kept_at = occupancy(state), blocks_at(state)
            kept_held = {side: held(state, side) for side in SEATS}
            fresh = _afresh(state)
            assert kept_occ == occupancy(fresh)
            assert kept_at == blocks_at(fresh)
            assert kept_held == {side: held(fresh, side) for side in SEATS}
            checked += 1
    # the games placed and removed blocks many times: the partial recounts were exercised
    assert checked > 2000 and placed > 50 and removed > 50


def test_a_clone_and_its_original_keep_their_own_answers_as_either_moves_on() -> None:
    """A clone shares the kept answers until one of the two moves a block; after that each answers for itself:
    the one that moved has its own, and the other's are never changed under it."""
    compared = 0
    for seed in range(4):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n = RULES.legal_count(state)
        while n:
            if chooser.random() < 0.1:  # now and then, a twin that moves on while the original waits
                occ = occupancy(state)
                snapshot = (dict(occ[0]), dict(occ[1]), {a: list(b) for a, b in blocks_at(state).items()})
                twin = RULES.clone(state)
                for _ in range(8):
                    m = RULES.legal_count(twin)
                    if not m:
                        break
                    RULES.apply_nth(twin, chooser.choice(range(m)))
                _assert_kept_is_fresh(twin)
                occ = occupancy(state)
                assert (occ[0], occ[1], blocks_at(state)) == snapshot
                # and the other way round: a twin that waits while the original moves on
                still = RULES.clone(state)
                n = RULES.apply_nth(state, chooser.choice(range(n)))
                occ = occupancy(still)
                assert (occ[0], occ[1], blocks_at(still)) == snapshot
                _assert_kept_is_fresh(still)
                compared += 1
            else:
                n = RULES.apply_nth(state, chooser.choice(range(n)))
            _assert_kept_is_fresh(state)
    assert compared > 50


def _assert_kept_is_fresh(state: State) -> None:
    fresh = _afresh(state)
    assert occupancy(state) == occupancy(fresh) and blocks_at(state) == blocks_at(fresh)
    assert {side: held(state, side) for side in SEATS} == {side: held(fresh, side) for side in SEATS}


def test_the_kept_lists_of_held_cities_are_a_fresh_count_at_every_decision() -> None:
    """The Cities each side holds and the captured ones are kept until a City changes hands: at every decision of
    random games they are what counting ``control`` and ``loyal`` afresh gives, in ``control``'s order."""
    changes = 0
    for seed in range(12):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n = RULES.legal_count(state)
        while n:
            before = dict(state.control)
            n = RULES.apply_nth(state, chooser.choice(range(n)))
            changes += state.control != before
            kept = city_lists(state)
            fresh = RULES.clone(state)
            fresh._cities = None
            assert kept == city_lists(fresh)
    assert changes > 20  # Cities changed hands many times: the kept lists were replaced
