"""Duel's own bot: answer with the lowest card that wins, else throw the lowest; lead the highest."""

from __future__ import annotations

from typing import Any

from muster.core import JSON, Action


class CountingBot:
    """Plays Duel's obvious line; ``choose`` reads only the seat's view and the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """The bot's choice among ``legal``."""
        if len(legal) == 1:
            return legal[0]
        cards = sorted(int(a.arg) for a in legal if isinstance(a.arg, int))
        table = view["table"]
        if not table:
            return Action("pick", cards[-1])
        winning = [n for n in cards if n > table[0][1]]
        return Action("pick", winning[0] if winning else cards[0])


def counting(rules: Any = None, seed: int = 0, options: Any = None) -> CountingBot:
    """The factory the game module names (``(rules, seed, options) -> Bot``)."""
    return CountingBot(seed)
