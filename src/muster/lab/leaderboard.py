"""One rated table of every bot of a game: the leaderboard researchers compare against.

The bots come from the game's module, never from a list here: every bot the game names (``bots``), the
game-agnostic search when the game gives it knowledge, the generic bots (random, OpenSpiel's searches when
installed) and the spec each player-facing level plays (Beginner, Standard, Strongest). A bot a game adds
to its module appears in the next run. Each game's round robin is an ordinary arena
(:func:`muster.lab.arena.run_arena`): paired seeds, Bradley–Terry ratings on the Elo scale with 95%
intervals, and its ``games.jsonl`` is resumable, so a committed run can be extended with more seeds
without replaying what it holds.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from muster.ai import bot_names
from muster.ai.levels import levels_for
from muster.core import get_rules
from muster.core.stats import wilson
from muster.lab.arena import ArenaReport, arena_jobs, run_arena, write_arena
from muster.lab.hooks import lab_hooks
from muster.lab.play import GameRecord, load_records
from muster.lab.runner import job_key
from muster.lab.stats import ratings

SEED = 700_000
"""The leaderboard's first seed: far from the seeds the bots were tuned on (0–10,000 in docs/balance.md)."""

GENERIC_OPTIONS = {"openspiel-mcts": "simulations=8", "openspiel-ismcts": "simulations=8"}
"""Options for generic bots whose defaults cost minutes a game: OpenSpiel's searches with random rollouts
spend most of their time in playouts that say little, so the leaderboard plays them at 8 simulations."""


@dataclass(frozen=True)
class Entry:
    """A bot on the leaderboard: its spec and the player-facing levels that play it."""

    spec: str
    levels: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The spec as code, with the levels that play it after it (Markdown)."""
        return f"`{self.spec}` ({', '.join(self.levels)})" if self.levels else f"`{self.spec}`"


def entries(game: str) -> list[Entry]:
    """Every bot of ``game``: its named bots and the generic ones, then each level's spec (once per spec)."""
    levels: dict[str, list[str]] = {}
    for name in bot_names(game):
        options = GENERIC_OPTIONS.get(name)
        levels.setdefault(f"{name}:{options}" if options else name, [])
    for found in levels_for(game):
        levels.setdefault(found.spec_for(game), []).append(found.name)
    return [Entry(spec, tuple(names)) for spec, names in levels.items()]


def two_seat_games(games: list[str]) -> list[str]:
    """Those of ``games`` with two seats (ratings compare two players)."""
    return [g for g in games if len(get_rules(g).info.seats) == 2]


def run_leaderboard(game: str, games: int, out: Path, seed: int = SEED, workers: int = 0, resume: bool = True,
                    show_progress: bool = True, backend: str = "local", address: str | None = None,
                    only: list[str] | None = None, play: bool = True) -> tuple[ArenaReport, list[Entry]]:
    """Play (or, with ``resume``, complete) the round robin of every bot of ``game`` on ``games`` paired seeds
    from ``seed`` and write ``games.jsonl``, ``arena.json``, ``ratings.png``, ``leaderboard.json`` and
    ``leaderboard.md`` into ``out``. ``only``: a subset of the specs (e.g. to leave out a slow bot). With ``play``
    False nothing is played: the table rates the games the file already holds (an unfinished run's pairs are
    then rated on fewer games, which their intervals show)."""
    board = entries(game)
    if only is not None:
        unknown = sorted(set(only) - {e.spec for e in board})
        if unknown:
            raise ValueError(f"not on the {game} leaderboard: {', '.join(unknown)}")
        board = [e for e in board if e.spec in only]
    out.mkdir(parents=True, exist_ok=True)
    stream = out / "games.jsonl"
    done: list[GameRecord] = load_records(stream, game) if resume and stream.exists() else []
    if play and (not resume or not stream.exists()):
        stream.write_text("")
    specs = [e.spec for e in board]
    if play:
        report = run_arena(specs, games, seed, workers, game, show_progress=show_progress, stream=stream,
                           backend=backend, address=address, done=done)
    else:
        wanted = {job_key(job.bots, job.seed) for job in arena_jobs(specs, games, seed, game)}
        version = get_rules(game).info.version
        report = ArenaReport(specs, [r for r in done if r.rules_version == version
                                     and job_key(tuple(r.bots.values()), r.seed) in wanted], game=game)
        report.ratings = ratings(report.results(), specs)
    if play:
        _compact(stream, report.records)
    write_arena(report, out)
    (out / "leaderboard.json").write_text(json.dumps(leaderboard_json(report, board, games, seed), indent=2) + "\n")
    (out / "leaderboard.md").write_text(markdown(report, board, games, seed))
    return report, board


def _compact(stream: Path, records: list[GameRecord]) -> None:
    """Rewrite the stream with exactly this run's records in job order (a resumed file may hold games of
    bots no longer on the board, and holds its games in the order they finished)."""
    stream.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))


def leaderboard_json(report: ArenaReport, board: list[Entry], games: int, seed: int) -> dict[str, Any]:
    """The table as data: per bot its levels, rating, interval, score and record by seat; and the seeds."""
    levels = {e.spec: list(e.levels) for e in board}
    rows = []
    for r in report.ratings:
        rows.append({"bot": r.name, "levels": levels.get(r.name, []), "elo": round(r.elo, 1),
                     "ci95": [round(r.low, 1), round(r.high, 1)], "score": r.wins, "games": r.games,
                     "by_seat": {s: {"wins": w, "games": n} for s, (w, n) in report.by_side(r.name).items()}})
    rules = get_rules(report.game)
    return {"game": report.game, "rules_version": rules.info.version, "seeds": [seed, seed + games - 1],
            "games_per_pair": 2 * games, "games": len(report.records), "bots": rows}


def markdown(report: ArenaReport, board: list[Entry], games: int, seed: int) -> str:
    """The table as Markdown (what docs/research.md shows)."""
    hooks = lab_hooks(report.game)
    labels = {e.spec: e.label for e in board}
    seats = report.seats
    head = ["bot", "Elo (BT)", "95% interval", "score", *(f"as {hooks.seat_name(s, 'en')}" for s in seats)]
    lines = [f"{report.game}: {len(report.records)} games, seeds {seed}–{seed + games - 1}, each pair on every "
             "seed twice (seats swapped); rules " + get_rules(report.game).info.version, "",
             "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in report.ratings:
        cells = [labels.get(r.name, f"`{r.name}`"), f"{r.elo:+.0f}", f"{r.low:+.0f} … {r.high:+.0f}",
                 f"{r.wins:g}/{r.games}"]
        for w, n in report.by_side(r.name).values():
            _rate, low, high = wilson(w, n)
            cells.append(f"{w}/{n} ({low:.0%}–{high:.0%})")
        lines.append("| " + " | ".join(cells) + " |")
    played = Counter(frozenset(r.bots.values()) for r in report.records)
    missing = [f"`{a}` – `{b}`" for a, b in combinations(report.bots, 2) if played[frozenset((a, b))] < 2 * games]
    if missing:
        lines += ["", f"Pairs with fewer than {2 * games} games (an unfinished run): {', '.join(missing)}."]
    return "\n".join(lines) + "\n"
