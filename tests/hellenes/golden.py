"""The Hellenes golden set: fixed-seed games recorded as action lists with state hashes along the way.

Speed work must not change the game: replaying every recorded action list (quiet or with the log) must reach
states with the recorded hashes. A hash covers the whole state except the log, plus the active seat and a
running digest of every legal list so far *in order* (seeded random players depend on it). The set holds
``GAMES`` random games (the chooser seeded like the game) and ``BOT_GAMES`` Heuristic-vs-Heuristic games.

Record: ``PYTHONPATH=src python tests/hellenes/golden.py record`` — only when a rules change is meant to alter
play (and then bump ``RULES_REVISION``). Check: ``PYTHONPATH=src python tests/hellenes/golden.py check``
(what ``test_golden.py`` and ``scripts/compile_rules.py`` do).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from muster.core import Action
from muster.games.hellenes import RULES
from muster.games.hellenes.state import State

GOLDEN = Path(__file__).with_name("data") / "golden.json"
GAMES = 100
BOT_GAMES = 4
"""Heuristic against Heuristic, seeds 1000, 1001, …"""
CHECK_EVERY = 25


def state_hash(s: State, running: bytes) -> str:
    """A hash of the whole state except the log (quiet and loud games must agree), the active seat and the
    running digest of the legal lists."""
    data = s.to_json()
    data.pop("log")
    data.pop("quiet")
    text = json.dumps([data, RULES.active_seat(s)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode() + running).hexdigest()[:16]


def _legal_digest(running: bytes, legal: list[Action]) -> bytes:
    return hashlib.blake2b(running + repr([tuple(a) for a in legal]).encode(), digest_size=8).digest()


def replay(game: dict[str, Any], quiet: bool) -> list[str]:
    """Replay a recorded game; its hashes (every ``CHECK_EVERY`` actions and at the end)."""
    s = RULES.setup(game["seed"], {"quiet": "1" if quiet else "0"})
    running, hashes = b"", []
    for i, raw in enumerate(game["actions"], 1):
        running = _legal_digest(running, RULES.legal_actions(s))
        RULES.apply(s, Action(raw[0], raw[1] if len(raw) > 1 else None))
        if i % CHECK_EVERY == 0:
            hashes.append(state_hash(s, running))
    hashes.append(state_hash(s, running))
    return hashes


def play(seed: int, bots: bool) -> dict[str, Any]:
    """Play one game (random choices, or two Heuristic bots) and record it."""
    from muster.ai import make_bot

    s = RULES.setup(seed, {"quiet": "1"})
    chooser = random.Random(seed)
    players = {seat: make_bot("heuristic", seed=seed * 2 + i, game="hellenes")
               for i, seat in enumerate(RULES.info.seats)} if bots else None
    actions: list[list[Any]] = []
    while (seat := RULES.active_seat(s)) is not None:
        legal = RULES.legal_actions(s)
        if players is None or len(legal) == 1:
            a = chooser.choice(legal)
        else:
            a = players[seat].choose(RULES.view(s, seat), legal, seat)
        actions.append([a.verb] if a.arg is None else [a.verb, a.arg])
        RULES.apply(s, a)
    game: dict[str, Any] = {"seed": seed, "players": "heuristic" if bots else "random", "actions": actions}
    game["hashes"] = replay(game, quiet=True)
    return game


def record() -> None:
    """Play and write every golden game."""
    games = [play(seed, bots=False) for seed in range(GAMES)]
    games += [play(1000 + n, bots=True) for n in range(BOT_GAMES)]
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps({"rules_version": RULES.info.version, "every": CHECK_EVERY, "games": games},
                                 separators=(",", ":")))
    print(f"{len(games)} games, {GOLDEN.stat().st_size:,} bytes")


def load() -> list[dict[str, Any]]:
    """The recorded golden games."""
    games: list[dict[str, Any]] = json.loads(GOLDEN.read_text())["games"]
    return games


def check(quiet: bool = True) -> list[str]:
    """Replay every golden game; describe each that differs (empty: all identical)."""
    problems = []
    for game in load():
        where = f"seed {game['seed']} ({game['players']}, quiet={quiet})"
        try:
            got = replay(game, quiet)
        except Exception as exc:  # an action no longer legal is a difference too
            problems.append(f"{where}: {exc!r}")
            continue
        if got != game["hashes"]:
            first = next((i for i, (a, b) in enumerate(zip(got, game["hashes"], strict=False)) if a != b),
                         min(len(got), len(game["hashes"])))
            problems.append(f"{where}: differs from decision {first * CHECK_EVERY} on")
    return problems


if __name__ == "__main__":
    if sys.argv[1:] == ["record"]:
        record()
    else:
        found = check(quiet=True) + check(quiet=False)
        print("\n".join(found) or "all Hellenes golden games replay identically")
        sys.exit(1 if found else 0)
