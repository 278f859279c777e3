"""Play self-play games (the Heuristic that clears landings, by default) and (re)fit the win-probability estimate.

    python scripts/fit_win_probability.py games --games 400 --out reports/winprob/games-areas4.jsonl
    python scripts/fit_win_probability.py fit                # every reports/winprob/games*.jsonl

``games`` streams one JSON line per finished game, with its actions (so a stopped run keeps what it
played). ``fit`` keeps the games recorded under this build's rules version, replays them to compute
this build's features (in worker processes, cached in ``reports/winprob/positions.jsonl``), fits one
logistic calibration per round on the games with an even seed — each round's penalty chosen by
cross-validation over those games — and tests it on the odd ones, which it never saw. It writes the
coefficients to ``src/muster/games/freedom/analysis/data/win_probability.json`` and the quality figures (with
bootstrap intervals over the held-out games) and the plot to ``docs/``. Both show a rich progress bar.
The last line printed is JSON.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # many small fits: threads only fight over shared cores
import numpy as np
import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from muster.games.freedom.analysis.selfplay import load_games, play_recorded, replay_positions
from muster.games.freedom.analysis.train import TRAINING_BOT

app = typer.Typer(add_completion=False)


@app.callback()
def main() -> None:
    """Self-play games and the fit of the win-probability estimate."""


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn())


def _play(task: tuple[int, str]) -> dict[str, Any]:
    seed, bot = task
    return play_recorded(seed, bot, bot)


@app.command()
def games(games: int = typer.Option(300, min=1, max=5000), first_seed: int = 1,
          workers: int = typer.Option(2, min=1, max=64),
          out: Path = typer.Option(Path("reports/winprob/games.jsonl")),
          bot: str = typer.Option(TRAINING_BOT, help="the bot spec playing both sides")) -> None:
    """Play games of one bot against itself, skipping seeds already in OUT, and append them to OUT. The default
    bot is the learned value's training Heuristic, whose Insurgent clears the landings it can reach: its pairing
    is near even, as people's games are, where the plain Heuristic's Insurgent lets the Imperial's landings
    stand."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {g["seed"] for g in load_games(out)} if out.exists() else set()
    seeds = [s for s in range(first_seed, first_seed + games) if s not in done]
    ctx = mp.get_context("spawn")
    with _progress() as progress, ctx.Pool(workers) as pool:
        task = progress.add_task("self-play games", total=len(seeds))
        for record in pool.imap_unordered(_play, [(seed, bot) for seed in seeds]):
            with out.open("a") as fh:
                fh.write(json.dumps(record) + "\n")
            progress.advance(task)
    print(json.dumps({"games": len(done) + len(seeds), "out": str(out)}))


def _pairings(records: list[dict[str, Any]]) -> str:
    """The bot pairings of ``records``, e.g. ``heuristic vs heuristic``."""
    return ", ".join(sorted({f"{g.get('imperial', 'heuristic')} vs {g.get('insurgent', 'heuristic')}"
                             for g in records}))


DATA = Path(__file__).resolve().parents[1] / "src/muster/games/freedom/analysis/data/win_probability.json"
DOCS = Path(__file__).resolve().parents[1] / "docs"
POSITIONS = Path("reports/winprob/positions.jsonl")
TERM_PENALTIES = (300.0, 3000.0, 30000.0, 1e6)
COUNT_PENALTIES = (3000.0, 30000.0, 1e6)
"""The L2 penalties (on standardised features) cross-validation chooses from, per round: one for the
six evaluation terms, one for the public counts (so a round may lean on the terms alone)."""
FOLDS = 5
WINDOW = 1
"""Round r's model is fitted on the positions of rounds r - 1, r and r + 1 (cross-fitted on 231 games,
this gained up to 0.03 of skill over a model per round alone in every round but the 4th, where it lost
0.003: the neighbours' positions say much the same; docs/analysis.md)."""
BOOTSTRAP = 1000


def _game_key(game: dict[str, Any]) -> tuple[int, str, str]:
    """What names one recorded game in the features cache: its seed and rules, and a digest of its actions (two
    pairings of bots on one seed are different games)."""
    actions = hashlib.sha256(json.dumps(game["actions"]).encode()).hexdigest()[:16]
    return game["seed"], game["rules_version"], actions


def _replayed(game: dict[str, Any]) -> dict[str, Any]:
    from muster.games.freedom.bots.features import FEATURES

    return {"seed": game["seed"], "rules_version": game["rules_version"], "actions_digest": _game_key(game)[2],
            "features": list(FEATURES), "winner": game["winner"], "positions": replay_positions(game)}


