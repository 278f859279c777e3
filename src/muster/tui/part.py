"""The terminal part of a game: what :class:`muster.tui.session.Session` asks a game to draw, and a plain
stand-in for a game that brings none.

A game brings its terminal part as its module's ``terminal`` reference (conventionally ``TERMINAL`` in
``<game>/terminal.py``): an object that satisfies :class:`TerminalPart` structurally, without importing this
module. The session handles the input, the commands, undo, saving and hot-seat hand-overs; the part only
draws, from a seat's view (never the full state), so a screen can show only what that seat may know.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from muster.core import Action, Rules
from muster.core.registry import game_module
from muster.i18n import N_, translator


class TerminalPart(Protocol):
    """What a game supplies to the terminal session. Every drawing takes the reader's language as ``lang``.

    Optional: ``label_in(action, seat, english, lang)`` and ``prompt_in(view, seat, english, lang)`` render
    the rules' choices and prompt in the reader's language from the messages the rules keep with their words
    (:func:`muster.i18n.words_in` with the game's names; a game without them is played in English whatever
    ``--lang`` says, apart from the session's own words); ``outcome_detail_in(log, lang)`` words why the game
    ended.
    """

    SEATS: Sequence[str]
    """The seats in the order the game lists them."""
    SEAT_NAME: Mapping[str, str]
    """Each seat's English name (the catalog's ``side:<seat>`` is used first where it has one)."""
    SEAT_STYLE: Mapping[str, str]
    """Each seat's rich style (its colour)."""

    def screen(self, view: dict[str, Any], seat: str, prompt: str, labelled: list[tuple[Action, str]],
               log: list[str], new: int, compact: bool = False, lang: str = "en") -> RenderableType:
        """Everything a person needs for one decision: the board, the recent log (the ``new`` last lines are
        new to this reader), the prompt and the numbered choices; ``compact`` for short terminals."""
        ...

    def board_panel(self, view: dict[str, Any], lang: str = "en") -> RenderableType:
        """The board alone (shown at the end of the game)."""
        ...

    def tracks_panel(self, view: dict[str, Any], lang: str = "en") -> RenderableType:
        """The scores and tracks alone (shown at the end of the game)."""
        ...

    def hand_panel(self, view: dict[str, Any], seat: str | None, lang: str = "en") -> RenderableType:
        """The seat's hidden holdings in full (the ``hand`` command)."""
        ...

    def phase_help(self, view: dict[str, Any], lang: str = "en") -> str:
        """Help on the current decision (the ``help`` command)."""
        ...


STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold yellow", "bold cyan")
"""Seat colours of a game without a terminal part, in seat order."""
PLAIN_HELP = N_(
    "This game has no drawing of its own in the terminal: the screen shows what your side sees, as it is. "
    "Commands: a number picks that choice; 'help' shows this text; 'undo' goes back to the start of your turn "
    "where the rules allow it; 'save FILE' writes a save file; 'log [N]' shows the last N log lines; 'hand' "
    "shows what only you hold; 'quit' stops (offering to save).")


def _plain(value: Any) -> str:
    """A part of a view as short text (JSON, one line)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


class PlainTerminal:
    """The terminal part of a game that brings none: its view as plain lines, its prompt and its choices."""

    def __init__(self, rules: Rules) -> None:
        self.SEATS = tuple(rules.info.seats)
        self.SEAT_NAME = {seat: seat.replace("_", " ").title() for seat in self.SEATS}
        self.SEAT_STYLE = {seat: STYLES[k % len(STYLES)] for k, seat in enumerate(self.SEATS)}

    def board_panel(self, view: dict[str, Any], lang: str = "en") -> RenderableType:
        """Every public entry of the view, one a line (the hidden holdings stay for :meth:`hand_panel`)."""
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold")
        table.add_column()
        for key, value in view.items():
            if key not in ("hand", "hands", "stack", "log"):
                table.add_row(str(key), Text(_plain(value)))
        return Panel(table, title=translator(lang).gettext("Board"), title_align="left")

    def tracks_panel(self, view: dict[str, Any], lang: str = "en") -> RenderableType:
        """Nothing apart: the board panel shows every entry of the view."""
        return Text()

    def hand_panel(self, view: dict[str, Any], seat: str | None, lang: str = "en") -> RenderableType:
        """The view's ``hand`` (or the seat's entry of ``hands``), as it is."""
        hand = view.get("hand", (view.get("hands") or {}).get(seat or "")) if isinstance(view, dict) else None
        return Panel(Text(_plain(hand) if hand is not None else translator(lang).gettext("(no hand)")),
                     title=translator(lang).gettext("Hand"), title_align="left")

    def phase_help(self, view: dict[str, Any], lang: str = "en") -> str:
        """The commands (a game without a terminal part has no help of its own)."""
        return translator(lang).gettext(PLAIN_HELP)

    def screen(self, view: dict[str, Any], seat: str, prompt: str, labelled: list[tuple[Action, str]],
               log: list[str], new: int, compact: bool = False, lang: str = "en") -> RenderableType:
        """The recent log, the board and the hand as plain lines, the prompt and the numbered choices."""
        tr = translator(lang)
        shown = log[-(4 if compact else 10):]
        choices = Table.grid(padding=(0, 1))
        choices.add_column(justify="right", style="bold cyan")
        choices.add_column()
        for n, (_, label) in enumerate(labelled, start=1):
            choices.add_row(f"{n}.", label)
        return Group(Panel(Text("\n".join(shown) or tr.gettext("(nothing yet)")), title=tr.gettext("Log"),
                           title_align="left"),
                     self.board_panel(view, lang), self.hand_panel(view, seat, lang),
                     Text(prompt, style=self.SEAT_STYLE.get(seat, "bold")), choices)


def terminal_part(rules: Rules) -> Any:
    """The terminal part of the game ``rules`` belongs to: its own, or a :class:`PlainTerminal`."""
    own = game_module(rules.info.name).part("terminal")
    return own if own is not None else PlainTerminal(rules)
