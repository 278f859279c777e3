"""Game analysis: what every game's analysis part offers, and the consent rules for hints.

A game with an analysis names it in its module (``analysis="…:ANALYSIS"``); upper layers reach it through
``game_module(name).part("analysis")`` and use it through :class:`GameAnalysis`. What the estimate is and how it
is fitted is the game's own (it lives in the game's package). Only what is the same for every game lives here:
this protocol and the hint consent (:mod:`muster.analysis.consent`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from muster.core import Game
from muster.core.bots import SearchMaker
from muster.core.interface import Action, Rules


class Hint(Protocol):
    """One suggested choice, as :meth:`GameAnalysis.hints` gives it."""

    action: Action
    """The legal action suggested."""
    label: str
    """The action's label (English)."""
    chance: float
    """The choosing seat's estimated win chance after it."""
    reason: str
    """A few English words on what it gains (:meth:`GameAnalysis.reason_in` translates them)."""
    strongest: bool
    """True for the strongest bot level's own choice."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        ...


@runtime_checkable
class GameAnalysis(Protocol):
    """A game's ``analysis`` part: a post-game review with an estimated win chance, and hints.

    Every estimate is read from what a seat may see (its view, determinized), never from hidden facts of the
    true game; ``analyze`` and ``curve`` replay a finished (or stored) game from its start. ``search`` is the
    caller's bot maker (:func:`muster.ai.make_bot`), for a game whose strongest bot is the game-agnostic
    search, which a game cannot import.
    """

    def analyze(self, game: Game, progress: Callable[[float], None] | None = None,
                search: SearchMaker | None = None) -> dict[str, Any]:
        """The whole review of ``game`` as JSON-ready data; ``progress`` hears the share done (0 to 1)."""
        ...

    def curve(self, game: Game) -> dict[str, Any]:
        """The estimated chance at the start and after each card or turn of ``game``, JSON-ready."""
        ...

    def analyze_save(self, text: str | bytes, out: Path, lang: str = "en",
                     progress: Callable[[float], None] | None = None,
                     search: SearchMaker | None = None) -> dict[str, Any]:
        """Review a save file, writing the review's files (its words in ``lang``) into ``out``; ``progress``
        hears the share done (0 to 1)."""
        ...

    def hints(self, view: dict[str, Any], legal: list[Action], seat: str, top: int = 3,
              rules: Rules | None = None, search: SearchMaker | None = None) -> Sequence[Hint]:
        """Up to ``top`` suggestions for ``seat`` from its ``view`` alone, the strongest bot's choice first."""
        ...

    def reason_in(self, reason: str, lang: str) -> str:
        """A hint's reason in ``lang``."""
        ...

    def side_in(self, seat: str, lang: str) -> str:
        """A seat's name in ``lang``."""
        ...

    def turning_note(self, better: bool, luck: bool, lang: str = "en") -> str:
        """A turning point's verdict in ``lang``: was there a better choice, and was the swing luck."""
        ...

    def label_in(self, item: dict[str, Any], lang: str) -> str:
        """The label of a choice an analysis stored as JSON (``{"label": english, "message": {...}}``) in ``lang``,
        rendered from its message."""
        ...
