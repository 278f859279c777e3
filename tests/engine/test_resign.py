"""``Game.resign``: a game ended outside its rules is over for every purpose (docs/web.md, "Resign and rematch")."""

from __future__ import annotations

import pytest

from muster.core import IllegalActionError, new_game
from muster.core.registry import game_names


@pytest.mark.parametrize("name", game_names())
def test_a_resigned_game_is_over_and_the_other_seat_wins(name: str) -> None:
    game = new_game(name, seed=4)
    first = game.legal_actions()[0]
    game.apply(first)
    quitter = game.rules.info.seats[0]
    game.resign(quitter)
    outcome = game.outcome
    assert outcome is not None and outcome.reason == "resigned"
    assert outcome.winner == game.rules.info.seats[1]
    assert game.active_seat is None and game.legal_actions() == [] and not game.can_undo()
    with pytest.raises(IllegalActionError):
        game.apply(first)
    with pytest.raises(IllegalActionError):
        game.resign(game.rules.info.seats[1])
    with pytest.raises(IllegalActionError):
        new_game(name, seed=4).resign("nobody")
