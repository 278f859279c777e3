"""The bot contract every game's bots follow, and what a game needs to build its own bots.

A bot is named by a *spec*, ``"name:key=value,…"`` (``"ismcts:iterations=2000"``). The contract lives in
the core because games write bots: a game's package provides factories ``(rules, seed, options) -> Bot``
(its ``bots`` in :class:`muster.core.plugin.GameModule`) without importing the search layer, and
:func:`make_own_bot` lets a game build the bots its own tools need (its analysis, its card statistics)
from its module alone. Everything else — generic bots, a game-agnostic search, the levels players choose —
is :mod:`muster.ai`, which builds any bot with :func:`muster.ai.make_bot`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, Protocol

from muster.core.interface import JSON, Action, Rules
from muster.core.plugin import GameModule


class BotSpecError(ValueError):
    """A bot spec names an unknown bot or gives it a bad option."""


class Bot(Protocol):
    """Chooses an action for the seat whose view it is given.

    ``view`` is ``rules.view(state, seat)``: the bot never sees what its seat may not know.
    ``legal`` is the legal action list at that decision.
    """

    name: str

    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """Return one of ``legal``."""
        ...


BotFactory = Callable[[Rules, int, dict[str, str]], Bot]


class SearchMaker(Protocol):
    """Builds any bot from its spec (:func:`muster.ai.make_bot` is one): what an upper layer hands a game's
    analysis when the analysis needs a bot the game cannot build itself (the game-agnostic search)."""

    def __call__(self, spec: str, seed: int = 0, rules: Rules | None = None) -> Bot:
        """The bot named by ``spec``, seeded, for ``rules``."""
        ...
"""Builds a bot: ``factory(rules, seed, options)``; it raises :class:`BotSpecError` for an option it refuses."""

MAX_OPTION_MAGNITUDE = 1e9
"""Numeric bot options beyond this (or not finite: ``inf``, ``nan``) are refused: no bot needs them,
and a search told to run ``seconds=inf`` or ``width=1e20`` would never answer."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=2000,rollout=heuristic"`` → ("ismcts", {...}).

    Raises BotSpecError for a malformed option or a numeric value that is not finite or is huge."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise BotSpecError(f"bad bot option {part!r} in {spec!r} (use key=value)")
        check_number(key.strip(), value.strip())
        options[key.strip()] = value.strip()
    return name, options


def check_number(key: str, value: str) -> None:
    """Refuse a value that reads as a number but is not finite or is beyond MAX_OPTION_MAGNITUDE."""
    try:
        number = float(value)
    except ValueError:
        return  # a word option (tree=cards…): the bot checks it
    if not math.isfinite(number) or abs(number) > MAX_OPTION_MAGNITUDE:
        raise BotSpecError(f"bot option {key}={value!r} must be a finite number of at most "
                           f"{MAX_OPTION_MAGNITUDE:g} in size")


class RandomBot:
    """Chooses uniformly among the legal actions (seeded, so games are reproducible); plays every game."""

    def __init__(self, rules: Rules, seed: int = 0, options: dict[str, str] | None = None) -> None:
        if options:
            raise BotSpecError(f"the random bot takes no options, got {sorted(options)}")
        self.name = "random"
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action], seat: str) -> Action:
        """A uniformly random legal action."""
        return self._rng.choice(legal)


def make_own_bot(module: GameModule, spec: str, seed: int = 0, rules: Rules | None = None) -> Bot:
    """Build one of a game's own bots (or ``random``) from its spec, for the game's own tools.

    A game's analysis or statistics use this instead of :func:`muster.ai.make_bot`, so a game never imports
    the search layer; the bots it can name are those in ``module.bots`` and ``random``."""
    name, options = parse_spec(spec)
    rules = module.rules_object if rules is None else rules
    if name == "random":
        return RandomBot(rules, seed, options)
    factory = module.bot_factory(name)
    if factory is None:
        raise BotSpecError(f"unknown bot {name!r}; {module.name}'s own bots: "
                           f"{', '.join(sorted({'random', *module.bots}))}")
    bot: Bot = factory(rules, seed, options)
    return bot
