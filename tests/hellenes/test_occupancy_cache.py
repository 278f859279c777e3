"""Hellenes keeps who stands where (``occupancy``, ``blocks_at``, ``held``) between decisions and recounts only
the areas a move, a placement, an elimination or a step into or out of a City touched, keeps each side's blocks on
the map and in its Pool (``side_blocks``) until a block enters or leaves the map, and keeps the lists of held
Cities (``city_lists``) until a City changes hands: at every decision of random games the kept answers must be
those of a count from scratch, for a state and for its clones."""

from __future__ import annotations

import random

from muster.games.hellenes import RULES
from muster.games.hellenes.rules.common import SEATS, blocks_at, city_lists, held, occupancy, side_blocks
from muster.games.hellenes.rules.movement import _menu_pool, movers
from muster.games.hellenes.state import State


def _afresh(state: State) -> State:
    """A copy with nothing kept: its answers are counted from the blocks."""
    fresh = RULES.clone(state)
    fresh._occ = fresh._where = fresh._held = fresh._cities = fresh._sides = None
    return fresh


def test_kept_answers_are_a_fresh_count_at_every_decision() -> None:
    """The occupancy, the blocks in each area, each side's positions, each side's blocks on the map and in its
    Pool, and the lists of held Cities (kept in ``control``'s order until a City changes hands) are, at every
    decision, what counting afresh gives."""
    checked = placed = removed = changes = 0
    for seed in range(12):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n = RULES.legal_count(state)
        while n:
            on_map = sum(u.area is not None for u in state.units.values())
            control = dict(state.control)
            n = RULES.apply_nth(state, chooser.choice(range(n)))
            now = sum(u.area is not None for u in state.units.values())
            placed += now > on_map
            removed += now < on_map
            changes += state.control != control
            kept_occ, kept_at, kept_cities = occupancy(state), blocks_at(state), city_lists(state)
            kept_held = {side: held(state, side) for side in SEATS}
            kept_sides = {side: side_blocks(state, side) for side in SEATS}
            fresh = _afresh(state)
            assert kept_occ == occupancy(fresh)
            assert kept_at == blocks_at(fresh)
            assert kept_held == {side: held(fresh, side) for side in SEATS}
            assert kept_sides == {side: side_blocks(fresh, side) for side in SEATS}
            assert kept_cities == city_lists(fresh)
            checked += 1
    # the games placed and removed blocks, and Cities changed hands, many times: the partial recounts and the
    # kept lists' rebuilds were exercised
    assert checked > 2000 and placed > 50 and removed > 50 and changes > 20


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
    assert {side: side_blocks(state, side) for side in SEATS} == {side: side_blocks(fresh, side) for side in SEATS}



def test_a_muster_from_the_menu_starts_from_the_blocks_that_could_move() -> None:
    """5.0: a Muster chosen from the Action menu reuses the movers the menu listed a step before: they are the
    blocks that may move then (counted afresh), and a Muster reached any other way (a copy of the state) counts
    them itself."""
    reused = 0
    for seed in range(8):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n = RULES.legal_count(state)
        while n:
            pool = _menu_pool(state) if state.stack and state.stack[-1]["kind"] == "muster" else None
            if pool is not None:
                assert pool == movers(state, state.stack[-1]["seat"])
                assert _menu_pool(RULES.clone(state)) is None
                reused += 1
            n = RULES.apply_nth(state, chooser.choice(range(n)))
    assert reused > 50
