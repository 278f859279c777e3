"""The PettingZoo and Gymnasium adapters pass their libraries' own checks (muster.rl, extra ``rl``)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import muster.rl.gymnasium  # noqa: E402, F401 - registers muster/Freedom-v0
from muster.core import IllegalActionError  # noqa: E402
from muster.games.freedom import RULES  # noqa: E402
from muster.rl.pettingzoo import env, raw_env  # noqa: E402


def test_pettingzoo_api_test() -> None:
    api_test(env(game="freedom"), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(game="freedom"), num_cycles=500)


def test_pettingzoo_plays_a_whole_game_with_masks_and_final_rewards() -> None:
    e = raw_env(game="freedom")
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal) == set(RULES.action_space.indices(RULES.legal_actions(e.state)))
        e.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 50
    winner = RULES.outcome(e.state).winner
    assert final == {s: (1.0 if s == winner else -1.0) for s in e.possible_agents}


def test_pettingzoo_refuses_an_illegal_index_and_keeps_the_game() -> None:
    e = raw_env(game="freedom")
    e.reset(seed=1)
    before = RULES.to_json(e.state)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert RULES.to_json(e.state) == before


def test_gymnasium_check_env() -> None:
    check_env(gymnasium.make("muster/Freedom-v0", opponent="heuristic", seat="insurgent").unwrapped)


@pytest.mark.parametrize("seat", ["imperial", "insurgent"])
def test_gymnasium_masked_random_agent_finishes_a_game(seat: str) -> None:
    e = gymnasium.make("muster/Freedom-v0", opponent="random", seat=seat)
    obs, info = e.reset(seed=2)
    rng = np.random.default_rng(2)
    done, reward = False, 0.0
    while not done:
        assert obs.shape == e.observation_space.shape
        obs, reward, done, _truncated, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert reward in (-1.0, 0.0, 1.0) and "outcome" in info


def test_gymnasium_same_seed_same_game() -> None:
    a = gymnasium.make("muster/Freedom-v0", opponent="random", seat="imperial")
    b = gymnasium.make("muster/Freedom-v0", opponent="random", seat="imperial")
    (oa, ia), (ob, ib) = a.reset(seed=9), b.reset(seed=9)
    assert np.array_equal(oa, ob) and np.array_equal(ia["action_mask"], ib["action_mask"])


def test_gymnasium_illegal_action_loses_or_raises() -> None:
    e = gymnasium.make("muster/Freedom-v0", opponent="random", seat="imperial")
    _, info = e.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = e.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    strict = gymnasium.make("muster/Freedom-v0", opponent="random", seat="imperial", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
