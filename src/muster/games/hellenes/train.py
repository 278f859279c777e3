"""Fit Hellenes' learned value (:mod:`muster.games.hellenes.learned`) from Heuristic games, in one command.

``python -m muster.games.hellenes.train --games 3000 --seed 500000 --workers 2 --out reports/hellenes-learned``
plays ``--games`` games of the Heuristic against itself (each side's ``aggression`` drawn from 0.7, 1.0, 1.0, 1.3
and 3% of its choices random, so the games differ), keeps at every Action menu the value's inputs, the
hand-written evaluation and, once the game ends, who won, in ``OUT/games.jsonl`` (a stopped run resumes where it
stopped), fits a logistic regression (Newton's method, a small L2 penalty) on four games in five and reports on the
fifth: log-loss and Brier score of the learned value, of the hand-written evaluation read as a chance (at the
search's scales) and of the base rate. The weights go to ``--weights`` (by default the package's own data file for
this build's versions) and the report to ``OUT/report.json``. The same seeds give the same games and the same
weights.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.progress import track

from muster.core import get_rules
from muster.games.hellenes.bots import HellenesHeuristicBot, evaluate, value_inputs
from muster.games.hellenes.learned import INPUTS, LearnedValue, weights_name

AGGRESSION = (0.7, 1.0, 1.0, 1.3)
"""The aggression each side's Heuristic is drawn from, game by game."""
RANDOM_SHARE = 0.03
"""The share of choices made at random (so that two games of one seed and setting still part ways)."""
HOLD_OUT = 5
"""Every fifth game is kept out of the fit and scores it."""


def play_game(seed: int) -> dict[str, Any]:
    """One Heuristic game: per Action menu the learned value's inputs and the hand-written evaluation (Sparta's
    side), and the winner."""
    rules = get_rules("hellenes")
    draw = random.Random(seed)
    aggression = {"athens": draw.choice(AGGRESSION), "sparta": draw.choice(AGGRESSION)}
    bots = {side: HellenesHeuristicBot(rules, seed * 2 + (side == "sparta"), {"aggression": str(a)})
            for side, a in aggression.items()}
    s = rules.setup(seed, {"quiet": "1"})
    rows: list[list[float]] = []
    points: list[float] = []
    while (seat := rules.active_seat(s)) is not None:
        legal = rules.legal_actions(s)
        if s.stack[-1]["kind"] == "actions":
            rows.append([round(x, 6) for x in value_inputs(s)])
            points.append(round(evaluate(s, "sparta"), 4))
        choice = draw.choice(legal) if draw.random() < RANDOM_SHARE else bots[seat].choose_in(s, legal, seat)
        rules.apply(s, choice)
    result = s.result or {}
    return {"seed": seed, "aggression": aggression, "winner": result.get("winner"), "inputs": rows,
            "points": points}


def generate(seeds: list[int], path: Path, workers: int) -> list[dict[str, Any]]:
    """Play the games of ``seeds`` not yet in ``path`` (JSONL, appended game by game) and return them all."""
    done: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                game = json.loads(line)
                done[int(game["seed"])] = game
    todo = [seed for seed in seeds if seed not in done]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        games: Iterable[dict[str, Any]]
        if workers > 1:
            pool = ProcessPoolExecutor(workers)
            games = pool.map(play_game, todo, chunksize=4)
        else:
            pool, games = None, map(play_game, todo)
        try:
            for game in track(games, total=len(todo), description=f"{len(todo)} Heuristic games"):
                done[int(game["seed"])] = game
                out.write(json.dumps(game) + "\n")
                out.flush()
        finally:
            if pool is not None:
                pool.shutdown()
    return [done[seed] for seed in seeds]


