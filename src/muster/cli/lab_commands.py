"""``muster arena`` and ``muster simulate``: the simulation lab on the command line."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from muster.ai import BotSpecError, make_bot
from muster.lab.arena import ArenaReport, run_arena, write_arena
from muster.lab.play import GameRecord, load_records
from muster.lab.runner import BACKENDS, check_specs
from muster.lab.simulate import run_simulation, summary, write_report
from muster.lab.stats import wilson

console = Console()


def _exit_cleanly_on_sigterm() -> None:
    # A plain SIGTERM would kill this process but leave its worker processes running; exiting
    # through Python instead closes the worker pool on the way out.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))


def _stream(out: Path, resume: bool = False) -> tuple[Path, list[GameRecord]]:
    """games.jsonl in ``out``, where every game's record is appended as soon as it ends: emptied, or
    with ``resume`` kept, and its records returned so that those games are not played again."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    if resume and path.exists():
        done = load_records(path)
        if done:
            console.print(f"Resuming: {len(done)} game(s) already in {path}")
        return path, done
    path.write_text("")
    return path, []


BACKEND_HELP = "Where the games run: local (worker processes) or ray (a Ray instance or cluster)"
ADDRESS_HELP = "Ray cluster address (e.g. auto, or ray://head:10001); default: start a local Ray instance"
RESUME_HELP = "Keep the games already in OUT/games.jsonl and play only the missing ones"


