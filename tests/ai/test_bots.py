"""Bots: legal choices only, reproducible search, and no peeking at hidden information."""

from __future__ import annotations

import random

import pytest

from muster.ai import BotSpecError, bot_names, make_bot
from muster.core import Action, get_rules
from muster.games.freedom.constants import IMPERIAL, INSURGENT, other
from muster.games.freedom.state import State

RULES = get_rules("freedom")
FAST_SPECS = ("random", "heuristic", "ismcts:iterations=8")


def _midgame(seed: int, steps: int) -> State:
    """A position reached by random play (quiet: no log)."""
    state = RULES.setup(seed, {"quiet": "1"})
    rnd = random.Random(seed)
    for _ in range(steps):
        if RULES.outcome(state) is not None:
            break
        RULES.apply(state, rnd.choice(RULES.legal_actions(state)))
    return state


def _positions() -> list[State]:
    out = []
    for seed, steps in ((1, 40), (2, 120), (3, 260), (4, 420)):
        s = _midgame(seed, steps)
        while RULES.outcome(s) is None and len(RULES.legal_actions(s)) < 2:
            RULES.apply(s, RULES.legal_actions(s)[0])
        if RULES.outcome(s) is None:
            out.append(s)
    return out


def test_registry_knows_all_bots() -> None:
    assert {"random", "heuristic", "ismcts"} <= set(bot_names())


@pytest.mark.parametrize("spec", ["nobot", "heuristic:depth", "heuristic:colour=red", "ismcts:iterations=x",
                                  "ismcts:rollout=magic", "random:x=1"])
def test_bad_specs_are_clear_errors(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec)


@pytest.mark.parametrize("imperial,insurgent", [("heuristic", "ismcts:iterations=8"),
                                                ("ismcts:iterations=8", "heuristic")])
def test_bots_only_return_legal_actions_through_a_whole_game(imperial: str, insurgent: str) -> None:
    state = RULES.setup(17, {"quiet": "1"})
    bots = {IMPERIAL: make_bot(imperial, seed=1), INSURGENT: make_bot(insurgent, seed=2)}
    moves = 0
    while RULES.outcome(state) is None:
        seat = RULES.active_seat(state)
        assert seat is not None
        legal = RULES.legal_actions(state)
        action = bots[seat].choose(RULES.view(state, seat), legal, seat)
        assert isinstance(action, Action) and action in legal
        RULES.apply(state, action)
        moves += 1
    assert RULES.outcome(state) is not None and moves > 50


@pytest.mark.parametrize("spec", FAST_SPECS)
def test_every_bot_chooses_a_legal_action_in_varied_positions(spec: str) -> None:
    for s in _positions():
        seat = RULES.active_seat(s)
        assert seat is not None
        legal = RULES.legal_actions(s)
        assert make_bot(spec, seed=3).choose(RULES.view(s, seat), legal, seat) in legal


def test_ismcts_same_seed_same_action() -> None:
    for s in _positions():
        seat = RULES.active_seat(s)
        assert seat is not None
        view, legal = RULES.view(s, seat), RULES.legal_actions(s)
        first = make_bot("ismcts:iterations=40", seed=9).choose(view, legal, seat)
        again = make_bot("ismcts:iterations=40", seed=9).choose(view, legal, seat)
        assert first == again


def _scrambled(s: State, seat: str, seed: int) -> State:
    """Another state the seat cannot tell from ``s``: the opponent's hand, decks and dice redrawn."""
    alt = RULES.determinize(RULES.view(s, seat), seat, seed)
    assert RULES.view(alt, seat) == RULES.view(s, seat)
    return alt


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iterations=40"])
def test_search_bots_never_read_hidden_information(spec: str) -> None:
    changed_hands = 0
    for s in _positions():
        seat = RULES.active_seat(s)
        assert seat is not None
        legal = RULES.legal_actions(s)
        base = make_bot(spec, seed=4).choose(RULES.view(s, seat), legal, seat)
        for k in (101, 202):
            alt = _scrambled(s, seat, k)
            changed_hands += alt.hands[other(seat)] != s.hands[other(seat)]
            assert RULES.legal_actions(alt) == legal
            assert make_bot(spec, seed=4).choose(RULES.view(alt, seat), legal, seat) == base
    assert changed_hands > 0  # the opponent's real hand did differ, and the choice did not move


def test_ismcts_seconds_budget_runs_at_least_one_iteration() -> None:
    s = _positions()[0]
    seat = RULES.active_seat(s)
    assert seat is not None
    bot = make_bot("ismcts:seconds=0.05", seed=1)
    assert bot.choose(RULES.view(s, seat), RULES.legal_actions(s), seat) in RULES.legal_actions(s)
    assert getattr(bot, "last_iterations", 0) >= 1


def test_ismcts_per_action_caps_the_iterations_of_narrow_decisions() -> None:
    s = _positions()[0]
    seat = RULES.active_seat(s)
    assert seat is not None
    legal = RULES.legal_actions(s)
    bot = make_bot("ismcts:iterations=500,per_action=2", seed=1)
    assert bot.choose(RULES.view(s, seat), legal, seat) in legal
    assert getattr(bot, "last_iterations", 0) == min(500, 2 * len(legal))