def _positions(records: list[dict[str, Any]], workers: int) -> list[dict[str, Any]]:
    """Each game's positions with this build's features: from the cache, or replayed in worker processes."""
    from muster.games.freedom.bots.features import FEATURES

    cached: dict[tuple[int, str, str], dict[str, Any]] = {}
    if POSITIONS.exists():
        for g in load_games(POSITIONS):
            if g["features"] == list(FEATURES) and "actions_digest" in g:
                cached[g["seed"], g["rules_version"], g["actions_digest"]] = g
    todo = [g for g in records if _game_key(g) not in cached]
    POSITIONS.parent.mkdir(parents=True, exist_ok=True)
    with _progress() as progress, mp.get_context("spawn").Pool(workers) as pool:
        task = progress.add_task("features (replaying the games)", total=len(todo))
        for done in pool.imap_unordered(_replayed, todo, chunksize=4):
            cached[done["seed"], done["rules_version"], done["actions_digest"]] = done
            with POSITIONS.open("a") as fh:
                fh.write(json.dumps(done) + "\n")
            progress.advance(task)
    return [cached[_game_key(g)] for g in records]


def _arrays(games: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features, outcome (1: Imperial won), round and game seed of every position."""
    xs, ys, rounds, seeds = [], [], [], []
    for g in games:
        won = 1.0 if g["winner"] == "imperial" else 0.0
        for pos in g["positions"]:
            xs.append(pos["x"])
            ys.append(won)
            rounds.append(pos["round"])
            seeds.append(g["seed"])
    return np.array(xs, dtype=float), np.array(ys), np.array(rounds, dtype=int), np.array(seeds, dtype=int)


def _logistic(x: np.ndarray, y: np.ndarray, penalty: np.ndarray,
              start: np.ndarray | None = None) -> np.ndarray:
    """Newton's method on the L2-penalised log-likelihood; ``penalty`` per feature (the intercept, first
    in the result, is not penalised); ``start``: a warm start."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1]) if start is None else start.copy()
    pen = np.concatenate([[0.0], penalty])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -40, 40)))
        grad = a.T @ (p - y) + pen * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + np.diag(pen) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w


def _standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std < 1e-9] = 1.0  # a constant feature in this round (e.g. Period-B facts before round 4)
    return mean, std


def _penalty(l2_terms: float, l2_counts: float) -> np.ndarray:
    from muster.games.freedom.bots.features import FEATURES, TERMS

    return np.array([l2_terms if f in TERMS else l2_counts for f in FEATURES])


def _fit_round(x: np.ndarray, y: np.ndarray, rounds: np.ndarray, r: int, l2: tuple[float, float],
               start: np.ndarray | None = None) -> dict[str, Any]:
    """Round ``r``'s model, fitted on the positions of rounds ``r - WINDOW .. r + WINDOW`` (``x``, ``y``,
    ``rounds``): every round of the window keeps its own intercept (an indicator, barely penalised), the
    slopes are shared. Returned in the data file's form: round ``r``'s intercept, the features' mean,
    standard deviation and coefficients."""
    window = [q for q in sorted(set(rounds.tolist())) if q != r]
    ind = np.stack([(rounds == q).astype(float) for q in window], 1) if window else np.zeros((len(y), 0))
    mean, std = _standardise(x)
    imean, istd = _standardise(ind)
    a = np.hstack([(x - mean) / std, (ind - imean) / istd])
    w = _logistic(a, y, np.concatenate([_penalty(*l2), np.ones(len(window))]), start)
    n = x.shape[1]
    intercept = float(w[0] - np.sum(w[1 + n:] * imean / istd))  # round r: every indicator 0
    return {"mean": mean.tolist(), "std": std.tolist(), "coef": w[1:1 + n].tolist(), "intercept": intercept,
            "warm": w.tolist()}


def _window(rounds: np.ndarray, r: int) -> np.ndarray:
    return np.asarray(np.abs(rounds - r) <= WINDOW)


def _predict(model: dict[str, Any], x: np.ndarray) -> np.ndarray:
    z = model["intercept"] + ((x - np.array(model["mean"])) / np.array(model["std"])) @ np.array(model["coef"])
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40, 40))))


