"""``muster play``: Freedom! in the terminal, hot-seat or against bots (see docs/terminal.md)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from muster.ai import make_bot
from muster.ai.base import Bot, BotSpecError
from muster.cli.engine_commands import load_error, read_save_file
from muster.core import CorruptStateError, Game, get_rules
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.i18n import check_lang, from_environment

HUMAN = "human"
BOT_SEED_OFFSET = {IMPERIAL: 1, INSURGENT: 2}
"""Each seat's bot gets its own seed derived from the game's, so games are reproducible."""


def build_players(specs: dict[str, str], seed: int) -> dict[str, Bot | None]:
    """Seat → bot (None for a person) from ``human`` or bot specs. Raises BotSpecError."""
    players: dict[str, Bot | None] = {}
    for seat, spec in specs.items():
        bot_seed = seed * 10 + BOT_SEED_OFFSET[seat]
        players[seat] = None if spec.strip().lower() == HUMAN else make_bot(spec, seed=bot_seed)
    return players


def play(
    imperial: str = typer.Option(HUMAN, help="Who plays the Imperial side: 'human' or a bot spec (e.g. heuristic)."),
    insurgent: str = typer.Option(HUMAN, help="Who plays the Insurgent side: 'human' or a bot spec."),
    ruleset: str = typer.Option("2nd", help="Rules edition: 2nd or 1st (ignored with --load)."),
    seed: int = typer.Option(0, help="Seed of the deal and the dice (ignored with --load)."),
    load: Path | None = typer.Option(None, help="Continue a game saved with 'save FILE'."),
    compact: bool = typer.Option(False, "--compact", help="A shorter screen for small terminals (the hand without "
                                 "card texts, fewer log and grid lines); 'full' and 'compact' switch during play."),
    lang: str | None = typer.Option(None, "--lang", help="Language: en or pl (default: from LANG)."),
) -> None:
    """Play Freedom! in the terminal: two people at one screen, or against bots."""
    console = Console()
    rules = get_rules("freedom")
    try:
        language = check_lang(lang) if lang else from_environment()
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc
    if ruleset not in rules.info.options["ruleset"]:
        console.print(f"[red]Unknown ruleset {ruleset!r}: use 2nd or 1st.[/red]")
        raise typer.Exit(2)
    try:
        game = (Game.loads(rules, read_save_file(load)) if load is not None
                else Game(rules, seed, {"ruleset": ruleset}))
        players = build_players({IMPERIAL: imperial, INSURGENT: insurgent}, game.seed)
    except (OSError, CorruptStateError) as exc:
        console.print(f"[red]{escape(load_error(load or Path('?'), exc))}[/red]", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from exc
    except BotSpecError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc
    from muster.tui.session import Session  # the session pulls in rich layouts only when playing

    raise typer.Exit(Session(game, players, console, compact=compact, lang=language).run())


def register(app: typer.Typer) -> None:
    """Add ``muster play``."""
    app.command("play")(play)
