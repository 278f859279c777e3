"""``muster arena`` and ``muster simulate``: the simulation lab on the command line."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import typer
from babel.numbers import format_percent
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from muster.ai import BotSpecError, make_bot
from muster.cli.lang import _, lang_option, tr_of
from muster.games.freedom.texts import END_REASONS
from muster.i18n import N_, Translator
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


def _stream(out: Path, resume: bool, tr: Translator) -> tuple[Path, list[GameRecord]]:
    """games.jsonl in ``out``, where every game's record is appended as soon as it ends: emptied, or
    with ``resume`` kept, and its records returned so that those games are not played again."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    if resume and path.exists():
        done = load_records(path)
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


def _fail(message: str, tr: Translator) -> None:
    console.print(f"[red]{escape(tr.gettext('error:'))}[/red] {escape(message)}")
    raise typer.Exit(2)


def arena(
    bots: list[str] = typer.Argument(..., help=_("Bot specs, e.g. random heuristic ismcts:iterations=300")),
    games: int = typer.Option(10, "--games", "-n", help=_("Seeds per pair of bots (each played twice, seats swapped)")),
    seed: int = typer.Option(0, help=_("First seed")),
    workers: int = typer.Option(0, help=_("Worker processes (0: all cores)")),
    ruleset: str = typer.Option("2nd", help=_("Rules edition: 2nd or 1st")),
    out: Path = typer.Option(Path("reports/arena"), help=_("Directory for games.csv and arena.json")),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    resume: bool = typer.Option(False, "--resume", help=RESUME_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("No progress bar")),
    game: str = typer.Option("freedom", "--game", help=_("Which game: freedom or hellenes")),
    lang: str | None = lang_option(),
) -> None:
    """Round-robin between bots with paired seeds; ratings with 95% intervals, win rates by side."""
    tr = tr_of(lang, console)
    if game == "hellenes":
        _hellenes_arena(bots, games, seed, workers, out, quiet, tr)
        return
    if game != "freedom":
        _fail(tr.gettext("game must be freedom or hellenes"), tr)
    if ruleset not in ("2nd", "1st"):
        _fail(tr.gettext("ruleset must be 2nd or 1st"), tr)
    _check_backend(backend, address, tr)
    _exit_cleanly_on_sigterm()
    try:
        check_specs(bots)  # before anything is written: bad input changes nothing
        stream, done = _stream(out, resume, tr)
        report = run_arena(bots, games, seed, workers, ruleset, show_progress=not quiet, stream=stream,
                           backend=backend, address=address, done=done)
    except (BotSpecError, ValueError) as exc:
        _fail(str(exc), tr)
        return
    paths = write_arena(report, out)
    _print_arena(report, tr)
    console.print(tr.fmt("Wrote {paths}", paths=", ".join(str(p) for p in paths)), highlight=False)


ARENA_COLUMNS = (N_("bot"), N_("Elo (BT)"), N_("95% CI"), N_("score"), N_("as Imperial"), N_("as Insurgent"),
                 N_("wins by type"))


def _print_arena(report: ArenaReport, tr: Translator) -> None:
    table = Table(title=tr.nfmt("Arena: {n} game", "Arena: {n} games", len(report.records)))
    for col in ARENA_COLUMNS:
        table.add_column(tr.gettext(col))
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
    imperial: str = typer.Option("", "--imperial", help=_("Bot spec for the Imperial seat")),
    insurgent: str = typer.Option("", "--insurgent", help=_("Bot spec for the Insurgent seat")),
    games: int = typer.Option(100, "--games", "-n", help=_("Number of games")),
    seed: int = typer.Option(0, help=_("First seed")),
    workers: int = typer.Option(0, help=_("Worker processes (0: all cores)")),
    ruleset: str = typer.Option("2nd", help=_("Rules edition: 2nd or 1st")),
    fmt: str = typer.Option("md", "--format", help=_("Report format: md or html")),
    out: Path = typer.Option(Path("reports/simulate"), help=_("Directory for the report, plots and summary.json")),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    resume: bool = typer.Option(False, "--resume", help=RESUME_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=_("No progress bar")),
    cards: bool = typer.Option(False, "--cards", help=_("Also print how often each card's event was used")),
    replay: Path | None = typer.Option(None, "--from",
                                       help=_("Report on the games of a games.jsonl instead of playing")),
    game: str = typer.Option("freedom", "--game", help=_("Which game: freedom or hellenes")),
    athens: str = typer.Option("", "--athens", help=_("Hellenes: bot spec for Athens")),
    sparta: str = typer.Option("", "--sparta", help=_("Hellenes: bot spec for Sparta")),
    lang: str | None = lang_option(),
) -> None:
    """Balance report: Imperial win rate with its 95% CI, endings by round, lengths, tracks, card events."""
    tr = tr_of(lang, console)
    if game == "hellenes":
        _hellenes_simulate(athens, sparta, games, seed, workers, out, quiet, tr)
        return
    if game != "freedom":
        _fail(tr.gettext("game must be freedom or hellenes"), tr)
    if ruleset not in ("2nd", "1st"):
        _fail(tr.gettext("ruleset must be 2nd or 1st"), tr)
    if fmt not in ("md", "html"):
        _fail(tr.gettext("format must be md or html"), tr)
    _check_backend(backend, address, tr)
    _exit_cleanly_on_sigterm()
    try:
        if replay is not None:
            records = load_records(replay)
            if not records:
                raise ValueError(tr.fmt("{path} holds no games", path=replay))
        else:
            if not imperial or not insurgent:
                raise ValueError(tr.gettext("give --imperial and --insurgent bot specs (or --from a games.jsonl)"))
            check_specs([imperial, insurgent])
            stream, done = _stream(out, resume, tr)
            records = run_simulation(imperial, insurgent, games, seed, workers, ruleset, show_progress=not quiet,
                                     stream=stream, backend=backend, address=address, done=done)
    except (BotSpecError, ValueError, OSError) as exc:
        _fail(str(exc), tr)
        return
    path = write_report(records, out, fmt, tr.lang)
    data = summary(records)
    low, high = data["imperial_win_rate_ci95"]
    console.print(tr.nfmt("Imperial win rate {rate} (95% CI {low}–{high}) over {n} game; endings: {endings}",
                          "Imperial win rate {rate} (95% CI {low}–{high}) over {n} games; endings: {endings}",
                          data["games"], rate=_pct(data["imperial_win_rate"], tr), low=_pct(low, tr),
                          high=_pct(high, tr), endings=_endings(data["endings"], tr)), highlight=False)
    if cards:
        _print_cards(data["cards"], data["games"], tr)
    console.print(tr.fmt("Report: {path}", path=path), highlight=False)


