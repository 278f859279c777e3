"""Hellenes' fixed action numbering and observation (games/hellenes/action_space.py, observation.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from muster.core import Action, IllegalActionError
from muster.core.spaces import LearningRules, learning_rules
from muster.games.hellenes import RULES
from muster.games.hellenes.datafiles import blocks, game_map
from muster.games.hellenes.observation import observation_layout, observation_size
from muster.games.hellenes.rules.common import SEATS
from muster.games.hellenes.state import State


def _random_states(seed: int, every: int = 1) -> Iterator[tuple[State, list[Action]]]:
    """The states of one random game (every ``every``-th), with the legal actions at each."""
    state = RULES.setup(seed, {"quiet": "1"})
    chooser = random.Random(seed)
    n = 0
    while RULES.active_seat(state) is not None:
        legal = RULES.legal_actions(state)
        if n % every == 0:
            yield state, legal
        RULES.apply(state, chooser.choice(legal))
        n += 1


def test_hellenes_is_learning_rules() -> None:
    assert isinstance(RULES, LearningRules)
    assert learning_rules(RULES) is RULES


def test_numbering_is_a_bijection_and_pinned() -> None:
    space = RULES.action_space
    assert [RULES.action_from_index(i) for i in range(space.size)] == list(space.actions)
    assert all(RULES.action_index(a) == i for i, a in enumerate(space.actions))
    # Changing the numbering breaks every trained network: it must be a deliberate act (REVISION).
    assert space.size == 1295
    assert space.version == "hellenes-actions-5-0e17612f5f0c"


def test_numbering_covers_every_area_and_block_for_each_shape() -> None:
    # Derived from the data, not from sampled games: every area for each area verb, every block for each
    # block verb, the rebels at each of their places.
    for area in game_map().names:
        for verb in ("move", "muster", "to", "forced", "city", "skip", "hold"):
            assert Action(verb, area) in RULES.action_space
    for bid in blocks():
        assert Action("block", bid) in RULES.action_space and Action("board", bid) in RULES.action_space
        for verb in ("hit", "rout", "lose", "inside"):
            assert Action(verb, bid) in RULES.action_space
    assert Action("place", "ath_hop4@attica") in RULES.action_space
    # 5.2.1: boarding after a voluntary reduction names the fleet; only fleets carry, so only fleets are listed
    for bid, d in blocks().items():
        assert (Action("board_reduce", bid) in RULES.action_space) == (d.kind == "fleet")
    assert Action("as", "sacrifice") in RULES.action_space and Action("card", 30) in RULES.action_space


def test_out_of_space_actions_and_indexes_are_refused() -> None:
    with pytest.raises(IllegalActionError):
        RULES.action_index(Action("fly", "olympus"))
    with pytest.raises(IllegalActionError):
        RULES.action_from_index(RULES.action_space.size)


def test_every_action_of_random_games_has_an_index() -> None:
    for seed in range(25):
        for _, legal in _random_states(seed):
            assert RULES.action_space.mask(legal).sum() == len(set(legal))


def test_observation_shape_and_layout() -> None:
    assert RULES.observation_shape() == (observation_size(),)
    assert [name for name, _, _ in observation_layout()][:4] == ["seat", "active", "first", "time"]
    for state, _ in _random_states(1, every=20):
        for seat in SEATS:
            obs = RULES.observation(state, seat)
            assert obs.shape == RULES.observation_shape() and obs.dtype == np.float32
            assert np.isfinite(obs).all()


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_scrambling_hidden_information_changes_neither_observation_nor_information_state(seed: int) -> None:
    # Hidden: unseen enemy blocks (identity, CV), the enemy hand and Pool, the deck, the generator.
    checked = differed = 0
    for state, _ in _random_states(seed, every=15):
        for seat in SEATS:
            scrambled = RULES.determinize(RULES.view(state, seat), seat, seed * 1000 + checked)
            assert np.array_equal(RULES.observation(scrambled, seat), RULES.observation(state, seat))
            assert RULES.information_state(scrambled, seat) == RULES.information_state(state, seat)
            true_units, new_units = RULES.to_json(state)["units"], RULES.to_json(scrambled)["units"]
            differed += true_units != new_units or RULES.to_json(scrambled)["hands"] != RULES.to_json(state)["hands"]
            checked += 1
    assert checked >= 10 and differed >= checked // 2  # the hidden parts really were redrawn


def test_unseen_enemy_blocks_show_only_as_counts() -> None:
    state = RULES.setup(5, {"quiet": "1"})
    _, offset, size = next(b for b in observation_layout() if b[0] == "unknown")
    for seat in SEATS:
        obs = RULES.observation(state, seat)
        hidden = [t for t in RULES.view(state, seat)["enemy"] if "known_as" not in t]
        assert obs[offset:offset + size].sum() == len(hidden) > 0
    assert RULES.information_state(state, "athens") != RULES.information_state(state, "sparta")
