"""A game's analysis is a part of its module, used through the documented protocol."""

from __future__ import annotations

from muster.analysis import GameAnalysis
from muster.core.registry import game_module


def test_freedom_analysis_is_its_module_part_and_follows_the_protocol() -> None:
    part = game_module("freedom").part("analysis")
    assert isinstance(part, GameAnalysis)
    assert part.side_in("imperial", "en") == "Imperial"
    assert isinstance(game_module("hellenes").part("analysis"), GameAnalysis)
