"""What a game adds to the lab: the :class:`LabHooks` protocol a game's ``lab`` part satisfies.

The lab (play loop, runner, balance report, arena, statistics) knows no game. It plays any registered
game between bot specs and records what every game has: the bots by seat, the winner, the reason the
game ended, the number of decisions and the bots' CPU time. What only a game knows comes from its lab
hooks, the object its :class:`~muster.core.plugin.GameModule` names as ``lab``:

* the seats' and end reasons' names in words (for reports, tables and help texts);
* a :class:`GameTracker` that watches one game and adds the game's own facts to its record (e.g. the
  events played and the tracks at every round; a record with a ``round`` gets a by-round column in the
  report);
* extra numbers for ``summary.json``, extra plots, extra report sections and extra console tables.

A game satisfies the protocol structurally, without importing :mod:`muster.lab`; a game with no lab
part gets :data:`DEFAULT_HOOKS` (seat names from the seat ids, no extra facts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from muster.core import Action
from muster.core.registry import game_module

PlotFunction = Callable[[Sequence[Any], Path, str], None]
"""Draws one PNG from the records of a run: ``(records, path, lang)``."""


@dataclass(frozen=True)
class Plot:
    """One PNG of the balance report."""

    filename: str
    """The file written in the report's folder; a game's plot replaces a generic one of the same name."""
    draw: PlotFunction
    """Draws it from the records, with its words in the language given."""
    title: str
    """Its heading in the report (an English message id)."""


@dataclass(frozen=True)
class ConsoleTable:
    """A table the command line prints when asked for details (``muster simulate --details``)."""

    title: str
    """The title, already in the reader's language."""
    columns: Sequence[str]
    """The column headings, already in the reader's language."""
    rows: Sequence[Sequence[str]]
    """The cells, as text."""


class PlotPart(Protocol):
    """A plot as a game's hooks give it (a :class:`Plot` or any object with the same attributes)."""

    @property
    def filename(self) -> str:
        """The file written in the report's folder."""
        ...

    @property
    def draw(self) -> PlotFunction:
        """Draws it: ``(records, path, lang)``."""
        ...

    @property
    def title(self) -> str:
        """Its heading (an English message id)."""
        ...


class TablePart(Protocol):
    """A console table as a game's hooks give it (a :class:`ConsoleTable` or any object like it)."""

    @property
    def title(self) -> str:
        """The title in the reader's language."""
        ...

    @property
    def columns(self) -> Sequence[str]:
        """The column headings in the reader's language."""
        ...

    @property
    def rows(self) -> Sequence[Sequence[str]]:
        """The cells, as text."""
        ...


class GameTracker(Protocol):
    """Watches one game as the lab plays it and adds the game's own facts to its record."""

    def before(self, state: Any, seat: str, action: Action) -> None:
        """Called with the true state just before ``seat``'s ``action`` is applied."""
        ...

    def after(self, state: Any) -> None:
        """Called just after each action is applied."""
        ...

    def finish(self, state: Any) -> dict[str, Any]:
        """The game's own facts about the finished game: JSON-ready values stored in the record."""
        ...


class LabHooks(Protocol):
    """What a game adds to the lab (its module's ``lab`` part).

    Records passed to the hooks are :class:`muster.lab.play.GameRecord` objects: ``bots`` (seat → spec),
    ``winner``, ``reason``, ``decisions``, ``seconds`` (seat → CPU seconds), ``rules_version`` and
    ``extra`` (what the game's tracker returned).
    """

    def seat_name(self, seat: str, lang: str) -> str:
        """A seat's name in words of ``lang`` (e.g. ``Imperial``)."""
        ...

    def ending_name(self, reason: str, lang: str) -> str:
        """An ending of :meth:`summary`'s or the records' ``endings`` in words of ``lang``."""
        ...

    def tracker(self, state: Any) -> GameTracker:
        """A tracker for a game starting from ``state`` (the lab makes one per game)."""
        ...

    def summary(self, records: Sequence[Any]) -> dict[str, Any]:
        """The game's own numbers for ``summary.json`` (merged over the generic ones)."""
        ...

    def plots(self) -> Sequence[PlotPart]:
        """The game's own plots for the balance report."""
        ...

    def report(self, data: Mapping[str, Any], lang: str) -> list[str]:
        """Markdown lines the balance report ends with (``data``: the summary)."""
        ...

    def tables(self, data: Mapping[str, Any], lang: str) -> Sequence[TablePart]:
        """Tables ``muster simulate --details`` prints (``data``: the summary)."""
        ...


class _NoTracker:
    """Records nothing beyond what the lab records for every game."""

    def before(self, state: Any, seat: str, action: Action) -> None:
        """Nothing to note."""

    def after(self, state: Any) -> None:
        """Nothing to note."""

    def finish(self, state: Any) -> dict[str, Any]:
        """No facts of the game's own."""
        return {}


class DefaultHooks:
    """The lab hooks of a game that provides none: seat and ending names from their ids, nothing extra."""

    def seat_name(self, seat: str, lang: str) -> str:
        """The seat id, capitalised."""
        return seat.replace("_", " ").capitalize()

    def ending_name(self, reason: str, lang: str) -> str:
        """The reason code with spaces."""
        return reason.replace("_", " ")

    def tracker(self, state: Any) -> GameTracker:
        """A tracker that records nothing."""
        return _NoTracker()

    def summary(self, records: Sequence[Any]) -> dict[str, Any]:
        """Nothing beyond the generic summary."""
        return {}

    def plots(self) -> Sequence[PlotPart]:
        """No plots beyond the generic ones."""
        return ()

    def report(self, data: Mapping[str, Any], lang: str) -> list[str]:
        """No extra sections."""
        return []

    def tables(self, data: Mapping[str, Any], lang: str) -> Sequence[TablePart]:
        """No extra tables."""
        return []


DEFAULT_HOOKS: LabHooks = DefaultHooks()
"""The hooks used for a game whose module has no ``lab`` part."""


def lab_hooks(game: str) -> LabHooks:
    """The lab hooks of a registered game (its ``lab`` part, else :data:`DEFAULT_HOOKS`)."""
    hooks: LabHooks | None = game_module(game).part("lab")
    return DEFAULT_HOOKS if hooks is None else hooks
