"""The game-agnostic interface through Freedom!: validation, saving, undo, determinism, views."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muster.core import (
    Action,
    CorruptStateError,
    Game,
    GameError,
    IllegalActionError,
    MalformedActionError,
    UndoError,
    new_game,
)
from muster.games.freedom import RULES
from muster.games.freedom.state import State


def play_random(game: Game, steps: int, seed: int = 0) -> None:
    """Advance a game by up to ``steps`` random legal actions."""
    chooser = random.Random(seed)
    for _ in range(steps):
        if game.active_seat is None:
            return
        game.apply(chooser.choice(game.legal_actions()))


def mid_game(seed: int = 5, steps: int = 120) -> Game:
    game = new_game("freedom", seed=seed)
    play_random(game, steps, seed)
    return game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(garbage=json_values)
def test_garbage_actions_are_rejected_and_change_nothing(garbage: object) -> None:
    game = mid_game()
    before = game.dumps()
    legal = {tuple(a) for a in game.legal_actions()}
    try:
        parsed = Action.from_json(garbage)
    except MalformedActionError:
        parsed = None
    if parsed is not None and tuple(parsed) in legal:
        return  # by chance a legal action: nothing to check
    with pytest.raises(GameError):
        game.apply(garbage)
    assert game.dumps() == before


@settings(max_examples=200, deadline=None)
@given(verb=st.sampled_from(["from", "to", "ap", "event", "trigger", "morale", "cannon", "target", "end", "x"]),
       arg=st.none() | st.integers(-5, 120) | st.sampled_from(["r5c3", "w6", "camp", "sea", "own", "E", "zz"]))
def test_wrong_verbs_and_arguments_raise_illegal_action(verb: str, arg: str | int | None) -> None:
    game = mid_game(seed=9, steps=60)
    action = Action(verb, arg)
    if action in game.legal_actions():
        return
    before = game.dumps()
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.dumps() == before


def test_acting_out_of_turn_is_refused() -> None:
    game = new_game("freedom", seed=1)
    seat = game.active_seat
    assert seat is not None
    other = "insurgent" if seat == "imperial" else "imperial"
    before = game.dumps()
    with pytest.raises(IllegalActionError, match=r"not (insurgent|imperial).s turn"):
        game.apply(game.legal_actions()[0], seat=other)
    assert game.dumps() == before


def test_same_seed_and_actions_give_byte_identical_json() -> None:
    a, b = new_game("freedom", seed=42), new_game("freedom", seed=42)
    play_random(a, 400, seed=1)
    for action in a.actions:
        b.apply(action)
    assert json.dumps(a.rules.to_json(a.state)) == json.dumps(b.rules.to_json(b.state))


def test_save_and_load_round_trip() -> None:
    game = mid_game(steps=300)
    loaded = Game.loads(RULES, game.dumps())
    assert loaded.dumps() == game.dumps()
    assert loaded.legal_actions() == game.legal_actions()


@pytest.mark.parametrize("text", [
    "", "not json", "[]", "{}", '{"format": "muster-game"}',
    '{"format": "muster-game", "game": "chess", "seed": 1, "options": {}, "actions": []}',
    '{"format": "muster-game", "game": "freedom", "seed": "x", "options": {}, "actions": []}',
    '{"format": "muster-game", "game": "freedom", "seed": 1, "options": {}, "actions": [["fly", 1]]}',
    '{"format": "muster-game", "game": "freedom", "seed": 1, "options": {"ruleset": "9th"}, "actions": []}',
])
def test_corrupted_save_files_raise_a_clear_error(text: str) -> None:
    with pytest.raises(CorruptStateError):
        Game.loads(RULES, text)


def test_a_tampered_state_in_a_save_file_is_detected() -> None:
    game = mid_game()
    record = game.to_record()
    record["state"]["tracks"]["imperial"]["money"] += 5
    with pytest.raises(CorruptStateError, match="does not match"):
        Game.from_record(RULES, record)


def test_a_save_file_from_other_rules_is_refused_by_name() -> None:
    record = mid_game().to_record()
    assert record["rules_version"] == RULES.info.version
    record["rules_version"] = "r0-older"
    with pytest.raises(CorruptStateError, match="rules version 'r0-older'"):
        Game.from_record(RULES, record)
    del record["rules_version"]  # a file saved before the stamp existed: checked by replay alone
    assert Game.from_record(RULES, record).dumps() == mid_game().dumps()


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(format=99),
    lambda d: d["spaces"]["exp"].update(nowhere=3),
    lambda d: d["tracks"]["imperial"].update(morale="high"),
    lambda d: d.update(ruleset="3rd"),
    lambda d: d.pop("hands"),
    lambda d: d["stack"].append({"no": "kind"}),
])
def test_corrupted_states_raise_a_clear_error(mutate: object) -> None:
    data = mid_game().rules.to_json(mid_game().state)
    mutate(data)  # type: ignore[operator]
    with pytest.raises(CorruptStateError):
        RULES.from_json(data)


def test_undo_returns_to_the_start_of_the_turn_before_any_die_is_rolled() -> None:
    game = new_game("freedom", seed=2)
    start = game.dumps()
    seat = game.active_seat
    game.apply(game.legal_actions()[0])  # Opening: pick a unit to advance
    assert game.can_undo(seat)
    game.undo(seat)
    assert game.dumps() == start
    with pytest.raises(UndoError):
        game.undo(seat)


def test_undo_is_refused_once_dice_were_rolled() -> None:
    game = new_game("freedom", seed=11)
    for _ in range(2000):  # play until an action of the active seat rolls dice in its own turn
        seat = game.active_seat
        assert seat is not None
        before = game.rules.undo_start(game.state)
        game.apply(game.legal_actions()[-1] if game.legal_actions()[-1].verb != "end" else game.legal_actions()[0])
        if game.state.tainted and game.active_seat == seat and before is not None:
            assert not game.can_undo(seat)
            with pytest.raises(UndoError):
                game.undo(seat)
            return
    pytest.fail("no dice were rolled")


def test_views_hide_the_opponents_hand_the_decks_and_the_generator() -> None:
    game = mid_game()
    for seat, other in (("imperial", "insurgent"), ("insurgent", "imperial")):
        view = game.view(seat)
        assert view["hands"][seat] == game.state.hands[seat]
        assert view["hands"][other] == {"count": len(game.state.hands[other])}
        assert "rng" not in view and "seed" not in view
        assert all(set(d) == {"count"} for d in view["decks"].values())
        text = json.dumps(view)
        assert str(game.state.rng) not in text
    spectator = game.view(None)
    assert all(isinstance(h, dict) for h in spectator["hands"].values())


def test_determinize_is_consistent_with_the_view_and_varies_the_hidden_parts() -> None:
    game = mid_game(steps=200)
    seat = game.active_seat
    assert seat is not None
    view = game.view(seat)
    a = RULES.determinize(view, seat, seed=1)
    b = RULES.determinize(view, seat, seed=2)
    for s in (a, b):
        assert RULES.view(s, seat) == view  # the same from the seat's point of view
        assert RULES.legal_actions(s) == game.legal_actions()
    other = "insurgent" if seat == "imperial" else "imperial"
    assert (a.hands[other], a.decks, a.rng) != (b.hands[other], b.decks, b.rng)


def test_determinized_states_play_on_to_the_end() -> None:
    game = mid_game(steps=150)
    seat = game.active_seat
    assert seat is not None
    s = RULES.determinize(game.view(seat), seat, seed=3)
    chooser = random.Random(0)
    while RULES.active_seat(s):
        RULES.apply(s, chooser.choice(RULES.legal_actions(s)))
    assert RULES.outcome(s) is not None


def test_clone_is_independent() -> None:
    game = mid_game()
    copy = RULES.clone(game.state)
    before = RULES.to_json(game.state)
    chooser = random.Random(1)
    for _ in range(50):
        if RULES.active_seat(copy) is None:
            break
        RULES.apply(copy, chooser.choice(RULES.legal_actions(copy)))
    assert RULES.to_json(game.state) == before


def test_every_legal_action_has_a_label_and_the_prompt_is_words() -> None:
    game = mid_game(steps=80)
    for _action, label in game.labelled_actions():
        assert isinstance(label, str) and label
    assert isinstance(game.prompt, str) and len(game.prompt) > 5


def test_state_json_is_plain_data() -> None:
    state: State = mid_game().state
    text = json.dumps(state.to_json())
    assert json.loads(text) == state.to_json()


@pytest.mark.parametrize("name", ["freedom", "hellenes"])
def test_views_of_several_seats_equal_each_seats_own_view(name: str) -> None:
    """``Game.views`` (one serialisation for every seat, as the server builds them) shows each seat
    exactly what ``Game.view`` shows it: nothing more of the opponent's hand or the decks."""
    game = new_game(name, seed=11)
    seats: list[str | None] = [*game.rules.info.seats, None]
    for step in range(0, 200, 20):
        play_random(game, 20, step)
        together = game.views(seats)
        for seat in seats:
            assert json.dumps(together[seat], sort_keys=True) == json.dumps(game.view(seat), sort_keys=True)
