"""``muster analyze``: the win-probability curve and turning points of a saved game."""

from __future__ import annotations

from pathlib import Path

import typer
from babel.numbers import format_percent
from rich.console import Console
from rich.markup import escape

from muster.cli.engine_commands import load_error, read_save_file
from muster.cli.lang import _, lang_option, tr_of
from muster.core import CorruptStateError

console = Console()


def analyze_command(
    save: Path = typer.Argument(..., help=_("A save file (muster-game JSON), finished or not.")),
    out: Path = typer.Option(Path("analysis"), "--out", help=_("Directory for analysis.json and win-probability.png.")),
    lang: str | None = lang_option(),
) -> None:
    """Estimate Imperial's win chance after each card and find the turning points."""
    from muster.core import Action
    from muster.games.freedom.analysis.postgame import analyze_save
    from muster.games.freedom.analysis.texts import side_in, turning_note
    from muster.games.freedom.texts import label_in

    tr = tr_of(lang, console)

    def pct(x: float) -> str:
        return format_percent(x, locale=tr.lang)

    try:
        with console.status(tr.gettext("Replaying the game, estimating each card and asking the strongest bot…")):
            data = analyze_save(read_save_file(save), out, tr.lang)
    except (OSError, CorruptStateError) as exc:
        console.print(escape(load_error(save, exc)), style="red", highlight=False)
        raise typer.Exit(1) from exc
    end = data["win_probability"][-1] if data["win_probability"] else data["start_probability"]
    console.print(tr.nfmt("{n} card; the Imperial side's estimated chance at the end: {chance}",
                          "{n} cards; the Imperial side's estimated chance at the end: {chance}",
                          len(data["win_probability"]), chance=pct(end)), highlight=False)
    seats = {"Imperial": "imperial", "Insurgent": "insurgent"}
    for tp in data["turning_points"]:
        played = data["cards"][tp["card"] - 1]
        label = label_in(Action.from_json(played["action"]), tp["seat"], str(tp["played"]), tr.lang)
        best = label_in(Action.from_json(tp["strongest"]["action"]), tp["seat"], str(tp["strongest"]["label"]),
                        tr.lang)
        console.print(escape(tr.fmt(
            "card {card} (round {round}), {side}: {played} — {before} → {after}; the strongest bot: {best} "
            "(Imperial side {estimate})", card=tp["card"], round=tp["round"],
            side=side_in(seats.get(tp["side"], tp["side"]), tr.lang), played=label, before=pct(tp["before"]),
            after=pct(tp["after"]), best=best, estimate=pct(tp["strongest"]["estimate"]))),
            highlight=False)
        if "better" in tp:  # analyses made before the verdict was added lack it
            note = turning_note(bool(tp["better"]), bool(tp.get("luck")), tr.lang)
            console.print("  " + escape(note), highlight=False)
    console.print(tr.fmt("Wrote {a} and {b}", a=out / "analysis.json", b=out / "win-probability.png"),
                  highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``analyze``."""
    app.command("analyze", help=_("Estimate Imperial's win chance after each card and find the turning points."))(
        analyze_command)
