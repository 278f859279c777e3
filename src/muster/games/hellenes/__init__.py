"""Hellenes: Campaigns of the Peloponnesian War (Athens against Sparta), from the seed fragment 3.3–6.3.3
and the DESIGN parts of shared/design/hellenes-digest.md.

``RULES`` implements :class:`muster.core.Rules`. Layout: ``data/`` (map, blocks, cards, scenario, design),
``datafiles.py``, ``state.py``, ``engine.py`` (the frame machine), ``rules/`` (one module per section),
``view.py`` (views and determinize), ``odds.py`` (battle odds), ``invariants.py``, ``svg.py``.
"""

from muster.games.hellenes.game import HellenesRules

RULES = HellenesRules()

__all__ = ["RULES", "HellenesRules"]
