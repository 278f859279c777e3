"""``muster play``: any installed game in the terminal, hot-seat or against bots (see docs/terminal.md).

The game is drawn by its terminal part through :class:`muster.tui.session.Session`; the seats are the
game's, one option per seat (``--<seat> SPEC``: "human" or a bot), read from its rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from muster.ai import make_bot
from muster.ai.base import Bot, BotSpecError
from muster.analysis.consent import HintConsent
from muster.cli.engine_commands import load_error, read_save_file
from muster.cli.games import GameParams, check_game, game_option, with_game_params
from muster.cli.lang import _, lang_option
from muster.core import CorruptStateError, Game, Rules, get_rules
from muster.core.registry import game_module, game_names
from muster.i18n import check_lang, from_environment, translator
from muster.lab.hooks import lab_hooks

HUMAN = "human"


def build_players(specs: dict[str, str], seed: int, rules: Rules) -> dict[str, Bot | None]:
    """Seat → bot (None for a person) from ``human`` or bot specs. Raises BotSpecError.

    Each seat's bot gets its own seed derived from the game's (the seat's place plus one), so games are
    reproducible."""
    players: dict[str, Bot | None] = {}
    for n, (seat, spec) in enumerate(specs.items()):
        bot_seed = seed * 10 + n + 1
        players[seat] = None if spec.strip().lower() == HUMAN else make_bot(spec, seed=bot_seed, rules=rules)
    return players


def saved_game(data: bytes) -> str | None:
    """The game a save file is of, if it names an installed one (so ``--load`` needs no ``--game``); None for
    anything else (loading it then says what is wrong with it)."""
    try:
        name = json.loads(data).get("game")
    except (ValueError, AttributeError, RecursionError):
        return None
    return name if isinstance(name, str) and name in game_names() else None


@with_game_params("player")
def play(
    seed: int = typer.Option(0, help=_("Seed of the deal and the dice (ignored with --load).")),
    load: Path | None = typer.Option(None, help=_("Continue a game saved with 'save FILE'.")),
    compact: bool = typer.Option(False, "--compact", help=_("A shorter screen for small terminals (the hand without "
                                 "card texts, fewer log and grid lines); 'full' and 'compact' switch during play.")),
    hints: bool = typer.Option(False, "--hints", help=_("Allow the 'hint' command where the game has hints "
                               "(between two people, the second player is asked to agree first).")),
    game_name: str | None = game_option(),
    lang: str | None = lang_option(),
    *,
    game_params: GameParams,
) -> None:
    """Play a game in the terminal: two people at one screen, or against bots."""
    console = Console()
    try:
        language = check_lang(lang) if lang else from_environment()
        tr = translator(language)
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc
    saved = None
    if load is not None:
        try:
            saved = read_save_file(load)
        except OSError as exc:
            console.print(f"[red]{escape(load_error(load, exc))}[/red]", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from exc
    name = check_game(game_name or (saved_game(saved) if saved is not None else None), tr, console)
    rules = get_rules(name)
    options = game_params.game_options(name, tr, console)
    specs = game_params.seat_specs(name, HUMAN, tr, console)
    if hints and game_module(name).part("analysis") is None:
        console.print(escape(tr.fmt("{game} has no hints; playing without them.", game=rules.info.title)),
                      highlight=False)
        hints = False
    try:
        game = Game.loads(rules, saved) if load is not None and saved is not None else Game(rules, seed, options)
        players = build_players(specs, game.seed, rules)
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
        hooks = lab_hooks(name)
        answer = console.input(tr.fmt("The {first} player proposes hints for both sides. {second} player, agree? "
                                      "[y/N]", first=hooks.seat_name(humans[0], language),
                                      second=hooks.seat_name(humans[1], language)) + " ")
        if answer.strip().lower() in ("y", "yes", tr.gettext("y"), tr.gettext("yes")):
            consent.accept(humans[1])
    raise typer.Exit(Session(game, players, console, compact=compact, hints=consent, lang=language).run())


def register(app: typer.Typer) -> None:
    """Add ``muster play``."""
    app.command("play", help=_("Play a game in the terminal (--game, default the first listed): two people at one "
                               "screen, or against bots."))(play)
