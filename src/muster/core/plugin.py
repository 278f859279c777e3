"""A game as a plugin: the one object through which the rest of muster reaches a game.

Every game is a Python package that declares one :class:`GameModule` and registers it under the
``muster.games`` entry point group (``<name> = "<package>.module:MODULE"`` in its
``pyproject.toml``). Upper layers — search, lab, analysis, research adapters, server, terminal, command
line and the web shell — find games only through :func:`muster.core.registry.game_module` and never
import a game's package or name a game. A game brings everything that only it knows: its rules, its own
bots and which of them plays at each level, its web adapter and static board module, its terminal
renderer, its lab summaries, its analysis where it has one, its message domain and its data.

The parts are named by ``"module:attribute"`` references and imported on first use, so listing the
games (the lobby does it on every page) never imports a game's engine, and a game without, say, an
analysis simply leaves that part out.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from muster.core.interface import Rules


class PluginError(Exception):
    """A game module is malformed: a reference that does not import, or a part it does not provide."""


def load_reference(reference: str) -> Any:
    """Import ``"package.module:attribute"`` and return the attribute."""
    module_name, sep, attribute = reference.partition(":")
    if not sep or not module_name or not attribute:
        raise PluginError(f"not a 'module:attribute' reference: {reference!r}")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise PluginError(f"cannot load {reference!r}: {exc}") from exc


@dataclass(frozen=True)
class LevelPlay:
    """How a game is played at one of the shared bot levels (``beginner``, ``standard``, ``strongest``)."""

    spec: str
    """The bot spec that plays the game at this level (see :func:`muster.ai.make_bot`)."""
    description: str
    """One sentence for players on how the bot plays this game (an English message id)."""
    former: tuple[str, ...] = ()
    """Specs this level used before: games created then keep their bot and still show the level's name."""


@dataclass(frozen=True)
class GameModule:
    """Everything the rest of muster may know about one game.

    Only ``name``, ``title``, ``package`` and ``rules`` are required; each other part is optional and
    upper layers offer what a game provides (a game with no analysis has no analysis page).
    """

    name: str
    """The registered name, used in URLs, saved games and ``--game`` (lower case, no spaces)."""
    title: str
    """The game's title (an English message id of the game's domain)."""
    package: str
    """The game's Python package; its ``data/`` and ``static/`` folders are found from it."""
    rules: str
    """Reference to the game's :class:`~muster.core.interface.Rules` object."""
    order: int = 100
    """Where the game is listed among others (lowest first; the first listed is the lobby's default)."""
    bots: Mapping[str, str] = field(default_factory=dict)
    """Bots written for this game: bot name → reference to a factory ``(rules, seed, options) -> Bot``."""
    levels: Mapping[str, LevelPlay] = field(default_factory=dict)
    """Level id → how the game is played at that level (a level the game leaves out is not offered)."""
    search: str | None = None
    """Reference to the game's search knowledge class (see :class:`muster.ai.search.SearchKnowledge`): with it,
    a spec ``ismcts:…`` builds the game-agnostic search for this game unless ``bots`` has its own ``ismcts``."""
    web: str | None = None
    """Reference to the game's web adapter (see :mod:`muster.server.games`)."""
    terminal: str | None = None
    """Reference to the game's terminal renderer (see :mod:`muster.tui.session`)."""
    lab: str | None = None
    """Reference to the game's lab hooks (how a finished game is summarised for the lab)."""
    analysis: str | None = None
    """Reference to the game's analysis (hints and the post-game review), where it has one."""
    drawing: str | None = None
    """Reference to a function drawing a position as SVG, ``(game: Game, seat: str | None, lang: str) -> str``:
    what ``seat`` may see (None: a spectator), its words in ``lang`` (``muster board --svg``)."""
    commands: str | None = None
    """Reference to a ``typer.Typer`` of the game's own commands, mounted on ``muster`` beside the shared
    ones (e.g. ``muster card N`` for a card game); their names must not clash with other commands."""
    invariants: str | None = None
    """Reference to the game's invariant check, a function ``(state) -> list[str]`` naming in words every
    rule a reachable state breaks (empty when all hold): the contract suite every game passes calls it after
    each step of its random games, so a game states there what its engine must never let happen."""
    domain: str = "muster"
    """The gettext domain of the game's messages."""
    compiled: tuple[str, ...] = ()
    """Modules compiled with mypyc when the package is installed (the engine's hot paths)."""
    rules_pages: Mapping[str, str] = field(default_factory=dict)
    """Language → file name (in ``static/``) of the game's rules summary page."""

    @cached_property
    def root(self) -> Path:
        """The folder of the game's package."""
        module = importlib.import_module(self.package)
        if module.__file__ is None:
            raise PluginError(f"game package {self.package!r} has no folder")
        return Path(module.__file__).parent

    @property
    def data_dir(self) -> Path:
        """The game's versioned data files."""
        return self.root / "data"

    @property
    def static_dir(self) -> Path:
        """The game's files for the browser (its ``board.js`` module and any pictures and pages)."""
        return self.root / "static"

    @cached_property
    def rules_object(self) -> Rules:
        """The game's rules (imported on first use)."""
        rules = load_reference(self.rules)
        if not isinstance(rules, Rules):
            raise PluginError(f"{self.rules!r} does not implement muster.core.Rules")
        if rules.info.name != self.name:
            raise PluginError(f"{self.rules!r} is the rules of {rules.info.name!r}, not of {self.name!r}")
        return rules

    def part(self, name: str) -> Any:
        """One optional part (``"web"``, ``"terminal"``, ``"lab"``, ``"analysis"``, ``"search"``, ``"drawing"``,
        ``"commands"``, ``"invariants"``) loaded, or None."""
        reference = getattr(self, name)
        if reference is None:
            return None
        cache = self.__dict__.setdefault("_parts", {})
        if name not in cache:
            cache[name] = load_reference(reference)
        return cache[name]

    def bot_factory(self, bot: str) -> Any:
        """The factory of one of the game's own bots, or None if the game has no bot of that name."""
        reference = self.bots.get(bot)
        return None if reference is None else load_reference(reference)
