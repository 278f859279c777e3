"""The named effect of every card with an event. Each returns the frames of its event, built
from :mod:`muster.games.freedom.cards.primitives`; ``cards.json`` names the function."""

from __future__ import annotations

from collections.abc import Callable

from muster.games.freedom.cards.primitives import (
    cannon_to_camp,
    choose_support,
    fire_one_cannon,
    grenades,
    march_from_camp,
    night_works,
    remove_unit,
    support_at,
    track,
    units_to_camp,
)
from muster.games.freedom.constants import IMPERIAL, INSURGENT, other
from muster.games.freedom.datafiles import areas_file, cards_file
from muster.games.freedom.engine import push
from muster.games.freedom.rules.action_phase import ap_frame
from muster.games.freedom.rules.common import areas_of, log
from muster.games.freedom.state import Frame, State

Effect = Callable[[State, str], list[Frame]]
EFFECTS: dict[str, Effect] = {}


def effect(fn: Effect) -> Effect:
    """Register a card effect under its function name."""
    EFFECTS[fn.__name__] = fn
    return fn


# --- rulebook cards (2nd edition, effects as printed) ------------------------------------------


@effect
def sacred_city(s: State, seat: str) -> list[Frame]:
    """1A: +1 on the Pressure track."""
    return [track(INSURGENT, "pressure", 1)]


@effect
def unequal_share_of_money(s: State, seat: str) -> list[Frame]:
    """3A: the Empire loses 1 Money; remove 1 Imperial unit from any space."""
    return [track(IMPERIAL, "money", -1), remove_unit(seat, IMPERIAL)]


@effect
def marsh_diseases(s: State, seat: str) -> list[Frame]:
    """4A: 2 Imperial units not in Row 4 return to the Camp."""
    return [units_to_camp(seat, 2, exclude_row=4)]


@effect
def georgios_karaiskakis(s: State, seat: str) -> list[Frame]:
    """5A: Support in 2 Imperial-controlled areas; Imperial Morale −2."""
    return [choose_support(seat, 2, controlled_by=other(seat)), track(IMPERIAL, "morale", -2)]


@effect
def fleets_departure(s: State, seat: str) -> list[Frame]:
    """30A: Support at Sea, Kryoneri and Petalas."""
    return [support_at(seat, "sea"), support_at(seat, "kryoneri"), support_at(seat, "petalas")]


@effect
def chieftains_defect(s: State, seat: str) -> list[Frame]:
    """31A: Support in 2 Insurgent-controlled areas; Insurgent Morale −1."""
    return [choose_support(seat, 2, controlled_by=other(seat)), track(INSURGENT, "morale", -1)]


@effect
def yusuf_pasha(s: State, seat: str) -> list[Frame]:
    """32A: Support at Sea; +1 Imperial Supply; a cannon to the Camp."""
    return [support_at(seat, "sea"), track(IMPERIAL, "supplies", 1), cannon_to_camp()]


@effect
def abandoned_cause(s: State, seat: str) -> list[Frame]:
    """33A: remove 1 Insurgent unit anywhere."""
    return [remove_unit(seat, INSURGENT)]


@effect
def night_works_card(s: State, seat: str) -> list[Frame]:
    """34A: a Row 6 cannon and up to 1 unit move one space forward."""
    return [night_works(seat)]


@effect
def captain_mahmud(s: State, seat: str) -> list[Frame]:
    """36A: Lagoon movements and attacks worth up to 6 AP; each unit may attack twice."""
    f = ap_frame(seat, 36, 6, mode="mahmud")
    f["attack_limit"] = 2
    return [f]


@effect
def aqueduct_destroyed(s: State, seat: str) -> list[Frame]:
    """38A: −2 Insurgent Supplies."""
    return [track(INSURGENT, "supplies", -2)]


@effect
def kutahi(s: State, seat: str) -> list[Frame]:
    """39A: Support in each Imperial area; 4 units leave the Camp one space forward."""
    frames = [support_at(seat, areas_file().areas[i].id) for i in areas_of(s, seat)]
    return [*frames, march_from_camp(seat, 4)]


@effect
def stone_cannon_balls(s: State, seat: str) -> list[Frame]:
    """42A: fire one cannon, hits remove units instead of damaging; a Camp unit to Row 4."""
    return [fire_one_cannon(seat, stone_balls=True)]


@effect
def reinforcements(s: State, seat: str) -> list[Frame]:
    """43A (grey): Support in any 2 areas."""
    return [choose_support(seat, 2, controlled_by=None)]


@effect
def raise_morale(s: State, seat: str) -> list[Frame]:
    """48A (grey): +2 Morale for the player of the event."""
    return [track(seat, "morale", 2)]


@effect
def grenades_card(s: State, seat: str) -> list[Frame]:
    """89B: the Allied units of a Row 5 space each attack the Wall section in front of them."""
    return [grenades(seat)]


def start_event(s: State, seat: str, number: int) -> None:
    """Push the frames of card ``number``'s event, played for ``seat``."""
    card = next(c for c in cards_file().cards if c.number == number)
    if card.effect is None:
        log(s, "This card has no event.")
        return
    push(s, *EFFECTS[card.effect](s, seat))


def check_effects() -> None:
    """Every effect named in cards.json exists (called when the game module loads)."""
    missing = {c.effect for c in cards_file().cards if c.effect} - set(EFFECTS)
    if missing:
        raise ValueError(f"cards.json names effects with no implementation: {sorted(missing)}")
