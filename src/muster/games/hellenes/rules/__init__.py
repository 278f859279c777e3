"""Hellenes rules, one module per section of the seed fragment (3.3 … 6.3.3) plus the DESIGN parts.

Importing this package registers every automatic step and decision with the engine.
"""

from muster.games.hellenes.rules import (  # noqa: F401
    actions,
    battle_end,
    build,
    combat,
    engage,
    events,
    initiative,
    movement,
    new_year,
    pillage,
    sequence,
    siege,
    storms,
    victory,
    winter,
)
