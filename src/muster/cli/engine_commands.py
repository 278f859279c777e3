"""Engine commands for any installed game: ``muster demo`` (a random game printed as a log) and ``muster board``
(the game's drawing as SVG, where it has one)."""

from __future__ import annotations

import random
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from muster.cli.games import GameParams, check_game, fail, game_option, with_game_params
from muster.cli.lang import _, lang_option, tr_of
from muster.core import CorruptStateError, Game, get_rules
from muster.core.game import MAX_RECORD_BYTES
from muster.core.registry import game_module
from muster.lab.hooks import lab_hooks

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


@with_game_params(None)
def demo(
    seed: int = typer.Option(0, help=_("Seed of the game (deal and dice).")),
    save: Path | None = typer.Option(None, help=_("Also write the finished game's save file here.")),
    game_name: str | None = game_option(),
    lang: str | None = lang_option(),
    *,
    game_params: GameParams,
) -> None:
    """Play one game with both seats choosing uniformly at random, and print its log."""
    tr = tr_of(lang, console)
    name = check_game(game_name, tr, console)
    game = Game(get_rules(name), seed, game_params.game_options(name, tr, console))
    chooser = random.Random(seed)
    while game.active_seat is not None:
        game.apply(chooser.choice(game.legal_actions()))
    for line in game.log(tr.lang):
        console.print(line, highlight=False)
    outcome = game.outcome
    assert outcome is not None
    hooks = lab_hooks(name)
    decisions = tr.nfmt("after {n} decision", "after {n} decisions", len(game.actions))
    reason = hooks.ending_name(outcome.reason, tr.lang)
    if outcome.winner is None:
        console.print(f"[bold]{escape(tr.gettext('A draw'))}[/bold] ({escape(reason)}) {decisions}.")
    else:
        winner = hooks.seat_name(outcome.winner, tr.lang)
        console.print(f"[bold]{escape(tr.fmt('{side} wins', side=winner))}[/bold] ({escape(reason)}) {decisions}.")
    if save:
        save.write_text(game.dumps(), encoding="utf-8")


def board_command(
    svg: Path = typer.Option(..., "--svg", help=_("Write the drawing to this SVG file.")),
    state: Path | None = typer.Option(None, help=_("A save file (muster-game JSON) whose pieces to draw.")),
    seed: int = typer.Option(0, help=_("Without --state: draw the setup of this seed.")),
    game_name: str | None = game_option(),
    seat: str | None = typer.Option(None, help=_("Draw what this seat sees (default: a spectator).")),
    lang: str | None = lang_option(),
) -> None:
    """Draw the board (with the pieces of a saved game, or of the setup) as SVG."""
    tr = tr_of(lang, console)
    name = check_game(game_name, tr, console)
    rules = get_rules(name)
    draw = game_module(name).part("drawing")
    if draw is None:
        fail(tr.fmt("{game} has no drawing.", game=rules.info.title), console)
    if seat is not None and seat not in rules.info.seats:
        fail(tr.fmt("Unknown seat {seat}: use {seats}.", seat=repr(seat), seats=", ".join(rules.info.seats)), console)
    if state is not None:
        try:
            game = Game.loads(rules, read_save_file(state))
        except (OSError, CorruptStateError) as exc:
            console.print(f"[red]{escape(load_error(state, exc))}[/red]", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from exc
    else:
        game = Game(rules, seed)
    svg.write_text(draw(game, seat, tr.lang), encoding="utf-8")
    console.print(tr.fmt("Board written to {path}", path=svg), highlight=False)


def register(app: typer.Typer) -> None:
    """Add the engine commands."""
    app.command("demo", help=_("Play one game with both seats choosing uniformly at random, and print its log."))(demo)
    app.command("board", help=_("Draw the board (with the pieces of a saved game, or of the setup) as SVG."))(
        board_command)
