"""The engine's fast paths agree with the plain definitions they stand in for.

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


@pytest.mark.parametrize("game", ["freedom", "hellenes"])
def test_playout_fast_path_plays_the_same_games_as_legal_lists(game: str) -> None:
    # legal_count + apply_nth is a shortcut for bots' simulations: index i is legal_actions()[i], so a
    # seeded random player choosing an index plays move for move the game it plays choosing from the list
    from muster.core.registry import get_rules

    rules = get_rules(game)
    for seed in range(12):
        listed, fast = rules.setup(seed, {"quiet": "1"}), rules.setup(seed, {"quiet": "1"})
        by_list, by_index = random.Random(seed), random.Random(seed)
        count = rules.legal_count(fast)
        while rules.active_seat(listed) is not None:
            acts = rules.legal_actions(listed)
            assert count == len(acts), (game, seed, listed.step)
            rules.apply(listed, by_list.choice(acts))
            count = rules.apply_nth(fast, by_index.choice(range(count)))
        assert count == 0
        assert rules.to_json(fast) == rules.to_json(listed), (game, seed)


def test_apply_nth_refuses_an_index_out_of_range() -> None:
    from muster.core.interface import IllegalActionError

    state = RULES.setup(5, {"quiet": "1"})
    before = RULES.to_json(state)
    count = RULES.legal_count(state)
    for index in (count, -1):
        with pytest.raises(IllegalActionError):
            RULES.apply_nth(state, index)
    assert RULES.to_json(state) == before
    RULES.apply_nth(state, count - 1)
    assert state.step == 1
