"""What the win-probability estimate reads from a position: public facts only.

Every feature is computed from a state built by ``rules.determinize`` from one seat's view. The
parts read here (the board, the tracks, the round, the size of each hand) are all public, so the
features — and the estimate — do not depend on how the hidden cards were dealt in that state.
"""

from __future__ import annotations

from typing import Any

from muster.ai.evaluation import BOT_BEACH_THREAT, TERMS, Weights, terms
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.datafiles import design
from muster.games.freedom.state import State

BOT_WEIGHTS = Weights(beach_threat=BOT_BEACH_THREAT)
"""The weights both bots play with (the Lagoon term on)."""

FEATURES: tuple[str, ...] = (*TERMS, *(f"{t}_late" for t in TERMS), "round", "imperial_morale",
                             "insurgent_morale", "cards_in_hands")
"""The estimate's inputs, in the order of :func:`features`. ``<term>_late`` is the term times the
share of the game already played, so a part may count for more (or less) as the clock runs out."""


def features(s: State) -> list[float]:
    """The feature vector of an unfinished position (see :data:`FEATURES`)."""
    parts = terms(s, BOT_WEIGHTS)
    late = (s.round - 1) / max(1, design()["rounds"] - 1)
    cards = sum(len(hand) for hand in s.hands.values())
    return [*(parts[t] for t in TERMS), *(parts[t] * late for t in TERMS), float(s.round),
            float(s.tracks[IMPERIAL]["morale"]), float(s.tracks[INSURGENT]["morale"]), float(cards)]


def is_card_point(view: dict[str, Any]) -> bool:
    """True when a side is about to choose its next card (the point "after each card")."""
    stack = view.get("stack") or []
    return bool(stack) and stack[-1].get("kind") == "card_turn"
