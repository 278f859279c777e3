"""``muster analyze``: the win-probability curve and turning points of a saved game, for a game with an analysis
(its module's ``analysis`` part)."""

from __future__ import annotations

from pathlib import Path

import typer
from babel.numbers import format_percent
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from muster.ai import make_bot
from muster.cli.engine_commands import load_error, read_save_file
from muster.cli.games import check_game, fail
from muster.cli.lang import _, lang_option, tr_of
from muster.cli.play_commands import saved_game
from muster.core import CorruptStateError, get_rules
from muster.core.registry import game_module

console = Console()


def analyze_command(
    save: Path = typer.Argument(..., help=_("A save file (muster-game JSON), finished or not.")),
    out: Path = typer.Option(Path("analysis"), "--out", help=_("Directory for analysis.json and win-probability.png.")),
    lang: str | None = lang_option(),
) -> None:
    """Estimate the first seat's win chance after each card and find the turning points."""
    tr = tr_of(lang, console)

    def pct(x: float) -> str:
        return format_percent(x, locale=tr.lang)

    try:
        text = read_save_file(save)
    except OSError as exc:
        console.print(escape(load_error(save, exc)), style="red", highlight=False)
        raise typer.Exit(1) from exc
    name = check_game(saved_game(text), tr, console)
    analysis = game_module(name).part("analysis")
    if analysis is None:
        fail(tr.fmt("{game} has no analysis.", game=get_rules(name).info.title), console)
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as bar:
            task = bar.add_task(tr.gettext("Replaying the game, estimating each card and asking the strongest bot…"),
                                total=1.0)
            data = analysis.analyze_save(text, out, tr.lang,
                                         progress=lambda share: bar.update(task, completed=min(1.0, share)),
                                         search=make_bot)
    except (OSError, CorruptStateError) as exc:
        console.print(escape(load_error(save, exc)), style="red", highlight=False)
        raise typer.Exit(1) from exc
    end = data["win_probability"][-1] if data["win_probability"] else data["start_probability"]
    # The estimates are the first seat's chances; the analysis names sides by their words ("Imperial") in the
    # turning points, and side_in wants the seat id.
    seat_ids = get_rules(name).info.seats
    first = analysis.side_in(seat_ids[0], tr.lang)
    console.print(tr.nfmt("{n} card; {side}: estimated chance at the end: {chance}",
                          "{n} cards; {side}: estimated chance at the end: {chance}",
                          len(data["win_probability"]), side=first, chance=pct(end)), highlight=False)
    seats = {seat.capitalize(): seat for seat in seat_ids}
    for tp in data["turning_points"]:
        played = analysis.label_in(data["cards"][tp["card"] - 1], tr.lang)  # the played card, with its message
        console.print(escape(tr.fmt(
            "card {card} (round {round}), {side}: {played} — {before} → {after}; the strongest bot: {best} "
            "({first} {estimate})", card=tp["card"], round=tp["round"],
            side=analysis.side_in(seats.get(tp["side"], tp["side"]), tr.lang), played=played,
            before=pct(tp["before"]), after=pct(tp["after"]), best=analysis.label_in(tp["strongest"], tr.lang),
            first=first,
            estimate=pct(tp["strongest"]["estimate"]))),
            highlight=False)
        if "better" in tp:  # analyses made before the verdict was added lack it
            note = analysis.turning_note(bool(tp["better"]), bool(tp.get("luck")), tr.lang)
            console.print("  " + escape(note), highlight=False)
    console.print(tr.fmt("Wrote {a} and {b}", a=out / "analysis.json", b=out / "win-probability.png"),
                  highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``analyze``."""
    app.command("analyze", help=_("Estimate the first seat's win chance after each card and find the turning points "
                                  "(for a game with an analysis)."))(analyze_command)
