"""The command line's view of the installed games: ``--game``, one option per seat and one per game option.

No command names a game. ``--game`` defaults to :func:`~muster.core.registry.default_game` and its help
lists :func:`~muster.core.registry.game_names`. Commands that seat players (``simulate``, ``play``) take
one ``--<seat> SPEC`` option for every seat of every installed game (``--imperial``, ``--athens``…) and
one ``--<name> VALUE`` option for every option of every installed game (``--ruleset``, ``--years``…),
made from the registered games when the command line is built; ``--bot SEAT=SPEC`` names any seat. A
seat or option of a game other than the one chosen is refused with a message.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from muster.cli.lang import HELP_LANG, _
from muster.core import get_rules
from muster.core.registry import default_game, game_names
from muster.i18n import N_, Translator
from muster.lab.hooks import lab_hooks

SKIPPED_OPTIONS = ("quiet",)
"""Game options the command line sets itself (the lab plays quietly; the terminal shows everything)."""


def game_help() -> str:
    """The help of ``--game``: the installed games and the default."""
    return _("Which game: {names} (default: {default}).").format(names=", ".join(game_names()),
                                                                  default=default_game())


def game_option() -> str | None:
    """A ``--game`` option for a command (None: the default game)."""
    value: str | None = typer.Option(None, "--game", help=game_help())
    return value


def check_game(name: str | None, tr: Translator, console: Console) -> str:
    """The game named on the command line (or the default); an unknown one exits with 2."""
    if name is None:
        return default_game()
    if name not in game_names():
        fail(tr.fmt("Unknown game {game}: use {names}.", game=repr(name), names=", ".join(game_names())), console)
    return name


def fail(message: str, console: Console) -> None:
    """Print ``message`` in red and exit with 2."""
    console.print(f"[red]{escape(message)}[/red]", highlight=False)
    raise typer.Exit(2)


@dataclass
class GameParams:
    """What the command line said about seats and game options, before a game is chosen."""

    seats: dict[str, str] = field(default_factory=dict)
    """Seat → spec given with ``--<seat>`` or ``--bot SEAT=SPEC``."""
    options: dict[str, str] = field(default_factory=dict)
    """Game option → value given with ``--<option>``."""

    def seat_specs(self, game: str, default: str | None, tr: Translator, console: Console) -> dict[str, str]:
        """Seat → spec for every seat of ``game`` (``default`` where none was given; a missing one with no
        default, or a seat of another game, exits with 2)."""
        seats = get_rules(game).info.seats
        unknown = [s for s in self.seats if s not in seats]
        if unknown:
            fail(tr.fmt("{game} has no seat {seat}; its seats: {seats}.", game=game, seat=unknown[0],
                        seats=", ".join(seats)), console)
        missing = [s for s in seats if s not in self.seats and default is None]
        if missing:
            fail(tr.fmt("give a bot spec for every seat: {options}", options=" ".join(f"--{s}" for s in missing)),
                 console)
        return {s: self.seats.get(s, default or "") for s in seats}

    def game_options(self, game: str, tr: Translator, console: Console) -> dict[str, str]:
        """The game options given, checked against ``game``'s (anything else exits with 2)."""
        known = get_rules(game).info.options
        for name, value in self.options.items():
            if name not in known or name in SKIPPED_OPTIONS:
                fail(tr.fmt("{game} has no option --{option}.", game=game, option=name), console)
            if value not in known[name]:
                fail(tr.fmt("Unknown {option} {value}: use {values}.", option=name, value=repr(value),
                            values=", ".join(known[name])), console)
        return dict(self.options)


SEAT_HELP = {"bot": N_("Bot spec for the {side} seat ({game})"),
             "player": N_("Who plays {side} ({game}): 'human' or a bot spec.")}
"""Help of a seat's option, by what the command seats there."""

F = TypeVar("F", bound=Callable[..., Any])


def _seat_and_option_params(taken: set[str], kind: str | None) -> tuple[list[inspect.Parameter], list[str],
                                                                        list[str]]:
    seat_params: dict[str, list[str]] = {}
    option_params: dict[str, list[str]] = {}
    for game in game_names():
        info = get_rules(game).info
        hooks = lab_hooks(game)
        for seat in info.seats if kind is not None else ():
            words = _(SEAT_HELP[kind or "bot"])
            seat_params.setdefault(seat, []).append(words.format(side=hooks.seat_name(seat, HELP_LANG), game=game))
        for name, values in info.options.items():
            if name not in SKIPPED_OPTIONS:
                option_params.setdefault(name, []).append(
                    _("Option of {game}: {values} (default: {default}).").format(
                        game=game, values=", ".join(values), default=values[0] if values else ""))
    params: list[inspect.Parameter] = []
    seats: list[str] = []
    options: list[str] = []
    for names, out, kind_of in ((seat_params, seats, "seat"), (option_params, options, "option")):
        for name, helps in names.items():
            if name in taken or not name.isidentifier():
                continue  # a clash with a command's own option: that seat is reached with --bot SEAT=SPEC
            taken.add(name)
            out.append(name)
            metavar = "SPEC" if kind_of == "seat" else "VALUE"
            params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=str | None,
                                            default=typer.Option(None, f"--{name.replace('_', '-')}", metavar=metavar,
                                                                 help=" ".join(helps))))
    return params, seats, options


def with_game_params(kind: str | None) -> Callable[[F], F]:
    """Give a command one option per game option of every installed game and, unless ``kind`` is None, one
    per seat and ``--bot``.

    The command takes a ``game_params: GameParams`` argument instead; ``kind`` (``"bot"`` or ``"player"``)
    picks the seat options' help.
    """

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        own = [p for p in signature.parameters.values() if p.name != "game_params"]
        taken = {p.name for p in own} | {"bot"}
        extra, seats, options = _seat_and_option_params(taken, kind)
        bot = inspect.Parameter("bot", inspect.Parameter.KEYWORD_ONLY, annotation=list[str],
                                default=typer.Option([], "--bot", metavar="SEAT=SPEC",
                                                     help=_("A seat's bot as SEAT=SPEC (repeatable).")))

        @functools.wraps(func)
        def command(**kwargs: Any) -> Any:
            params = GameParams()
            for seat in seats:
                value = kwargs.pop(seat)
                if value is not None:
                    params.seats[seat] = value
            for option in options:
                value = kwargs.pop(option)
                if value is not None:
                    params.options[option] = value
            for pair in kwargs.pop("bot", None) or ():
                seat, sep, spec = pair.partition("=")
                if not sep:
                    fail(_("--bot takes SEAT=SPEC, e.g. --bot {example}").format(example="north=random"), Console())
                params.seats[seat.strip()] = spec.strip()
            return func(**kwargs, game_params=params)

        positional = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        keyword = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
        # Every parameter keyword-only, so the seats can come first in the help as they always did.
        params = [*extra, *([bot] if kind else []),
                  *(p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in positional), *keyword]
        command.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        return command  # type: ignore[return-value]

    return decorate
