"""Undo never puts back into a hand a card another seat has seen (docs/rules-decisions.md, "Undo")."""

from __future__ import annotations

import random

from muster.core import Game, get_rules


def test_undo_never_returns_a_seen_card_to_a_hand() -> None:
    rules = get_rules("freedom")
    undone = 0
    for seed in range(6):
        game, chooser = Game(rules, seed, {"quiet": "1"}), random.Random(seed)
        while game.active_seat is not None:
            if game.can_undo() and chooser.random() < 0.15 and undone < 200:
                before = {seat: set(cards) for seat, cards in game.state.hands.items()}
                game.undo()
                undone += 1
                for seat, cards in game.state.hands.items():
                    assert set(cards) <= before[seat], (seed, len(game.actions), seat)
            game.apply(chooser.choice(game.legal_actions()))
    assert undone > 30


def test_playing_a_card_ends_undo_back_across_it() -> None:
    # rule 4.3 (card play): the card played is public at once, so undo stops just after it
    rules = get_rules("freedom")
    game, chooser = Game(rules, 3), random.Random(3)
    while not any(a.verb == "ap" for a in game.legal_actions()):
        game.apply(chooser.choice(game.legal_actions()))
    seat = game.active_seat
    card_action = next(a for a in game.legal_actions() if a.verb == "ap")
    game.apply(card_action)
    assert game.undo_floor == len(game.actions) and not game.can_undo(seat)
    prepare = next(a for a in game.legal_actions() if a.verb == "prepare")
    game.apply(prepare)
    assert game.can_undo(seat)
    game.undo(seat)
    assert game.actions[-1] == card_action and card_action.arg not in game.state.hands[seat]
