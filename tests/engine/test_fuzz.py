"""Freedom!'s random games reach every card event.

The random games themselves, with every invariant checked after every step, are the contract suite's
(``tests/contract/test_fuzz.py``, for every game); this plays the same seeded games without the checks and
counts the events played, so that the fuzzer's games are known to exercise every card.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from tests.contract.kit import Case, FuzzResults, play_one

from muster.core import Action
from muster.games.freedom.datafiles import cards_file


@pytest.mark.slow
def test_every_card_event_is_played(request: pytest.FixtureRequest) -> None:
    count = int(request.config.getoption("--fuzz-games"))
    events: Counter[int] = Counter()

    def watch(state: Any, action: Action) -> None:
        if action.verb == "event":
            events[int(action.arg)] += 1  # type: ignore[arg-type]
        elif action.verb == "trigger" and state.trigger:
            events[int(state.trigger["card"])] += 1

    results = FuzzResults()
    for ruleset, games in (("2nd", count), ("1st", max(1, count // 4))):
        for seed in range(games):
            play_one(Case("freedom", {"quiet": "0", "ruleset": ruleset}), seed, results, checks=False, watch=watch)
    assert not results.failures, "\n".join(results.failures)
    with_events = [c.number for c in cards_file().cards if c.effect]
    never = [n for n in with_events if events[n] == 0]
    print(f"\nevents played (card:count): {', '.join(f'{n}:{events[n]}' for n in with_events)}")
    assert not never, f"cards never played as an event in the fuzz games: {never}"
