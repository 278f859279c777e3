"""Every choice and prompt of Freedom! is a message: the rules keep its id and typed arguments beside its English
words, so every front end renders it in its reader's language and nothing is rebuilt from English or from an
action's verb."""

from __future__ import annotations

import random

import pytest

from muster.core import Game, get_rules
from muster.games.freedom.texts import label_in, names, prompt_in
from muster.i18n import message_of, render

SEEDS = (0, 1, 2)


@pytest.mark.parametrize("ruleset", ["2nd", "1st"])
def test_every_label_and_prompt_of_random_games_carries_its_message(ruleset: str) -> None:
    """Random games of both editions, to their end: each prompt and each label keeps a message that renders to
    exactly its English words, and renders in Polish with every placeholder filled."""
    english, polish = names("en"), names("pl")
    plain: list[tuple[str, str]] = []
    seen: set[str] = set()
    for seed in SEEDS:
        game = Game(get_rules("freedom"), seed, {"ruleset": ruleset})
        chooser = random.Random(seed)
        while game.outcome is None:
            seat = game.active_seat
            texts = [("prompt", game.prompt)] + [(action.verb, label) for action, label in game.labelled_actions()]
            for what, text in texts:
                message = message_of(text)
                if message is None:
                    plain.append((what, str(text)))
                    continue
                seen.add(message["m"])
                assert not message["m"].startswith("{verb}"), (what, text)  # a catch-all: an untranslated verb
                assert render(message, english) == text
                assert "{" not in render(message, polish), message
            game.apply(chooser.choice(game.legal_actions()), seat)
    assert not plain, sorted(set(plain))[:20]
    assert len(seen) > 60, len(seen)  # the menus, targets, cards, events' choices: not a handful of kinds


def test_the_polish_words_come_from_the_message_alone() -> None:
    """``label_in``/``prompt_in`` render the message the words keep; the same words without their message stay as
    they are (nothing is read back out of English, nor rebuilt from the action's verb)."""
    game = Game(get_rules("freedom"), 4, {"ruleset": "2nd"})
    while not any(action.verb == "ap" for action in game.legal_actions()):
        game.apply(game.legal_actions()[-1])
    seat = game.active_seat
    for action, label in game.labelled_actions():
        message = message_of(label)
        assert message is not None
        assert label_in(action, seat, label, "pl") == render(message, names("pl")) != label
        assert label_in(action, seat, str(label), "pl") == str(label)
    assert prompt_in(game.view(seat), seat, game.prompt, "pl") != game.prompt
    assert prompt_in(game.view(seat), seat, str(game.prompt), "pl") == str(game.prompt)
