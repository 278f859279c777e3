"""Freedom!'s analysis: a calibrated win-probability estimate, the post-game review and opt-in hints.

:data:`ANALYSIS` is the game's ``analysis`` part (see :class:`muster.analysis.GameAnalysis`): the review of a
finished game (:mod:`.postgame`), hints from one seat's view (:mod:`.advice`) and their words in a player's
language (:mod:`.texts`). The estimate (:mod:`.winprob`, :mod:`muster.games.freedom.bots.features`,
``data/win_probability.json``) is fitted on bot games recorded by :mod:`.selfplay`. The analysis builds the
bots it needs from the game's own (:func:`muster.games.freedom.bots.own_bot`) and the module's levels.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from muster.core import Game
from muster.core.bots import SearchMaker
from muster.core.interface import Action, Rules
from muster.games.freedom.analysis import advice, postgame, texts


class FreedomAnalysis:
    """Freedom!'s analysis part: the post-game review (:meth:`analyze`, :meth:`curve`, :meth:`analyze_save`),
    hints (:meth:`hints`) and their words."""

    def analyze(self, game: Game, progress: postgame.Progress | None = None,
                search: SearchMaker | None = None) -> dict[str, Any]:
        """The whole review of a game, JSON-ready (see :func:`.postgame.analyze`). Freedom!'s strongest bot is
        its own, so ``search`` is not needed."""
        return postgame.analyze(game, progress=progress)

    def curve(self, game: Game) -> dict[str, Any]:
        """The Imperial win chance card by card (see :func:`.postgame.curve`)."""
        return postgame.curve(game)

    def analyze_save(self, text: str | bytes, out: Path, lang: str = "en",
                     progress: postgame.Progress | None = None, search: SearchMaker | None = None) -> dict[str, Any]:
        """Review a save file into ``out`` (see :func:`.postgame.analyze_save`); ``progress`` hears the share of
        the work done."""
        return postgame.analyze_save(text, out, lang, progress)

    def hints(self, view: dict[str, Any], legal: list[Action], seat: str, top: int = 3,
              rules: Rules | None = None, search: SearchMaker | None = None) -> list[advice.Advice]:
        """The strongest bot's choice and the best others, from ``seat``'s view (see :func:`.advice.hints`)."""
        return advice.hints(view, legal, seat, top, rules)

    def reason_in(self, reason: str, lang: str) -> str:
        """A hint's reason in ``lang`` (see :func:`.texts.reason_in`)."""
        return texts.reason_in(reason, lang)

    def side_in(self, seat: str, lang: str) -> str:
        """A side's name in ``lang`` (see :func:`.texts.side_in`)."""
        return texts.side_in(seat, lang)

    def turning_note(self, better: bool, luck: bool, lang: str = "en") -> str:
        """A turning point's verdict in ``lang`` (see :func:`.texts.turning_note`)."""
        return texts.turning_note(better, luck, lang)

    def label_in(self, item: dict[str, Any], lang: str) -> str:
        """The label of a choice an analysis stored (a card, a turning point's strongest choice) in ``lang``
        (see :func:`.texts.label_in`)."""
        return texts.label_in(item, lang)


ANALYSIS = FreedomAnalysis()
"""Freedom!'s ``analysis`` part, named by its game module."""
