"""Bots: legal choices only, reproducible search, and no peeking at hidden information."""

from __future__ import annotations

import random

import pytest

from muster.ai import BotSpecError, bot_names, make_bot
from muster.core import Action, get_rules
from muster.games.freedom.constants import IMPERIAL, INSURGENT, other
from muster.games.freedom.state import State

RULES = get_rules("freedom")
FAST_SPECS = ("random", "heuristic", "ismcts:iterations=8", "ismcts:tree=actions,iterations=8")
SEARCH_SPECS = ("ismcts:iterations=12", "ismcts:tree=actions,iterations=40")


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


def _card_turns() -> list[State]:
    """Positions where a side chooses its next card (what ``tree=cards`` searches), for both sides."""
    out: list[State] = []
    for seed, steps in ((5, 30), (6, 100), (7, 200)):
        s = _midgame(seed, steps)
        while RULES.outcome(s) is None and not (s.stack and s.stack[-1]["kind"] == "card_turn"
                                                 and len(RULES.legal_actions(s)) > 3):
            RULES.apply(s, RULES.legal_actions(s)[0])
        if RULES.outcome(s) is None:
            out.append(s)
    assert {RULES.active_seat(s) for s in out} == {IMPERIAL, INSURGENT}
    return out


def test_registry_knows_all_bots() -> None:
    assert {"random", "heuristic", "ismcts"} <= set(bot_names())


@pytest.mark.parametrize("spec", ["nobot", "heuristic:depth", "heuristic:colour=red", "ismcts:iterations=x",
                                  "ismcts:rollout=magic", "ismcts:tree=deep", "ismcts:playout_plan=x",
                                  "ismcts:plan_answers=maybe", "random:x=1"])
def test_bad_specs_are_clear_errors(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, game="freedom")


@pytest.mark.parametrize("imperial,insurgent", [("heuristic", "ismcts:iterations=8"),
                                                ("ismcts:iterations=8", "heuristic")])
def test_bots_only_return_legal_actions_through_a_whole_game(imperial: str, insurgent: str) -> None:
    state = RULES.setup(17, {"quiet": "1"})
    bots = {IMPERIAL: make_bot(imperial, seed=1, game="freedom"),
            INSURGENT: make_bot(insurgent, seed=2, game="freedom")}
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
        assert make_bot(spec, seed=3, game="freedom").choose(RULES.view(s, seat), legal, seat) in legal


@pytest.mark.parametrize("spec", SEARCH_SPECS)
def test_ismcts_same_seed_same_action(spec: str) -> None:
    for s in _positions() + _card_turns():
        seat = RULES.active_seat(s)
        assert seat is not None
        view, legal = RULES.view(s, seat), RULES.legal_actions(s)
        first = make_bot(spec, seed=9, game="freedom").choose(view, legal, seat)
        again = make_bot(spec, seed=9, game="freedom").choose(view, legal, seat)
        assert first == again


def _scrambled(s: State, seat: str, seed: int) -> State:
    """Another state the seat cannot tell from ``s``: the opponent's hand, decks and dice redrawn."""
    alt = RULES.determinize(RULES.view(s, seat), seat, seed)
    assert RULES.view(alt, seat) == RULES.view(s, seat)
    return alt


@pytest.mark.parametrize("spec", ["heuristic", *SEARCH_SPECS])
def test_search_bots_never_read_hidden_information(spec: str) -> None:
    changed_hands = 0
    for s in _positions() + _card_turns():
        seat = RULES.active_seat(s)
        assert seat is not None
        legal = RULES.legal_actions(s)
        base = make_bot(spec, seed=4, game="freedom").choose(RULES.view(s, seat), legal, seat)
        for k in (101, 202):
            alt = _scrambled(s, seat, k)
            changed_hands += alt.hands[other(seat)] != s.hands[other(seat)]
            assert RULES.legal_actions(alt) == legal
            assert make_bot(spec, seed=4, game="freedom").choose(RULES.view(alt, seat), legal, seat) == base
    assert changed_hands > 0  # the opponent's real hand did differ, and the choice did not move


@pytest.mark.parametrize("spec", ["ismcts:seconds=0.05", "ismcts:tree=actions,seconds=0.05"])
def test_ismcts_seconds_budget_runs_at_least_one_iteration(spec: str) -> None:
    s = _card_turns()[0]
    seat = RULES.active_seat(s)
    assert seat is not None
    bot = make_bot(spec, seed=1, game="freedom")
    assert bot.choose(RULES.view(s, seat), RULES.legal_actions(s), seat) in RULES.legal_actions(s)
    assert getattr(bot, "last_iterations", 0) >= 1


def test_ismcts_over_cards_searches_the_heuristics_best_few_cards_only() -> None:
    """tree=cards: a card turn is searched among the heuristic's ``width`` best choices; the moves
    that carry a card out are left to the heuristic's plan (no search, so no iterations)."""
    from muster.games.freedom.bots.heuristic import HeuristicBot

    for s in _card_turns():
        seat = RULES.active_seat(s)
        assert seat is not None
        legal = RULES.legal_actions(s)
        bot = make_bot("ismcts:iterations=12,width=2", seed=1, game="freedom")
        choice = bot.choose(RULES.view(s, seat), legal, seat)
        scores = HeuristicBot(RULES, 0).scores(RULES.determinize(RULES.view(s, seat), seat, 1), legal, seat)
        assert choice in legal and getattr(bot, "last_iterations", 0) >= 2
        assert scores[legal.index(choice)] >= sorted(scores)[-3]  # among the best (one determinization's ranking)
        while RULES.outcome(s) is None and RULES.active_seat(s) == seat:
            RULES.apply(s, choice)
            if s.stack and s.stack[-1]["kind"] == "ap" and len(RULES.legal_actions(s)) > 1:
                bot.choose(RULES.view(s, seat), RULES.legal_actions(s), seat)
                assert bot.last_iterations == 0
                break
            choice = RULES.legal_actions(s)[0]


def test_ismcts_per_action_caps_the_iterations_of_narrow_decisions() -> None:
    s = _positions()[0]
    seat = RULES.active_seat(s)
    assert seat is not None
    legal = RULES.legal_actions(s)
    bot = make_bot("ismcts:tree=actions,iterations=500,per_action=2", seed=1, game="freedom")
    assert bot.choose(RULES.view(s, seat), legal, seat) in legal
    assert getattr(bot, "last_iterations", 0) == min(500, 2 * len(legal))
