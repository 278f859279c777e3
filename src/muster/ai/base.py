"""Build any bot from a spec like ``"ismcts:iterations=2000"`` for a named game.

A spec's name resolves, in this order, to the game's own bot of that name (its module's ``bots``), to the
game-agnostic search (``ismcts``, for a game whose module gives ``search`` knowledge and no ``ismcts`` bot of
its own), and to the generic bots registered here (``random``, OpenSpiel's searches when installed), which
play every game. The bot contract itself (:class:`Bot`, :class:`BotSpecError`, :func:`parse_spec`) is the
core's (:mod:`muster.core.bots`): games write bots without importing this layer.
"""

from __future__ import annotations

import importlib

from muster.ai.search import GameIsmctsBot
from muster.core import Rules
from muster.core.bots import (
    MAX_OPTION_MAGNITUDE,
    Bot,
    BotFactory,
    BotSpecError,
    RandomBot,
    parse_spec,
)
from muster.core.registry import game_module, game_modules

__all__ = ["MAX_OPTION_MAGNITUDE", "Bot", "BotFactory", "BotSpecError", "RandomBot", "bot_names", "make_bot",
           "parse_spec", "register_bot"]

SEARCH = "ismcts"
"""The spec name of the game-agnostic search (:class:`muster.ai.search.GameIsmctsBot`)."""

_FACTORIES: dict[str, BotFactory] = {}
"""Generic bots: they play every game through the core interface."""
_LAZY: dict[str, str] = {"openspiel-mcts": "muster.rl.openspiel", "openspiel-ismcts": "muster.rl.openspiel"}
"""Generic bots whose module registers them on import (OpenSpiel's searches need the optional rl extra)."""


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a generic bot (one that plays every game) available by name; a game's own bots are in its module."""
    _FACTORIES[name] = factory


def _generic_names() -> set[str]:
    for name, module in _LAZY.items():
        if name not in _FACTORIES:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError:
                continue
    return set(_FACTORIES)


def bot_names(game: str | None = None) -> list[str]:
    """Names of the bots that can be built for ``game`` (for any installed game when None)."""
    names = _generic_names()
    for module in ([game_module(game)] if game is not None else game_modules().values()):
        names.update(module.bots)
        if module.search is not None:
            names.add(SEARCH)
    return sorted(names)


def make_bot(spec: str, seed: int = 0, rules: Rules | None = None, game: str | None = None) -> Bot:
    """Build a bot from its spec for ``rules`` (or the registered ``game``; one of them must be named).

    Raises BotSpecError for an unknown name or option, or a bot that does not play this game."""
    if rules is None and game is None:
        raise TypeError("make_bot needs the rules or the game the bot plays")
    name, options = parse_spec(spec)
    module = game_module(rules.info.name if rules is not None else str(game))
    rules = module.rules_object if rules is None else rules
    own = module.bot_factory(name)
    if own is not None:
        bot: Bot = own(rules, seed, options)
        return bot
    if name == SEARCH and module.search is not None:
        return GameIsmctsBot(rules, seed, options)
    if name not in _FACTORIES and name in _LAZY:
        try:
            importlib.import_module(_LAZY[name])
        except ModuleNotFoundError as exc:  # an optional extra is missing, e.g. OpenSpiel for openspiel-*
            raise BotSpecError(f"bot {name!r} needs {exc.name!r}: pip install 'muster[rl]'") from exc
    if name in _FACTORIES:
        return _FACTORIES[name](rules, seed, options)
    players = [m.name for m in game_modules().values() if name in m.bots or (name == SEARCH and m.search)]
    if players:
        raise BotSpecError(f"the {name!r} bot plays {', '.join(players)} only; for {module.name}: "
                           f"{', '.join(bot_names(module.name))}")
    raise BotSpecError(f"unknown bot {name!r}; known for {module.name}: {', '.join(bot_names(module.name))}")


register_bot("random", RandomBot)
