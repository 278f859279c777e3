"""What the win-probability estimate reads from a position: public facts only.

Every feature is computed from a state built by ``rules.determinize`` from one seat's view. The
parts read here (the board, the tracks, the round, the size of each hand) are all public, so the
features — and the estimate — do not depend on how the hidden cards were dealt in that state.
"""

from __future__ import annotations

from typing import Any

from muster.ai.evaluation import BOT_BEACH_THREAT, TERMS, Weights, terms
from muster.games.freedom.datafiles import design
from muster.games.freedom.state import State

BOT_WEIGHTS = Weights(beach_threat=BOT_BEACH_THREAT)
"""The weights both bots play with (the Lagoon term on)."""

ROUNDS = int(design()["rounds"])

FEATURES: tuple[str, ...] = (*TERMS, *(f"{t}_late" for t in TERMS), *(f"round_{r}" for r in range(2, ROUNDS + 1)))
"""The estimate's inputs, in the order of :func:`features`. ``<term>_late`` is the term times the
share of the game already played, so a part may count for more (or less) as the clock runs out;
``round_<r>`` is 1 in round r (each round gets its own base rate). Raw counts (Money, Supplies,
units, Morale…) were tried as well and predicted worse on held-out games (docs/analysis.md)."""


def features(s: State) -> list[float]:
    """The feature vector of an unfinished position (see :data:`FEATURES`)."""
    parts = terms(s, BOT_WEIGHTS)
    late = (s.round - 1) / max(1, ROUNDS - 1)
    return [*(parts[t] for t in TERMS), *(parts[t] * late for t in TERMS),
            *(1.0 if s.round == r else 0.0 for r in range(2, ROUNDS + 1))]


def is_card_point(view: dict[str, Any]) -> bool:
    """True when a side is about to choose its next card (the point "after each card")."""
    stack = view.get("stack") or []
    return bool(stack) and stack[-1].get("kind") == "card_turn"
