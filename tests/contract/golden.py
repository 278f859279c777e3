"""The golden games of every game: fixed-seed games recorded as action lists with state hashes along the way.

They pin what each game's rules do, so that work on an engine's speed cannot change a game by accident:
replaying every recorded action list must reach states with the recorded hashes. A hash covers the whole state
(``rules.to_json``) except the keys the set names in ``ignore`` (words and bookkeeping that may change, such as
the log), plus the active seat and a running digest of every legal list so far *in order* (seeded random players
depend on it). Each set is replayed under each of its ``variants`` (option overrides that must not change play,
such as a quiet log). A rules correction that changes games on purpose bumps the rules' version and re-records
the set, with a note in its ``notes``.

One file per game, ``golden/<game>.json.gz``. Check: ``python tests/contract/golden.py check [GAME…]`` (what
``test_golden.py`` and ``scripts/compile_rules.py`` do). Record: ``python tests/contract/golden.py record GAME``
plays the same seeds and players again (a few minutes for bot games), or for a game with no set yet, random
games of each option set.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: the repository's root (for ``tests.contract.kit``) and the test
    # suite's plugin games, as tests/conftest.py does for pytest
    sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1] / "plugins")]

from muster.core import Action, Rules
from muster.core.registry import game_module, game_names

FOLDER = Path(__file__).with_name("golden")
EVERY = 25
"""A state hash every this many decisions (and at the end) in a new set."""
NEW_GAMES = 40
"""Random games per option set in a new game's set."""


def path(game: str) -> Path:
    """The file of a game's golden set."""
    return FOLDER / f"{game}.json.gz"


def load(game: str) -> dict[str, Any]:
    """A game's recorded golden set."""
    data: dict[str, Any] = json.loads(gzip.decompress(path(game).read_bytes()))
    return data


def save(game: str, data: dict[str, Any]) -> None:
    """Write a game's golden set."""
    FOLDER.mkdir(exist_ok=True)
    path(game).write_bytes(gzip.compress(json.dumps(data, separators=(",", ":")).encode(), 9, mtime=0))


def state_hash(rules: Rules, state: Any, running: bytes, ignore: list[str]) -> str:
    """A short hash of the state without the ``ignore`` keys, the active seat and ``running``."""
    data = rules.to_json(state)
    for key in ignore:
        data.pop(key, None)
    text = json.dumps([data, rules.active_seat(state)], sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode() + running, digest_size=8).hexdigest()


def _legal_digest(running: bytes, legal: list[Action]) -> bytes:
    return hashlib.blake2b(running + repr([tuple(a) for a in legal]).encode(), digest_size=8).digest()


def replay(rules: Rules, game: dict[str, Any], every: int, ignore: list[str],
           variant: dict[str, str] | None = None) -> list[str]:
    """Replay one recorded game (its options overridden by ``variant``); its hashes every ``every`` decisions
    and at the end."""
    state = rules.setup(game["seed"], {**game["options"], **(variant or {})})
    running, hashes = b"", []
    for i, raw in enumerate(game["actions"]):
        running = _legal_digest(running, rules.legal_actions(state))
        if i % every == 0:
            hashes.append(state_hash(rules, state, running, ignore))
        rules.apply(state, Action(raw[0], raw[1] if len(raw) > 1 else None))
    running = _legal_digest(running, rules.legal_actions(state))
    hashes.append(state_hash(rules, state, running, ignore))
    return hashes


def check(game: str) -> list[str]:
    """Replay every golden game of ``game`` under each variant; describe each that differs (empty: identical)."""
    rules = game_module(game).rules_object
    data = load(game)
    problems = []
    for n, recorded in enumerate(data["games"]):
        for variant in data["variants"]:
            where = (f"{game} game {n} (seed {recorded['seed']}, {recorded['options']}, {recorded['players']}, "
                     f"{variant})")
            try:
                got = replay(rules, recorded, data["every"], data["ignore"], variant)
            except Exception as exc:  # an action no longer legal is a difference too
                problems.append(f"{where}: {exc!r}")
                continue
            if got != recorded["hashes"]:
                first = next((i for i, (a, b) in enumerate(zip(got, recorded["hashes"], strict=False)) if a != b),
                             min(len(got), len(recorded["hashes"])))
                problems.append(f"{where}: differs from decision {first * data['every']} on")
    return problems


def play(rules: Rules, seed: int, options: dict[str, str], players: list[str], every: int,
         ignore: list[str]) -> dict[str, Any]:
    """Play one game (``"random"`` seats choose with a generator seeded like the game; others are bot specs,
    seeded ``seed * 2 + seat number``) and record it."""
    state = rules.setup(seed, options)
    chooser = random.Random(seed)
    bots: dict[str, Any] = {}
    if any(p != "random" for p in players):
        from muster.ai import make_bot  # only bot games need the bots (and a new game's set has none)

        bots = {seat: make_bot(spec, seed=seed * 2 + i, rules=rules, game=rules.info.name)
                for i, (seat, spec) in enumerate(zip(rules.info.seats, players, strict=True)) if spec != "random"}
    actions: list[list[Any]] = []
    while (seat := rules.active_seat(state)) is not None:
        legal = rules.legal_actions(state)
        if seat not in bots or len(legal) == 1:
            act = chooser.choice(legal)
        else:
            act = bots[seat].choose(rules.view(state, seat), legal, seat)
        actions.append([act.verb] if act.arg is None else [act.verb, act.arg])
        rules.apply(state, act)
    game = {"seed": seed, "options": options, "players": players, "actions": actions}
    game["hashes"] = replay(rules, game, every, ignore)
    return game


def record(game: str, note: str = "") -> None:
    """Play and write a game's golden set again: the same seeds, options and players as the recorded set, or for a
    game with none, ``NEW_GAMES`` random games of each option set."""
    from tests.contract.kit import option_sets

    rules = game_module(game).rules_object
    if path(game).exists():
        old = load(game)
        plan = [(g["seed"], g["options"], g["players"]) for g in old["games"]]
        every, ignore, variants, notes = old["every"], old["ignore"], old["variants"], old["notes"]
    else:
        plan = [(seed, options, ["random"] * len(rules.info.seats))
                for options in option_sets(rules) for seed in range(NEW_GAMES)]
        every, ignore, variants, notes = EVERY, ["log"], [{}], []
    games = [play(rules, seed, options, players, every, ignore) for seed, options, players in plan]
    data = {"game": game, "rules_version": rules.info.version, "every": every, "ignore": ignore,
            "variants": variants, "notes": notes + ([note] if note else []), "games": games}
    save(game, data)
    print(f"{game}: {len(games)} games, {path(game).stat().st_size:,} bytes")


if __name__ == "__main__":
    command, *names = sys.argv[1:] or ["check"]
    if command == "record":
        for name in names:
            record(name)
    else:
        found = [p for name in names or game_names() for p in check(name)]
        print("\n".join(found) or "all golden games replay identically")
        sys.exit(1 if found else 0)
