"""Round-robin arena for any two-seat game: every pair of bots plays paired games (same deal and dice,
seats swapped)."""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from muster.core import get_rules
from muster.core.registry import default_game
from muster.core.stats import wilson
from muster.lab.hooks import lab_hooks
from muster.lab.play import GameRecord
from muster.lab.runner import Job, check_specs, run_jobs
from muster.lab.stats import Rating, Result, ratings


def arena_jobs(bots: Sequence[str], games: int, seed: int = 0, game: str | None = None,
               options: dict[str, str] | None = None) -> list[Job]:
    """For each pair of distinct bots and each of ``games`` seeds, two games with the seats swapped.

    Paired seeds give both seat orders the same deal and the same dice stream, so the luck of the
    draw cancels out of the comparison. Ratings compare two players, so the game must have two seats.
    """
    if len(bots) < 2:
        raise ValueError("an arena needs at least two bots")
    if len(set(bots)) != len(bots):
        raise ValueError("each bot spec may appear only once")
    if games < 1:
        raise ValueError("games must be at least 1")
    name = game or default_game()
    seats = get_rules(name).info.seats
    if len(seats) != 2:
        raise ValueError(f"the arena rates bots in two-seat games; {name} has {len(seats)} seats")
    opts = tuple(sorted((options or {}).items()))
    jobs = []
    for a, b in combinations(bots, 2):
        for k in range(games):
            jobs.append(Job(name, (a, b), seed + k, opts))
            jobs.append(Job(name, (b, a), seed + k, opts))
    return jobs


@dataclass
class ArenaReport:
    """The arena's results: ratings, and per bot the win rate by side and the victory types."""

    bots: list[str]
    records: list[GameRecord]
    ratings: list[Rating] = field(default_factory=list)
    game: str = ""
    """The game played (empty: the default game)."""

    @property
    def seats(self) -> tuple[str, ...]:
        """The game's two seats."""
        return get_rules(self.game or default_game()).info.seats

    def results(self) -> list[Result]:
        """(first seat's bot, second seat's bot, first seat's score) per game."""
        first, second = self.seats
        return [(r.bots[first], r.bots[second], 1.0 if r.winner == first else 0.0 if r.winner else 0.5)
                for r in self.records]

    def by_side(self, bot: str) -> dict[str, tuple[int, int]]:
        """Per seat, (wins, games) of ``bot``."""
        out = {}
        for seat in self.seats:
            mine = [r for r in self.records if r.bots[seat] == bot]
            out[seat] = (sum(1 for r in mine if r.winner == seat), len(mine))
        return out

    def victory_types(self, bot: str) -> Counter[str]:
        """How ``bot``'s wins came about (the games' end reasons)."""
        return Counter(r.reason for r in self.records if r.winner and r.bots.get(r.winner) == bot)

    def to_json(self) -> dict[str, Any]:
        """Summary as JSON-ready data."""
        bots = {}
        for b in self.bots:
            sides = self.by_side(b)
            by_side = {s: {"wins": w, "games": n, "rate": wilson(w, n)[0], "ci95": list(wilson(w, n)[1:])}
                       for s, (w, n) in sides.items()}
            # Each seat's figures also stand at the bot's top level, where older arena files kept them.
            bots[b] = {"by_side": by_side, "victory_types": dict(self.victory_types(b)), **by_side}
        return {
            "game": self.game or default_game(),
            "bots": bots,
            "ratings": [{"bot": r.name, "elo": round(r.elo, 1), "ci95": [round(r.low, 1), round(r.high, 1)],
                         "games": r.games, "score": r.wins} for r in self.ratings],
            "games": len(self.records),
        }


def run_arena(bots: Sequence[str], games: int, seed: int = 0, workers: int = 0, game: str | None = None,
              options: dict[str, str] | None = None, show_progress: bool = True, stream: Path | None = None,
              backend: str = "local", address: str | None = None, done: Sequence[GameRecord] = ()) -> ArenaReport:
    """Play the round robin of ``game`` (default: the default game) with its ``options`` and compute ratings
    (Bradley–Terry, Elo scale, 95% CI).

    ``backend``/``address``: where the games run (see :func:`muster.lab.runner.run_jobs`); records
    in ``done`` are reused instead of played again (``--resume``).
    """
    jobs = arena_jobs(bots, games, seed, game, options)
    check_specs(bots, jobs[0].game)
    records = run_jobs(jobs, workers, show_progress, label="arena", stream=stream, backend=backend, address=address,
                       done=done)
    report = ArenaReport(list(bots), records, game=jobs[0].game)
    report.ratings = ratings(report.results(), list(bots))
    return report


def plot_ratings(report: ArenaReport, path: Path) -> None:
    """Ratings with their 95% intervals, and each bot's win rate by side, as one PNG."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and in CI
    import matplotlib.pyplot as plt

    names = [r.name for r in report.ratings]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, max(3.0, 0.6 * len(names) + 1.5)))
    ys = list(range(len(names)))
    left.errorbar([r.elo for r in report.ratings], ys, fmt="o",
                  xerr=[[r.elo - r.low for r in report.ratings], [r.high - r.elo for r in report.ratings]])
    left.set_yticks(ys, [_tick_label(n) for n in names], fontsize=8)
    left.invert_yaxis()
    left.set_xlabel("Bradley–Terry rating (Elo scale) with 95% interval")
    hooks = lab_hooks(report.game or default_game())
    for k, (seat, colour) in enumerate(zip(report.seats, ("#b03a2e", "#2e5eaa"), strict=True)):
        rates = [wilson(*report.by_side(n)[seat]) for n in names]
        right.barh([y + 0.2 * (2 * k - 1) for y in ys], [p for p, _, _ in rates], height=0.4, color=colour,
                   xerr=[[p - lo for p, lo, _ in rates], [hi - p for p, _, hi in rates]],
                   label=f"as {hooks.seat_name(seat, 'en')}")
    right.set_yticks(ys, [""] * len(names))  # the rows are the left panel's, named there
    right.invert_yaxis()
    right.set_xlim(0, 1)
    right.set_xlabel("win rate (95% interval)")
    right.legend()
    fig.suptitle(f"Arena: {len(report.records)} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _tick_label(spec: str, width: int = 28) -> str:
    """A bot spec broken after its colon and commas into lines of about ``width`` characters (a long spec on
    one line would push the plot off its figure)."""
    lines: list[str] = []
    line = ""
    for part in spec.replace(":", ":\0").replace(",", ",\0").split("\0"):
        if line and len(line) + len(part) > width:
            lines.append(line)
            line = ""
        line += part
    return "\n".join([*lines, line])


def write_arena(report: ArenaReport, out: Path) -> list[Path]:
    """Write games.csv (one row per game), arena.json (the summary) and ratings.png into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    games_csv = out / "games.csv"
    seats = report.seats
    # The game's own facts that fit a cell (e.g. the round a game ended in) get a column after the reason.
    extra = [k for k, v in (report.records[0].extra.items() if report.records else ())
             if isinstance(v, (int, float, str))]
    with games_csv.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["seed", *seats, "winner", "reason", *extra, "decisions", *(f"{s}_seconds" for s in seats)])
        for r in report.records:
            w.writerow([r.seed, *(r.bots[s] for s in seats), r.winner or "", r.reason,
                        *(r.extra.get(k, "") for k in extra), r.decisions,
                        *(f"{r.seconds.get(s, 0.0):.3f}" for s in seats)])
    summary = out / "arena.json"
    summary.write_text(json.dumps(report.to_json(), indent=2))
    plot = out / "ratings.png"
    plot_ratings(report, plot)
    return [games_csv, summary, plot]
