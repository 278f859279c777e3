"""Bot levels named for players: the one place that says which bot spec plays at each level.

The web offers these levels only (never free bot specs, whose options could be unbounded); when a
stronger or faster bot arrives, change the spec here and every new game uses it. Stored games keep
the spec they were created with, so a game in progress never changes opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from muster.ai.ismcts import STRONGEST


@dataclass(frozen=True)
class Level:
    """A bot strength as a player chooses it."""

    id: str
    """Stable identifier sent by the lobby (``"strongest"``)."""
    name: str
    """The word shown to players."""
    description: str
    """One sentence on how it plays, for players, not programmers."""
    spec: str
    """The bot spec (see :func:`muster.ai.make_bot`) that plays Freedom! at this level."""
    per_game: tuple[tuple[str, str], ...] = ()
    """``(game, spec)`` pairs where another game needs another bot (a bot plays only the games it knows)."""
    description_per_game: tuple[tuple[str, str], ...] = ()
    """``(game, sentence)`` pairs where the level plays another game differently."""
    former: tuple[str, ...] = ()
    """Specs this level offered before (games created then keep their bot, and still show this level's name)."""

    def spec_for(self, game: str) -> str:
        """The bot spec playing ``game`` at this level."""
        return dict(self.per_game).get(game, self.spec)

    def description_for(self, game: str) -> str:
        """How this level plays ``game``, for players."""
        return dict(self.description_per_game).get(game, self.description)


LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner", "Plays any legal move: good for learning the rules.", "random"),
    Level("standard", "Standard", "Weighs the board and plans the last card of each phase; answers at once.",
          "heuristic",
          description_per_game=(("hellenes", "Weighs the map, the battle odds and Prestige; answers at once."),)),
    Level("strongest", "Strongest", "Looks ahead through the cards you might hold; about a second per card.",
          STRONGEST, per_game=(("hellenes", "ismcts"),), former=("ismcts",),  # Hellenes' ISMCTS has its own options
          description_per_game=(("hellenes", "Tries its best few choices against the blocks you might have and the "
                                             "dice, and keeps the one that works out; under a second a move."),)),
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


@lru_cache(maxsize=1024)  # every state push names both seats' levels; the levels never change
def level_name(spec: str | None, game: str = "freedom") -> str | None:
    """The player-facing name of the weakest level a bot spec plays ``game`` at (None if no level uses it):
    a level that borrows a weaker level's bot is named as that level, so players are not misled."""
    for found in LEVELS:
        if found.spec_for(game) == spec:
            return found.name
    for found in LEVELS:
        if spec in found.former:
            return found.name
    return None
