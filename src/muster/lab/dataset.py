"""Datasets of bot-vs-bot games for learning: one JSON line per game, every decision with what the bot saw.

A line holds the game, its seed and options (the ruleset…), the rules' and action space's versions, the bots
by seat, every action as its index in the game's action space (enough to replay the game:
``rules.setup(seed, options)`` then ``apply`` each ``action_from_index``), the outcome, and one entry per
decision with a real choice (more than one legal action): the seat, how many actions were legal, the chosen
index, and for a searching bot its value of the chosen action and, per candidate it searched, the playouts
and their mean value (read from the bot's ``last_search`` after each choice; bots without one give
``null``). ``docs/research.md`` documents the schema. Games run on the lab's backends
(:func:`muster.lab.runner.run_jobs`): worker processes or Ray.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from muster.ai import make_bot
from muster.core import get_rules
from muster.core.quiet import quiet_options
from muster.core.spaces import learning_rules
from muster.lab.play import MAX_DECISIONS
from muster.lab.runner import Job, check_specs, run_jobs

SCHEMA = 1
"""The version of the line format: bumped when a field changes meaning or is removed."""

MAX_DATASET_GAMES = 1_000_000
"""The most games one command writes (a guard against a typo costing days of CPU)."""


@dataclass
class GameData:
    """One game of a dataset, as the JSON object of its line."""

    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The line's object."""
        return self.data


def _number(x: float) -> float:
    return round(float(x), 4)


def record_game(job: Job) -> GameData:
    """Play ``job`` and record it with every decision (see the module docstring)."""
    rules = learning_rules(get_rules(job.game))
    options = dict(job.options)
    state = rules.setup(job.seed, {**options, **quiet_options(rules)})
    seats = rules.info.seats
    players = {seat: make_bot(spec, seed=job.seed * 2 + 1 + k, rules=rules)
               for k, (seat, spec) in enumerate(zip(seats, job.bots, strict=True))}
    actions: list[int] = []
    decisions: list[dict[str, Any]] = []
    while (seat := rules.active_seat(state)) is not None:
        if len(actions) >= MAX_DECISIONS:
            raise RuntimeError(f"game {job.seed} did not end within {MAX_DECISIONS} decisions")
        legal = rules.legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        else:
            bot = players[seat]
            action = bot.choose(rules.view(state, seat), legal, seat)
            entry: dict[str, Any] = {"step": len(actions), "seat": seat, "legal": len(legal),
                                     "action": rules.action_index(action), "value": None, "visits": None}
            searched: Mapping[Any, tuple[int, float]] | None = getattr(bot, "last_search", None)
            if searched:
                if action in searched:
                    entry["value"] = _number(searched[action][1])
                entry["visits"] = {str(rules.action_index(a)): [n, _number(v)] for a, (n, v) in searched.items()}
            decisions.append(entry)
        actions.append(rules.action_index(action))
        rules.apply(state, action)
    outcome = rules.outcome(state)
    assert outcome is not None
    filled = {name: values[0] for name, values in rules.info.options.items() if values and name != "quiet"}
    filled.update(options)
    return GameData({
        "schema": SCHEMA, "game": job.game, "seed": job.seed, "options": filled,
        "rules_version": rules.info.version, "action_space": rules.action_space.version,
        "bots": dict(zip(seats, job.bots, strict=True)),
        "outcome": {"winner": outcome.winner, "reason": outcome.reason,
                    "returns": {s: 0 if outcome.winner is None else 1 if s == outcome.winner else -1 for s in seats}},
        "actions": actions, "decisions": decisions,
    })


def dataset_jobs(bots: Sequence[str], games: int, seed: int, game: str,
                 options: Mapping[str, str] | None = None) -> list[Job]:
    """``games`` self-play games on consecutive seeds, the bot specs by seat (one per seat)."""
    seats = get_rules(game).info.seats
    if len(bots) != len(seats):
        raise ValueError(f"{game} has {len(seats)} seats ({', '.join(seats)}); got {len(bots)} bots")
    if not 1 <= games <= MAX_DATASET_GAMES:
        raise ValueError(f"games must be between 1 and {MAX_DATASET_GAMES}")
    learning_rules(get_rules(game))  # a game without an action space has no indexes to write
    opts = tuple(sorted((options or {}).items()))
    return [Job(game, tuple(bots), seed + k, opts) for k in range(games)]


def write_dataset(path: Path, bots: Sequence[str], games: int, seed: int, game: str,
                  options: Mapping[str, str] | None = None, workers: int = 0, backend: str = "local",
                  address: str | None = None, show_progress: bool = True) -> int:
    """Play the games and write them to ``path`` (JSON lines, in seed order); returns the games written.

    Each game is appended as it ends (a long run can be watched), then the file is rewritten in seed
    order. A game that fails twice is left out and reported (see :func:`muster.lab.runner.run_jobs`).
    """
    jobs = dataset_jobs(bots, games, seed, game, options)
    check_specs(bots, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    data = run_jobs(jobs, workers, show_progress, label="dataset", stream=path, backend=backend, address=address,
                    task=record_game)
    path.write_text("".join(json.dumps(d.to_json(), separators=(",", ":")) + "\n" for d in data))
    return len(data)


def load_dataset(path: Path) -> list[dict[str, Any]]:
    """The games of a dataset file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
