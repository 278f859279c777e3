"""The engine's fast paths agree with the plain definitions they stand in for (issue 15).

The golden games pin whole games; these tests compare each fast path with its reference at every
point of many random games, so that a difference shows where it starts.
"""

from __future__ import annotations

import random

import pytest

from muster.games.freedom import RULES
from muster.games.freedom.rules.action_phase import MENUS, reference_menu


@pytest.mark.parametrize("ruleset", ["2nd", "1st"])
def test_fast_ap_menus_match_the_verbs_one_by_one(ruleset: str) -> None:
    # rule 4.3.2: the AP menu offers exactly the verbs whose action can be carried out now
    checked = 0
    for seed in range(40):
        state = RULES.setup(seed, {"ruleset": ruleset, "quiet": "1"})
        chooser = random.Random(seed)
        while RULES.active_seat(state) is not None:
            top = state.stack[-1]
            if top["kind"] == "ap":
                assert MENUS[top["seat"]](state, top) == reference_menu(state, top), (seed, state.step)
                checked += 1
            RULES.apply(state, chooser.choice(RULES.legal_actions(state)))
    assert checked > 1000
