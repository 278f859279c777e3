"""``muster arena`` and ``muster simulate``: the simulation lab on the command line, for any installed game
(``--game``; the seats' bots with ``--<seat> SPEC``, the game's options with ``--<option> VALUE``)."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from muster.ai import BotSpecError
from muster.cli.games import GameParams, check_game, game_option, with_game_params
from muster.cli.lang import _, lang_option, tr_of
from muster.core.stats import wilson
from muster.i18n import N_, Translator
from muster.lab.arena import ArenaReport, run_arena, write_arena
from muster.lab.hooks import LabHooks, lab_hooks
from muster.lab.play import GameRecord, load_records
from muster.lab.runner import BACKENDS, check_specs
from muster.lab.simulate import MAX_GAMES, percent, run_simulation, summary, win_rate_seat, write_report

console = Console()


def _exit_cleanly_on_sigterm() -> None:
    # A plain SIGTERM would kill this process but leave its worker processes running; exiting
    # through Python instead closes the worker pool on the way out.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))


def _stream(out: Path, resume: bool, tr: Translator, game: str) -> tuple[Path, list[GameRecord]]:
    """games.jsonl in ``out``, where every game's record is appended as soon as it ends: emptied, or
    with ``resume`` kept, and its records returned so that those games are not played again."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    if resume and path.exists():
        done = load_records(path, game)
        if done:
            console.print(tr.nfmt("Resuming: {n} game already in {path}", "Resuming: {n} games already in {path}",
                                  len(done), path=path), highlight=False)
        return path, done
    path.write_text("")
    return path, []


BACKEND_HELP = _("Where the games run: local (worker processes) or ray (a Ray instance or cluster)")
ADDRESS_HELP = _("Ray cluster address (e.g. auto, or ray://head:10001); default: start a local Ray instance")
RESUME_HELP = _("Keep the games already in OUT/games.jsonl and play only the missing ones")


def _check_backend(backend: str, address: str | None, tr: Translator) -> None:
    if backend not in BACKENDS:
        _fail(tr.fmt("backend must be one of {names}", names=", ".join(BACKENDS)), tr)
    if address is not None and backend != "ray":
        _fail(tr.gettext("--address is for --backend ray"), tr)


def _check_run(games: int, limit: int, backend: str, address: str | None, tr: Translator) -> None:
    """What every lab run checks before it starts: the game count within ``limit`` and the backend; then a
    SIGTERM stops it cleanly."""
    if not 1 <= games <= limit:
        _fail(tr.fmt("--games must be between 1 and {n}", n=limit), tr)
    _check_backend(backend, address, tr)
    _exit_cleanly_on_sigterm()


def _fail(message: str, tr: Translator) -> None:
    console.print(f"[red]{escape(tr.gettext('error:'))}[/red] {escape(message)}")
    raise typer.Exit(2)


@with_game_params(None)
def arena(
    bots: list[str] = typer.Argument(..., help=_("Bot specs, e.g. random heuristic ismcts:iterations=300")),
    games: int = typer.Option(10, "--games", "-n", help=_("Seeds per pair of bots (each played twice, seats swapped)")),
    seed: int = typer.Option(0, help=_("First seed")),
    workers: int = typer.Option(0, help=_("Worker processes (0: all cores)")),
    out: Path = typer.Option(Path("reports/arena"), help=_("Directory for games.csv and arena.json")),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    resume: bool = typer.Option(False, "--resume", help=RESUME_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("No progress bar")),
    game: str | None = game_option(),
    lang: str | None = lang_option(),
    *,
    game_params: GameParams,
) -> None:
    """Round-robin between bots with paired seeds; ratings with 95% intervals, win rates by side."""
    tr = tr_of(lang, console)
    name = check_game(game, tr, console)
    options = game_params.game_options(name, tr, console)
    _check_run(games, MAX_GAMES, backend, address, tr)
    try:
        check_specs(bots, name)  # before anything is written: bad input changes nothing
        if len(set(bots)) < 2:
            raise ValueError(tr.gettext("give at least two different bot specs"))
        stream, done = _stream(out, resume, tr, name)
        report = run_arena(bots, games, seed, workers, name, options, show_progress=not quiet, stream=stream,
                           backend=backend, address=address, done=done)
    except (BotSpecError, ValueError) as exc:
        _fail(str(exc), tr)
        return
    paths = write_arena(report, out)
    _print_arena(report, tr, lab_hooks(name))
    console.print(tr.fmt("Wrote {paths}", paths=", ".join(str(p) for p in paths)), highlight=False)


