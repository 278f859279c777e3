"""Duel: a small trick-taking card game with hidden hands, kept in the test suite as a muster plugin.

It lives outside muster's source on purpose: it is found only through its ``muster.games`` entry point
(``tests/plugins/muster_duel-1.0.dist-info``), so everything it shows up in — the contract suite, the lobby,
the terminal, the lab, the research adapters — proves that a game needs no line outside its own package.
"""

from muster_duel.rules import RULES

__all__ = ["RULES"]