def fit(rows: list[list[float]], wins: list[float], l2: float = 1.0, steps: int = 25) -> list[float]:
    """Logistic regression weights for ``rows`` (the first input a constant 1) by Newton's method, with an L2
    penalty ``l2`` on the standardised inputs (not on the constant); returns weights on the raw inputs."""
    import numpy as np

    x, y = np.asarray(rows, dtype=np.float64), np.asarray(wins, dtype=np.float64)
    mean, std = x.mean(axis=0), x.std(axis=0)
    mean[0], std[0] = 0.0, 1.0
    std[std == 0] = 1.0
    z = (x - mean) / std
    penalty = np.full(z.shape[1], l2)
    penalty[0] = 0.0
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + penalty * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        w -= np.linalg.solve(hessian, gradient)
    raw = w / std
    raw[0] = w[0] - float(np.sum(w[1:] * mean[1:] / std[1:]))
    return [float(v) for v in raw]


def log_loss(chances: list[float], wins: list[float]) -> float:
    """Mean negative log-likelihood of the results."""
    eps = 1e-9
    return -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps))
                for p, y in zip(chances, wins, strict=True)) / len(wins)


def brier(chances: list[float], wins: list[float]) -> float:
    """Mean squared error of the chances."""
    return sum((p - y) ** 2 for p, y in zip(chances, wins, strict=True)) / len(wins)


def _squash(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def split(games: list[dict[str, Any]]) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """(fit set, held-out set): positions with their game's result (1 when Sparta won), every
    :data:`HOLD_OUT`-th game held out."""
    sets: tuple[dict[str, list[Any]], dict[str, list[Any]]] = (
        {"x": [], "y": [], "points": []}, {"x": [], "y": [], "points": []})
    for i, game in enumerate(games):
        if game["winner"] not in ("athens", "sparta"):
            continue
        part = sets[1] if i % HOLD_OUT == 0 else sets[0]
        won = 1.0 if game["winner"] == "sparta" else 0.0
        part["x"].extend(game["inputs"])
        part["y"].extend([won] * len(game["inputs"]))
        part["points"].extend(game["points"])
    return sets


def report(weights: list[float], held: dict[str, list[Any]], base_rate: float) -> dict[str, Any]:
    """Log-loss and Brier score on the held-out positions: the learned value, the hand-written evaluation read
    as a chance at scales 15, 30 and 60, and the base rate."""
    y = held["y"]
    learned = [_squash(sum(w * v for w, v in zip(weights, x, strict=True))) for x in held["x"]]
    out: dict[str, Any] = {"positions": len(y), "learned": {"log_loss": log_loss(learned, y),
                                                            "brier": brier(learned, y)}}
    for scale in (15, 30, 60):
        hand = [_squash(p / scale) for p in held["points"]]
        out[f"hand_scale_{scale}"] = {"log_loss": log_loss(hand, y), "brier": brier(hand, y)}
    base = [base_rate] * len(y)
    out["base_rate"] = {"rate": base_rate, "log_loss": log_loss(base, y), "brier": brier(base, y)}
    out["brier_skill"] = 1.0 - out["learned"]["brier"] / out["base_rate"]["brier"]
    return {k: ({kk: round(vv, 4) for kk, vv in v.items()} if isinstance(v, dict) else
                (round(v, 4) if isinstance(v, float) else v)) for k, v in out.items()}


def main(argv: list[str] | None = None) -> int:
    """Play, fit, report and write the weights."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=500000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=Path("reports/hellenes-learned"))
    parser.add_argument("--weights", type=Path, default=None,
                        help="where the weights go (default: the package's data file for this build)")
    args = parser.parse_args(argv)
    if args.games < HOLD_OUT * 2:
        parser.error(f"--games: at least {HOLD_OUT * 2} (one game in {HOLD_OUT} scores the fit)")
    games = generate(list(range(args.seed, args.seed + args.games)), args.out / "games.jsonl", args.workers)
    train, held = split(games)
    weights = fit(train["x"], train["y"], args.l2)
    base_rate = sum(train["y"]) / len(train["y"])
    scores = report(weights, held, base_rate)
    meta = {"games": args.games, "seed": args.seed, "l2": args.l2, "positions": len(train["y"]),
            "held_out": scores}
    value = LearnedValue(tuple(weights), meta)
    target = args.weights or Path(__file__).parent / "data" / weights_name()
    target.write_text(json.dumps(value.to_json(), indent=1) + "\n", encoding="utf-8")
    (args.out / "report.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"weights": str(target), "inputs": len(INPUTS), **meta}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