def _print_arena(report: ArenaReport, tr: Translator, hooks: LabHooks) -> None:
    table = Table(title=tr.nfmt("Arena: {n} game", "Arena: {n} games", len(report.records)))
    columns = [tr.gettext(N_("bot")), tr.gettext(N_("Elo (BT)")), tr.gettext(N_("95% CI")), tr.gettext(N_("score")),
               *(tr.fmt("as {side}", side=hooks.seat_name(seat, tr.lang)) for seat in report.seats),
               tr.gettext(N_("wins by type"))]
    for col in columns:
        table.add_column(col)
    for r in report.ratings:
        sides = report.by_side(r.name)
        cells = []
        for w, n in sides.values():
            rate, low, high = wilson(w, n)
            cells.append(f"{w}/{n} {rate:.0%} ({low:.0%}–{high:.0%})")
        types = ", ".join(f"{k} {v}" for k, v in report.victory_types(r.name).most_common())
        table.add_row(r.name, f"{r.elo:+.0f}", f"{r.low:+.0f} … {r.high:+.0f}", f"{r.wins:g}/{r.games}",
                      *cells, types)
    console.print(table)


@with_game_params("bot")
def simulate(
    games: int = typer.Option(100, "--games", "-n", help=_("Number of games")),
    seed: int = typer.Option(0, help=_("First seed")),
    workers: int = typer.Option(0, help=_("Worker processes (0: all cores)")),
    fmt: str = typer.Option("md", "--format", help=_("Report format: md or html")),
    out: Path = typer.Option(Path("reports/simulate"), help=_("Directory for the report, plots and summary.json")),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    resume: bool = typer.Option(False, "--resume", help=RESUME_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("No progress bar")),
    details: bool = typer.Option(False, "--details", "--cards",
                                 help=_("Also print the game's own tables (e.g. how often each card's event was "
                                        "used)")),
    replay: Path | None = typer.Option(None, "--from",
                                       help=_("Report on the games of a games.jsonl instead of playing")),
    game: str | None = game_option(),
    lang: str | None = lang_option(),
    *,
    game_params: GameParams,
) -> None:
    """Balance report: the first seat's win rate with its 95% CI, endings, lengths and the game's own plots."""
    tr = tr_of(lang, console)
    name = check_game(game, tr, console)
    options = game_params.game_options(name, tr, console)
    if fmt not in ("md", "html"):
        _fail(tr.gettext("format must be md or html"), tr)
    _check_run(games, MAX_GAMES, backend, address, tr)
    try:
        if replay is not None:
            records = load_records(replay, name)
            if not records:
                raise ValueError(tr.fmt("{path} holds no games", path=replay))
        else:
            bots = list(game_params.seat_specs(name, None, tr, console).values())
            check_specs(bots, name)
            stream, done = _stream(out, resume, tr, name)
            records = run_simulation(bots, games, seed, workers, name, options, show_progress=not quiet,
                                     stream=stream, backend=backend, address=address, done=done)
    except (BotSpecError, ValueError, OSError) as exc:
        _fail(str(exc), tr)
        return
    hooks = lab_hooks(name)
    path = write_report(records, out, fmt, tr.lang, name)
    data = summary(records, name)
    first = win_rate_seat(data)
    low, high = data[f"{first}_win_rate_ci95"]
    console.print(tr.nfmt("{side} win rate {rate} (95% CI {low}–{high}) over {n} game; endings: {endings}",
                          "{side} win rate {rate} (95% CI {low}–{high}) over {n} games; endings: {endings}",
                          data["games"], side=hooks.seat_name(first, tr.lang),
                          rate=percent(data[f"{first}_win_rate"], tr.lang), low=percent(low, tr.lang),
                          high=percent(high, tr.lang), endings=_endings(data["endings"], tr, hooks)), highlight=False)
    if details:
        for extra in hooks.tables(data, tr.lang):
            table = Table(title=extra.title)
            for col in extra.columns:
                table.add_column(col)
            for row in extra.rows:
                table.add_row(*row)
            console.print(table)
    console.print(tr.fmt("Report: {path}", path=path), highlight=False)


def _endings(endings: dict[str, int], tr: Translator, hooks: LabHooks) -> str:
    """How the games ended, e.g. ``survival 12, fort 3`` (in words of ``tr``'s language)."""
    return ", ".join(f"{hooks.ending_name(k, tr.lang)} {v}" for k, v in endings.items())


def register(app: typer.Typer) -> None:
    """Add the lab's commands to the ``muster`` app."""
    app.command("arena", help=_("Round-robin between bots with paired seeds; ratings with 95% intervals, win rates "
                                "by side."))(arena)
    app.command("simulate", help=_("Balance report: the first seat's win rate with its 95% CI, endings, lengths and "
                                   "the game's own plots and tables."))(simulate)
