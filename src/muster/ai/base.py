"""The bot interface and the registry that builds bots from specs like ``"ismcts:iterations=2000"``."""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable
from typing import Any, Protocol

from muster.core import JSON, Action, Rules, get_rules


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
_FACTORIES: dict[str, BotFactory] = {}
_LAZY: dict[str, str] = {"heuristic": "muster.ai.heuristic", "ismcts": "muster.ai.ismcts"}
_GAME_FACTORIES: dict[tuple[str, str], BotFactory] = {}
_GAME_LAZY: dict[tuple[str, str], str] = {("hellenes", "heuristic"): "muster.ai.hellenes",
                                          ("hellenes", "ismcts"): "muster.ai.hellenes"}
"""Bots written for one game: a spec's name resolves to these first when the game is that one."""


def register_bot(name: str, factory: BotFactory, game: str | None = None) -> None:
    """Make a bot available by name (for one game only when ``game`` is given)."""
    if game is None:
        _FACTORIES[name] = factory
    else:
        _GAME_FACTORIES[(game, name)] = factory


def bot_names() -> list[str]:
    """Names of the bots that can be built here."""
    for name, module in _LAZY.items():
        if name not in _FACTORIES:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError:
                continue
    return sorted(_FACTORIES)


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
        _check_number(key.strip(), value.strip())
        options[key.strip()] = value.strip()
    return name, options


def _check_number(key: str, value: str) -> None:
    """Refuse a value that reads as a number but is not finite or is beyond MAX_OPTION_MAGNITUDE."""
    try:
        number = float(value)
    except ValueError:
        return  # a word option (tree=cards…): the bot checks it
    if not math.isfinite(number) or abs(number) > MAX_OPTION_MAGNITUDE:
        raise BotSpecError(f"bot option {key}={value!r} must be a finite number of at most "
                           f"{MAX_OPTION_MAGNITUDE:g} in size")


def make_bot(spec: str, seed: int = 0, rules: Rules | None = None, game: str = "freedom") -> Bot:
    """Build a bot from its spec. Raises BotSpecError for an unknown name or option."""
    name, options = parse_spec(spec)
    game = rules.info.name if rules is not None else game
    key = (game, name)
    if key not in _GAME_FACTORIES and key in _GAME_LAZY:
        importlib.import_module(_GAME_LAZY[key])
    if key in _GAME_FACTORIES:
        return _GAME_FACTORIES[key](rules or get_rules(game), seed, options)
    if game != "freedom" and name in _LAZY:
        raise BotSpecError(f"the {name!r} bot plays Freedom! only; for {game}: "
                           f"{', '.join(sorted({'random', *(n for g, n in _GAME_LAZY if g == game)}))}")
    if name not in _FACTORIES and name in _LAZY:
        try:
            importlib.import_module(_LAZY[name])
        except ModuleNotFoundError as exc:  # an optional extra is missing, e.g. OpenSpiel for openspiel-*
            raise BotSpecError(f"bot {name!r} needs {exc.name!r}: pip install 'muster[rl]'") from exc
    if name not in _FACTORIES:
        raise BotSpecError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")
    return _FACTORIES[name](rules or get_rules(game), seed, options)


class RandomBot:
    """Chooses uniformly among the legal actions (seeded, so games are reproducible)."""

    def __init__(self, rules: Rules, seed: int = 0, options: dict[str, str] | None = None) -> None:
        if options:
            raise BotSpecError(f"the random bot takes no options, got {sorted(options)}")
        self.name = "random"
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action], seat: str) -> Action:
        """A uniformly random legal action."""
        return self._rng.choice(legal)


register_bot("random", RandomBot)

# OpenSpiel's searches (muster.rl.openspiel), when the rl extra is installed.
_LAZY.update({"openspiel-mcts": "muster.rl.openspiel", "openspiel-ismcts": "muster.rl.openspiel"})
