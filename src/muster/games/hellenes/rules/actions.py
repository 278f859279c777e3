"""4.0 Actions and 4.1 Group activity: the Action menu. Each Action moves one Group, Musters, Builds,
Recruits, detaches a garrison, Pillages, or (in Winter) supplies a block. Unused Actions are lost."""

from __future__ import annotations

from typing import Final

from muster.core.frames import VERB_ACTIONS
from muster.core.interface import Action
from muster.games.hellenes.engine import Decision, act, frame, push, said, unit
from muster.games.hellenes.rules.build import buildable, detach_garrison, garrison_sites, pool_has, reinforce
from muster.games.hellenes.rules.common import (
    AREA_BIT,
    AREA_OF_BIT,
    LAND_ADJ,
    NEUTRAL,
    SEAS,
    Occupancy,
    area_mask,
    city_lists,
    held,
    occupancy,
    other,
    remember,
)
from muster.games.hellenes.rules.movement import (
    Mover,
    can_move,
    fleet_reach,
    land_reach_union,
    movers,
    muster_closed,
)
from muster.games.hellenes.rules.pillage import pillage_sites
from muster.games.hellenes.rules.winter import needs_supply, supply
from muster.games.hellenes.state import Frame, State


def group_areas(s: State, side: str, occ: tuple[Occupancy, Occupancy] | None = None,
                pool: list[Mover] | None = None) -> list[str]:
    """Areas holding a Group with at least one block that can still move (``pool``: :func:`movers`)."""
    areas: list[str] = []
    occ = occ or occupancy(s)
    exits = _land_exits(area_mask(s.no_entry) if s.no_entry else 0)
    for b, a, besieged, fleet, _ in (movers(s, side) if pool is None else pool):
        if a in areas:
            continue
        # the common case of can_move without its search: a fleet, or a free land block with a way out
        if fleet or (a in exits and not besieged) or can_move(s, b, occ):
            areas.append(a)
    return areas


def _land_exits(no_entry: int) -> frozenset[str]:
    """Land areas with a neighbour a land block may enter (not Neutral, not closed this turn: ``no_entry``, an
    area set); cached per set of closed areas."""
    got = _LAND_EXITS.get(no_entry)
    if got is None:
        got = remember(_LAND_EXITS, no_entry, frozenset(
            a for a, ns in LAND_ADJ.items() if any(n not in NEUTRAL and not AREA_BIT[n] & no_entry for n in ns)), 1024)
    return got


_LAND_EXITS: Final[dict[int, frozenset[str]]] = {}


def muster_cities(s: State, side: str, pool: list[Mover] | None = None) -> list[str]:
    """Friendly City-States free of enemy field blocks that some block can Muster into (``pool``:
    :func:`movers`)."""
    enemy = other(side)
    pool = movers(s, side) if pool is None else pool
    # Land blocks through the cached reach table; fleets (rarer, with more ways to arrive) by the sea
    # search. The union is exactly ``muster_candidates`` being non-empty.
    closed, shut = muster_closed(s, enemy)
    fleets: list[Mover] = []
    # blocks in one area share their reach, and a longer allowance reaches all a shorter one does: per start
    # area, only its longest allowance counts
    starts: dict[str, int] = {}
    for m in pool:
        if m[3]:
            fleets.append(m)
        elif not m[2] and m[1] not in SEAS and m[4] > starts.get(m[1], -1):
            starts[m[1]] = m[4]
    reached = land_reach_union(closed, starts)
    if fleets:
        # a fleet's way in is its own: never into a Neutral area nor one closed this turn
        reached |= fleet_reach(shut, fleets) & ~(_NEUTRAL_MASK | (area_mask(s.no_entry) if s.no_entry else 0))
    if not reached:
        return []
    lists = city_lists(s)
    cities, mask = (lists[0], lists[3]) if side == "athens" else (lists[1], lists[4])
    # in Winter the reach passes through enemy areas (9.2.1), so a City with enemies in its field is checked too
    shut_out = mask & ~(reached & ~held(s, enemy)[0])
    out = list(cities)
    while shut_out:  # most Cities are open: the few that are not are taken out (never every one of them tested)
        low = shut_out & -shut_out
        out.remove(AREA_OF_BIT[low])
        shut_out ^= low
    return out


