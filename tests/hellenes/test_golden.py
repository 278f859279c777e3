"""The engine plays exactly as when the golden set was recorded (speed work must not change the game)."""

from __future__ import annotations

import json

import pytest
from tests.hellenes.golden import GAMES, GOLDEN, play

RECORDED = json.loads(GOLDEN.read_text())["games"]


@pytest.mark.parametrize("quiet", [False, True])
def test_random_games_replay_the_golden_set(quiet: bool) -> None:
    assert len(RECORDED) == GAMES
    for game in RECORDED:
        assert play(game["seed"], quiet) == game, f"seed {game['seed']} (quiet={quiet}) plays differently"
