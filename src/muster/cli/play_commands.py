"""``muster play``: Freedom! in the terminal, hot-seat or against bots (see docs/terminal.md)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from muster.ai import make_bot
from muster.ai.base import Bot, BotSpecError
from muster.analysis.consent import HintConsent
from muster.cli.engine_commands import load_error, read_save_file
from muster.cli.lang import _, lang_option
from muster.core import CorruptStateError, Game, get_rules
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.i18n import check_lang, from_environment, translator

HUMAN = "human"
BOT_SEED_OFFSET = {IMPERIAL: 1, INSURGENT: 2}
"""Each seat's bot gets its own seed derived from the game's, so games are reproducible."""


def build_players(specs: dict[str, str], seed: int, game: str = "freedom") -> dict[str, Bot | None]:
    """Seat → bot (None for a person) from ``human`` or bot specs. Raises BotSpecError."""
    players: dict[str, Bot | None] = {}
    for n, (seat, spec) in enumerate(specs.items()):
        bot_seed = seed * 10 + BOT_SEED_OFFSET.get(seat, n + 1)
        players[seat] = None if spec.strip().lower() == HUMAN else make_bot(spec, seed=bot_seed, game=game)
    return players


def play(
    imperial: str = typer.Option(HUMAN, help=_("Who plays the Imperial side: 'human' or a bot spec (e.g. heuristic).")),
    insurgent: str = typer.Option(HUMAN, help=_("Who plays the Insurgent side: 'human' or a bot spec.")),
    ruleset: str = typer.Option("2nd", help=_("Rules edition: 2nd or 1st (ignored with --load).")),
    seed: int = typer.Option(0, help=_("Seed of the deal and the dice (ignored with --load).")),
    load: Path | None = typer.Option(None, help=_("Continue a game saved with 'save FILE'.")),
    compact: bool = typer.Option(False, "--compact", help=_("A shorter screen for small terminals (the hand without "
                                 "card texts, fewer log and grid lines); 'full' and 'compact' switch during play.")),
    game_name: str = typer.Option("freedom", "--game", help=_("Which game: freedom or hellenes.")),
    athens: str = typer.Option(HUMAN, help=_("Hellenes: who plays Athens: 'human' or a bot spec.")),
    sparta: str = typer.Option(HUMAN, help=_("Hellenes: who plays Sparta: 'human' or a bot spec.")),
    years: str = typer.Option("3", help=_("Hellenes: how many Years of the 431 scenario (1-3).")),
    hints: bool = typer.Option(False, "--hints", help=_("Allow the 'hint' command (between two people, the "
                               "Insurgent player is asked to agree first).")),
    lang: str | None = lang_option(),
) -> None:
    """Play Freedom! (or Hellenes, with --game hellenes) in the terminal: two people at one screen, or against bots."""
    console = Console()
    try:
        language = check_lang(lang) if lang else from_environment()
        tr = translator(language)
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc
    if game_name == "hellenes":
        raise typer.Exit(_play_hellenes(console, athens, sparta, years, seed, load, compact, language))
    if game_name != "freedom":
        unknown = tr.fmt("Unknown game {game}: use freedom or hellenes.", game=repr(game_name))
        console.print(f"[red]{escape(unknown)}[/red]")
        raise typer.Exit(2)
    rules = get_rules("freedom")
    if ruleset not in rules.info.options["ruleset"]:
        unknown = tr.fmt("Unknown ruleset {ruleset}: use 2nd or 1st.", ruleset=repr(ruleset))
        console.print(f"[red]{escape(unknown)}[/red]")
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

    humans = tuple(seat for seat, bot in players.items() if bot is None)
    consent = HintConsent.at_creation(humans, humans[0] if humans else None, hints)
    if hints and len(humans) == 2:
        answer = console.input(tr.gettext("The Imperial player proposes hints for both sides. Insurgent player, agree? "
                                          "[y/N]") + " ")
        if answer.strip().lower() in ("y", "yes", tr.gettext("y"), tr.gettext("yes")):
            consent.accept(INSURGENT)
    raise typer.Exit(Session(game, players, console, compact=compact, hints=consent, lang=language).run())


def _play_hellenes(console: Console, athens: str, sparta: str, years: str, seed: int, load: Path | None,
                   compact: bool, language: str = "en") -> int:
    """``muster play --game hellenes`` in ``language`` (the game's words, its log and the session's own)."""
    rules = get_rules("hellenes")
    tr = translator(language)
    if years not in rules.info.options["years"]:
        console.print(f"[red]{escape(tr.fmt('--years must be 1, 2 or 3, not {years}.', years=repr(years)))}[/red]")
        return 2
    try:
        game = Game.loads(rules, load.read_text(encoding="utf-8")) if load is not None else \
            Game(rules, seed, {"years": years})
        players = build_players({"athens": athens, "sparta": sparta}, game.seed, game="hellenes")
    except (OSError, CorruptStateError) as exc:
        console.print(f"[red]{escape(tr.fmt('Cannot load {path}: {reason}', path=load, reason=exc))}[/red]")
        return 2
    except BotSpecError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    from muster.tui.session import Session

    return Session(game, players, console, compact=compact, lang=language).run()


def register(app: typer.Typer) -> None:
    """Add ``muster play``."""
    app.command("play", help=_("Play Freedom! (or Hellenes, with --game hellenes) in the terminal: two people at one "
                               "screen, or against bots."))(play)
