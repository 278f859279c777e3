"""Seeded random games to the end, every game × every option set, with every check after every step.

Checked after each step: the game's own invariants (its module's ``invariants`` part), the JSON round trip, each
seat's view and the spectator's unchanged under a determinization (nothing hidden leaks into a view), the deciding
seat's choices unchanged by it, every chosen action's round trip through the action space (where the game numbers
its actions), and at the end the outcome and the replay of the action list. The fast tier plays a few games per
case; the ``slow`` tier plays ``--fuzz-games`` games of the default options and a quarter as many of each other
option set. A failing game is written to ``fuzz-failures/`` as a save file that replays it.
"""

from __future__ import annotations

import pytest
from tests.contract.kit import Case, FuzzResults, case_params, play_one

FAST_GAMES = 1
"""Games per case in the fast tier (the invariants on every step, views, JSON and determinize on every third)."""
FULL_CHECK_EVERY = 3
"""In the slow tier, views, JSON and determinize are checked on every step of every third game and on every 7th
step of the others (the invariants on every step), which keeps 200 games of each game to minutes."""


@pytest.mark.parametrize("case", case_params())
def test_a_few_random_games_keep_every_invariant(case: Case) -> None:
    results = FuzzResults()
    for seed in range(FAST_GAMES):
        play_one(case, seed, results, full_every=3)
    assert not results.failures, "\n".join(results.failures)
    assert results.games == FAST_GAMES


@pytest.mark.slow
@pytest.mark.parametrize("case", case_params())
def test_many_random_games_keep_every_invariant(case: Case, request: pytest.FixtureRequest) -> None:
    count = int(request.config.getoption("--fuzz-games"))
    count = count if case.default else max(1, count // 4)
    results = FuzzResults()
    for seed in range(count):
        play_one(case, seed, results, full_every=1 if seed % FULL_CHECK_EVERY == 0 else 7)
    assert not results.failures, "\n".join(results.failures)
    print(f"\n{case.id}: {results.games} games, {results.steps} steps, outcomes {dict(results.outcomes)}")
