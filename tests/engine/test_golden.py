"""The golden games replay identically: no change to the engine alters a game by accident.

See ``golden.py`` for what is recorded and how to re-record after a deliberate rules change.
"""

from __future__ import annotations

from golden import check, load

from muster.games.freedom import RULES


def test_golden_games_are_recorded_under_these_rules() -> None:
    # a rules change that alters games bumps the version and re-records the set (see golden.NOTES)
    assert load()["rules_version"] == RULES.info.version


def test_golden_games_replay_identically() -> None:
    problems = check()
    assert not problems, "\n".join(problems)
