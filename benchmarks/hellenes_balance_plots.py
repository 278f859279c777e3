"""Plots and intervals for docs/hellenes-balance.md from result lines ``seed winner reason prestige ...``.

Each line is one finished game as printed by the balance runs (the same games ``muster simulate --game hellenes
--athens heuristic --sparta heuristic --seed S`` plays). Run:
``python benchmarks/hellenes_balance_plots.py --hvh FILE... --vs-random-athens FILE --vs-random-sparta FILE``.
The last line printed is one JSON object with the win rates and their 95% intervals.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from muster.core.stats import wilson


def read(paths: list[Path]) -> list[tuple[int, str, str, int]]:
    """(seed, winner, reason, final Prestige) of every game line in the files."""
    out = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) >= 4 and parts[0].isdigit() and parts[1] in ("athens", "sparta"):
                out.append((int(parts[0]), parts[1], parts[2], int(parts[3])))
    return out


def main() -> None:
    """Print the figures and write the plots."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hvh", type=Path, nargs="+", required=True)
    parser.add_argument("--vs-random-athens", type=Path)
    parser.add_argument("--vs-random-sparta", type=Path)
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args()
    games = read(args.hvh)
    n = len(games)
    athens = sum(1 for g in games if g[1] == "athens")
    rate, low, high = wilson(athens, n)
    result: dict[str, object] = {"hvh_games": n, "athens_rate": rate, "athens_ci95": [low, high],
                                 "endings": dict(Counter(f"{g[1]}:{g[2]}" for g in games))}
    for side, path in (("athens", args.vs_random_athens), ("sparta", args.vs_random_sparta)):
        if path:
            rows = read([path])
            wins = sum(1 for g in rows if g[1] == side)
            r, lo, hi = wilson(wins, len(rows))
            result[f"heuristic_as_{side}_vs_random"] = {"wins": wins, "games": len(rows), "rate": r, "ci95": [lo, hi]}
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    endings = Counter(f"{g[1]} ({g[2]})" for g in games)
    labels = sorted(endings)
    axes[0].barh(labels, [endings[k] for k in labels],
                 color=["#2f5d9e" if k.startswith("athens") else "#b23a2e" for k in labels])
    axes[0].set_title(f"Heuristic vs Heuristic: how {n} games ended")
    axes[0].set_xlabel("games")
    prestige = [g[3] for g in games]
    axes[1].hist(prestige, bins=range(min(prestige) - 1, max(prestige) + 2), color="#777")
    axes[1].axvline(0, color="#111")
    axes[1].set_title("Final Prestige (+ Sparta, − Athens)")
    axes[1].set_xlabel("Prestige")
    fig.tight_layout()
    args.out.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out / "hellenes-balance.png", dpi=110)
    # the running estimate with its interval, to show it has settled
    xs, ys, los, his = [], [], [], []
    wins = 0
    for k, g in enumerate(sorted(games), 1):
        wins += g[1] == "athens"
        r, lo, hi = wilson(wins, k)
        xs.append(k)
        ys.append(r)
        los.append(lo)
        his.append(hi)
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(xs, ys, color="#2f5d9e", label="Athens' win rate")
    ax.fill_between(xs, los, his, color="#2f5d9e", alpha=0.2, label="95% interval")
    ax.axhspan(0.4, 0.6, color="#5a5", alpha=0.1, label="target 40–60%")
    ax.set_ylim(0, 1)
    ax.set_xlabel("games")
    ax.legend(loc="lower right")
    ax.set_title("Heuristic vs Heuristic: Athens' win rate as the games come in")
    fig.tight_layout()
    fig.savefig(args.out / "hellenes-balance-running.png", dpi=110)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
