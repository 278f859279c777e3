"""The Action menu lists a Muster at a City exactly when some block can Muster there: its quick reach over
area sets must agree with the per-City search (``muster_candidates``) at every Action menu of random games."""

from __future__ import annotations

import random

from muster.games.hellenes import RULES
from muster.games.hellenes.rules.actions import muster_cities
from muster.games.hellenes.rules.movement import muster_candidates


def test_muster_cities_are_those_with_a_candidate_at_every_action_menu() -> None:
    menus = listed = 0
    for seed in range(15):
        state = RULES.setup(seed, {"quiet": "1"})
        chooser = random.Random(seed)
        n = RULES.legal_count(state)
        while n:
            if state.stack[-1]["kind"] == "actions" and state.actions_left > 0:
                side = state.stack[-1]["seat"]
                plain = [a for a, holder in state.control.items()
                         if holder == side and muster_candidates(state, side, a)]
                got = muster_cities(state, side)
                assert got == plain, (seed, state.step)
                menus += 1
                listed += len(got)
            n = RULES.apply_nth(state, chooser.choice(range(n)))
    assert menus > 300 and listed > 300
