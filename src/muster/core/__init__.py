"""The game-agnostic core: the :class:`Rules` interface, actions, errors and :class:`Game`."""

from muster.core.game import Game
from muster.core.interface import (
    JSON,
    Action,
    CorruptStateError,
    GameError,
    GameInfo,
    IllegalActionError,
    MalformedActionError,
    Outcome,
    Rules,
    UndoError,
)
from muster.core.registry import game_names, get_rules, new_game

__all__ = [
    "JSON",
    "Action",
    "CorruptStateError",
    "Game",
    "GameError",
    "GameInfo",
    "IllegalActionError",
    "MalformedActionError",
    "Outcome",
    "Rules",
    "UndoError",
    "game_names",
    "get_rules",
    "new_game",
]