def _choose_penalty(x: np.ndarray, y: np.ndarray, rounds: np.ndarray, seeds: np.ndarray,
                    r: int) -> tuple[tuple[float, float], dict[str, float]]:
    """Round ``r``'s penalties with the lowest cross-validated Brier score on round ``r``'s positions
    (``x``… hold the window's positions), the folds made of whole games (each fit warm-started from the
    previous, stronger penalty's: same optimum, fewer steps)."""
    games = np.array(sorted(set(seeds.tolist())))
    np.random.default_rng(0).shuffle(games)
    fold_of = {int(s): k % FOLDS for k, s in enumerate(games)}
    fold = np.array([fold_of[int(s)] for s in seeds])
    grid = [(lt, lc) for lc in sorted(COUNT_PENALTIES, reverse=True) for lt in sorted(TERM_PENALTIES, reverse=True)]
    err = dict.fromkeys(grid, 0.0)
    for k in range(FOLDS):
        fit, hold = fold != k, (fold == k) & (rounds == r)
        start = None
        for l2 in grid:
            model = _fit_round(x[fit], y[fit], rounds[fit], r, l2, start)
            start = np.array(model["warm"])
            err[l2] += float(np.sum((_predict(model, x[hold]) - y[hold]) ** 2))
    best = min(grid, key=lambda l2: err[l2])
    return best, {f"{lt:g}/{lc:g}": e / max(1, int(np.sum(rounds == r))) for (lt, lc), e in err.items()}


def _skill_rows(p: np.ndarray, ref: np.ndarray, overall: np.ndarray, y: np.ndarray, rounds: np.ndarray,
                seeds: np.ndarray) -> list[dict[str, Any]]:
    """Brier score and skill per round against ``ref`` (each position's round base rate in the games its
    model was fitted on) and ``overall`` (their overall base rate), with a 95% bootstrap interval over games."""
    rng = np.random.default_rng(1)
    rows = []
    for r in sorted(set(rounds.tolist())):
        m = rounds == r
        games, index = np.unique(seeds[m], return_inverse=True)
        model_err = np.bincount(index, (p[m] - y[m]) ** 2)
        ref_err = np.bincount(index, (ref[m] - y[m]) ** 2)
        all_err = np.bincount(index, (overall[m] - y[m]) ** 2)
        draws = rng.integers(0, len(games), size=(BOOTSTRAP, len(games)))
        boot = 1 - model_err[draws].sum(axis=1) / np.maximum(ref_err[draws].sum(axis=1), 1e-12)
        rows.append({"round": r, "games": len(games), "positions": int(m.sum()),
                     "brier": float(np.mean((p[m] - y[m]) ** 2)),
                     "base_rate_brier": float(np.mean((ref[m] - y[m]) ** 2)),
                     "imperial_wins": float(y[m].mean()),
                     "skill_vs_round_base_rate": float(1 - model_err.sum() / ref_err.sum()) if ref_err.sum() else 0.0,
                     "skill_interval_95": [float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))],
                     "skill_vs_base_rate": float(1 - model_err.sum() / all_err.sum()) if all_err.sum() else 0.0})
    return rows