_NEUTRAL_MASK: Final = area_mask(list(NEUTRAL))


_MOVE, _MUSTER, _BUILD = VERB_ACTIONS["move"], VERB_ACTIONS["muster"], VERB_ACTIONS["build"]
_GARRISON, _PILLAGE, _SUPPLY = VERB_ACTIONS["garrison"], VERB_ACTIONS["pillage"], VERB_ACTIONS["supply"]
_RECRUIT, _END = act("recruit"), act("end")


class ActionMenu(Decision):
    """4.0: spend the next Action, or end the Action phase."""

    kind = "actions"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: {season} {year}: {n} Action left", "{side.name}: {season} {year}: {n} Actions left",
                    side=f["seat"], season=s.season, year=s.year, n=s.actions_left)

    def legal(self, s: State, f: Frame) -> list[Action]:
        side = f["seat"]
        if s.actions_left <= 0:
            return []
        occ = occupancy(s)
        pool = movers(s, side)  # the blocks that may still move: both checks start from them
        s._menu_pool = (s.step, f, pool)  # and a Muster chosen here (read-only)
        # the shared actions looked up by argument (VERB_ACTIONS): no call per action at every menu
        acts = [_MOVE[a] for a in group_areas(s, side, occ, pool)]
        muster = _MUSTER
        acts += [muster[a] for a in muster_cities(s, side, pool)]
        for b in buildable(s, side):
            acts.append(_BUILD[b])
        if pool_has(s, side):
            acts.append(_RECRUIT)
        for a in garrison_sites(s, side):
            acts.append(_GARRISON[a])
        for a in pillage_sites(s, side):
            acts.append(_PILLAGE[a])
        for b in needs_supply(s, side):
            acts.append(_SUPPLY[b])
        acts.append(_END)
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        side = f["seat"]
        if a.verb == "end":
            s.stack.pop()
            if s.actions_left:
                s.say("{side} leaves {n} Action unused.", "{side} leaves {n} Actions unused.", side=side,
                      n=s.actions_left)
            s.actions_left = 0
            return
        s.actions_left -= 1
        if a.verb == "move":
            s.say("{side} moves the Group in {area}.", side=side, area=str(a.arg))
            push(s, frame("group", seat=side, area=str(a.arg), cur=None, skip=[]))
        elif a.verb == "muster":
            s.say("{side} musters at {area}.", side=side, area=str(a.arg))
            push(s, frame("muster", seat=side, city=str(a.arg)))
        elif a.verb == "build":
            reinforce(s, str(a.arg))
        elif a.verb == "recruit":
            push(s, frame("recruit_draw", side=side, cv=None))
        elif a.verb == "garrison":
            detach_garrison(s, side, str(a.arg))
        elif a.verb == "pillage":
            push(s, frame("pillage_to", seat=side, area=str(a.arg)))
        elif a.verb == "supply":
            supply(s, str(a.arg))

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "move":
            return said("Group Move from {area}", area=str(a.arg))
        if a.verb == "muster":
            return said("Muster at {area}", area=str(a.arg))
        if a.verb == "build":
            return said("Build: {unit}", unit=unit(s, str(a.arg)))
        if a.verb == "recruit":
            return said("Recruit (draw 3 blocks, place 1)")
        if a.verb == "garrison":
            return said("detach a garrison in {area}", area=str(a.arg))
        if a.verb == "pillage":
            return said("Pillage {area}", area=str(a.arg))
        if a.verb == "supply":
            return said("Winter supply: {unit}", unit=unit(s, str(a.arg)))
        return said("end the Action phase")