def _check_backend(backend: str, address: str | None) -> None:
    if backend not in BACKENDS:
        _fail(f"backend must be one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        _fail("--address is for --backend ray")


def _fail(message: str) -> None:
    console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


def arena(
    bots: list[str] = typer.Argument(..., help="Bot specs, e.g. random heuristic ismcts:iterations=300"),
    games: int = typer.Option(10, "--games", "-n", help="Seeds per pair of bots (each played twice, seats swapped)"),
    seed: int = typer.Option(0, help="First seed"),
    workers: int = typer.Option(0, help="Worker processes (0: all cores)"),
    ruleset: str = typer.Option("2nd", help="Rules edition: 2nd or 1st"),
    out: Path = typer.Option(Path("reports/arena"), help="Directory for games.csv and arena.json"),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    resume: bool = typer.Option(False, "--resume", help=RESUME_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar"),
    game: str = typer.Option("freedom", "--game", help="Which game: freedom or hellenes"),
) -> None:
    """Round-robin between bots with paired seeds; ratings with 95% intervals, win rates by side."""
    if game == "hellenes":
        _hellenes_arena(bots, games, seed, workers, out, quiet)
        return
    if game != "freedom":
        _fail("game must be freedom or hellenes")
    if ruleset not in ("2nd", "1st"):
        _fail("ruleset must be 2nd or 1st")
    _check_backend(backend, address)
    _exit_cleanly_on_sigterm()
    try:
        check_specs(bots)  # before anything is written: bad input changes nothing
        stream, done = _stream(out, resume)
        report = run_arena(bots, games, seed, workers, ruleset, show_progress=not quiet, stream=stream,
                           backend=backend, address=address, done=done)
    except (BotSpecError, ValueError) as exc:
        _fail(str(exc))
        return
    paths = write_arena(report, out)
    _print_arena(report)
    console.print("Wrote " + ", ".join(str(p) for p in paths))


def _print_arena(report: ArenaReport) -> None:
    table = Table(title=f"Arena: {len(report.records)} games")
    for col in ("bot", "Elo (BT)", "95% CI", "score", "as Imperial", "as Insurgent", "wins by type"):
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


def simulate(
    imperial: str = typer.Option("", "--imperial", help="Bot spec for the Imperial seat"),
    insurgent: str = typer.Option("", "--insurgent", help="Bot spec for the Insurgent seat"),
    games: int = typer.Option(100, "--games", "-n", help="Number of games"),
    seed: int = typer.Option(0, help="First seed"),
    workers: int = typer.Option(0, help="Worker processes (0: all cores)"),
    ruleset: str = typer.Option("2nd", help="Rules edition: 2nd or 1st"),
    fmt: str = typer.Option("md", "--format", help="Report format: md or html"),
    out: Path = typer.Option(Path("reports/simulate"), help="Directory for the report, plots and summary.json"),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    resume: bool = typer.Option(False, "--resume", help=RESUME_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar"),
    cards: bool = typer.Option(False, "--cards", help="Also print how often each card's event was used"),
    replay: Path | None = typer.Option(None, "--from", help="Report on the games of a games.jsonl instead of playing"),
    game: str = typer.Option("freedom", "--game", help="Which game: freedom or hellenes"),
    athens: str = typer.Option("", "--athens", help="Hellenes: bot spec for Athens"),
    sparta: str = typer.Option("", "--sparta", help="Hellenes: bot spec for Sparta"),
) -> None:
    """Balance report: Imperial win rate with its 95% CI, endings by round, lengths, tracks, card events."""
    if game == "hellenes":
        _hellenes_simulate(athens, sparta, games, seed, workers, out, quiet)
        return
    if game != "freedom":
        _fail("game must be freedom or hellenes")
    if ruleset not in ("2nd", "1st"):
        _fail("ruleset must be 2nd or 1st")
    if fmt not in ("md", "html"):
        _fail("format must be md or html")
    _check_backend(backend, address)
    _exit_cleanly_on_sigterm()
    try:
        if replay is not None:
            records = load_records(replay)
            if not records:
                raise ValueError(f"{replay} holds no games")
        else:
            if not imperial or not insurgent:
                raise ValueError("give --imperial and --insurgent bot specs (or --from a games.jsonl)")
            check_specs([imperial, insurgent])
            stream, done = _stream(out, resume)
            records = run_simulation(imperial, insurgent, games, seed, workers, ruleset, show_progress=not quiet,
                                     stream=stream, backend=backend, address=address, done=done)
    except (BotSpecError, ValueError, OSError) as exc:
        _fail(str(exc))
        return
    path = write_report(records, out, fmt)
    data = summary(records)
    low, high = data["imperial_win_rate_ci95"]
    console.print(f"Imperial win rate {data['imperial_win_rate']:.1%} (95% CI {low:.1%}–{high:.1%}) "
                  f"over {data['games']} games; endings: {data['endings']}")
    if cards:
        _print_cards(data["cards"], data["games"])
    console.print(f"Report: {path}")


def _print_cards(cards: list[dict[str, Any]], games: int) -> None:
    table = Table(title=f"Card events used in {games} games")
    for col in ("card", "by Imperial", "by Insurgent", "games used", "user won"):
        table.add_column(col)
    for c in cards:
        rate = c["user_wins"] / c["games"] if c["games"] else 0.0
        table.add_row(c["name"], str(c["events"]["imperial"]), str(c["events"]["insurgent"]), str(c["games"]),
                      f"{rate:.0%}")
    console.print(table)


def _hellenes_simulate(athens: str, sparta: str, games: int, seed: int, workers: int, out: Path,
                       quiet: bool) -> None:
    """``muster simulate --game hellenes``: Athens' win rate with its 95% interval, endings, plots."""
    from muster.core import get_rules
    from muster.lab import hellenes

    if not athens or not sparta:
        _fail("give --athens and --sparta bot specs")
    if not 1 <= games <= 100_000:
        _fail("--games must be between 1 and 100000")
    try:
        for spec in (athens, sparta):
            make_bot(spec, rules=get_rules("hellenes"))
    except BotSpecError as exc:
        _fail(str(exc))
        return
    _exit_cleanly_on_sigterm()
    data = hellenes.simulate(athens, sparta, games, seed, max(1, workers), out, show_progress=not quiet)
    low, high = data["athens_win_rate_ci95"]
    console.print(f"Athens win rate {data['athens_win_rate']:.1%} (95% CI {low:.1%}–{high:.1%}) over "
                  f"{data['games']} games; endings: {data['endings']}")
    console.print(f"Wrote {out / 'summary.json'}, {out / 'games.jsonl'}, {out / 'endings.png'}, {out / 'prestige.png'}")


def _hellenes_arena(bots: list[str], games: int, seed: int, workers: int, out: Path, quiet: bool) -> None:
    """``muster arena --game hellenes``: every pair of bots on both sides, win rates with 95% intervals."""
    from muster.core import get_rules
    from muster.lab import hellenes

    if len(set(bots)) < 2:
        _fail("give at least two different bot specs")
    try:
        for spec in bots:
            make_bot(spec, rules=get_rules("hellenes"))
    except BotSpecError as exc:
        _fail(str(exc))
        return
    _exit_cleanly_on_sigterm()
    data = hellenes.arena(bots, games, seed, max(1, workers), out, show_progress=not quiet)
    table = Table(title=f"Hellenes arena: {data['games']} games")
    for col in ("bot", "as Athens", "as Sparta"):
        table.add_column(col)
    for bot, row in data["bots"].items():
        cells = []
        for side in ("athens", "sparta"):
            c = row[side]
            cells.append(f"{c['wins']}/{c['games']} {c['rate']:.0%} ({c['ci95'][0]:.0%}–{c['ci95'][1]:.0%})")
        table.add_row(bot, *cells)
    console.print(table)
    console.print(f"Wrote {out / 'arena.json'}")


def register(app: typer.Typer) -> None:
    """Add the lab's commands to the ``muster`` app."""
    app.command("arena")(arena)
    app.command("simulate")(simulate)
