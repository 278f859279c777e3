"""What the win-probability estimate reads from a position: public facts only.

Every feature is computed from a state built by ``rules.determinize`` from one seat's view. The
parts read here are all public — the board, the tracks, the round, how many cards each side has
played this round and holds, how many cards each draw pile holds, and the discard piles (played
cards are shown to both sides) — so the features, and the estimate, do not depend on how the
hidden cards were dealt in that state. The content of a hand or of a draw pile is never read.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from muster.games.freedom.board import board
from muster.games.freedom.bots.evaluation import BOT_BEACH_THREAT, TERMS, Weights, terms
from muster.games.freedom.constants import IMPERIAL, IMPERIAL_CANNON, INSURGENT
from muster.games.freedom.datafiles import cards_file, design
from muster.games.freedom.state import State

BOT_WEIGHTS = Weights(beach_threat=BOT_BEACH_THREAT)
"""The weights both bots play with (the Lagoon term on)."""

ROUNDS = int(design()["rounds"])

COUNTS: tuple[str, ...] = (
    "round_progress", "imperial_hand", "insurgent_hand", "deck_left",
    "imperial_morale", "insurgent_morale", "imperial_money", "imperial_supplies", "insurgent_supplies",
    "pressure", "imperial_preparation", "insurgent_preparation", "plea", "population",
    "imperial_units", "imperial_lagoon_units", "imperial_row4_units", "imperial_wall_units", "imperial_cannons",
    "insurgent_units", "insurgent_island_units", "insurgent_beach_units", "insurgent_cannons",
    "wall_damage", "breached_sections", "imperial_areas", "support_markers_net",
    "imperial_events_left", "insurgent_events_left", "grey_events_left",
)
"""Public counts next to the evaluation terms: the card clock of the round, the tracks, the units by
where they stand, and how many cards of each side's colour are still to come in the current deck
(not yet discarded: in a hand or the draw pile)."""


@lru_cache(maxsize=1)
def _card_colours() -> dict[int, tuple[str, str]]:
    """Card number → (deck, colour: ``blue`` Insurgent, ``red`` Imperial, ``grey`` either)."""
    return {c.number: (c.deck, c.side or "grey") for c in cards_file().cards}


@lru_cache(maxsize=1)
def _deck_colours() -> dict[tuple[str, str], int]:
    """How many cards of each colour each deck holds."""
    out: dict[tuple[str, str], int] = {}
    for deck, colour in _card_colours().values():
        out[deck, colour] = out.get((deck, colour), 0) + 1
    return out


FEATURES: tuple[str, ...] = (*TERMS, *COUNTS)
"""The estimate's inputs, in the order of :func:`features`: the six parts of the bots' evaluation
and the public :data:`COUNTS`. The estimate has one set of coefficients per round, so nothing here
needs to carry the round itself."""


def _counts(s: State) -> list[float]:
    b = board()
    imp, ins = s.tracks[IMPERIAL], s.tracks[INSURGENT]
    per_phase = int(design()["cards_per_action_phase"])
    played = (s.played.get(IMPERIAL, 0) + s.played.get(INSURGENT, 0)) / (2 * per_phase)
    deck = "B" if s.round >= design()["period_b_from_round"] else "A"
    gone: dict[str, int] = {"blue": 0, "red": 0, "grey": 0}
    colours = _card_colours()
    for number in s.discards[deck]:
        gone[colours[number][1]] += 1
    total = _deck_colours()
    imperial = [s.exp[i] + s.ally[i] for i in range(len(b.ids))]
    lagoon = sum(imperial[i] for i, lag in enumerate(b.lagoon) if lag)
    row4 = sum(imperial[i] for i in b.mainland if b.row[i] == 4)
    on_wall = sum(imperial[i] for i in b.walls)
    return [
        played, float(len(s.hands[IMPERIAL])), float(len(s.hands[INSURGENT])), float(len(s.decks[deck])),
        imp["morale"], ins["morale"], imp["money"], imp["supplies"], ins["supplies"],
        ins.get("pressure", 0), imp.get("preparation", 0), ins.get("preparation", 0), imp.get("plea", 0),
        sum(s.ins) + s.civilians,
        sum(imperial), lagoon, row4, on_wall, sum(1 for c in s.cannon if c == IMPERIAL_CANNON) + s.camp_cannons,
        sum(s.ins), sum(s.ins[i] for i in b.islands), sum(s.ins[i] for i in b.beaches),
        sum(1 for c in s.cannon if c and c != IMPERIAL_CANNON),
        sum(s.damage[i] for i in b.walls), sum(1 for i in b.walls if s.damage[i] >= 2),
        sum(1 for side in s.area_side if side == IMPERIAL),
        sum(m if side == IMPERIAL else -m for side, m in zip(s.area_side, s.area_markers, strict=True)),
        total[deck, "red"] - gone["red"], total[deck, "blue"] - gone["blue"], total[deck, "grey"] - gone["grey"],
    ]


def features(s: State) -> list[float]:
    """The feature vector of an unfinished position (see :data:`FEATURES`)."""
    parts = terms(s, BOT_WEIGHTS)
    return [*(parts[t] for t in TERMS), *_counts(s)]


def is_card_point(view: dict[str, Any]) -> bool:
    """True when a side is about to choose its next card (the point "after each card")."""
    stack = view.get("stack") or []
    return bool(stack) and stack[-1].get("kind") == "card_turn"
