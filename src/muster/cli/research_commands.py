"""``muster leaderboard`` and ``muster dataset``: what researchers compare against and learn from, for any
installed game."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from muster.ai import BotSpecError
from muster.cli.games import GameParams, check_game, game_option, with_game_params
from muster.cli.lab_commands import ADDRESS_HELP, BACKEND_HELP, _check_run, _fail
from muster.cli.lang import _, lang_option, tr_of
from muster.core.registry import game_names
from muster.i18n import N_
from muster.lab.dataset import MAX_DATASET_GAMES, write_dataset
from muster.lab.leaderboard import SEED, run_leaderboard, two_seat_games

console = Console()

SELF_PLAY = "ismcts"
"""The bot of a seat given no spec: each game's search, which records its visits and values."""

MAX_LEADERBOARD_SEEDS = 10_000
"""The most seeds per pair one command plays."""


def leaderboard(
    games: int = typer.Option(1, "--games", "-n", help=_("Seeds per pair of bots (each played twice, seats swapped)")),
    seed: int = typer.Option(SEED, help=_("First seed")),
    workers: int = typer.Option(0, help=_("Worker processes (0: all cores)")),
    out: Path = typer.Option(Path("docs/leaderboard"), help=_("Directory with one directory per game")),
    only: list[str] = typer.Option([], "--only", help=_("Play only these bot specs (repeat the option)")),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    fresh: bool = typer.Option(False, "--fresh", help=_("Start again instead of keeping the games already played")),
    no_play: bool = typer.Option(False, "--no-play", help=_("Rate the games already in the files; play none")),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("No progress bar")),
    game: str | None = game_option(),
    lang: str | None = lang_option(),
) -> None:
    """Rate every bot of each game (or of --game) in one round robin with paired seeds."""
    tr = tr_of(lang, console)
    names = [check_game(game, tr, console)] if game is not None else two_seat_games(game_names())
    _check_run(games, MAX_LEADERBOARD_SEEDS, backend, address, tr)
    for name in names:
        try:
            report, board = run_leaderboard(name, games, out / name, seed, workers, resume=not fresh,
                                            show_progress=not quiet, backend=backend, address=address,
                                            only=only or None, play=not no_play)
        except (BotSpecError, ValueError, OSError) as exc:
            _fail(str(exc), tr)
            return
        levels = {e.spec: ", ".join(e.levels) for e in board}
        table = Table(title=tr.nfmt("{game}: {n} game", "{game}: {n} games", len(report.records), game=name))
        for col in (N_("bot"), N_("at level"), N_("Elo (BT)"), N_("95% CI"), N_("score")):
            table.add_column(tr.gettext(col))
        for r in report.ratings:
            table.add_row(escape(r.name), levels.get(r.name, ""), f"{r.elo:+.0f}", f"{r.low:+.0f} … {r.high:+.0f}",
                          f"{r.wins:g}/{r.games}")
        console.print(table)
        console.print(tr.fmt("Wrote {path}", path=out / name), highlight=False)


@with_game_params("bot")
def dataset(
    games: int = typer.Option(10, "--games", "-n", help=_("Number of games")),
    seed: int = typer.Option(0, help=_("First seed")),
    workers: int = typer.Option(0, help=_("Worker processes (0: all cores)")),
    out: Path = typer.Option(Path("reports/dataset.jsonl"), help=_("The JSON-lines file to write")),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("No progress bar")),
    game: str | None = game_option(),
    lang: str | None = lang_option(),
    *,
    game_params: GameParams,
) -> None:
    """Self-play games as JSON lines: actions, outcome, and per decision the legal count, the bot's value and
    visit counts."""
    tr = tr_of(lang, console)
    name = check_game(game, tr, console)
    options = game_params.game_options(name, tr, console)
    _check_run(games, MAX_DATASET_GAMES, backend, address, tr)
    try:
        bots = list(game_params.seat_specs(name, SELF_PLAY, tr, console).values())
        written = write_dataset(out, bots, games, seed, name, options, workers, backend, address,
                                show_progress=not quiet)
    except (BotSpecError, ValueError, OSError) as exc:
        _fail(str(exc), tr)
        return
    console.print(tr.nfmt("Wrote {n} game to {path}", "Wrote {n} games to {path}", written, path=out),
                  highlight=False)


def register(app: typer.Typer) -> None:
    """Add the research commands to the ``muster`` app."""
    app.command("leaderboard", help=_("Rate every bot of each game in one round robin with paired seeds; resumable "
                                      "files per game."))(leaderboard)
    app.command("dataset", help=_("Write self-play games as JSON lines for learning: actions, outcome, and per "
                                  "decision the bot's value and visit counts."))(dataset)
