"""The Hellenes random-play fuzzer: every legal action, to the end of the game, invariants after each step.

CI plays ``--fuzz-games`` games (default 200): every invariant of :mod:`muster.games.hellenes.invariants`
(blocks conserved and within limits, cards conserved, the track in range, views hiding what blocks standing
upright hide), the JSON round trip, ``determinize`` of the deciding seat's view, the replay of the action
list, and a bound on the game's length. A failing game is written to ``fuzz-failures/`` as a save file.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from muster.core import Action, Game
from muster.games.hellenes import RULES
from muster.games.hellenes.datafiles import cards
from muster.games.hellenes.invariants import violations
from muster.games.hellenes.state import State

MAX_STEPS = 3000
"""No game may take more decisions than this (3 Years of 6 cards a side, each with a few Actions)."""
FULL_CHECK_EVERY = 3
"""Views, JSON and determinize are checked on every step of every third game and every 7th step of the rest
(all other invariants on every step), which keeps 200 games to about a minute."""
FAILURES = Path("fuzz-failures")


@dataclass
class FuzzResults:
    """What the fuzz games did."""

    games: int = 0
    steps: int = 0
    events: Counter[str] = field(default_factory=Counter)
    verbs: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def play_one(seed: int, results: FuzzResults) -> None:
    """Play one random game, checking every invariant after every step."""
    state = RULES.setup(seed)
    chooser = random.Random(seed * 7919 + 1)
    actions: list[Action] = []
    full = seed % FULL_CHECK_EVERY == 0
    try:
        while (seat := RULES.active_seat(state)) is not None:
            legal = RULES.legal_actions(state)
            assert legal, "a non-terminal state without legal actions"
            assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
            action = chooser.choice(legal)
            results.verbs[action.verb] += 1
            if action == Action("as", "event"):
                card = state.stack[-1]["card"]
                results.events[cards()[card].event] += 1
            RULES.apply(state, action)
            actions.append(action)
            assert len(actions) < MAX_STEPS, "the game did not end within the step bound"
            if full or len(actions) % 7 == 0:
                broken = violations(state)
                assert not broken, "; ".join(broken)
                data = state.to_json()
                assert State.from_json(json.loads(json.dumps(data))).to_json() == data, "JSON round trip differs"
                seat = RULES.active_seat(state)
                if seat is not None:
                    det = RULES.determinize(RULES.view(state, seat), seat, seed)
                    assert RULES.legal_actions(det) == RULES.legal_actions(state), "determinize changes my choices"
        replay = Game(RULES, seed)
        for action in actions:
            replay.apply(action)
        assert replay.rules.to_json(replay.state) == state.to_json(), "replay differs"
    except AssertionError as exc:
        FAILURES.mkdir(exist_ok=True)
        path = FAILURES / f"hellenes-seed{seed}.json"
        record = {"format": "muster-game", "version": 1, "game": "hellenes", "seed": seed, "options": {},
                  "actions": [list(a) for a in actions], "error": str(exc)}
        path.write_text(json.dumps(record), encoding="utf-8")
        results.failures.append(f"seed {seed} after {len(actions)} steps: {exc} → {path}")
        return
    results.games += 1
    results.steps += len(actions)
    outcome = RULES.outcome(state)
    assert outcome is not None
    results.outcomes[f"{outcome.winner}:{outcome.reason}"] += 1


@pytest.fixture(scope="module")
def fuzz(request: pytest.FixtureRequest) -> FuzzResults:
    """Run the fuzz games once for the module."""
    count = int(request.config.getoption("--fuzz-games"))
    results = FuzzResults()
    for seed in range(count):
        play_one(seed, results)
    return results


def test_random_games_keep_every_invariant(fuzz: FuzzResults) -> None:
    assert not fuzz.failures, "\n".join(fuzz.failures)
    assert fuzz.games >= 1
    print(f"\nhellenes fuzz: {fuzz.games} games, {fuzz.steps} steps, outcomes {dict(fuzz.outcomes)}")


def test_every_event_and_decision_kind_is_reached(fuzz: FuzzResults) -> None:
    # the random games exercise every Event and every kind of Action
    if fuzz.games < 50:
        pytest.skip("too few games to expect every event")
    never = sorted({c.event for c in cards().values()} - set(fuzz.events))
    assert not never, f"events never played: {never}"
    verbs = {"move", "muster", "build", "recruit", "garrison", "pillage", "supply", "to", "forced", "board",
             "assault", "attrition", "fortify", "retreat", "fight", "place",
             "hit", "rout", "lose", "inside", "stay",  # the owner's choices (rules revision 2)
             "battle", "force", "sortie"}  # equal battles, Forces and Sorties (rules revision 3)
    assert not verbs - set(fuzz.verbs), f"never chosen: {sorted(verbs - set(fuzz.verbs))}"
