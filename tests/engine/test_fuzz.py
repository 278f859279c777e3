"""The seeded random-play fuzzer: every legal action, to the end of the game, invariants after each step.

CI plays ``--fuzz-games`` games (default 200) with the 2nd-edition rules and a quarter as many with the 1st.
A failing game is written to ``fuzz-failures/`` as a save file that replays it
(``muster board --state FILE`` draws it; ``Game.loads`` rebuilds it).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from muster.core import Action, Game
from muster.games.freedom import RULES
from muster.games.freedom.datafiles import cards_file
from muster.games.freedom.invariants import violations
from muster.games.freedom.state import State

MAX_STEPS = 6000
"""No game may take more decisions than this (the game is finite: 6 rounds of at most 8 cards each)."""
FAILURES = Path("fuzz-failures")


@dataclass
class FuzzResults:
    """What the fuzz games did."""

    games: int = 0
    steps: int = 0
    events: Counter[int] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def play_one(seed: int, ruleset: str, results: FuzzResults) -> None:
    """Play one random game, checking every invariant after every step."""
    options = {"ruleset": ruleset}
    state = RULES.setup(seed, options)
    chooser = random.Random(seed * 7919 + (ruleset == "1st"))
    actions: list[Action] = []
    try:
        while RULES.active_seat(state) is not None:
            legal = RULES.legal_actions(state)
            assert legal, "a non-terminal state without legal actions"
            action = chooser.choice(legal)
            assert action in RULES.action_space, f"{list(action)} has no index in the action space"
            if action.verb == "event":
                results.events[int(action.arg)] += 1  # type: ignore[arg-type]
            elif action.verb == "trigger" and state.trigger:
                results.events[int(state.trigger["card"])] += 1
            RULES.apply(state, action)
            actions.append(action)
            assert len(actions) < MAX_STEPS, "the game did not end within the step bound"
            broken = violations(state)
            assert not broken, "; ".join(broken)
            data = state.to_json()
            assert State.from_json(json.loads(json.dumps(data))).to_json() == data, "JSON round trip differs"
        replay = Game(RULES, seed, options)
        for action in actions:
            replay.apply(action)
        assert replay.rules.to_json(replay.state) == state.to_json(), "replay differs"
    except AssertionError as exc:
        FAILURES.mkdir(exist_ok=True)
        path = FAILURES / f"fuzz-{ruleset}-seed{seed}.json"
        record = {"format": "muster-game", "version": 1, "game": "freedom", "seed": seed, "options": options,
                  "actions": [list(a) for a in actions], "error": str(exc)}
        path.write_text(json.dumps(record), encoding="utf-8")
        results.failures.append(f"seed {seed} ({ruleset}) after {len(actions)} steps: {exc} → {path}")
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
        play_one(seed, "2nd", results)
    for seed in range(max(1, count // 4)):
        play_one(seed, "1st", results)
    return results


def test_random_games_keep_every_invariant(fuzz: FuzzResults) -> None:
    assert not fuzz.failures, "\n".join(fuzz.failures)
    assert fuzz.games >= 1
    print(f"\nfuzz: {fuzz.games} games, {fuzz.steps} steps, outcomes {dict(fuzz.outcomes)}")


def test_every_card_event_is_played(fuzz: FuzzResults) -> None:
    with_events = [c.number for c in cards_file().cards if c.effect]
    never = [n for n in with_events if fuzz.events[n] == 0]
    counts = ", ".join(f"{n}:{fuzz.events[n]}" for n in with_events)
    print(f"\nevents played (card:count): {counts}")
    assert not never, f"cards never played as an event in the fuzz games: {never}"
