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


def _saved_midgame(name: str):  # type: ignore[no-untyped-def]
    from muster.rl.openspiel import load

    game = load(name, seed=5)
    game.new_initial_state()  # the game's counter of games started is part of what is saved
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    for _ in range(60):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state, rng


@pytest.mark.parametrize("name", ["freedom", "hellenes"])
def test_serialize_and_deserialize_game_and_state_round_trip(name: str) -> None:
    game, state, _rng = _saved_midgame(name)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert game2 is not game and pyspiel.serialize_game_and_state(game2, state2) == text
    assert str(game2) == str(game) and game2.new_initial_state().serialize() == game.new_initial_state().serialize()
    assert state2.serialize() == state.serialize() and state2.legal_actions() == state.legal_actions()
    for player in (0, 1):
        assert state2.observation_tensor(player) == state.observation_tensor(player)


@pytest.mark.parametrize("name", [
    "freedom",
    # Hellenes: a state rebuilt from JSON whose keys were sorted keeps the Recruit Pool in the roster's order, so
    # later recruits draw the same blocks from the same generator
    "hellenes",
])
def test_a_deserialized_state_plays_on_with_the_same_dice(name: str) -> None:
    game, state, rng = _saved_midgame(name)
    _game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    while not state.is_terminal():
        assert state2.legal_actions() == state.legal_actions()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        state2.apply_action(action)
    assert state2.serialize() == state.serialize() and state2.returns() == state.returns()


def test_other_games_still_serialize_through_openspiel() -> None:
    register()
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(4)
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(game2) == "tic_tac_toe()" and state2.history() == [4]
