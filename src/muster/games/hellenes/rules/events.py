"""Card Events (DESIGN deck, digest 2.4): each event id is implemented once here."""

from __future__ import annotations

from muster.core.interface import Action
from muster.games.hellenes.datafiles import EVENTS, cards, design, game_map
from muster.games.hellenes.engine import Decision, auto, frame, push, said
from muster.games.hellenes.rules.common import (
    SEATS,
    established,
    gain_prestige,
    in_area,
    is_fleet,
    lose_step,
    on_map,
    other,
    place,
    roll,
    set_control,
    side_of,
)
from muster.games.hellenes.state import Frame, State
from muster.i18n import N_, entry

TARGETED = ("civil_war", "revolt", "treachery")


def event_playable(s: State, card: int, side: str) -> bool:
    """May ``side`` play this card as its Event now? (side restriction; Plague only from 430)."""
    c = cards()[card]
    if c.side not in ("any", side):
        return False
    return not (c.event == "plague" and s.year > design()["plague_from"])


def event_frames(s: State, card: int, side: str) -> list[Frame]:
    """The frames that resolve a card's Event for ``side``."""
    event = cards()[card].event
    if event == "levy":
        cv = design()["levy_cv"]
        return [frame("recruit_draw", side=side, cv=cv), frame("recruit_draw", side=side, cv=cv)]
    if event in TARGETED:
        return [frame("ev_city", seat=side, event=event)]
    return [frame("ev_auto", side=side, event=event)]


def targets(s: State, event: str, side: str) -> list[str]:
    """The Cities an Event may be aimed at."""
    g, d = game_map(), design()
    enemy = other(side)
    capitals = set(d["capitals"].values())
    if event == "civil_war":
        return [a for a, c in g.cities.items() if s.control.get(a) == enemy and c.value <= d["civil_war_max_value"]
                and a not in capitals and not in_area(s, a, enemy)]
    if event == "revolt":
        return [a for a in d["revolt_regions"] if a in g.cities and s.loyal.get(a) == "athens"
                and s.control.get(a) == "athens" and not in_area(s, a, "athens")]
    # treachery: an enemy City this side has besieged since an earlier Season
    return [a for a, siege in s.sieges.items() if siege["by"] == side and established(s, a)]


class EventCity(Decision):
    """Choose the City an Event strikes (Civil War, Revolt of the Allies, Treachery)."""

    kind = "ev_city"

    def prompt(self, s: State, f: Frame) -> str:
        event = {"civil_war": N_("Civil War"), "revolt": N_("Revolt of the Allies"),
                 "treachery": N_("Treachery")}[f["event"]]
        return said("{side.name}: {event}: choose a City", side=f["seat"], event=entry(event))

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [Action("city", a) for a in targets(s, f["event"], f["seat"])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        area, side, event = str(a.arg), f["seat"], f["event"]
        if event == "civil_war":
            set_control(s, area, side)
            s.militia[area] = 0
            if area not in s.garrison:
                s.garrison.append(area)
            s.sieges.pop(area, None)
            s.say("Civil War in {city}: it goes over to {side.name}, who garrisons it.", city=area, side=side)
        elif event == "revolt":
            s.loyal[area] = "sparta"
            set_control(s, area, "sparta")  # the kept lists of held Cities follow both
            s.militia[area] = game_map().cities[area].value
            if area in s.garrison:
                s.garrison.remove(area)
            s.say("{city} revolts against Athens.", city=area)
            gain_prestige(s, "sparta", design()["prestige"]["revolt"], entry("the revolt of {city}", city=area))
            rebel = "aeo_rebel"
            if area in design()["aeolian_places"] and s.units[rebel].area is None:
                place(s, rebel, area, 2, f"rebel:{area}")
                s.say("The Aeolian rebel fleet appears at {city}.", city=area)
        else:
            s.say("Treachery at {city}: an Assault at once, without Double Defense.", city=area)
            push(s, frame("assault", area=area, side=side, double=False))


@auto("ev_auto")
def ev_auto(s: State, f: Frame) -> None:
    """The Events that need no choice."""
    side, event = f["side"], f["event"]
    d = design()
    if event == "oracle":
        gain_prestige(s, side, d["prestige"]["oracle"], N_("the Oracle of Delphi"))
    elif event == "plague":
        hit = [b for b in in_area(s, "attica", "athens") if s.units[b].cv > 1]
        for b in hit:
            lose_step(s, b)
        s.say("Plague in Attica: {n} Athenian block loses 1 CV.", "Plague in Attica: {n} Athenian blocks lose 1 CV.",
              n=len(hit))
        if s.year <= d["plague_kills_pericles_from"] and s.leaders["athens"] == "pericles":
            s.leaders["athens"] = "cleon"
            s.say("Pericles dies of the plague; Cleon leads Athens.")
    elif event == "helot":
        lost = 0
        for b in [b for b in on_map(s, "sparta") if s.units[b].area in ("laconia", "messenia")]:
            if roll(s) <= d["helot_loss_max"] and s.units[b].cv > 1:
                lose_step(s, b, public=False)
                lost += 1
        s.say("Helot unrest: Sparta loses {n} step in Laconia and Messenia.",
              "Helot unrest: Sparta loses {n} steps in Laconia and Messenia.", n=lost)
    elif event == "odrysian":
        s.odrysian = True
        s.say("The Odrysian Thracians ally with Athens.")
        if s.units["ody_cav"].area is None:
            place(s, "ody_cav", "thrace", 3, "recruit")
            s.say("Odrysian horsemen ride out in Thrace.")
            push(s, frame("free_move", seat=side, token=s.units["ody_cav"].token))
    elif event == "brasidas":
        s.leaders["sparta"] = "brasidas"
        s.say("Brasidas leads Sparta until the New Year (+1 Action).")
    elif event == "storm":
        g = game_map()
        hits = 0
        for b in [b for b in on_map(s, other(side)) if is_fleet(b) and g.is_sea(str(s.units[b].area))]:
            die = roll(s)
            if die <= d["storm_event"]["tempest_max"]:
                from muster.games.hellenes.rules.common import eliminate

                eliminate(s, b)
                hits += 1
            elif die <= d["storm_event"]["heavy_max"]:
                lose_step(s, b)
                hits += 1
        s.say("Storm at sea: {n} fleet of {side.name} damaged or lost.",
              "Storm at sea: {n} fleets of {side.name} damaged or lost.",
              n=hits, side=other(side))


def check_events() -> None:
    """Every event id in the deck has an implementation (run at import)."""
    used = {c.event for c in cards().values()}
    unknown = used - set(EVENTS)
    if unknown:
        raise ValueError(f"cards.json uses unimplemented events {sorted(unknown)}")


__all__ = ["SEATS", "check_events", "event_frames", "event_playable", "side_of"]
