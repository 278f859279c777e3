"""Bots. Every bot sees only its seat's view and the legal actions, through the core interface.

Make one by name: ``make_bot("random")``, ``make_bot("ismcts:iterations=2000", seed=3)``.
"""

from muster.ai.base import Bot, BotSpecError, bot_names, make_bot, register_bot

__all__ = ["Bot", "BotSpecError", "bot_names", "make_bot", "register_bot"]
