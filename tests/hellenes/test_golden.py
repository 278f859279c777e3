"""The engine plays exactly as when the golden set was recorded (speed work must not change the game)."""

from __future__ import annotations

import pytest
from tests.hellenes.golden import BOT_GAMES, GAMES, check, load


def test_the_golden_set_holds_random_and_heuristic_games() -> None:
    games = load()
    assert [g["players"] for g in games] == ["random"] * GAMES + ["heuristic"] * BOT_GAMES


@pytest.mark.parametrize("quiet", [False, True])
def test_recorded_games_replay_to_the_same_states_and_legal_lists(quiet: bool) -> None:
    assert check(quiet) == []
