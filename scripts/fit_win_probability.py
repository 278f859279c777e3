"""Play Heuristic-vs-Heuristic games and (re)fit the win-probability estimate on them.

    python scripts/fit_win_probability.py games --games 300 --out reports/winprob/games.jsonl
    python scripts/fit_win_probability.py fit                # every reports/winprob/games*.jsonl

``games`` streams one JSON line per finished game (so a stopped run keeps what it played); ``fit``
fits the logistic calibration on the games with an even seed, tests it on the odd ones (never seen
in the fit), writes the coefficients to ``src/muster/analysis/data/win_probability.json`` and the
quality figures and plot to ``docs/``. Both show a rich progress bar. The last line printed is JSON.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from muster.analysis.selfplay import load_games, play_recorded, replay_positions

app = typer.Typer(add_completion=False)


@app.callback()
def main() -> None:
    """Self-play games and the fit of the win-probability estimate."""


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn())


def _play(seed: int) -> dict[str, Any]:
    return play_recorded(seed)


@app.command()
def games(games: int = typer.Option(300, min=1, max=5000), first_seed: int = 1,
          workers: int = typer.Option(2, min=1, max=64),
          out: Path = typer.Option(Path("reports/winprob/games.jsonl"))) -> None:
    """Play Heuristic-vs-Heuristic games, skipping seeds already in OUT, and append them to OUT."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {g["seed"] for g in load_games(out)} if out.exists() else set()
    seeds = [s for s in range(first_seed, first_seed + games) if s not in done]
    ctx = mp.get_context("spawn")
    with _progress() as progress, ctx.Pool(workers) as pool:
        task = progress.add_task("self-play games", total=len(seeds))
        for record in pool.imap_unordered(_play, seeds):
            with out.open("a") as fh:
                fh.write(json.dumps(record) + "\n")
            progress.advance(task)
    print(json.dumps({"games": len(done) + len(seeds), "out": str(out)}))


DATA = Path(__file__).resolve().parents[1] / "src/muster/analysis/data/win_probability.json"
DOCS = Path(__file__).resolve().parents[1] / "docs"
FORMAT_VERSION = 1