def _plots(p: np.ndarray, y: np.ndarray, rows: list[dict[str, Any]], out: Path) -> None:
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
    skill = [r["skill_vs_round_base_rate"] for r in rows]
    low = [s - r["skill_interval_95"][0] for s, r in zip(skill, rows, strict=True)]
    high = [r["skill_interval_95"][1] - s for s, r in zip(skill, rows, strict=True)]
    right.bar([r["round"] for r in rows], skill, color="#2f5d8a", yerr=[low, high], capsize=4,
              error_kw={"ecolor": "#444444"})
    right.axhline(0, color="black", linewidth=0.8)
    right.set_xlabel("round")
    right.set_ylabel("Brier skill score (95% bootstrap interval)")
    right.set_title("Skill against the base rate of each round (held-out games)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def _speed(records: list[dict[str, Any]], calib: Any, n: int = 200) -> float:
    """Milliseconds per position: play a quick bot game (a held-out seed) and estimate from the view at
    every card point."""
    from muster.ai import make_bot
    from muster.core import get_rules
    from muster.games.freedom.analysis.winprob import imperial_chance
    from muster.games.freedom.bots.features import is_card_point

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


def _fit_rounds(x: np.ndarray, y: np.ndarray, rounds: np.ndarray, seeds: np.ndarray,
                last_round: int) -> tuple[list[dict[str, Any]], dict[int, tuple[float, float]]]:
    """One model per round, each with the penalties cross-validation prefers (a round too few of these
    games reached gets the constant 0.5)."""
    models, chosen = [], {}
    for r in range(1, last_round + 1):
        m = _window(rounds, r)
        if len(set(seeds[rounds == r].tolist())) < FOLDS:
            constant = _fit_round(x[:1], np.full(1, 0.5), np.full(1, r), r, (1e12, 1e12))
            models.append({k: v for k, v in constant.items() if k != "warm"})
            continue
        chosen[r], _scores = _choose_penalty(x[m], y[m], rounds[m], seeds[m], r)
        model = _fit_round(x[m], y[m], rounds[m], r, chosen[r])
        models.append({k: v for k, v in model.items() if k != "warm"})
    return models, chosen


@app.command()
def fit(games_files: list[Path] = typer.Argument(None, help="JSON-lines files of recorded games "
                                                 "(default: reports/winprob/games*.jsonl)."),
        workers: int = typer.Option(2, min=1, max=64), data: Path = DATA, docs: Path = DOCS) -> None:
    """Cross-fit to measure (every game predicted by a model fitted on other games), then fit on all games.

    The games are split by seed into five parts; each part's positions are estimated by models fitted
    on the other four (their penalties chosen by cross-validation inside those four), and compared
    with the constant that those four games give for the round (its base rate). The shipped model
    is fitted on all the games the same way. Only games recorded under this build's rules version
    are used (older ones may not replay).
    """
    from muster.core import get_rules
    from muster.games.freedom.analysis.winprob import FORMAT_VERSION, Calibration, calibration
    from muster.games.freedom.bots.features import FEATURES, ROUNDS

    version = get_rules("freedom").info.version
    files = games_files or sorted(Path("reports/winprob").glob("games*.jsonl"))
    # keyed as the features cache is: two files may hold different games of one seed (other bots)
    pool = {_game_key(g): g for f in files for g in load_games(f) if "actions" in g and "rules_version" in g}
    records = [g for g in pool.values() if g["rules_version"] == version]
    if len(records) < 10 * FOLDS:
        raise typer.BadParameter(f"only {len(records)} games recorded under rules {version}: play more")
    games = _positions(sorted(records, key=lambda g: g["seed"]), workers)
    x, y, rounds, seeds = _arrays(games)
    part = seeds % FOLDS
    p, ref, overall = np.zeros(len(y)), np.zeros(len(y)), np.zeros(len(y))
    with _progress() as progress:
        task = progress.add_task("cross-fitting (penalties cross-validated inside)", total=FOLDS + 1)
        for k in range(FOLDS):
            fit_on, held = part != k, part == k
            models, _chosen = _fit_rounds(x[fit_on], y[fit_on], rounds[fit_on], seeds[fit_on], ROUNDS)
            for r in range(1, ROUNDS + 1):
                m = held & (rounds == r)
                p[m] = _predict(models[r - 1], x[m])
                ref[m] = y[fit_on & (rounds == r)].mean() if (fit_on & (rounds == r)).any() else 0.5
            won = [g["winner"] == "imperial" for g in games if g["seed"] % FOLDS != k]
            overall[held] = float(np.mean(won))
            progress.advance(task)
        models, chosen = _fit_rounds(x, y, rounds, seeds, ROUNDS)
        progress.advance(task)
    data.write_text(json.dumps({
        "version": FORMAT_VERSION, "features": list(FEATURES), "rounds": models,
        "fitted_on": {"games": len(games), "positions": len(y), "bots": _pairings(records),
                      "penalties": {r: {"terms": lt, "counts": lc} for r, (lt, lc) in chosen.items()},
                      "rules_version": version},
    }, indent=1) + "\n")
    calibration.cache_clear()
    rows = _skill_rows(p, ref, overall, y, rounds, seeds)
    _plots(p, y, rows, docs / "analysis-calibration.png")
    ms = _speed([g for g in records if g["seed"] % FOLDS == 0],
                Calibration.from_json(json.loads(data.read_text())))
    brier = float(np.mean((p - y) ** 2))
    penalties = {r: {"terms": lt, "counts": lc} for r, (lt, lc) in chosen.items()}
    report = {"rules_version": version, "games": len(games), "positions": len(y), "folds": FOLDS,
              "imperial_win_rate": float(np.mean([g["winner"] == "imperial" for g in games])), "brier": brier,
              "skill_vs_base_rate": 1 - brier / float(np.mean((overall - y) ** 2)),
              "penalties": penalties, "by_round": rows, "ms_per_position": ms}
    (docs / "analysis-quality.json").write_text(json.dumps(report, indent=1) + "\n")
    for r in rows:
        lo, hi = r["skill_interval_95"]
        print(f"round {r['round']}: {r['games']} games, {r['positions']} positions, Brier {r['brier']:.3f}, "
              f"skill {r['skill_vs_round_base_rate']:+.3f} [{lo:+.3f}, {hi:+.3f}] (vs the round's base rate), "
              f"{r['skill_vs_base_rate']:+.3f} (vs the overall base rate)")
    print(json.dumps({k: v for k, v in report.items() if k != "by_round"}))


if __name__ == "__main__":
    app()
