"""Train the learned value and play model of :mod:`muster.games.freedom.bots.learned`, reproducibly, in numpy.

``python -m muster.games.freedom.analysis.train`` plays the training games (Heuristic against Heuristic, and the
plain ISMCTS against the Heuristic with the seats alternating, on named seed ranges), records at every card
point the public inputs of the position and the game's result, and at every card choice the hand and the card
played; then it fits the value network (full-batch Adam from a fixed seed) and the play model (a conditional
logit per side), prints the validation log-loss and Brier score of the network against the hand-written
evaluation's (squashed as ISMCTS's ``tree=actions`` does, and the analysis' calibrated estimate), and writes
the weights file named by the rules and action space versions into ``games/freedom/data/``.

The games are kept in ``--data`` (JSON lines): a stopped run resumes where it was, and a second run with the
same arguments trains the same weights (the games are seeded; training has no other randomness than its seed).
Validation is by game (every fifth seed), so positions of one game never sit on both sides.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import sys
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from rich.progress import Progress

from muster.core.stats import wilson
from muster.games.freedom.bots.learned import FORMAT, INPUTS, POINTS_PER_LOGIT, LearnedModel, versions, weights_name

HEURISTIC_SEEDS = 810_000
"""The first seed of the Heuristic-against-Heuristic training games (a range no other measurement uses)."""
TRAINING_BOT = "heuristic:counter=1,reach_threat=10,reach_islands=1,reach_spread=0.25"
"""The Heuristic playing both sides of the training games: one whose Insurgent clears the landings it can reach,
so that neither side wins nearly every game (the plain Heuristic's Imperial wins almost all of them on the area
tiles of version 4, and a value learned from such games learns the base rate); docs/bots.md gives its balance."""
ISMCTS_SEEDS = 820_000
"""The first seed of the ISMCTS-against-Heuristic training games."""
STRENGTH_SEEDS = 880_000
"""The first seed of the strength curve's games (the learned value alone against the Heuristic): a range no
training game, tuning or other measurement uses."""
STRENGTH_STEPS = (0, 5, 10, 20, 50, 100, 300, 1000)
"""The training steps whose weights the strength curve measures (0: the hand-written evaluation squashed)."""
SEARCH = "ismcts"
"""The search bot of the training games (plain ISMCTS: its games show positions the Heuristic does not reach)."""
SCALE = POINTS_PER_LOGIT
"""Points per logit when the hand-written evaluation is read as a chance (ISMCTS's ``scale``)."""
CARD_VERBS = ("event", "ap", "trigger")
Task = TypeVar("Task")


def game_list(heuristic: int, ismcts: int, bot: str = TRAINING_BOT) -> list[tuple[int, str, str]]:
    """(seed, Imperial spec, Insurgent spec) of every training game: ``bot`` against itself, then the search
    against ``bot``."""
    out = [(HEURISTIC_SEEDS + i, bot, bot) for i in range(heuristic)]
    for i in range(ismcts):
        pair = (SEARCH, bot) if i % 2 == 0 else (bot, SEARCH)
        out.append((ISMCTS_SEEDS + i, *pair))
    return out


def play_game(task: tuple[int, str, str]) -> dict[str, Any]:
    """Play one training game; its result, the inputs of its card points and its card choices."""
    from muster.core import get_rules
    from muster.games.freedom.analysis.winprob import state_probability
    from muster.games.freedom.bots import own_bot
    from muster.games.freedom.bots.evaluation import evaluate
    from muster.games.freedom.bots.features import BOT_WEIGHTS
    from muster.games.freedom.bots.learned import inputs
    from muster.games.freedom.constants import IMPERIAL, INSURGENT

    seed, imperial, insurgent = task
    rules = get_rules("freedom")
    state = rules.setup(seed, {"quiet": "1"})
    bots = {IMPERIAL: own_bot(imperial, seed=seed * 2 + 1, rules=rules),
            INSURGENT: own_bot(insurgent, seed=seed * 2 + 2, rules=rules)}
    positions: list[list[float]] = []
    baseline: list[tuple[float, float]] = []
    choices: list[tuple[str, list[int], int]] = []
    while rules.outcome(state) is None:
        seat = rules.active_seat(state)
        assert seat is not None
        legal = rules.legal_actions(state)
        card_turn = bool(state.stack) and state.stack[-1]["kind"] == "card_turn"
        if card_turn:
            # Public parts only (inputs() reads no hand), so the true state gives what a view would.
            positions.append([round(v, 5) for v in inputs(state)])
            baseline.append((round(evaluate(state, BOT_WEIGHTS), 4), round(state_probability(state), 5)))
        action = legal[0] if len(legal) == 1 else bots[seat].choose(rules.view(state, seat), legal, seat)
        if card_turn and len(legal) > 1 and action.verb in CARD_VERBS:
            choices.append((seat, sorted(state.hands[seat]), int(action.arg)))  # type: ignore[arg-type]
        rules.apply(state, action)
    outcome = rules.outcome(state)
    assert outcome is not None
    return {"seed": seed, "imperial": imperial, "insurgent": insurgent, "winner": outcome.winner,
            "rules_version": rules.info.version, "x": positions, "baseline": baseline, "choices": choices}


def generate(tasks: list[tuple[int, str, str]], path: Path, workers: int) -> list[dict[str, Any]]:
    """The games of ``tasks``, played now or read from ``path`` (played ones are appended there as they end)."""
    rules_version = versions()[0]
    return _resumable(tasks, lambda t: t, lambda g: (g["seed"], g["imperial"], g["insurgent"]), play_game, path,
                      workers, "self-play games", keep=lambda g: bool(g["rules_version"] == rules_version))


def _resumable(tasks: list[Task], task_key: Callable[[Task], Hashable],
               record_key: Callable[[dict[str, Any]], Hashable], play: Callable[[Task], dict[str, Any]],
               path: Path, workers: int, label: str,
               keep: Callable[[dict[str, Any]], bool] = lambda g: True) -> list[dict[str, Any]]:
    """The records of ``tasks``, in their order: those ``path`` holds (JSON lines that ``keep`` accepts), the rest
    played now by ``play`` in ``workers`` processes and appended to ``path`` as they end, so a stopped run
    resumes where it was. A task and its record are matched by ``task_key`` and ``record_key``."""
    done: dict[Hashable, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                g = json.loads(line)
                if keep(g):
                    done[record_key(g)] = g
    todo = [t for t in tasks if task_key(t) not in done]
    path.parent.mkdir(parents=True, exist_ok=True)
    with Progress() as progress, path.open("a") as fh:
        bar = progress.add_task(label, total=len(tasks), completed=len(tasks) - len(todo))
        if todo:
            ctx = multiprocessing.get_context("fork")
            with ctx.Pool(max(1, workers)) as pool:
                for g in pool.imap_unordered(play, todo):
                    fh.write(json.dumps(g) + "\n")
                    fh.flush()
                    done[record_key(g)] = g
                    progress.advance(bar)
    return [done[task_key(t)] for t in tasks]


def dataset(games: Iterable[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Stack the games' positions: inputs ``x``, Imperial result ``y`` (½ for a draw), baselines, seeds."""
    xs, ys, ev, cal, seeds = [], [], [], [], []
    for g in games:
        y = 1.0 if g["winner"] == "imperial" else 0.0 if g["winner"] == "insurgent" else 0.5
        for x, (points, calib) in zip(g["x"], g["baseline"], strict=True):
            xs.append(x)
            ys.append(y)
            ev.append(points)
            cal.append(calib)
            seeds.append(g["seed"])
    return {"x": np.asarray(xs, dtype=np.float64), "y": np.asarray(ys), "eval": np.asarray(ev),
            "calib": np.asarray(cal), "seed": np.asarray(seeds)}


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean binary log-loss (nats)."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def brier(p: np.ndarray, y: np.ndarray) -> float:
    """Mean squared error of the chance."""
    return float(np.mean((p - y) ** 2))


def prior_linear(mean: np.ndarray, std: np.ndarray) -> tuple[np.ndarray, float]:
    """The linear weights (on standardised inputs) and intercept that give the hand-written evaluation squashed by
    :data:`SCALE`: the evaluation is the sum of its terms, the first inputs
    (:data:`muster.games.freedom.bots.learned.INPUTS`)."""
    from muster.games.freedom.bots.evaluation import TERMS

    wl = np.zeros_like(mean)
    wl[: len(TERMS)] = std[: len(TERMS)] / SCALE
    return wl, float(mean[: len(TERMS)].sum() / SCALE)


def fit_value(x: np.ndarray, y: np.ndarray, hidden: int, steps: int, seed: int, lr: float = 0.01,
              decay: float = 1e-2, every: int = 0, at: Collection[int] = (), use: np.ndarray | None = None,
              on_step: Any = None) -> tuple[LearnedModel, list[tuple[int, LearnedModel]]]:
    """Fit the network by full-batch Adam on the log-loss. It starts as the hand-written evaluation squashed
    (its linear part) with a hidden layer that adds nothing, and an L2 penalty ``decay`` pulls the linear part
    back towards the hand-written weights and the hidden layer towards zero: with a few hundred games (whose
    positions share a result) an unconstrained network learns the games, not the game. Returns the model and,
    every ``every`` steps and at each step of ``at`` (0: the start), a snapshot (for the learning curves).
    ``use`` (a boolean per input): the inputs the network may read; the others keep zero weights throughout."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std[std < 1e-6] = 1.0
    z = (x - mean) / std
    n, d = z.shape
    wl0, b0 = prior_linear(mean, std)
    keep = np.ones(d) if use is None else np.asarray(use, dtype=np.float64)
    wl0 = wl0 * keep
    params = [rng.normal(0, 1 / math.sqrt(d), (d, hidden)) * keep[:, None], np.zeros(hidden), np.zeros(hidden),
              np.array([b0]), wl0.copy()]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    snapshots: list[tuple[int, LearnedModel]] = []

    def model() -> LearnedModel:
        return LearnedModel(mean, std, params[0].copy(), params[1].copy(), params[2].copy(), float(params[3][0]),
                            {}, {}, params[4].copy())

    if 0 in at:
        snapshots.append((0, model()))
    for t in range(1, steps + 1):
        w1, c1, w2, c2, wl = params
        pre = z @ w1 + c1
        h = np.maximum(0.0, pre)
        logit = h @ w2 + c2[0] + z @ wl
        p = 1.0 / (1.0 + np.exp(-np.clip(logit, -40, 40)))
        g = (p - y) / n
        gh = np.outer(g, w2) * (pre > 0)
        grads = [(z.T @ gh + decay * w1) * keep[:, None], gh.sum(axis=0), h.T @ g + decay * w2,
                 np.array([g.sum()]), (z.T @ g + decay * (wl - wl0)) * keep]
        for i, gr in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * gr
            v[i] = b2 * v[i] + (1 - b2) * gr * gr
            params[i] = params[i] - lr * (m[i] / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + eps)
        if (every and t % every == 0) or t in at:
            snapshots.append((t, model()))
        if on_step is not None:
            on_step()
    return model(), snapshots


def input_mask(which: str) -> np.ndarray | None:
    """The inputs the network may read: ``all`` (None: every input) or ``terms`` (the evaluation's terms, the
    round and the side to play; the public counts, whose weights fitted on one pair of bots' games follow how
    those bots play more than what a move changes, are left out)."""
    if which == "all":
        return None
    from muster.games.freedom.bots.features import COUNTS

    return np.asarray([name not in COUNTS for name in INPUTS])


def fit_play(choices: list[tuple[str, list[int], int]], steps: int = 300, decay: float = 0.05,
             lr: float = 0.1) -> dict[str, dict[int, float]]:
    """Per side, a logit per card such that ``P(play c | hand) = softmax over the hand`` fits the choices
    (maximum likelihood with an L2 penalty, by full-batch gradient ascent)."""
    out: dict[str, dict[int, float]] = {}
    for side in sorted({c[0] for c in choices}):
        rows = [(hand, card) for s, hand, card in choices if s == side and card in hand]
        if not rows:
            continue
        cards = sorted({c for hand, _ in rows for c in hand})
        index = {c: i for i, c in enumerate(cards)}
        mask = np.zeros((len(rows), len(cards)), dtype=bool)
        chosen = np.zeros((len(rows), len(cards)))
        for r, (hand, card) in enumerate(rows):
            mask[r, [index[c] for c in hand]] = True
            chosen[r, index[card]] = 1.0
        theta = np.zeros(len(cards))
        for _ in range(steps):
            logits = np.where(mask, theta, -np.inf)
            logits -= logits.max(axis=1, keepdims=True)
            e = np.exp(logits)
            p = e / e.sum(axis=1, keepdims=True)
            grad = (chosen - p).sum(axis=0) / len(rows) - decay * theta / len(rows) * 10
            theta += lr * grad * 10
        out[side] = {c: float(theta[index[c]]) for c in cards}
    return out


def play_loglik(play: dict[str, dict[int, float]], choices: list[tuple[str, list[int], int]]) -> tuple[float, float]:
    """(mean log-likelihood of the chosen cards under the play model, under a uniform choice from the hand)."""
    model, uniform = 0.0, 0.0
    n = 0
    for side, hand, card in choices:
        if card not in hand:
            continue
        logits = np.array([play.get(side, {}).get(c, 0.0) for c in hand])
        logits -= logits.max()
        model += float(logits[hand.index(card)] - math.log(np.exp(logits).sum()))
        uniform -= math.log(len(hand))
        n += 1
    return model / max(n, 1), uniform / max(n, 1)


def strength_game(task: tuple[int, int, str, str]) -> dict[str, Any]:
    """Play one game of the strength curve: the learned value alone (``LearnedValueBot`` with the weights of
    training step ``step``) in ``learned_seat`` against the Heuristic; its result."""
    from muster.core import get_rules
    from muster.games.freedom.bots.heuristic import HeuristicBot, LearnedValueBot
    from muster.games.freedom.constants import IMPERIAL, INSURGENT

    step, seed, learned_seat, weights = task
    rules = get_rules("freedom")
    model = LearnedModel.from_json(json.loads(weights))
    heuristic_seat = INSURGENT if learned_seat == IMPERIAL else IMPERIAL
    bots = {learned_seat: LearnedValueBot(rules, seed * 2 + 1, model=model),
            heuristic_seat: HeuristicBot(rules, seed * 2 + 2)}
    state = rules.setup(seed, {"quiet": "1"})
    while rules.outcome(state) is None:
        seat = rules.active_seat(state)
        assert seat is not None
        legal = rules.legal_actions(state)
        rules.apply(state, legal[0] if len(legal) == 1 else bots[seat].choose(rules.view(state, seat), legal, seat))
    outcome = rules.outcome(state)
    assert outcome is not None
    return {"step": step, "seed": seed, "learned": learned_seat, "winner": outcome.winner,
            "weights": _digest(weights), "rules_version": rules.info.version}


def _digest(weights: str) -> str:
    return hashlib.sha256(weights.encode()).hexdigest()[:16]


def strength_games(weights: dict[int, str], seeds: int, path: Path, workers: int) -> list[dict[str, Any]]:
    """The strength curve's games (``seeds`` paired seeds from :data:`STRENGTH_SEEDS` for each step's weights),
    played now or read from ``path``: a game is reused only if it was played with the very same weights."""
    from muster.games.freedom.constants import IMPERIAL, INSURGENT

    tasks = [(step, STRENGTH_SEEDS + i, seat, text) for step, text in sorted(weights.items())
             for i in range(seeds) for seat in (IMPERIAL, INSURGENT)]
    return _resumable(tasks, lambda t: (t[0], t[1], t[2], _digest(t[3])),
                      lambda g: (g["step"], g["seed"], g["learned"], g["weights"]), strength_game, path, workers,
                      "strength games")


def strength_curve(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per training step: games, wins of the learned value alone, its win rate with the 95% Wilson interval, and
    its wins as each side."""
    out = []
    for step in sorted({r["step"] for r in rows}):
        games = [r for r in rows if r["step"] == step]
        wins = sum(r["winner"] == r["learned"] for r in games)
        rate, low, high = wilson(wins, len(games))
        sides = {side: f"{sum(r['winner'] == side for r in games if r['learned'] == side)}/"
                       f"{sum(r['learned'] == side for r in games)}" for side in ("imperial", "insurgent")}
        out.append({"step": step, "games": len(games), "wins": wins, "rate": round(rate, 4), "low": round(low, 4),
                    "high": round(high, 4), "as": sides})
    return out


def plot_strength(points: list[dict[str, Any]], path: Path) -> None:
    """The strength curve: the learned value alone's win rate against the Heuristic (95% intervals) by training
    step, and beside it the validation log-loss of the same weights where the points carry it (matplotlib, as the
    lab's plots)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6))
    steps = [p["step"] for p in points]
    rates = [100 * p["rate"] for p in points]
    errors = [[100 * (p["rate"] - p["low"]) for p in points], [100 * (p["high"] - p["rate"]) for p in points]]
    ax.errorbar(steps, rates, yerr=errors, marker="o", capsize=3, label="learned value alone (95% interval)")
    ax.axhline(50, color="grey", ls="--", label="even with the Heuristic")
    ax.set_xscale("symlog", linthresh=5)
    ax.set_xticks(steps)
    ax.set_xticklabels([str(s) for s in steps])
    ax.set_ylim(0, 100)
    ax.set_xlabel("training step (0: the hand-written evaluation, squashed)")
    ax.set_xlim(-0.5, max(steps, default=1) * 1.3)
    ax.set_ylabel("games won against the Heuristic (%)")
    n = points[0]["games"] if points else 0
    ax.set_title(f"Freedom! learned value alone against the Heuristic ({n} games a step, seats swapped)",
                 fontsize=10)
    handles, labels = ax.get_legend_handles_labels()
    if all("log_loss" in p for p in points):
        loss = ax.twinx()
        loss.plot(steps, [p["log_loss"] for p in points], color="tab:orange", marker="s", ls=":",
                  label="validation log-loss (right)")
        loss.set_ylabel("validation log-loss (nats)")
        more_handles, more_labels = loss.get_legend_handles_labels()
        handles, labels = handles + more_handles, labels + more_labels
    ax.legend(handles, labels, fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_curve(curve: list[dict[str, float]], report: dict[str, dict[str, Any]], path: Path) -> None:
    """Validation log-loss and Brier score by training step, against the hand-written evaluation and the base
    rate (matplotlib, as the lab's plots)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    steps = [c["step"] for c in curve]
    for ax, key, label in ((axes[0], "log_loss", "log-loss"), (axes[1], "brier", "Brier score")):
        ax.plot(steps, [c[key] for c in curve], marker="o", label="learned value")
        ax.axhline(report["hand_written_squashed"][key], color="tab:red", ls="--", label="hand-written, squashed")
        ax.axhline(report["calibrated_estimate"][key], color="tab:green", ls=":", label="calibrated estimate")
        ax.axhline(report["base_rate"][key], color="grey", ls="-.", label="base rate")
        ax.set_xlabel("training step")
        ax.set_ylabel(f"validation {label}")
    axes[0].legend(fontsize=7)
    fig.suptitle("Freedom! learned value: validation games (every fifth seed)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m muster.games.freedom.analysis.train",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--heuristic-games", type=int, default=100, help="Heuristic-vs-Heuristic games (seeds from 810000)")
    ap.add_argument("--ismcts-games", type=int, default=0, help="ISMCTS-vs-Heuristic games (seeds from 820000)")
    ap.add_argument("--bot", default=TRAINING_BOT, help="the Heuristic's spec in the training games")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--data", type=Path, default=Path("reports/learned/games.jsonl"))
    ap.add_argument("--out", type=Path, default=None, help="weights directory (default: the package's data/)")
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--decay", type=float, default=0.1, help="L2 pull towards the hand-written evaluation")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", type=int, default=0, help="also write a snapshot of the weights every N steps")
    ap.add_argument("--inputs", choices=("all", "terms"), default="all",
                    help="what the network reads: every input, or only the evaluation's terms, the round and the "
                         "side to play (the public counts left out)")
    ap.add_argument("--strength", type=int, default=0,
                    help="the strength curve: paired seeds (two games each, seats swapped) the learned value alone "
                         f"plays against the Heuristic at each step of --strength-steps (seeds from {STRENGTH_SEEDS})")
    ap.add_argument("--strength-steps", default=",".join(map(str, STRENGTH_STEPS)),
                    help="the training steps whose weights play the strength curve's games (comma-separated)")
    args = ap.parse_args(argv)
    try:
        strength_steps = sorted({int(v) for v in args.strength_steps.split(",") if v.strip()})
    except ValueError:
        ap.error("--strength-steps takes whole numbers separated by commas, e.g. 0,10,100")
    if any(not 0 <= s <= args.steps for s in strength_steps):
        ap.error(f"--strength-steps must lie between 0 and --steps ({args.steps})")

    games = generate(game_list(args.heuristic_games, args.ismcts_games, args.bot), args.data, args.workers)
    data = dataset(games)
    val = data["seed"] % 5 == 0
    tr = ~val
    print(f"{len(games)} games, {len(data['y'])} positions ({int(tr.sum())} training, {int(val.sum())} validation)")
    with Progress() as progress:
        bar = progress.add_task("training the value", total=args.steps)
        model, snapshots = fit_value(data["x"][tr], data["y"][tr], args.hidden, args.steps, args.seed,
                                     decay=args.decay, every=args.curve,
                                     at=strength_steps if args.strength else (), use=input_mask(args.inputs),
                                     on_step=lambda: progress.advance(bar))
    choices = [(str(c[0]), list(c[1]), int(c[2])) for g in games if g["seed"] % 5 for c in g["choices"]]
    val_choices = [(str(c[0]), list(c[1]), int(c[2])) for g in games if g["seed"] % 5 == 0 for c in g["choices"]]
    play = fit_play(choices)
    y = data["y"][val]
    learned = 1.0 / (1.0 + np.exp(-model.logit_x(data["x"][val])))
    hand = 1.0 / (1.0 + np.exp(-data["eval"][val] / SCALE))
    base = np.full_like(y, data["y"][tr].mean())
    report: dict[str, dict[str, Any]] = {
        "positions": {"training": int(tr.sum()), "validation": int(val.sum())},
        "learned": {"log_loss": log_loss(learned, y), "brier": brier(learned, y)},
        "hand_written_squashed": {"log_loss": log_loss(hand, y), "brier": brier(hand, y)},
        "calibrated_estimate": {"log_loss": log_loss(data["calib"][val], y), "brier": brier(data["calib"][val], y)},
        "base_rate": {"log_loss": log_loss(base, y), "brier": brier(base, y)},
    }
    ll, uni = play_loglik(play, val_choices)
    report["play_model"] = {"loglik_per_choice": round(ll, 4), "uniform_loglik_per_choice": round(uni, 4)}
    for key in ("learned", "hand_written_squashed", "calibrated_estimate", "base_rate"):
        report[key] = {k: round(v, 4) for k, v in report[key].items()}
    print(json.dumps(report, indent=1))
    rules, actions = versions()
    meta = {"games": {args.bot: [HEURISTIC_SEEDS, args.heuristic_games],
                      SEARCH: [ISMCTS_SEEDS, args.ismcts_games]},
            "hidden": args.hidden, "steps": args.steps, "decay": args.decay, "seed": args.seed,
            **({"inputs": args.inputs} if args.inputs != "all" else {}),
            "validation": report}
    final = replace(model, play=play, meta=meta)
    out = args.out or Path(__file__).resolve().parent.parent / "data"
    out.mkdir(parents=True, exist_ok=True)
    target = out / weights_name(rules, actions)
    target.write_text(json.dumps(final.to_json(rules, actions), separators=(",", ":")) + "\n")
    print(f"wrote {target}")
    # Step 0 is the starting point: the hand-written evaluation squashed (the hidden layer adds nothing yet).
    curve = [{"step": 0, **report["hand_written_squashed"]}] if args.curve else []
    for step, snap in snapshots:
        if not args.curve or step == 0 or step % args.curve:
            continue
        snap_model = replace(snap, play=play, meta={**meta, "steps": step})
        (args.data.parent / f"step-{step}").mkdir(parents=True, exist_ok=True)
        (args.data.parent / f"step-{step}" / weights_name(rules, actions)).write_text(
            json.dumps(snap_model.to_json(rules, actions)))
        p = 1.0 / (1.0 + np.exp(-snap.logit_x(data["x"][val])))
        curve.append({"step": step, "log_loss": round(log_loss(p, y), 4), "brier": round(brier(p, y), 4)})
    if curve:
        plot_curve(curve, report, args.data.parent / "learning-curve.png")
        (args.data.parent / "learning-curve.json").write_text(json.dumps(curve) + "\n")
    if args.strength:
        weights = {step: json.dumps(replace(snap, meta={"steps": step}).to_json(rules, actions), sort_keys=True)
                   for step, snap in snapshots if step in strength_steps}
        rows = strength_games(weights, args.strength, args.data.parent / "strength.jsonl", args.workers)
        points = strength_curve(rows)
        for point, (_step, snap) in zip(points, [(s, m) for s, m in snapshots if s in strength_steps], strict=True):
            point["log_loss"] = round(log_loss(1.0 / (1.0 + np.exp(-snap.logit_x(data["x"][val]))), y), 4)
        print(json.dumps({"strength": points}))
        plot_strength(points, args.data.parent / "learning-strength.png")
        (args.data.parent / "learning-strength.json").write_text(json.dumps(points) + "\n")
    assert FORMAT == 1 and len(INPUTS) == data["x"].shape[1]
    return 0


if __name__ == "__main__":
    sys.exit(main())
