"""A golden set of fixed-seed random Hellenes games: action lists and state hashes (log left out).

Recorded before the engine was sped up, so any optimisation that changes the game shows here.
Run ``python tests/hellenes/golden.py`` to (re)record ``tests/hellenes/data/golden.json`` — only when a
rules change is meant to alter play (and then bump ``RULES_REVISION``).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from muster.games.hellenes import RULES
from muster.games.hellenes.state import State

GOLDEN = Path(__file__).with_name("data") / "golden.json"
GAMES = 50
CHECK_EVERY = 25


def state_hash(s: State) -> str:
    """A hash of the whole state except the log (quiet and loud games must agree)."""
    data = s.to_json()
    data.pop("log")
    data.pop("quiet")
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def play(seed: int, quiet: bool) -> dict[str, Any]:
    """One random game: its actions (as lists) and the state hash every ``CHECK_EVERY`` actions and at the end."""
    s = RULES.setup(seed, {"quiet": "1" if quiet else "0"})
    chooser = random.Random(seed)
    actions: list[list[Any]] = []
    hashes: list[str] = []
    while RULES.active_seat(s) is not None:
        a = chooser.choice(RULES.legal_actions(s))
        actions.append(list(a))
        RULES.apply(s, a)
        if len(actions) % CHECK_EVERY == 0:
            hashes.append(state_hash(s))
    hashes.append(state_hash(s))
    return {"seed": seed, "actions": actions, "hashes": hashes}


def record() -> None:
    """Write the golden file."""
    GOLDEN.parent.mkdir(exist_ok=True)
    games = [play(seed, quiet=False) for seed in range(GAMES)]
    GOLDEN.write_text(json.dumps({"games": games}, separators=(",", ":")))


if __name__ == "__main__":
    record()
