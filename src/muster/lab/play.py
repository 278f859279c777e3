"""Play one bot-vs-bot game of any registered game and record what the lab's reports need."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from muster.ai import make_bot
from muster.core import get_rules
from muster.core.quiet import quiet_options
from muster.core.registry import default_game
from muster.lab.hooks import lab_hooks

MAX_DECISIONS = 20000
"""A game that has not ended after this many decisions is a bug in the rules or a bot, not a long game."""

_COMMON = ("seed", "winner", "reason", "decisions", "seconds", "rules_version")


@dataclass
class GameRecord:
    """One finished game: which bot played which seat, how it ended, and the game's own facts.

    In ``games.jsonl`` a record is one flat JSON object: the common fields, one key per seat holding
    that seat's bot spec (``"imperial": "heuristic"``) and the game's own facts (``extra``). The seats'
    specs and the extra facts can also be read as attributes (``record.imperial``, ``record.round``).
    """

    seed: int
    bots: dict[str, str]
    """Seat → bot spec, in the order of the game's seats."""
    winner: str | None
    reason: str
    decisions: int
    seconds: dict[str, float]
    """CPU seconds each bot spent choosing (process time, so other load on the machine does not count)."""
    rules_version: str = ""
    """The rules that played it (``GameInfo.version``; empty in records from before it was stored)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """The game's own facts, from its lab hooks' tracker (e.g. the round, the events, the trajectory)."""

    def __getattr__(self, name: str) -> Any:
        # Only called for names that are not fields: a seat's spec or one of the game's own facts.
        # Reading through __dict__ keeps this safe while pickle rebuilds a record (no fields yet).
        if not name.startswith("_"):
            for key in ("bots", "extra"):
                values = self.__dict__.get(key)
                if values is not None and name in values:
                    return values[name]
        raise AttributeError(name)

    def to_json(self) -> dict[str, Any]:
        """The flat JSON-ready dict written to ``games.jsonl``."""
        return {"seed": self.seed, **self.bots, "winner": self.winner, "reason": self.reason, **self.extra,
                "decisions": self.decisions, "seconds": self.seconds, "rules_version": self.rules_version}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], seats: Sequence[str]) -> GameRecord:
        """Rebuild a record of a game with these ``seats`` (ValueError/TypeError if it is not one)."""
        missing = [key for key in ("seed", "winner", "reason", "decisions", "seconds", *seats) if key not in data]
        if missing:
            raise ValueError(f"missing {', '.join(missing)}")
        extra = {k: v for k, v in data.items() if k not in _COMMON and k not in seats}
        seconds = data["seconds"]
        if not isinstance(seconds, dict):
            raise TypeError("seconds must be an object")
        return cls(int(data["seed"]), {seat: str(data[seat]) for seat in seats}, data["winner"], str(data["reason"]),
                   int(data["decisions"]), {str(k): float(v) for k, v in seconds.items()},
                   str(data.get("rules_version", "")), extra)


def load_records(path: Path, game: str | None = None) -> list[GameRecord]:
    """Read the records of ``game`` (default: the default game) a run streamed to a JSON-lines file
    (ValueError if a line is not such a record)."""
    seats = get_rules(game or default_game()).info.seats
    records = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(GameRecord.from_json(json.loads(line), seats))
        except (ValueError, TypeError, AttributeError) as exc:
            raise ValueError(f"{path}:{n}: not a game record ({exc})") from exc
    return records


def play_game(bots: Sequence[str], seed: int, game: str | None = None, options: Mapping[str, str] | None = None,
              max_decisions: int = MAX_DECISIONS) -> GameRecord:
    """Play a full game between bot specs (one per seat, in the game's seat order) on the deal and dice of
    ``seed``, with the game's ``options`` (e.g. ``{"ruleset": "1st"}``).

    Each bot sees only ``rules.view(state, its seat)``; the true state never leaves this function.
    The bots' own seeds derive from the game seed, so a game is reproducible.
    """
    name = game or default_game()
    rules = get_rules(name)
    seats = rules.info.seats
    if len(bots) != len(seats):
        raise ValueError(f"{name} has {len(seats)} seats ({', '.join(seats)}); got {len(bots)} bots")
    state = rules.setup(seed, {**(options or {}), **quiet_options(rules)})
    players = {seat: make_bot(spec, seed=seed * 2 + 1 + k, rules=rules)
               for k, (seat, spec) in enumerate(zip(seats, bots, strict=True))}
    seconds = dict.fromkeys(seats, 0.0)
    tracker = lab_hooks(name).tracker(state)
    decisions = 0
    while (seat := rules.active_seat(state)) is not None:
        if decisions >= max_decisions:
            raise RuntimeError(f"game {seed} did not end within {max_decisions} decisions")
        legal = rules.legal_actions(state)
        t0 = time.process_time()
        action = legal[0] if len(legal) == 1 else players[seat].choose(rules.view(state, seat), legal, seat)
        seconds[seat] += time.process_time() - t0
        tracker.before(state, seat, action)
        rules.apply(state, action)
        decisions += 1
        tracker.after(state)
    outcome = rules.outcome(state)
    assert outcome is not None
    return GameRecord(seed, dict(zip(seats, bots, strict=True)), outcome.winner, outcome.reason, decisions, seconds,
                      rules.info.version, tracker.finish(state))
