"""Steps per second through the research adapters against the raw ``Rules`` interface, on one core.

Run: ``python benchmarks/rl.py [--games 20]`` (needs ``pip install 'muster[rl]'``). Every row plays the
same random games (uniform over the legal actions, same seeds):

* ``raw``: ``legal_actions`` + ``apply`` — the engine alone;
* ``raw+obs``: the same, plus the acting seat's observation vector and action mask at each step —
  what any learning loop needs, without an adapter;
* ``pettingzoo``: ``env.last()`` + ``env.step()`` through the AEC environment (with its
  order-enforcing and bounds-checking wrappers);
* ``openspiel``: ``legal_actions`` + ``apply_action`` on the ``pyspiel`` game, plus its observation
  tensor for the player to move.

The last line printed is one JSON object: steps/s of each row and the adapters' overhead factors.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

from muster.games.freedom import RULES


def raw(seed: int, with_obs: bool) -> int:
    """One random game through the interface; returns the steps taken."""
    state = RULES.setup(seed, {"quiet": "1"})
    rng = random.Random(seed)
    steps = 0
    while (seat := RULES.active_seat(state)) is not None:
        legal = RULES.legal_actions(state)
        if with_obs:
            RULES.observation(state, seat)
            RULES.action_space.mask(legal)
        RULES.apply(state, rng.choice(legal))
        steps += 1
    return steps


def pettingzoo(seed: int) -> int:
    """One random (masked) game through the PettingZoo AEC env; returns the steps taken."""
    from muster.rl.pettingzoo import env

    e = env(game="freedom")
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


def openspiel(seed: int) -> int:
    """One random game through the pyspiel game (with the mover's observation tensor); returns the steps."""
    from muster.rl.openspiel import load

    game = load("freedom", seed=seed)
    state = game.new_initial_state()
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def measure(play: Callable[[int], int], games: int) -> float:
    """Steps per second over ``games`` games (seeds 0…games−1)."""
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        steps += play(seed)
    return steps / (time.perf_counter() - start)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description="steps/s through the RL adapters vs the raw interface")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    rows = {
        "raw": measure(lambda s: raw(s, False), args.games),
        "raw+obs": measure(lambda s: raw(s, True), args.games),
        "pettingzoo": measure(pettingzoo, args.games),
        "openspiel": measure(openspiel, args.games),
    }
    table = Table(title=f"Random games through the adapters ({args.games} games each, one core)")
    table.add_column("path")
    table.add_column("steps/s", justify="right")
    table.add_column("vs raw", justify="right")
    for name, rate in rows.items():
        table.add_row(name, f"{rate:,.0f}", f"{rows['raw'] / rate:.1f}× slower" if name != "raw" else "")
    Console().print(table)
    result = {f"{k.replace('+', '_')}_steps_per_s": round(v) for k, v in rows.items()}
    result["pettingzoo_overhead"] = round(rows["raw"] / rows["pettingzoo"], 2)
    result["pettingzoo_vs_raw_obs"] = round(rows["raw+obs"] / rows["pettingzoo"], 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
