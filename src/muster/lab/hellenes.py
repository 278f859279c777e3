"""The lab for Hellenes: bot-vs-bot games, a balance report (Athens' win rate with its 95% interval, endings,
Prestige over the Seasons, plots) and a round-robin arena. Used by ``muster simulate/arena --game hellenes``."""

from __future__ import annotations

import json
import multiprocessing as mp
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from muster.ai import make_bot
from muster.core import get_rules
from muster.lab.stats import wilson

SEATS = ("athens", "sparta")


@dataclass
class HellenesRecord:
    """One finished game."""

    seed: int
    athens: str
    sparta: str
    winner: str | None
    reason: str
    prestige: int
    decisions: int
    seconds: dict[str, float]
    trajectory: list[int] = field(default_factory=list)
    """The Prestige track (positive: Sparta ahead) at the start of every Season and at the end."""
    rules_version: str = ""


def play_game(athens: str, sparta: str, seed: int, years: str = "3", max_decisions: int = 20000) -> HellenesRecord:
    """One game between two bot specs; each bot sees only its own view."""
    rules = get_rules("hellenes")
    state = rules.setup(seed, {"quiet": "1", "years": years})
    bots = {"athens": make_bot(athens, seed=seed * 2 + 1, rules=rules),
            "sparta": make_bot(sparta, seed=seed * 2 + 2, rules=rules)}
    record = HellenesRecord(seed, athens, sparta, None, "", 0, 0, {"athens": 0.0, "sparta": 0.0},
                            rules_version=rules.info.version)
    last = None
    while (seat := rules.active_seat(state)) is not None:
        if record.decisions >= max_decisions:
            raise RuntimeError(f"game {seed} did not end within {max_decisions} decisions")
        if (state.year, state.season) != last:
            last = (state.year, state.season)
            record.trajectory.append(state.prestige)
        legal = rules.legal_actions(state)
        t0 = time.process_time()
        action = legal[0] if len(legal) == 1 else bots[seat].choose(rules.view(state, seat), legal, seat)
        record.seconds[seat] += time.process_time() - t0
        rules.apply(state, action)
        record.decisions += 1
    outcome = rules.outcome(state)
    assert outcome is not None
    record.winner, record.reason, record.prestige = outcome.winner, outcome.reason, state.prestige
    record.trajectory.append(state.prestige)
    return record


def _run(job: tuple[str, str, int]) -> HellenesRecord:
    return play_game(*job)


def run_games(jobs: Sequence[tuple[str, str, int]], workers: int = 1, show_progress: bool = True,
              stream: Path | None = None) -> list[HellenesRecord]:
    """Play the jobs (athens spec, sparta spec, seed), on ``workers`` processes, with a progress bar."""
    out: list[HellenesRecord] = []
    columns = (TextColumn("Hellenes games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, disable=not show_progress) as progress:
        task = progress.add_task("games", total=len(jobs))
        for record in _results(jobs, workers):
            out.append(record)
            if stream is not None:
                with stream.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(asdict(record)) + "\n")
            progress.advance(task)
    return sorted(out, key=lambda r: (r.seed, r.athens, r.sparta))


def _results(jobs: Sequence[tuple[str, str, int]], workers: int) -> Iterator[HellenesRecord]:
    if workers <= 1:
        yield from map(_run, jobs)
        return
    with mp.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_run, jobs)


def summary(records: Sequence[HellenesRecord]) -> dict[str, Any]:
    """Win rates with 95% intervals, endings and lengths."""
    n = len(records)
    athens = sum(1 for r in records if r.winner == "athens")
    rate, low, high = wilson(athens, n)
    return {"games": n, "athens_wins": athens, "athens_win_rate": rate, "athens_win_rate_ci95": [low, high],
            "sparta_win_rate": 1 - rate if n else 0.0,
            "endings": dict(Counter(f"{r.winner}:{r.reason}" for r in records)),
            "mean_decisions": sum(r.decisions for r in records) / n if n else 0.0,
            "mean_final_prestige": sum(r.prestige for r in records) / n if n else 0.0,
            "rules_versions": sorted({r.rules_version for r in records})}


def plot(records: Sequence[HellenesRecord], out: Path) -> list[Path]:
    """endings.png (bars) and prestige.png (the mean Prestige track by Season, with a band)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    endings = Counter(f"{r.winner} ({r.reason})" for r in records)
    fig, ax = plt.subplots(figsize=(7, 3.5))
    labels = sorted(endings)
    ax.barh(labels, [endings[k] for k in labels], color=["#2f5d9e" if k.startswith("athens") else "#b23a2e"
                                                          for k in labels])
    ax.set_xlabel("games")
    ax.set_title(f"How {len(records)} games ended")
    fig.tight_layout()
    paths.append(out / "endings.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    longest = max((len(r.trajectory) for r in records), default=0)
    means, lows, highs = [], [], []
    for i in range(longest):
        values = sorted(r.trajectory[i] for r in records if len(r.trajectory) > i)
        means.append(sum(values) / len(values))
        lows.append(values[len(values) // 10])
        highs.append(values[(len(values) * 9) // 10])
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(range(longest), means, color="#333", label="mean")
    ax.fill_between(range(longest), lows, highs, color="#999", alpha=0.3, label="10th–90th percentile")
    ax.axhline(0, color="#888", linewidth=0.8)
    ax.set_xlabel("Season (New Year and five Seasons a Year)")
    ax.set_ylabel("Prestige (+ Sparta, − Athens)")
    ax.legend()
    ax.set_title("The Prestige track over the game")
    fig.tight_layout()
    paths.append(out / "prestige.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def simulate(athens: str, sparta: str, games: int, seed: int, workers: int, out: Path,
             show_progress: bool = True) -> dict[str, Any]:
    """Play ``games`` games, write games.jsonl, summary.json and the plots in ``out``; return the summary."""
    out.mkdir(parents=True, exist_ok=True)
    stream = out / "games.jsonl"
    stream.write_text("", encoding="utf-8")
    records = run_games([(athens, sparta, s) for s in range(seed, seed + games)], workers, show_progress, stream)
    data = summary(records)
    (out / "summary.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    plot(records, out)
    return data


def arena(bots: Sequence[str], games: int, seed: int, workers: int, out: Path,
          show_progress: bool = True) -> dict[str, Any]:
    """Every ordered pair of distinct bots plays ``games`` seeds (so each pair meets with seats swapped)."""
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(a, b, s) for a in bots for b in bots if a != b for s in range(seed, seed + games)]
    stream = out / "games.jsonl"
    stream.write_text("", encoding="utf-8")
    records = run_games(jobs, workers, show_progress, stream)
    table = {}
    for bot in bots:
        row = {}
        for side in SEATS:
            mine = [r for r in records if getattr(r, side) == bot]
            wins = sum(1 for r in mine if r.winner == side)
            rate, low, high = wilson(wins, len(mine))
            row[side] = {"wins": wins, "games": len(mine), "rate": rate, "ci95": [low, high]}
        table[bot] = row
    data = {"games": len(records), "bots": table}
    (out / "arena.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return data
