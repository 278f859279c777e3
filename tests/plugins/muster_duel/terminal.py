"""Duel in the terminal: the names the session uses and the panels it draws (by shape; no import of muster.tui)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from muster.core import Action
from muster_duel.rules import NAMES, SEATS

SEAT_STYLE = {"north": "bold blue", "south": "bold red"}


def board_panel(view: dict[str, Any], compact: bool = False, lang: str = "en") -> Panel:
    """The trick on the table and the tricks won."""
    table = ", ".join(f"{NAMES[s]} {n}" for s, n in view["table"]) or "empty"
    tricks = " · ".join(f"{NAMES[s]} {view['tricks'][s]}" for s in SEATS)
    return Panel(Text(f"Table: {table}\nTricks: {tricks}"), title="Duel")


def tracks_panel(view: dict[str, Any], lang: str = "en") -> Panel:
    """The cards played so far."""
    return Panel(Text(" ".join(str(n) for _, n in view["played"]) or "none yet"), title="Played")


def hand_panel(view: dict[str, Any], seat: str | None, lang: str = "en") -> Panel:
    """The seat's own hand."""
    cards = view["hands"].get(seat) if seat else None
    shown = " ".join(str(n) for n in cards) if isinstance(cards, list) else "hidden"
    return Panel(Text(shown), title="Your hand")


def phase_help(view: dict[str, Any], lang: str = "en") -> str:
    """One line on the decision."""
    return "The higher card wins the trick; its winner leads the next."


def screen(view: dict[str, Any], seat: str, prompt: str, labelled: list[tuple[Action, str]], log: list[str],
           new: int, compact: bool = False, lang: str = "en") -> RenderableType:
    """The whole screen for one decision."""
    choices = Table(box=None, show_header=False, padding=(0, 1))
    for i, (_, label) in enumerate(labelled, 1):
        choices.add_row(Text(str(i), style="bold"), Text(label))
    parts: list[RenderableType] = [board_panel(view, compact), tracks_panel(view), hand_panel(view, seat),
                                   Panel(Text("\n".join(log[-8:])), title="Log")]
    parts.append(Panel(Group(Text(prompt, style=SEAT_STYLE[seat]), choices), title="Your choice"))
    return Group(*parts)


TERMINAL = SimpleNamespace(SEATS=SEATS, SEAT_NAME=NAMES, SEAT_STYLE=SEAT_STYLE, screen=screen,
                           board_panel=board_panel, tracks_panel=tracks_panel, hand_panel=hand_panel,
                           phase_help=phase_help)
"""The terminal renderer the game module names."""
