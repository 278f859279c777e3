"""The fixed action numbering and the observation tensor (muster.core.spaces, games/freedom/action_space.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from muster.core import Action, IllegalActionError
from muster.core.spaces import LearningRules, learning_rules
from muster.games.freedom import RULES
from muster.games.freedom.board import board
from muster.games.freedom.constants import SEATS
from muster.games.freedom.observation import observation_layout, observation_size


def _random_states(seed: int, ruleset: str = "2nd", every: int = 1):  # type: ignore[no-untyped-def]
    """The states of one random game (every ``every``-th), with the legal actions at each."""
    state = RULES.setup(seed, {"ruleset": ruleset, "quiet": "1"})
    chooser = random.Random(seed)
    n = 0
    while RULES.active_seat(state) is not None:
        legal = RULES.legal_actions(state)
        if n % every == 0:
            yield state, legal
        RULES.apply(state, chooser.choice(legal))
        n += 1


def test_freedom_is_learning_rules() -> None:
    assert isinstance(RULES, LearningRules)
    assert learning_rules(RULES) is RULES


def test_numbering_is_a_bijection_and_pinned() -> None:
    space = RULES.action_space
    assert [RULES.action_from_index(i) for i in range(space.size)] == list(space.actions)
    assert all(RULES.action_index(a) == i for i, a in enumerate(space.actions))
    # Changing the numbering breaks every trained network: it must be a deliberate act (REVISION).
    assert space.size == 1676
    assert space.version == "freedom-actions-1-29c54033b982"


def test_numbering_covers_shapes_that_sampled_games_miss() -> None:
    # The prototype numbering built from sampled games missed this one.
    for action in (Action("pick", "mar4:A"), Action("remove", "r5c3:E"), Action("target", "r8c1"),
                   Action("to", "sea"), Action("unit", "2"), Action("event", 100), Action("morale", "enemy")):
        assert action in RULES.action_space
    for sid in board().ids:  # a Raid may strike any space, not only the raider's column
        assert Action("target", sid) in RULES.action_space


def test_out_of_space_actions_and_indexes_are_refused() -> None:
    with pytest.raises(IllegalActionError):
        RULES.action_index(Action("fly", "moon"))
    with pytest.raises(IllegalActionError):
        RULES.action_from_index(RULES.action_space.size)
    with pytest.raises(IllegalActionError):
        RULES.action_from_index(-1)


@pytest.mark.parametrize("ruleset", ["2nd", "1st"])
def test_every_action_of_random_games_has_an_index(ruleset: str) -> None:
    for seed in range(15):
        for _, legal in _random_states(seed, ruleset):
            mask = RULES.action_space.mask(legal)
            assert mask.sum() == len(set(legal))


def test_observation_shape_and_layout() -> None:
    assert RULES.observation_shape() == (observation_size(),)
    names = [name for name, _, _ in observation_layout()]
    assert names[:4] == ["seat", "active", "ruleset", "round"]
    for state, _ in _random_states(1, every=25):
        for seat in SEATS:
            obs = RULES.observation(state, seat)
            assert obs.shape == RULES.observation_shape() and obs.dtype == np.float32
            assert np.isfinite(obs).all()


@pytest.mark.parametrize("seed", [2, 3])
def test_scrambling_hidden_information_changes_neither_observation_nor_information_state(seed: int) -> None:
    # Hidden: the opponent's hand, both draw piles, the generator. determinize() redraws all of them.
    checked = differed = 0
    for state, _ in _random_states(seed, every=40):
        for seat in SEATS:
            scrambled = RULES.determinize(RULES.view(state, seat), seat, seed * 1000 + checked)
            assert np.array_equal(RULES.observation(scrambled, seat), RULES.observation(state, seat))
            assert RULES.information_state(scrambled, seat) == RULES.information_state(state, seat)
            differed += RULES.to_json(scrambled)["hands"] != RULES.to_json(state)["hands"]
            checked += 1
    assert checked >= 10 and differed >= checked // 2  # the hidden parts really were redrawn


def test_the_seats_observations_differ_by_their_hands() -> None:
    state = RULES.setup(5, {"quiet": "1"})
    imperial, insurgent = (RULES.observation(state, s) for s in SEATS)
    _, offset, size = next(b for b in observation_layout() if b[0] == "hand")
    assert imperial[offset:offset + size].sum() == len(state.hands["imperial"])
    assert insurgent[offset:offset + size].sum() == len(state.hands["insurgent"])
    assert RULES.information_state(state, "imperial") != RULES.information_state(state, "insurgent")
