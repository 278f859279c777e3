"""``muster analyze``: the win-probability curve and turning points of a saved game."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from muster.cli.engine_commands import load_error, read_save_file
from muster.core import CorruptStateError

console = Console()


def analyze_command(
    save: Path = typer.Argument(..., help="A save file (muster-game JSON), finished or not."),
    out: Path = typer.Option(Path("analysis"), "--out", help="Directory for analysis.json and win-probability.png."),
) -> None:
    """Estimate Imperial's win chance after each card and find the turning points."""
    from muster.analysis.postgame import analyze_save

    try:
        with console.status("Replaying the game, estimating each card and asking the strongest bot…"):
            data = analyze_save(read_save_file(save), out)
    except (OSError, CorruptStateError) as exc:
        console.print(escape(load_error(save, exc)), style="red", highlight=False)
        raise typer.Exit(1) from exc
    console.print(f"{len(data['win_probability'])} cards; Imperial's estimated chance at the end: "
                  f"{data['win_probability'][-1] if data['win_probability'] else data['start_probability']:.0%}")
    for tp in data["turning_points"]:
        console.print(escape(f"card {tp['card']} (round {tp['round']}), {tp['side']}: {tp['played']} — "
                             f"{tp['before']:.0%} → {tp['after']:.0%}; the strongest bot: "
                             f"{tp['strongest']['label']} (Imperial {tp['strongest']['estimate']:.0%})"),
                      highlight=False)
    console.print(f"Wrote {out / 'analysis.json'} and {out / 'win-probability.png'}")


def register(app: typer.Typer) -> None:
    """Add ``analyze``."""
    app.command("analyze")(analyze_command)
