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


def test_with_reveals_held_undo_takes_back_the_card_but_never_crosses_a_hand_over() -> None:
    # a host that shows nobody else the current turn (the web app against bots) lets undo take back the card too
    rules = get_rules("freedom")
    game, chooser = Game(rules, 3), random.Random(3)
    game.hold_reveals = True
    while not any(a.verb == "ap" for a in game.legal_actions()):
        game.apply(chooser.choice(game.legal_actions()))
    seat = game.active_seat
    before = len(game.actions)
    card_action = next(a for a in game.legal_actions() if a.verb == "ap")
    game.apply(card_action)
    game.apply(next(a for a in game.legal_actions() if a.verb == "prepare"))
    game.undo(seat)
    assert len(game.actions) == before and card_action.arg in game.state.hands[seat]
    # random play with undos: never back across the last hand-over (what the other seat has seen)
    undone = 0
    for seed in range(4):
        game, chooser = Game(rules, seed, {"quiet": "1"}), random.Random(seed)
        game.hold_reveals = True
        handed_over, last_actor = 0, None
        while game.active_seat is not None:
            if game.active_seat != last_actor:
                handed_over, last_actor = len(game.actions), game.active_seat
            if game.can_undo() and chooser.random() < 0.15 and undone < 200:
                game.undo()
                undone += 1
                assert len(game.actions) >= handed_over, (seed, len(game.actions), handed_over)
            game.apply(chooser.choice(game.legal_actions()))
    assert undone > 30


def test_with_reveals_held_the_others_see_the_turns_start_until_it_is_committed() -> None:
    # Game.shown() is the game at shown_step, equal to a replay there; it moves only when the turn is committed
    # (the seat changes, dice or a draw), or at once when the acting seat's move shows it another seat's hidden
    # facts (which undo could never take back); every undo stays at or after it
    for name in ("freedom", "hellenes"):
        rules = get_rules(name)
        held = undone = 0
        for seed in range(3):
            game, chooser = Game(rules, seed, {"quiet": "1"}), random.Random(seed)
            game.hold()
            while game.active_seat is not None and len(game.actions) < 600:
                actor = game.active_seat
                before = rules.private_info(game.state)
                game.apply(chooser.choice(game.legal_actions()))
                after = rules.private_info(game.state)
                if any(not facts <= after.get(seat, frozenset()) for seat, facts in before.items() if seat != actor):
                    assert game.shown_step == len(game.actions), (name, seed, len(game.actions))
                shown = game.shown()
                if game.shown_step < len(game.actions):
                    held += 1
                    replayed = Game(rules, seed, {"quiet": "1"})
                    for action in game.actions[:game.shown_step]:
                        replayed.apply(action)
                    assert rules.to_json(shown.state) == rules.to_json(replayed.state)
                    assert shown.actions == game.actions[:game.shown_step]
                if game.can_undo() and chooser.random() < 0.1:
                    floor = game.shown_step
                    game.undo()
                    undone += 1
                    assert len(game.actions) == floor and game.shown_step == floor
        assert held > 50 and undone > 10, (name, held, undone)
