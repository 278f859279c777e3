"""Freedom! Messolonghi 1825–1826 (2nd edition rules by default, 1st edition as an option).

``RULES`` implements :class:`muster.core.Rules`. Layout: ``data/`` (board, areas, design
values, cards), ``board.py``, ``state.py``, ``engine.py`` (the frame machine), ``rules/`` (one
module per rule section), ``cards/`` (event primitives and effects), ``view.py``, ``svg.py``.
"""

from muster.games.freedom.game import FreedomRules

RULES = FreedomRules()

__all__ = ["RULES", "FreedomRules"]
