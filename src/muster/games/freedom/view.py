"""What each seat may see, and rebuilding a full state from one seat's view (for search bots)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from muster.core import rng
from muster.core.interface import CorruptStateError
from muster.games.freedom.constants import SEATS, other
from muster.games.freedom.datafiles import cards_file
from muster.games.freedom.state import State

PUBLIC: Final = frozenset({
    "format", "board_version", "ruleset", "round", "step", "spaces", "camp_cannons", "civilians", "pools",
    "tracks", "areas", "discards", "played", "first", "trigger", "built_this_round", "stack", "log", "result",
    "turn", "quiet",
})
"""The fields of the saved state (``State.to_json``) every seat sees as they are."""
PER_SEAT: Final = frozenset({"decks", "hands"})
"""The fields every seat sees only in part: the draw piles' sizes, its own hand and the other's size."""
HIDDEN: Final = frozenset({"rng", "seed"})
"""The fields no seat sees (future dice and draws). A field of the state in none of these three sets is not
shown: a view is built from what a seat may see, so a new field stays hidden until it is listed."""


def view(s: State, seat: str | None) -> dict[str, Any]:
    """The state as ``seat`` may know it (None: a spectator).

    Hidden: the opponent's hand (only its size shows), the order and content of both draw
    piles (only their sizes), the random generator and the seed (future dice).
    """
    return views(s, [seat])[seat]


def views(s: State, seats: Iterable[str | None]) -> dict[str | None, dict[str, Any]]:
    """:func:`view` for several seats at once: the state is serialised once and each seat's view
    differs only in its hands (a server builds every seat's view of each new position).

    The views share their unchanged parts (the board, the stack, the log): treat them as read-only."""
    full = s.to_json()
    # In the saved state's order (the per-seat fields filled in below keep their places).
    public = {key: value for key, value in full.items() if key in PUBLIC or key in PER_SEAT}
    public["decks"] = {deck: {"count": len(cards)} for deck, cards in s.decks.items()}
    out: dict[str | None, dict[str, Any]] = {}
    for seat in seats:
        data = dict(public)
        data["hands"] = {side: (list(cards) if side == seat else {"count": len(cards)})
                         for side, cards in s.hands.items()}
        data["seat"] = seat
        out[seat] = data
    return out


def unseen_cards(v: dict[str, Any], seat: str) -> dict[str, list[int]]:
    """Per deck, the cards ``seat`` has not seen: they are in the opponent's hand or a draw pile."""
    seen = set(v["hands"][seat]) | set(v["discards"]["A"]) | set(v["discards"]["B"])
    out: dict[str, list[int]] = {"A": [], "B": []}
    for c in cards_file().cards:
        if c.number not in seen:
            out[c.deck].append(c.number)
    return out


def determinize(v: dict[str, Any], seat: str, seed: int) -> State:
    """A full state consistent with ``v`` (a view for ``seat``), hidden parts drawn at random.

    The cards ``seat`` has not seen are shuffled and dealt, deck by deck: as many as the draw
    pile holds go to it, the rest to the opponent's hand; the generator is seeded afresh.
    """
    if v.get("seat") != seat or seat not in SEATS:
        raise CorruptStateError("determinize needs a view made for that seat")
    data = dict(v)
    opp = other(seat)
    opp_count = int(v["hands"][opp]["count"])
    state = rng.seed_state(seed)
    unseen = unseen_cards(v, seat)
    # Per deck, the unseen cards not in its draw pile are in the opponent's hand. Counting them per
    # deck (rather than assuming the current period's deck) keeps this right at the Period change,
    # when both hands still hold Period-A cards while the round is already 4.
    hand: list[int] = []
    piles: dict[str, list[int]] = {}
    for deck in ("A", "B"):
        state, pool = rng.shuffled(state, sorted(unseen[deck]))
        in_hand = len(pool) - int(v["decks"][deck]["count"])
        if in_hand < 0:
            raise CorruptStateError(f"view inconsistent: deck {deck} holds more cards than were not seen")
        hand += pool[:in_hand]
        piles[deck] = pool[in_hand:]
    if len(hand) != opp_count:
        raise CorruptStateError(f"view inconsistent: the opponent's hand should hold {opp_count} unseen cards")
    data["hands"] = {seat: list(v["hands"][seat]), opp: sorted(hand)}
    data["decks"] = piles
    data["rng"] = rng.seed_state(state ^ (seed * 0x9E3779B97F4A7C15))
    data["seed"] = 0
    data.pop("seat", None)
    return State.from_json(data)