def _endings(endings: dict[str, int], tr: Translator) -> str:
    """How the games ended, e.g. ``survival 12, fort 3`` (in words of ``tr``'s language)."""
    return ", ".join(f"{tr.gettext(END_REASONS[k]) if k in END_REASONS else k} {v}" for k, v in endings.items())


def _pct(x: float, tr: Translator, digits: int = 1) -> str:
    return format_percent(x, "#,##0." + "0" * digits + "%" if digits else "#,##0%", locale=tr.lang)


CARD_COLUMNS = (N_("card"), N_("by Imperial"), N_("by Insurgent"), N_("games used"), N_("user won"))


def _print_cards(cards: list[dict[str, Any]], games: int, tr: Translator) -> None:
    table = Table(title=tr.nfmt("Card events used in {n} game", "Card events used in {n} games", games))
    for col in CARD_COLUMNS:
        table.add_column(tr.gettext(col))
    for c in cards:
        rate = c["user_wins"] / c["games"] if c["games"] else 0.0
        table.add_row(c["name"], str(c["events"]["imperial"]), str(c["events"]["insurgent"]), str(c["games"]),
                      f"{rate:.0%}")
    console.print(table)


def _hellenes_simulate(athens: str, sparta: str, games: int, seed: int, workers: int, out: Path,
                       quiet: bool, tr: Translator) -> None:
    """``muster simulate --game hellenes``: Athens' win rate with its 95% interval, endings, plots."""
    from muster.core import get_rules
    from muster.lab import hellenes

    if not athens or not sparta:
        _fail(tr.gettext("give --athens and --sparta bot specs"), tr)
    if not 1 <= games <= 100_000:
        _fail(tr.gettext("--games must be between 1 and 100000"), tr)
    try:
        for spec in (athens, sparta):
            make_bot(spec, rules=get_rules("hellenes"))
    except BotSpecError as exc:
        _fail(str(exc), tr)
        return
    _exit_cleanly_on_sigterm()
    data = hellenes.simulate(athens, sparta, games, seed, max(1, workers), out, show_progress=not quiet)
    low, high = data["athens_win_rate_ci95"]
    console.print(tr.nfmt("Athens win rate {rate} (95% CI {low}–{high}) over {n} game; endings: {endings}",
                          "Athens win rate {rate} (95% CI {low}–{high}) over {n} games; endings: {endings}",
                          data["games"], rate=_pct(data["athens_win_rate"], tr), low=_pct(low, tr),
                          high=_pct(high, tr), endings=data["endings"]), highlight=False)
    files = (out / "summary.json", out / "games.jsonl", out / "endings.png", out / "prestige.png")
    console.print(tr.fmt("Wrote {paths}", paths=", ".join(str(p) for p in files)), highlight=False)


def _hellenes_arena(bots: list[str], games: int, seed: int, workers: int, out: Path, quiet: bool,
                    tr: Translator) -> None:
    """``muster arena --game hellenes``: every pair of bots on both sides, win rates with 95% intervals."""
    from muster.core import get_rules
    from muster.lab import hellenes

    if len(set(bots)) < 2:
        _fail(tr.gettext("give at least two different bot specs"), tr)
    try:
        for spec in bots:
            make_bot(spec, rules=get_rules("hellenes"))
    except BotSpecError as exc:
        _fail(str(exc), tr)
        return
    _exit_cleanly_on_sigterm()
    data = hellenes.arena(bots, games, seed, max(1, workers), out, show_progress=not quiet)
    table = Table(title=tr.nfmt("Hellenes arena: {n} game", "Hellenes arena: {n} games", data["games"]))
    for col in (N_("bot"), N_("as Athens"), N_("as Sparta")):
        table.add_column(tr.gettext(col))
    for bot, row in data["bots"].items():
        cells = []
        for side in ("athens", "sparta"):
            c = row[side]
            cells.append(f"{c['wins']}/{c['games']} {_pct(c['rate'], tr, 0)} "
                         f"({_pct(c['ci95'][0], tr, 0)}–{_pct(c['ci95'][1], tr, 0)})")
        table.add_row(bot, *cells)
    console.print(table)
    console.print(tr.fmt("Wrote {paths}", paths=out / "arena.json"), highlight=False)


def register(app: typer.Typer) -> None:
    """Add the lab's commands to the ``muster`` app."""
    app.command("arena", help=_("Round-robin between bots with paired seeds; ratings with 95% intervals, win rates "
                                "by side."))(arena)
    app.command("simulate", help=_("Balance report: Imperial win rate with its 95% CI, endings by round, lengths, "
                                   "tracks, card events."))(simulate)
