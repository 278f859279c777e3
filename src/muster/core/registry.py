"""Find games by name. Each game package registers its :class:`Rules` here lazily."""

from __future__ import annotations

import importlib

from muster.core.game import Game
from muster.core.interface import Rules

_GAMES: dict[str, str] = {"freedom": "muster.games.freedom:RULES", "hellenes": "muster.games.hellenes:RULES"}


def game_names() -> list[str]:
    """The names of the available games."""
    return sorted(_GAMES)


def get_rules(name: str) -> Rules:
    """The rules object of a game by name (e.g. ``"freedom"``)."""
    try:
        module_name, attr = _GAMES[name].split(":")
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(game_names())}") from None
    rules: Rules = getattr(importlib.import_module(module_name), attr)
    return rules


def new_game(name: str = "freedom", seed: int = 0, options: dict[str, str] | None = None) -> Game:
    """Start a new game: ``new_game("freedom", seed=7, options={"ruleset": "1st"})``."""
    return Game(get_rules(name), seed, options)
