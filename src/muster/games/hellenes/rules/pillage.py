"""4.3 / 5.5 Pillage: a Group besieging an opposing City-State (Siege established in an earlier Season)
ravages it and withdraws to one adjacent enemy-free area; +1 Prestige, +2 for Athens or Sparta; once per City
per Year; the pillagers may not re-enter that area this Player Turn."""

from __future__ import annotations

from muster.core.interface import Action
from muster.games.hellenes.datafiles import design
from muster.games.hellenes.engine import Decision, said
from muster.games.hellenes.rules.common import (
    COAST_MATES,
    COASTS,
    FLEETS,
    LAND_ADJ,
    NEUTRAL,
    enemy_field,
    enemy_fleet_at,
    established,
    field,
    gain_prestige,
    other,
)
from muster.games.hellenes.rules.movement import _relocate
from muster.games.hellenes.state import Frame, State
from muster.i18n import entry


def pillage_sites(s: State, side: str) -> list[str]:
    """Areas where ``side`` may Pillage now."""
    out: list[str] = []
    if not s.sieges:
        return out
    enemy = other(side)
    for area, siege in s.sieges.items():
        # the record's own facts first, the blocks there last (the answer is the same in any order)
        if (siege["by"] == side and area not in s.pillaged and s.loyal.get(area) == enemy
                and s.control.get(area) == enemy and established(s, area) and field(s, area, side)
                and withdrawals(s, area, side)):
            out.append(area)
    return out


def withdrawals(s: State, area: str, side: str) -> list[str]:
    """Adjacent enemy-free areas every block of the Group can reach in one step."""
    group = field(s, area, side)
    fleets = any(b in FLEETS for b in group)
    land = any(b not in FLEETS for b in group)
    out = []
    if land:
        candidates = COAST_MATES[area] if fleets else LAND_ADJ[area]
        out = [n for n in candidates if n not in NEUTRAL and not enemy_field(s, n, side)]
    else:
        out = [c for c in COASTS[area] if not enemy_fleet_at(s, c, side)]
        out += [n for n in COAST_MATES[area] if n not in NEUTRAL and not enemy_field(s, n, side)]
    return out


def pillage(s: State, area: str, side: str, dest: str) -> None:
    """Carry out a Pillage."""
    for b in field(s, area, side):
        _relocate(s, b, dest, area)
        if s.units[b].token not in s.moved:
            s.moved.append(s.units[b].token)
    s.pillaged.append(area)
    s.no_entry.append(area)
    capital = area in design()["capitals"].values()
    p = design()["prestige"]
    s.say("{side} pillages {city} and withdraws to {dest}.", side=side, city=area, dest=dest)
    gain_prestige(s, side, p["pillage_capital"] if capital else p["pillage"], entry("pillaging {city}", city=area))


class PillageTo(Decision):
    """5.5: where the pillaging Group withdraws."""

    kind = "pillage_to"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: Pillage {city}: withdraw to", side=f["seat"], city=f["area"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [Action("to", a) for a in withdrawals(s, f["area"], f["seat"])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        pillage(s, f["area"], f["seat"], str(a.arg))
