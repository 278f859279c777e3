"""The contract suite's cases and its seeded random player, for every game registered under ``muster.games``.

A case is one game with one option set: every combination of the values its rules offer
(``rules.info.options``). The games come from :func:`muster.core.registry.game_modules`, so a game installed
from anywhere (``tests/plugins`` holds Duel) is checked without a line here naming it.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from muster.core import Action, Game, Rules
from muster.core.plugin import GameModule
from muster.core.registry import game_module, game_modules
from muster.core.spaces import LearningRules

MAX_STEPS = 20_000
"""No random game may take more decisions than this (each game is finite; the longest take a few thousand)."""
FAILURES = Path("fuzz-failures")
"""Where a failing random game is written as a save file that replays it (``Game.loads`` rebuilds it)."""


@dataclass(frozen=True)
class Case:
    """One game under one option set."""

    game: str
    options: dict[str, str]

    @property
    def module(self) -> GameModule:
        """The game's module."""
        return game_module(self.game)

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.module.rules_object

    @property
    def default(self) -> bool:
        """Whether every option has its first (default) value."""
        offered = self.rules.info.options
        return all(offered[k][0] == v for k, v in self.options.items())

    @property
    def id(self) -> str:
        """``freedom-ruleset=2nd,quiet=0``."""
        return "-".join([self.game, ",".join(f"{k}={v}" for k, v in self.options.items())]).rstrip("-")

    def __hash__(self) -> int:
        return hash(self.id)


def option_sets(rules: Rules) -> list[dict[str, str]]:
    """Every combination of the option values a game offers (one empty set for a game without options)."""
    names = sorted(rules.info.options)
    return [dict(zip(names, values, strict=True))
            for values in itertools.product(*(rules.info.options[n] for n in names))]


def cases() -> list[Case]:
    """Every registered game × each of its option sets."""
    return [Case(name, options) for name, module in game_modules().items()
            for options in option_sets(module.rules_object)]


def case_params() -> list[Any]:
    """:func:`cases` as pytest parameters with readable ids."""
    return [pytest.param(c, id=c.id) for c in cases()]


def game_params() -> list[Any]:
    """Every registered game's name as a pytest parameter."""
    return [pytest.param(name, id=name) for name in game_modules()]


def learning(rules: Rules) -> LearningRules | None:
    """The rules as :class:`LearningRules` where the game numbers its actions, else None."""
    return rules if isinstance(rules, LearningRules) else None


def random_positions(case: Case, seed: int, every: int = 1) -> Iterator[tuple[Any, list[Action]]]:
    """The states of one seeded random game (every ``every``-th, and the last), with the legal actions at each."""
    rules = case.rules
    state = rules.setup(seed, case.options)
    chooser = random.Random(seed * 7919 + 1)
    n = 0
    while rules.active_seat(state) is not None:
        legal = rules.legal_actions(state)
        if n % every == 0:
            yield state, legal
        rules.apply(state, chooser.choice(legal))
        n += 1
        assert n < MAX_STEPS, "the game did not end within the step bound"
    yield state, []


Watch = Callable[[Any, Action], None]
"""Called with the state before each chosen action and the action (a game's own tests count what was reached)."""


@dataclass
class FuzzResults:
    """What the random games did."""

    games: int = 0
    steps: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def check_step(case: Case, state: Any, seed: int, step: int, full: bool) -> None:
    """Every check of one reached state: the game's invariants, and when ``full`` the JSON round trip, the views
    (none changes under a determinization for that seat, nor the spectator's) and the deciding seat's choices."""
    rules = case.rules
    invariants = case.module.part("invariants")
    if invariants is not None:
        broken = invariants(state)
        assert not broken, "; ".join(broken)
    if not full:
        return
    data = rules.to_json(state)
    assert rules.to_json(rules.from_json(json.loads(json.dumps(data)))) == data, "JSON round trip differs"
    active = rules.active_seat(state)
    for seat in rules.info.seats:
        view = rules.view(state, seat)
        det = rules.determinize(view, seat, seed * 100_003 + step)
        assert rules.view(det, seat) == view, f"{seat}'s view changes under a determinization for {seat}"
        assert rules.view(det, None) == rules.view(state, None), f"a determinization for {seat} changes the " \
                                                                 "spectator's view"
        if seat == active:
            assert rules.legal_actions(det) == rules.legal_actions(state), "determinize changes my choices"


def play_one(case: Case, seed: int, results: FuzzResults, full_every: int = 1, checks: bool = True,
             watch: Watch | None = None) -> None:
    """Play one seeded random game to the end with every check after every step (the JSON round trip, views and
    determinize on every ``full_every``-th step); a failure is written to ``fuzz-failures/``."""
    rules = case.rules
    numbered = learning(rules)
    state = rules.setup(seed, case.options)
    chooser = random.Random(seed * 7919 + 1)
    actions: list[Action] = []
    try:
        if checks:
            check_step(case, state, seed, 0, True)
        while rules.active_seat(state) is not None:
            legal = rules.legal_actions(state)
            assert legal, "a non-terminal state without legal actions"
            assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
            action = chooser.choice(legal)
            if checks and numbered is not None:
                assert numbered.action_from_index(numbered.action_index(action)) == action, \
                    f"{list(action)} does not round-trip through the action space"
            if watch is not None:
                watch(state, action)
            rules.apply(state, action)
            actions.append(action)
            assert len(actions) < MAX_STEPS, "the game did not end within the step bound"
            if checks:
                check_step(case, state, seed, len(actions), len(actions) % full_every == 0)
        assert rules.outcome(state) is not None, "no outcome at the end"
        if checks:
            check_step(case, state, seed, len(actions), True)
            replay = Game(rules, seed, case.options)
            for action in actions:
                replay.apply(action)
            assert rules.to_json(replay.state) == rules.to_json(state), "replay differs"
    except AssertionError as exc:
        FAILURES.mkdir(exist_ok=True)
        path = FAILURES / f"{case.id}-seed{seed}.json"
        record = {"format": "muster-game", "version": 1, "game": case.game, "seed": seed, "options": case.options,
                  "actions": [list(a) for a in actions], "error": str(exc)}
        path.write_text(json.dumps(record), encoding="utf-8")
        results.failures.append(f"{case.id} seed {seed} after {len(actions)} steps: {exc} → {path}")
        return
    results.games += 1
    results.steps += len(actions)
    outcome = rules.outcome(state)
    assert outcome is not None
    results.outcomes[f"{outcome.winner}:{outcome.reason}"] += 1
