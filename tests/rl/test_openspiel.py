"""OpenSpiel: the registered game loads with pyspiel.load_game and OpenSpiel's own bots play it to the end."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from muster.ai import make_bot  # noqa: E402
from muster.games.freedom import RULES  # noqa: E402
from muster.lab.play import play_game  # noqa: E402
from muster.rl.openspiel import register  # noqa: E402


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    assert "python_muster_freedom" in register()
    return pyspiel.load_game("python_muster_freedom")


def test_game_facts(game) -> None:  # type: ignore[no-untyped-def]
    gtype = game.get_type()
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == RULES.action_space.size
    assert game.num_players() == 2
    assert game.observation_tensor_shape() == list(RULES.observation_shape())


def test_random_and_mcts_bots_play_a_whole_game(game) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
            pyspiel.make_uniform_random_bot(1, 0)]
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        steps += 1
    assert steps > 50
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_information_state_and_resampling_keep_what_the_player_knows(game) -> None:  # type: ignore[no-untyped-def]
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    for _ in range(120):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.legal_actions() == state.legal_actions()
    assert sample.observation_tensor(player) == state.observation_tensor(player)


def test_openspiel_ismcts_picks_legal_actions(game) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    state = game.new_initial_state()
    for _ in range(30):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiel_ismcts_plays_a_whole_arena_game_against_a_muster_bot() -> None:
    record = play_game(["openspiel-ismcts:simulations=2", "random"], seed=3)
    assert record.winner in ("imperial", "insurgent", None) and record.decisions > 50


def test_bad_openspiel_bot_options_are_refused() -> None:
    from muster.ai import BotSpecError

    for spec in ("openspiel-mcts:worlds=3", "openspiel-ismcts:simulations=0", "openspiel-ismcts:uct=x"):
        with pytest.raises(BotSpecError):
            make_bot(spec, game="freedom")
