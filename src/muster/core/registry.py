"""Find games by name: every installed game registers a :class:`~muster.core.plugin.GameModule` under the
``muster.games`` entry point group, and this is the only place that looks them up."""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points

from muster.core.game import Game
from muster.core.interface import Rules
from muster.core.plugin import GameModule, PluginError

ENTRY_POINT_GROUP = "muster.games"
"""The entry point group a game registers its module in."""


@lru_cache(maxsize=1)
def game_modules() -> dict[str, GameModule]:
    """Every installed game's module by name, in listing order (see :attr:`GameModule.order`)."""
    found: dict[str, GameModule] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        module = entry.load()
        if not isinstance(module, GameModule):
            raise PluginError(f"entry point {entry.name!r} = {entry.value!r} is not a GameModule")
        if module.name != entry.name:
            raise PluginError(f"entry point {entry.name!r} registers the game {module.name!r}")
        if module.name in found:
            continue  # the same distribution seen twice on the path (an editable install and a checkout)
        found[module.name] = module
    if not found:
        raise PluginError(f"no game is installed: no entry point in the {ENTRY_POINT_GROUP!r} group "
                          "(install muster, e.g. pip install -e .)")
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def game_names() -> list[str]:
    """The names of the installed games, in listing order."""
    return list(game_modules())


def default_game() -> str:
    """The game listed first: what the lobby and the command line offer when none is named."""
    return game_names()[0]


def game_module(name: str) -> GameModule:
    """A game's module by name; KeyError naming the known games otherwise."""
    try:
        return game_modules()[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(game_names())}") from None


def get_rules(name: str) -> Rules:
    """The rules object of a game by name."""
    return game_module(name).rules_object


def new_game(name: str, seed: int = 0, options: dict[str, str] | None = None) -> Game:
    """Start a new game: ``new_game(name, seed=7, options={"ruleset": "1st"})`` (the options its rules offer)."""
    return Game(get_rules(name), seed, options)
