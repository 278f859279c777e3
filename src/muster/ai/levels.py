"""Bot levels named for players: the same three levels for every game, each game saying how it plays them.

The levels themselves (their ids, the names players see, weakest first) are shared; which bot spec plays a
game at a level, the sentence describing it, and the specs the level used before come from the game's module
(``GameModule.levels`` in :mod:`muster.core.plugin`). The web offers these levels only (never free bot specs, whose
options could be unbounded); when a stronger or faster bot arrives, the game changes its spec and every new
game uses it. Stored games keep the spec they were created with, so a game in progress never changes
opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from muster.core.plugin import LevelPlay
from muster.core.registry import game_module


@dataclass(frozen=True)
class Level:
    """A bot strength as a player chooses it."""

    id: str
    """Stable identifier sent by the lobby (``"strongest"``)."""
    name: str
    """The word shown to players."""

    def play(self, game: str) -> LevelPlay:
        """How ``game`` is played at this level; KeyError if the game does not offer it."""
        try:
            return game_module(game).levels[self.id]
        except KeyError:
            raise KeyError(f"{game} offers no {self.id!r} level") from None

    def offered(self, game: str) -> bool:
        """True if ``game`` is played at this level."""
        return self.id in game_module(game).levels

    def spec_for(self, game: str) -> str:
        """The bot spec playing ``game`` at this level."""
        return self.play(game).spec

    def description_for(self, game: str) -> str:
        """How this level plays ``game``, for players."""
        return self.play(game).description

    def former_for(self, game: str) -> tuple[str, ...]:
        """Specs this level played ``game`` with before (games created then still show this level's name)."""
        return self.play(game).former


LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner"),
    Level("standard", "Standard"),
    Level("strongest", "Strongest"),
)
"""Weakest first, as measured in docs/balance.md."""

DEFAULT_LEVEL = "strongest"
"""Preselected in the lobby: the strongest level that answers a card within about a second."""


def level(level_id: str) -> Level:
    """The level with this id; KeyError if there is none."""
    for found in LEVELS:
        if found.id == level_id:
            return found
    raise KeyError(level_id)


def levels_for(game: str) -> tuple[Level, ...]:
    """The levels ``game`` is played at, weakest first."""
    return tuple(found for found in LEVELS if found.offered(game))


@lru_cache(maxsize=1024)  # every state push names both seats' levels; the levels never change
def level_name(spec: str | None, game: str) -> str | None:
    """The player-facing name of the weakest level a bot spec plays ``game`` at (None if no level uses it):
    a level that borrows a weaker level's bot is named as that level, so players are not misled."""
    offered = levels_for(game)
    for found in offered:
        if found.spec_for(game) == spec:
            return found.name
    for found in offered:
        if spec in found.former_for(game):
            return found.name
    return None
