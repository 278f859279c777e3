"""What every game promises through :class:`muster.core.Rules`, checked on seeded random games of every game and
option set: saving and loading, undo as the replay of the actions kept, views that hide what determinize
redraws, and the fixed action numbering with its observations (where a game numbers its actions)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from tests.contract.kit import Case, case_params, game_params, learning, random_positions

from muster.core import CorruptStateError, Game
from muster.core.registry import game_module


@pytest.mark.parametrize("case", case_params())
def test_saved_games_load_to_the_same_game(case: Case) -> None:
    rules = case.rules
    game = Game(rules, 11, case.options)
    chooser = random.Random(11)
    saved = 0
    while game.active_seat is not None:
        n = len(game.actions)
        if (n < 50 and n % 7 == 0) or n % 40 == 0:  # often early (short games), then now and then
            text = game.dumps()
            again = Game.loads(rules, text)
            assert again.actions == game.actions and rules.to_json(again.state) == rules.to_json(game.state)
            assert again.legal_actions() == game.legal_actions()
            assert rules.to_json(rules.from_json(json.loads(json.dumps(rules.to_json(game.state))))) == \
                rules.to_json(game.state)
            saved += 1
        game.apply(chooser.choice(game.legal_actions()))
    assert Game.loads(rules, game.dumps()).outcome == game.outcome
    assert saved >= 2
    # a save whose state does not match its actions, and states that are not states at all, are refused
    record = game.to_record()
    record["state"] = rules.to_json(rules.setup(12, case.options))
    with pytest.raises(CorruptStateError):
        Game.from_record(rules, record)
    for junk in ({}, [], "state", None, {"hands": 1}):
        with pytest.raises(CorruptStateError):
            rules.from_json(junk)


@pytest.mark.parametrize("case", case_params())
def test_undo_goes_back_to_the_state_the_kept_actions_reach(case: Case) -> None:
    # Undo replays the game from its start (Game.undo); the state it reaches must be the one the game was in
    # when those actions had been played, and undo must never go back before something hidden was shown.
    rules = case.rules
    undone = 0
    for seed in range(2):
        game = Game(rules, seed, case.options)
        chooser = random.Random(seed)
        snapshots = [rules.to_json(game.state)]
        shown = 0  # how many actions had been played when a seat last lost a secret (a card shown)
        while game.active_seat is not None:
            if undone < 4 * (seed + 1) and game.can_undo() and chooser.random() < 0.2:
                game.undo()
                undone += 1
                del snapshots[len(game.actions) + 1:]
                assert rules.to_json(game.state) == snapshots[-1], "undo does not reach the state played before"
                assert len(game.actions) >= shown, "undo went back before something hidden was shown"
            before = rules.private_info(game.state)
            game.apply(chooser.choice(game.legal_actions()))
            after = rules.private_info(game.state)
            if any(not facts <= after.get(seat, frozenset()) for seat, facts in before.items()):
                shown = len(game.actions)
            snapshots.append(rules.to_json(game.state))
    assert undone, "no turn of two random games could be taken back"


@pytest.mark.parametrize("case", case_params())
def test_determinize_redraws_what_the_views_hide(case: Case) -> None:
    rules = case.rules
    checked = differed = 0
    for state, _ in random_positions(case, 5, every=30):
        for seat in rules.info.seats:
            view = rules.view(state, seat)
            scrambled = rules.determinize(view, seat, 1000 + checked)
            assert rules.view(scrambled, seat) == view, "the view shows something determinize redraws"
            assert rules.view(scrambled, None) == rules.view(state, None), "the spectator sees a seat's secret"
            assert rules.private_info(scrambled)[seat] == rules.private_info(state)[seat], "my secrets changed"
            differed += rules.to_json(scrambled) != rules.to_json(state)
            checked += 1
    assert checked >= 4 and differed >= checked // 2, "determinize did not redraw the hidden parts"


@pytest.mark.parametrize("game", game_params())
def test_the_action_numbering_is_a_bijection(game: str) -> None:
    numbered = learning(game_module(game).rules_object)
    if numbered is None:
        pytest.skip(f"{game} does not number its actions")
    space = numbered.action_space
    assert [numbered.action_from_index(i) for i in range(space.size)] == list(space.actions)
    assert all(numbered.action_index(a) == i for i, a in enumerate(space.actions))
    assert space.version.startswith(f"{game}-actions-")


@pytest.mark.parametrize("case", case_params())
def test_every_action_has_an_index_and_observations_hide_what_is_hidden(case: Case) -> None:
    numbered = learning(case.rules)
    if numbered is None:
        pytest.skip(f"{case.game} does not number its actions")
    shape = numbered.observation_shape()
    for n, (state, legal) in enumerate(random_positions(case, 3)):
        assert numbered.action_space.mask(legal).sum() == len(set(legal))
        if n % 25:
            continue
        for seat in numbered.info.seats:
            obs = numbered.observation(state, seat)
            assert obs.shape == shape and obs.dtype == np.float32 and np.isfinite(obs).all()
            scrambled = numbered.determinize(numbered.view(state, seat), seat, n)
            assert np.array_equal(numbered.observation(scrambled, seat), obs)
            assert numbered.information_state(scrambled, seat) == numbered.information_state(state, seat)
