"""Hellenes through the research adapters: PettingZoo api_test, Gymnasium check_env, OpenSpiel load_game."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import muster.rl.gymnasium  # noqa: E402, F401 - registers muster/Hellenes-v0
from muster.games.hellenes import RULES  # noqa: E402
from muster.rl.openspiel import register  # noqa: E402
from muster.rl.pettingzoo import env, raw_env  # noqa: E402


def test_pettingzoo_api_test() -> None:
    api_test(env(game="hellenes"), num_cycles=1000)


def test_pettingzoo_masks_match_the_legal_actions_to_the_end() -> None:
    e = raw_env(game="hellenes")
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    for _agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal) == set(RULES.action_space.indices(RULES.legal_actions(e.state)))
        e.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 50 and RULES.outcome(e.state) is not None


def test_gymnasium_check_env() -> None:
    check_env(gymnasium.make("muster/Hellenes-v0", opponent="random", seat="athens").unwrapped)


def test_gymnasium_masked_random_agent_finishes_a_game() -> None:
    e = gymnasium.make("muster/Hellenes-v0", opponent="random", seat="sparta")
    obs, info = e.reset(seed=2)
    rng = np.random.default_rng(2)
    done, reward = False, 0.0
    while not done:
        assert obs.shape == e.observation_space.shape
        obs, reward, done, _truncated, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert reward in (-1.0, 0.0, 1.0) and "outcome" in info


def test_openspiel_random_bots_play_a_whole_game() -> None:
    assert "python_muster_hellenes" in register()
    game = pyspiel.load_game("python_muster_hellenes")
    assert game.num_distinct_actions() == RULES.action_space.size
    assert game.observation_tensor_shape() == list(RULES.observation_shape())
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(2)]
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        steps += 1
    assert steps > 50
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
