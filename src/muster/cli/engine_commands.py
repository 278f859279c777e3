"""Engine commands: ``muster demo`` (a random game printed as a log) and ``muster board``."""

from __future__ import annotations

import random
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from muster.cli.lang import _, lang_option, tr_of
from muster.core import CorruptStateError, Game, get_rules
from muster.core.game import MAX_RECORD_BYTES
from muster.games.freedom.texts import END_REASONS

console = Console()


def read_save_file(path: Path) -> bytes:
    """A save file's bytes (at most :data:`MAX_RECORD_BYTES` of them read: a bigger file is refused on load)."""
    with path.open("rb") as handle:
        return handle.read(MAX_RECORD_BYTES + 1)


def load_error(path: Path, exc: Exception) -> str:
    """One line saying why a save file could not be loaded (no traceback; print it with markup escaped)."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    if len(reason) > 300:
        reason = reason[:300] + "…"
    return tr_of(None).fmt("Cannot load {path}: {reason}", path=path, reason=reason)


def demo(
    seed: int = typer.Option(0, help=_("Seed of the game (deal and dice).")),
    ruleset: str = typer.Option("2nd", help=_("Rules edition: 2nd or 1st.")),
    save: Path | None = typer.Option(None, help=_("Also write the finished game's save file here.")),
    game_name: str = typer.Option("freedom", "--game", help=_("Which game: freedom or hellenes.")),
    lang: str | None = lang_option(),
) -> None:
    """Play one game with both seats choosing uniformly at random, and print its log."""
    tr = tr_of(lang, console)
    if game_name not in ("freedom", "hellenes"):
        unknown = tr.fmt("Unknown game {game}: use freedom or hellenes.", game=repr(game_name))
        console.print(f"[red]{escape(unknown)}[/red]")
        raise typer.Exit(2)
    rules = get_rules(game_name)
    game = Game(rules, seed, {"ruleset": ruleset} if game_name == "freedom" else {})
    chooser = random.Random(seed)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    for line in game.log(tr.lang):
        console.print(line, highlight=False)
    outcome = game.outcome
    assert outcome is not None
    winner = tr.gettext(f"side:{outcome.winner}") if outcome.winner in ("imperial", "insurgent") else outcome.winner
    decisions = tr.nfmt("after {n} decision", "after {n} decisions", len(game.actions))
    reason = tr.gettext(END_REASONS[outcome.reason]) if outcome.reason in END_REASONS else outcome.reason
    console.print(f"[bold]{escape(tr.fmt('{side} wins', side=winner))}[/bold] ({escape(reason)}) {decisions}.")
    if save:
        save.write_text(game.dumps(), encoding="utf-8")


def board_command(
    svg: Path = typer.Option(..., "--svg", help=_("Write the drawing to this SVG file.")),
    state: Path | None = typer.Option(None, help=_("A save file (muster-game JSON) whose pieces to draw.")),
    seed: int = typer.Option(0, help=_("Without --state: draw the setup of this seed.")),
    game_name: str = typer.Option("freedom", "--game", help=_("Which game: freedom or hellenes.")),
    seat: str | None = typer.Option(None, help=_("Hellenes: draw what this seat sees (default: a spectator).")),
    lang: str | None = lang_option(),
) -> None:
    """Draw the board (with the pieces of a saved game, or of the setup) as SVG."""
    if game_name == "hellenes":
        _hellenes_board(svg, state, seed, seat, lang)
        return
    tr = tr_of(lang, console)
    if game_name != "freedom":
        unknown = tr.fmt("Unknown game {game}: use freedom or hellenes.", game=repr(game_name))
        console.print(f"[red]{escape(unknown)}[/red]")
        raise typer.Exit(2)
    from muster.games.freedom.svg import render_svg

    rules = get_rules("freedom")
    if state is not None:
        try:
            game = Game.loads(rules, read_save_file(state))
        except (OSError, CorruptStateError) as exc:
            console.print(f"[red]{escape(load_error(state, exc))}[/red]", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from exc
    else:
        game = Game(rules, seed)
    svg.write_text(render_svg(game.state, tr.lang), encoding="utf-8")
    console.print(tr.fmt("Board written to {path}", path=svg), highlight=False)


def _hellenes_board(svg: Path, state: Path | None, seed: int, seat: str | None, lang: str | None) -> None:
    """``muster board --game hellenes``: the map of Greece and the Aegean with the blocks a seat sees."""
    from muster.games.hellenes.svg import render_svg

    rules = get_rules("hellenes")
    tr = tr_of(lang, console)
    if seat is not None and seat not in rules.info.seats:
        console.print(f"[red]{escape(tr.fmt('Unknown seat {seat}: use athens or sparta.', seat=repr(seat)))}[/red]")
        raise typer.Exit(2)
    try:
        game = Game.loads(rules, state.read_text(encoding="utf-8")) if state is not None else Game(rules, seed)
    except (OSError, CorruptStateError) as exc:
        console.print(f"[red]{escape(tr.fmt('Cannot load {path}: {reason}', path=state, reason=exc))}[/red]")
        raise typer.Exit(2) from exc
    svg.write_text(render_svg(game.view(seat), tr.lang), encoding="utf-8")
    console.print(tr.fmt("Board written to {path}", path=svg), highlight=False)


def register(app: typer.Typer) -> None:
    """Add the engine commands."""
    app.command("demo", help=_("Play one game with both seats choosing uniformly at random, and print its log."))(demo)
    app.command("board", help=_("Draw the board (with the pieces of a saved game, or of the setup) as SVG."))(
        board_command)



