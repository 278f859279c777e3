"""The game runs end to end through the public interface."""

from __future__ import annotations

import random

from muster.core import new_game


def test_a_random_game_finishes() -> None:
    game = new_game("freedom", seed=3)
    chooser = random.Random(3)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    assert game.outcome is not None
