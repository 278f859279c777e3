"""Hellenes' random games reach every Event and every kind of decision.

The random games themselves, with every invariant checked after every step, are the contract suite's
(``tests/contract/test_fuzz.py``, for every game); this plays the same seeded games without the checks and
counts what they reached.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from tests.contract.kit import Case, FuzzResults, play_one

from muster.core import Action
from muster.games.hellenes.datafiles import cards


@pytest.mark.slow
def test_every_event_and_decision_kind_is_reached(request: pytest.FixtureRequest) -> None:
    count = int(request.config.getoption("--fuzz-games"))
    if count < 50:
        pytest.skip("too few games to expect every event")
    events: Counter[str] = Counter()
    verbs: Counter[str] = Counter()

    def watch(state: Any, action: Action) -> None:
        verbs[action.verb] += 1
        if action == Action("as", "event"):
            events[cards()[state.stack[-1]["card"]].event] += 1

    results = FuzzResults()
    for seed in range(count):
        play_one(Case("hellenes", {"quiet": "0", "scenario": "431", "years": "3"}), seed, results, checks=False,
                 watch=watch)
    assert not results.failures, "\n".join(results.failures)
    never = sorted({c.event for c in cards().values()} - set(events))
    assert not never, f"events never played: {never}"
    wanted = {"move", "muster", "build", "recruit", "garrison", "pillage", "supply", "to", "forced", "board",
              "assault", "attrition", "fortify", "retreat", "fight", "place",
              "hit", "rout", "lose", "inside", "stay",  # the owner's choices (rules revision 2)
              "battle", "sortie"}  # equal battles and Sorties (rules revision 3)
    # "force" (which of two Forces fights first, 5.4.1) needs two enemy Forces engaging one area at once: on the
    # 25-City map random play spreads too thin to meet it in a few hundred games; test_rule_5_4_engage plays it
    assert not wanted - set(verbs), f"never chosen: {sorted(wanted - set(verbs))}"
