"""Every game's golden games replay identically: no change to an engine alters a game by accident.

See ``golden.py`` for what is recorded and how to re-record after a deliberate rules change. The fast tier
replays every tenth game of each set; the ``slow`` tier all of them.
"""

from __future__ import annotations

import pytest
from tests.contract import golden
from tests.contract.kit import game_params

from muster.core.registry import game_module

FAST_SHARE = 10
"""The fast tier replays every this-many-th golden game."""


def _replay(game: str, step: int) -> list[str]:
    rules = game_module(game).rules_object
    data = golden.load(game)
    problems = []
    for recorded in data["games"][::step]:
        for variant in data["variants"]:
            if golden.replay(rules, recorded, data["every"], data["ignore"], variant) != recorded["hashes"]:
                problems.append(f"seed {recorded['seed']} ({recorded['options']}, {recorded['players']}, {variant})")
    return problems


@pytest.mark.parametrize("game", game_params())
def test_every_game_has_a_golden_set_recorded_under_its_rules(game: str) -> None:
    assert golden.path(game).exists(), f"no golden set: record one with python tests/contract/golden.py record {game}"
    data = golden.load(game)
    # a rules change that alters games bumps the version and re-records the set (with a note saying why)
    assert data["rules_version"] == game_module(game).rules_object.info.version
    assert data["games"] and all(g["hashes"] for g in data["games"])


@pytest.mark.parametrize("game", game_params())
def test_a_sample_of_the_golden_games_replays_identically(game: str) -> None:
    assert _replay(game, FAST_SHARE) == []


@pytest.mark.slow
@pytest.mark.parametrize("game", game_params())
def test_every_golden_game_replays_identically(game: str) -> None:
    assert golden.check(game) == []
