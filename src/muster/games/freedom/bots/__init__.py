"""Freedom!'s own bots: the evaluation they share, the heuristic, and the ISMCTS that plans whole cards.

The game's module names them (``heuristic``, ``ismcts``) and says which plays at each level; they follow the
core bot contract (:mod:`muster.core.bots`) and see only their seat's view.
"""

from muster.core.bots import Bot, make_own_bot
from muster.core.interface import Rules
from muster.games.freedom.module import MODULE, STRONGEST

__all__ = ["STRONGEST", "own_bot"]


def own_bot(spec: str, seed: int = 0, rules: Rules | None = None) -> Bot:
    """One of Freedom!'s own bots (or ``random``) from its spec, for the game's analysis and statistics."""
    return make_own_bot(MODULE, spec, seed, rules)