def _arrays(records: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, rounds = [], [], []
    for g in records:
        won = 1.0 if g["winner"] == "imperial" else 0.0
        for pos in g["positions"]:
            xs.append(pos["x"])
            ys.append(won)
            rounds.append(pos["round"])
    return np.array(xs, dtype=float), np.array(ys), np.array(rounds, dtype=int)


def _logistic(x: np.ndarray, y: np.ndarray, l2: float, progress: Progress) -> tuple[np.ndarray, float]:
    """Newton's method on the L2-penalised log-likelihood (the intercept is not penalised)."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    penalty = np.full(a.shape[1], l2)
    penalty[0] = 0.0
    task = progress.add_task("logistic fit (Newton steps)", total=50)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -40, 40)))
        grad = a.T @ (p - y) + penalty * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        progress.advance(task)
        if np.max(np.abs(step)) < 1e-8:
            break
    progress.update(task, completed=50)
    return w[1:], float(w[0])


def _brier_by_round(p: np.ndarray, y: np.ndarray, rounds: np.ndarray, base: dict[int, float],
                    overall: float) -> list[dict[str, float]]:
    rows = []
    for r in sorted(set(rounds.tolist())):
        m = rounds == r
        brier = float(np.mean((p[m] - y[m]) ** 2))
        ref_round = float(np.mean((base.get(r, overall) - y[m]) ** 2))
        ref_all = float(np.mean((overall - y[m]) ** 2))
        rows.append({"round": r, "positions": int(m.sum()), "brier": brier,
                     "skill_vs_round_base_rate": 1 - brier / ref_round if ref_round else 0.0,
                     "skill_vs_base_rate": 1 - brier / ref_all if ref_all else 0.0})
    return rows


def _plots(p: np.ndarray, y: np.ndarray, rows: list[dict[str, float]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    edges = np.linspace(0, 1, 11)
    idx = np.clip(np.digitize(p, edges) - 1, 0, 9)
    mids, freq, counts = [], [], []
    for b in range(10):
        m = idx == b
        if m.sum():
            mids.append(float(p[m].mean()))
            freq.append(float(y[m].mean()))
            counts.append(int(m.sum()))
    left.plot([0, 1], [0, 1], color="grey", linestyle="--", label="perfect calibration")
    left.plot(mids, freq, marker="o", color="#8b1e1e", label="estimate (held-out games)")
    for mx, fy, n in zip(mids, freq, counts, strict=True):
        left.annotate(str(n), (mx, fy), textcoords="offset points", xytext=(4, -10), fontsize=7)
    left.set_xlabel("estimated Imperial win chance")
    left.set_ylabel("share of those positions the Imperial side won")
    left.set_title("Calibration (positions per bin annotated)")
    left.legend(loc="upper left")
    right.bar([r["round"] for r in rows], [r["skill_vs_round_base_rate"] for r in rows], color="#2f5d8a")
    right.axhline(0, color="black", linewidth=0.8)
    right.set_xlabel("round")
    right.set_ylabel("Brier skill score")
    right.set_title("Skill against the base rate of each round")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def _speed(records: list[dict[str, Any]], calib: Any, n: int = 200) -> float:
    """Milliseconds per position: replay one held-out game and estimate from a view at every card point."""
    from muster.ai import make_bot
    from muster.analysis.features import is_card_point
    from muster.analysis.winprob import imperial_chance
    from muster.core import get_rules

    rules = get_rules("freedom")
    state = rules.setup(records[0]["seed"], {"quiet": "1"})
    bot = make_bot("heuristic:plan=off,samples=1", seed=1, rules=rules)
    views: list[tuple[dict[str, Any], str]] = []
    while rules.outcome(state) is None and len(views) < n:
        seat = rules.active_seat(state)
        assert seat is not None
        view = rules.view(state, seat)
        if is_card_point(view):
            views.append((view, seat))
        legal = rules.legal_actions(state)
        rules.apply(state, legal[0] if len(legal) == 1 else bot.choose(view, legal, seat))
    t0 = time.process_time()
    for view, seat in views:
        imperial_chance(view, seat, rules, calib)
    return 1000 * (time.process_time() - t0) / max(1, len(views))


@app.command()
def fit(games_files: list[Path] = typer.Argument(None, help="JSON-lines files of recorded games "
                                                 "(default: reports/winprob/games*.jsonl)."),
        l2: float = typer.Option(1000.0, min=0.0), data: Path = DATA,
        docs: Path = DOCS) -> None:
    """Fit on even seeds, test on odd seeds, write the coefficients, the figures and the plot.

    A game recorded with its actions is replayed to compute this build's features; a game recorded
    without them is used only if it stored exactly these features (``"features"``).
    """
    from muster.analysis.features import FEATURES

    files = games_files or sorted(Path("reports/winprob").glob("games*.jsonl"))
    pool = {g["seed"]: g for f in files for g in load_games(f)}
    records = [g for g in pool.values() if "actions" in g or g.get("features") == list(FEATURES)]
    with _progress() as progress:
        task = progress.add_task("features (replaying the games)", total=len(records))
        for g in records:
            if "actions" in g:
                g["positions"] = replay_positions(g)
            progress.advance(task)
    train = [g for g in records if g["seed"] % 2 == 0]
    test = [g for g in records if g["seed"] % 2 == 1]
    x, y, rounds = _arrays(train)
    xt, yt, rounds_t = _arrays(test)
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1.0
    with _progress() as progress:
        coef, intercept = _logistic((x - mean) / std, y, l2, progress)
    z = intercept + ((xt - mean) / std) @ coef
    pt = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
    overall = float(np.mean([g["winner"] == "imperial" for g in train]))
    base = {int(r): float(y[rounds == r].mean()) for r in set(rounds.tolist())}
    rows = _brier_by_round(pt, yt, rounds_t, base, overall)
    data.write_text(json.dumps({
        "version": FORMAT_VERSION, "features": list(FEATURES), "mean": mean.tolist(), "std": std.tolist(),
        "coef": coef.tolist(), "intercept": intercept,
        "fitted_on": {"games": len(train), "files": [f.name for f in files], "positions": len(y),
                      "bots": "heuristic vs heuristic",
                      "seeds": "even", "l2": l2, "rules_version": train[0]["rules_version"] if train else ""},
    }, indent=1) + "\n")
    from muster.analysis.winprob import Calibration, calibration

    calibration.cache_clear()
    _plots(pt, yt, rows, docs / "analysis-calibration.png")
    ms = _speed(test or train, Calibration.from_json(json.loads(data.read_text())))
    brier = float(np.mean((pt - yt) ** 2))
    report = {"train_games": len(train), "test_games": len(test), "test_positions": len(yt),
              "imperial_base_rate": overall, "brier": brier,
              "skill_vs_base_rate": 1 - brier / float(np.mean((overall - yt) ** 2)),
              "by_round": rows, "ms_per_position": ms}
    (docs / "analysis-quality.json").write_text(json.dumps(report, indent=1) + "\n")
    for r in rows:
        print(f"round {r['round']}: {r['positions']} positions, Brier {r['brier']:.3f}, "
              f"skill {r['skill_vs_round_base_rate']:+.3f} (vs the round's base rate), "
              f"{r['skill_vs_base_rate']:+.3f} (vs the overall base rate)")
    print(json.dumps({k: v for k, v in report.items() if k != "by_round"}))


if __name__ == "__main__":
    app()
