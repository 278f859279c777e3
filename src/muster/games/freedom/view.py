"""What each seat may see, and rebuilding a full state from one seat's view (for search bots)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, TypedDict, cast

from muster.core import rng
from muster.core.interface import CorruptStateError
from muster.games.freedom.constants import SEATS, other
from muster.games.freedom.datafiles import cards_file
from muster.games.freedom.state import Frame, State

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


class Count(TypedDict):
    """A pile or a hand a seat sees only the size of."""

    count: int
    """How many cards it holds."""


class Areas(TypedDict):
    """The areas' support, in area order."""

    side: list[str]
    """The side each area supports."""
    markers: list[int]
    """The support markers on each area."""


class Turn(TypedDict):
    """Where the current turn began (for undo)."""

    seat: str | None
    """The seat whose turn it is."""
    start: int
    """The action count at which it began."""
    tainted: bool
    """True once dice were rolled or cards drawn during it."""


class FreedomView(TypedDict):
    """What one seat sees of a game of Freedom! (:func:`view`): the saved state's fields in :data:`PUBLIC` as
    they are, the draw piles' sizes, the seat's own hand and the size of the other's."""

    format: int
    """The saved state's format."""
    board_version: int
    """The version of the board the game is played on."""
    ruleset: str
    """The edition: ``1st`` or ``2nd``."""
    round: int
    """The round (1–6)."""
    step: int
    """Actions applied since setup."""
    spaces: dict[str, dict[str, int]]
    """Per-space values (``exp``, ``ally``, ``ins``, ``cannon``, ``damage``) as {space id: value}, zeros left out."""
    camp_cannons: int
    """Cannons in the Camp."""
    civilians: int
    """The civilians in the city."""
    pools: dict[str, int]
    """Units and cannons not on the board, by pool."""
    tracks: dict[str, dict[str, int]]
    """Each side's tracks."""
    areas: Areas
    """The areas' support."""
    decks: dict[str, Count]
    """The draw piles (``A``, ``B``): their sizes only."""
    hands: dict[str, list[int] | Count]
    """Per seat, its hand: the cards of the viewing seat's own, the size of the other's."""
    discards: dict[str, list[int]]
    """The discard piles."""
    played: dict[str, int]
    """Cards each seat has played this action phase."""
    first: str
    """The seat that plays first this round."""
    trigger: dict[str, Any] | None
    """A card's trigger waiting to be resolved."""
    built_this_round: bool
    """True once the Imperial side has built this round."""
    stack: list[Frame]
    """The decision stack (every field of its frames is public)."""
    log: list[Any]
    """The game log (message entries)."""
    result: dict[str, Any] | None
    """How the game ended (None while it goes on)."""
    turn: Turn
    """Where the current turn began."""
    quiet: bool
    """True when the game keeps no log (simulations)."""
    seat: str | None
    """The seat the view is for (None: a spectator)."""


def view(s: State, seat: str | None) -> FreedomView:
    """The state as ``seat`` may know it (None: a spectator).

    Hidden: the opponent's hand (only its size shows), the order and content of both draw
    piles (only their sizes), the random generator and the seed (future dice).
    """
    return views(s, [seat])[seat]


def views(s: State, seats: Iterable[str | None]) -> dict[str | None, FreedomView]:
    """:func:`view` for several seats at once: the state is serialised once and each seat's view
    differs only in its hands (a server builds every seat's view of each new position).

    The views share their unchanged parts (the board, the stack, the log): treat them as read-only."""
    full = s.to_json()
    # In the saved state's order (the per-seat fields filled in below keep their places).
    public = {key: value for key, value in full.items() if key in PUBLIC or key in PER_SEAT}
    public["decks"] = {deck: {"count": len(cards)} for deck, cards in s.decks.items()}
    out: dict[str | None, FreedomView] = {}
    for seat in seats:
        data = dict(public)
        data["hands"] = {side: (list(cards) if side == seat else {"count": len(cards)})
                         for side, cards in s.hands.items()}
        data["seat"] = seat
        # built field by field from the allowlists above, which FreedomView lists (a test holds them together)
        out[seat] = cast(FreedomView, data)
    return out


def unseen_cards(v: Mapping[str, Any], seat: str) -> dict[str, list[int]]:
    """Per deck, the cards ``seat`` has not seen: they are in the opponent's hand or a draw pile."""
    seen = set(v["hands"][seat]) | set(v["discards"]["A"]) | set(v["discards"]["B"])
    out: dict[str, list[int]] = {"A": [], "B": []}
    for c in cards_file().cards:
        if c.number not in seen:
            out[c.deck].append(c.number)
    return out


def determinize(v: Mapping[str, Any], seat: str, seed: int) -> State:
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

