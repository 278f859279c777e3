"""Bots. Every bot sees only its seat's view and the legal actions, through the core interface.

Make one by name for a game: ``make_bot("random", game=name)``,
``make_bot("ismcts:iterations=2000", seed=3, rules=rules)``. The generic bots and the game-agnostic search
(:mod:`muster.ai.search`) live here; each game's own bots live in its package and are named by its module.
"""

from muster.ai.base import bot_names, make_bot, register_bot
from muster.core.bots import Bot, BotSpecError

__all__ = ["Bot", "BotSpecError", "bot_names", "make_bot", "register_bot"]
