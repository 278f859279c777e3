"""5.0–5.2.1 and 5.3 Movement: Group Moves (each block to its own destination), Muster, land and sea moves,
fleets on land, sea transport, and forced marches (the roll itself is in :mod:`muster.games.hellenes.rules.storms`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Final

from muster.core.frames import VERB_ACTIONS
from muster.core.interface import Action
from muster.games.hellenes.datafiles import DataError
from muster.games.hellenes.engine import Decision, act, default_label, known, said, unit
from muster.games.hellenes.rules.common import (
    ALL_AREAS,
    AREA_BIT,
    BIT,
    COAST_MATES,
    COASTS,
    FLEETS,
    GREEK,
    HAZARDOUS,
    LAND_ADJ,
    NEUTRAL,
    OFFSHORE,
    SEA_ADJ,
    SEA_MASK,
    SEA_SHORES,
    SEAS,
    SIDE,
    Occupancy,
    area_mask,
    blocks_at,
    by_token,
    cities_of,
    enemy_field,
    enemy_fleet_at,
    held,
    movement_allowance,
    occupancy,
    passenger_of,
    remember,
    roster,
    shift_occupancy,
    side_blocks,
)
from muster.games.hellenes.state import Frame, State

_BLOCK, _TO, _FORCED = VERB_ACTIONS["block"], VERB_ACTIONS["to"], VERB_ACTIONS["forced"]
_BOARD, _BOARD_REDUCE = VERB_ACTIONS["board"], VERB_ACTIONS["board_reduce"]
_DONE: Final = act("done")
_STAY: Final = act("stay")
"""The shared actions of the movement decisions, looked up by argument (no key tuple per action)."""

Route = tuple[str, bool, tuple[str, ...]]
"""(the area entered from, a forced march?, hazardous borders crossed) for one destination."""


def border_key(a: str, b: str) -> str:
    """A sea border's name, the same both ways."""
    return "|".join(sorted((a, b)))


def destinations(s: State, bid: str, muster: bool = False,
                 occ: tuple[Occupancy, Occupancy] | None = None, only: str | None = None) -> dict[str, Route]:
    """Where a block may move this turn, with how it gets there (5.1, 5.2, 5.3, 5.4) (read-only: often the
    cached search's own answer). ``occ``, when given, is :func:`occupancy` of the state (the searches read the
    state's own, kept per step). ``only`` names the one destination the caller needs: its entry is the full
    answer's (the others may be missing or not hold)."""
    u = s.units[bid]
    area = u.area
    if u.carrier is not None or area is None:
        return {}
    allowance = movement_allowance(bid)
    limit = allowance if muster else allowance + 1
    if bid in FLEETS:
        return _fleet_destinations(s, bid, allowance, limit, muster, only)
    start: str = area
    side = SIDE[bid]
    if start in SEAS or (u.inside and start in s.sieges):
        return {}  # 5.1/7.4: besieged blocks cannot move by land
    enemy = "athens" if side == "sparta" else "sparta"
    # the search looks only at areas within ``limit`` steps: keyed by what lies there, its answers are shared
    # by every situation that differs only farther away (far fewer searches, far fewer answers kept)
    near = _near(_LAND_NEAR[start], limit)
    no_entry = area_mask(s.no_entry) & near if s.no_entry else 0
    out = _land_routes(start, no_entry, held(s, enemy)[0] & near, muster, allowance, limit)
    if s.season == 4:
        # 9.2.1: going home in Winter, a block may pass through enemy-occupied areas to a friendly City
        # (within its allowance: a forced march would end short of the City). The cached searches stay
        # pure functions of their arguments: the Winter answer is a second search with no enemy to stop at.
        home = winter_homes(s, side, muster, occupancy(s)[0], enemy, only)
        if home:
            out = _homeward(out, _land_routes(start, no_entry, 0, muster, allowance, allowance), home)
    return out


_NEAR_DEPTH: Final = 8
"""How far the neighbourhood tables below reach (a search going farther is keyed by the whole map)."""


def _near(balls: tuple[int, ...], k: int) -> int:
    """The areas within ``k`` steps from a neighbourhood table (every area past its depth)."""
    return balls[k] if k < len(balls) else ALL_AREAS


def _balls(start: str, steps: Callable[[str], tuple[str, ...]]) -> tuple[int, ...]:
    """The areas within ``k`` steps of ``start`` for k = 0 … :data:`_NEAR_DEPTH` - 1 (``steps``: an area's
    neighbours, whatever closes them; a superset of what any search from ``start`` can look at)."""
    dist = {start: 0}
    frontier = [start]
    for step in range(1, _NEAR_DEPTH):
        nxt: list[str] = []
        for a in frontier:
            for n in steps(a):
                if n not in dist:
                    dist[n] = step
                    nxt.append(n)
        frontier = nxt
    return tuple(area_mask([a for a, d in dist.items() if d <= k]) for k in range(_NEAR_DEPTH))


_LAND_NEAR: Final[dict[str, tuple[int, ...]]] = {a: _balls(a, LAND_ADJ.__getitem__) for a in LAND_ADJ}
"""Land area → the land areas within k land steps of it (the only ones a land search from there looks at)."""


def winter_homes(s: State, side: str, muster: bool, fields: Occupancy, enemy: str,
                 only: str | None = None) -> list[str]:
    """9.2.1: the friendly Cities a block may go home to through enemy areas in Winter (a Mustering block
    still may not Engage, so not to a City with enemy blocks in its field). ``only``: just that area, if it is
    one of them (a Muster asks about its own City alone)."""
    bit = BIT[enemy]
    if only is not None:
        return [only] if s.control.get(only) == side and not (muster and fields.get(only, 0) & bit) else []
    out: list[str] = []
    for a in cities_of(s, side):
        if not (muster and fields.get(a, 0) & bit):
            out.append(a)
    return out


def _homeward(out: dict[str, Route], through: dict[str, Route], home: list[str]) -> dict[str, Route]:
    """9.2.1: ``out`` with the Winter ways home through enemy areas (``through``, the search that ignores the
    enemy) to the Cities of ``home`` that ``out`` cannot reach at all or only by a forced march. A new dict when
    any is added: the cached answers stay as they are."""
    merged = out
    for dest in home:
        if dest in through and (dest not in out or out[dest][1]):
            if merged is out:
                merged = dict(out)
            merged[dest] = through[dest]
    return merged


@lru_cache(maxsize=65536)
def _land_routes(start: str, no_entry: int, enemy_land: int, muster: bool, allowance: int,
                 limit: int) -> dict[str, Route]:
    """A land block's destinations from ``start``: a pure function of the closed areas and the enemy's
    positions (area sets, :data:`AREA_BIT`), cached (read-only: shared by every caller in the same situation)."""
    out: dict[str, Route] = {}
    frontier, seen = [start], {start}
    for dist in range(1, limit + 1):
        nxt: list[str] = []
        for a in frontier:
            for n in LAND_ADJ[a]:
                if n in seen or n in NEUTRAL or AREA_BIT[n] & no_entry:
                    continue
                seen.add(n)
                engaged = bool(AREA_BIT[n] & enemy_land)
                if muster and engaged:
                    continue  # 5.0: Mustering blocks may not Engage
                out[n] = (a, dist > allowance, ())
                if not engaged:
                    nxt.append(n)  # 5.4: entering an enemy-occupied area stops the block
        frontier = nxt
    return out


Step = tuple[str, str]
"""(next area, hazardous border key or "") of one step of a fleet."""


def _steps_from_sea(a: str) -> tuple[Step, ...]:
    steps = [(n, border_key(a, n) if (a, n) in HAZARDOUS else "") for n in SEA_ADJ[a]]
    return (*steps, *((n, "") for n in SEA_SHORES[a]))


_SEA_STEPS: Final[dict[str, tuple[Step, ...]]] = {a: _steps_from_sea(a) for a in SEA_ADJ}
"""A fleet's steps from each sea (its sea borders, then its shores)."""
_SHORE_STEPS: Final[dict[str, tuple[Step, ...]]] = {
    a: (*((c, "") for c in COASTS[a]), *((n, "") for n in COAST_MATES[a])) for a in LAND_ADJ}
"""A fleet's steps from each land area it starts in, not besieged (to its seas, then along the coast)."""
_NO_STEPS: Final[tuple[Step, ...]] = ()


def _fleet_neighbours(start: str) -> Callable[[str], tuple[str, ...]]:
    """The areas one fleet step leads to from an area, for a fleet that started in ``start`` (not besieged:
    a besieged Port's one way out is among them)."""
    def step(a: str) -> tuple[str, ...]:
        return tuple(n for n, _ in _fleet_steps(a, start, False))
    return step


def _fleet_steps(a: str, start: str, besieged: bool) -> tuple[Step, ...]:
    """(next area, hazardous border key or "") for one step of a fleet (``besieged``: the fleet starts inside
    a besieged City). Read-only: the map's own tables."""
    if a in SEAS:
        return _SEA_STEPS[a]
    if a != start:
        return _NO_STEPS  # a fleet stops on entering land (5.1)
    if besieged:
        return ((OFFSHORE[a], ""),)  # 5.2: a besieged Port is left only through its offshore sea
    return _SHORE_STEPS[a]


_FLEET_NEAR: Final[dict[str, tuple[int, ...]]] = {
    a: _balls(a, _fleet_neighbours(a)) for a in (*LAND_ADJ, *SEA_ADJ)}
"""Area → the areas within k steps of a fleet starting there (the only ones its search looks at)."""


def _fleet_destinations(s: State, bid: str, allowance: int, limit: int, muster: bool,
                        only: str | None = None) -> dict[str, Route]:
    """A fleet's destinations: a pure function of where it stands, whether it is besieged there, the closed
    areas and the enemy's positions, so the search is cached per such situation (``only`` needs no early
    exit then: the full answer holds its route). Read-only, as :func:`destinations`."""
    u = s.units[bid]
    start = str(u.area)
    side = SIDE[bid]
    enemy = "athens" if side == "sparta" else "sparta"
    besieged = u.inside and start in s.sieges
    enemy_land, enemy_seas = held(s, enemy)
    sealed = sealed_ports(s, side, start)
    enemy_seas &= SEA_MASK  # enemy fleets on land bar no fleet's way
    # keyed by what lies within reach, as for land blocks (:data:`_LAND_NEAR`)
    near = _near(_FLEET_NEAR[start], limit)
    no_entry = area_mask(s.no_entry) & near if s.no_entry else 0
    # entering land ends a fleet's move whether or not it Engages there: only a Muster asks, and then only
    # about the land area it enters (so, asked for one destination, about that one alone)
    if not muster:
        enemy_land = 0
    elif only is not None:
        enemy_land &= AREA_BIT.get(only, 0)
    out = _fleet_routes(start, besieged, no_entry, enemy_seas & near, enemy_land & near, muster, allowance, limit,
                        sealed & near)
    if s.season == 4:
        # 9.2.1: a fleet going home in Winter may pass through seas held by enemy fleets (as for land blocks)
        home = winter_homes(s, side, muster, occupancy(s)[0], enemy, only)
        if home:
            out = _homeward(out, _fleet_routes(start, besieged, no_entry, 0, 0, muster, allowance, allowance,
                                               sealed & near), home)
    return out


def sealed_ports(s: State, side: str, start: str) -> int:
    """5.2: the areas of this side's besieged Ports (besieged by the enemy), which its fleets may enter only
    from the Port's offshore sea, as they may leave them only that way (an area set, :data:`AREA_BIT`). The
    besiegers' own fleets come and go by any coast (5.2: sea access "including besiegers"). The fleet's own
    area is not entered, so not listed."""
    out = 0
    for a, siege in s.sieges.items():
        if siege["by"] != side and a != start and a in OFFSHORE:
            out |= AREA_BIT[a]
    return out


@lru_cache(maxsize=65536)
def _fleet_routes(start: str, besieged: bool, no_entry: int, enemy_seas: int, enemy_land: int, muster: bool,
                  allowance: int, limit: int, sealed: int = 0) -> dict[str, Route]:
    """:func:`_fleet_destinations`' search (read-only: shared by every caller with the same situation); the
    area sets as :data:`AREA_BIT`'s. ``sealed``: besieged Ports entered only from their offshore sea
    (:func:`sealed_ports`)."""
    out: dict[str, Route] = {}
    frontier: list[tuple[str, tuple[str, ...]]] = [(start, ())]
    seen = {start}
    for dist in range(1, limit + 1):
        nxt: list[tuple[str, tuple[str, ...]]] = []
        if len(frontier) > 1:
            frontier.sort(key=_borders_crossed)  # stable: the fewest hazardous borders first
        for a, borders in frontier:
            for n, hz in _fleet_steps(a, start, besieged):
                bit = AREA_BIT[n]
                if n in seen or n in NEUTRAL or bit & no_entry:
                    continue
                if bit & sealed and a != OFFSHORE[n]:
                    continue  # 5.2: a besieged Port is entered only through its offshore sea
                path = (*borders, hz) if hz else borders
                at_sea = n in SEAS
                engaged = bool(bit & (enemy_seas if at_sea else enemy_land))
                if muster and engaged:
                    continue
                seen.add(n)
                out[n] = (a, dist > allowance, path)
                if at_sea and not engaged:
                    nxt.append((n, path))
        frontier = nxt
    return out


def _borders_crossed(step: tuple[str, tuple[str, ...]]) -> int:
    return len(step[1])


def move_block(s: State, bid: str, dest: str, route: Route) -> None:
    """Carry out one block's move (its passenger goes with it). A forced march stops one short; the roll
    at the end of the Action phase decides the last step (5.3)."""
    via, forced, borders = route
    u = s.units[bid]
    token = u.token
    crossed = borders
    if forced:
        last = ""
        if borders and via in SEAS and dest in SEAS and (via, dest) in HAZARDOUS:
            last, crossed = borders[-1], borders[:-1]
        s.forced.append([token, dest, last])
        _relocate(s, bid, via, "")
    else:
        _relocate(s, bid, dest, via)
    for key in crossed:
        s.crossings.setdefault(key, []).append(token)
    s.moved.append(token)


def _relocate(s: State, bid: str, area: str, via: str) -> None:
    """Put a block (and its passenger) in an area, outside any City."""
    u = s.units[bid]
    cargo = passenger_of(s, bid)  # found by where the fleet stands: before it moves
    moved: list[tuple[str, str | None]] = [(bid, u.area)]
    u.area, u.inside = area, False
    s.via[str(u.token)] = via
    if cargo is not None:
        c = s.units[cargo]
        moved.append((cargo, c.area))
        c.area, c.inside = area, False
        s.via[str(c.token)] = via
        if c.token not in s.moved:
            s.moved.append(c.token)
        if area not in SEAS:
            c.carrier = None  # landed with its fleet (5.2.1)
    shift_occupancy(s, moved, area)


def boardable(s: State, bid: str) -> list[str]:
    """5.2.1: fleets that may carry this Greek land block: same area, not moved, CV above the block's, empty."""
    u = s.units[bid]
    area = u.area
    if bid in FLEETS or bid not in GREEK or u.carrier is not None or area is None:
        return []
    side = SIDE[bid]
    out = []
    for f in blocks_at(s).get(area, ()):
        fu = s.units[f]
        if (fu.inside == u.inside and f in FLEETS
                and SIDE[f] == side and fu.token not in s.moved and fu.cv > u.cv
                and passenger_of(s, f) is None):
            out.append(f)
    return out


def boardable_reduced(s: State, bid: str) -> list[str]:
    """5.2.1: fleets this Greek land block may board only by reducing its CV below the fleet's first (the
    player may do so): as :func:`boardable`, but the block's CV is not below the fleet's, and the fleet has CV 2
    or more so the block keeps at least 1."""
    u = s.units[bid]
    area = u.area
    if bid in FLEETS or bid not in GREEK or u.carrier is not None or area is None:
        return []
    side = SIDE[bid]
    out = []
    for f in blocks_at(s).get(area, ()):
        fu = s.units[f]
        if (fu.inside == u.inside and f in FLEETS
                and SIDE[f] == side and fu.token not in s.moved and 2 <= fu.cv <= u.cv
                and passenger_of(s, f) is None):
            out.append(f)
    return out


def group_blocks(s: State, area: str, side: str) -> list[str]:
    """4.1: the blocks of a side's Group in an area that have not moved this turn."""
    units, moved = s.units, s.moved
    out: list[str] = []
    for b in blocks_at(s).get(area, ()):
        u = units[b]
        if u.carrier is None and u.token not in moved and SIDE[b] == side:
            out.append(b)
    return out


def can_move(s: State, bid: str, occ: tuple[Occupancy, Occupancy] | None = None) -> bool:
    """True if the block has somewhere to go (or a fleet to board): the same as ``destinations`` being
    non-empty, without the search. A fleet always has a sea to enter; a land block needs one enterable land
    neighbour and must not be besieged (or it may board a fleet)."""
    u = s.units[bid]
    if u.carrier is not None or u.area is None:
        return False
    if bid in FLEETS:
        return True
    area = str(u.area)
    if area not in SEAS and not (u.inside and area in s.sieges):
        no_entry = s.no_entry
        for n in LAND_ADJ[area]:
            if n not in NEUTRAL and n not in no_entry:
                return True
    return bool(boardable(s, bid)) or bool(boardable_reduced(s, bid))


def move_label(s: State, a: Action, side: str) -> str:
    """'to Attica (Engage)', 'forced march to …'."""
    dest = str(a.arg)
    engage = enemy_fleet_at(s, dest, side) if dest in SEAS else enemy_field(s, dest, side)
    if a.verb == "forced":
        return said("forced march to {area} (Engage) (needs the roll)", area=dest) if engage else said(
            "forced march to {area} (needs the roll)", area=dest)
    return said("to {area} (Engage)", area=dest) if engage else said("to {area}", area=dest)


class GroupMove(Decision):
    """4.1/5.0: move one Group: pick its blocks one by one and send each where it may go."""

    kind = "group"

    def prompt(self, s: State, f: Frame) -> str:
        if f["cur"] is None:
            return said("{side.name}: Group Move from {area}: choose a block, or done", side=f["seat"], area=f["area"])
        return said("{side.name}: move {block} from {area}", side=f["seat"], block=by_token(s, f["cur"]),
                    area=f["area"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["cur"] is None:
            acts = [_BLOCK[b] for b in group_blocks(s, f["area"], f["seat"])
                    if s.units[b].token not in f["skip"] and can_move(s, b)]
            acts.append(_DONE)
            return acts
        bid = by_token(s, f["cur"])
        dests = destinations(s, bid)
        acts = [_FORCED[d] if r[1] else _TO[d] for d, r in dests.items()]
        for fl in boardable(s, bid):
            acts.append(_BOARD[fl])
        for fl in boardable_reduced(s, bid):
            acts.append(_BOARD_REDUCE[fl])
        acts.append(_STAY)
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "done":
            s.stack.pop()
            return
        if a.verb == "block":
            f["cur"] = s.units[str(a.arg)].token
            return
        cur = known(f["cur"])
        bid = by_token(s, cur)
        if a.verb in ("to", "forced"):
            dest = str(a.arg)
            move_block(s, bid, dest, destinations(s, bid, only=dest)[dest])
        elif a.verb in ("board", "board_reduce"):
            if a.verb == "board_reduce":
                # 5.2.1: the player reduces the block below the fleet's CV to board it (a hidden loss: the
                # block is not revealed, so what the enemy last saw stays)
                s.units[bid].cv = s.units[str(a.arg)].cv - 1
            s.units[bid].carrier = str(a.arg)
            s.moved.append(cur)
        else:
            f["skip"].append(cur)
            cargo = passenger_of(s, bid)
            if cargo is not None and str(s.units[bid].area) not in SEAS:
                s.units[cargo].carrier = None
        f["cur"] = None

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb in ("to", "forced"):
            return move_label(s, a, f["seat"])
        if a.verb == "board":
            return said("board {unit} (sea transport)", unit=unit(s, str(a.arg)))
        if a.verb == "board_reduce":
            return said("reduce to CV {cv} to board {unit} (sea transport)", cv=s.units[str(a.arg)].cv - 1,
                        unit=unit(s, str(a.arg)))
        if a.verb == "stay":
            return said("stay")
        return default_label(s, a)


class Muster(Decision):
    """5.0 Muster: blocks from other areas move into one friendly City-State (no Engaging, no forced march)."""

    kind = "muster"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: Muster to {area}: choose a block, or done", side=f["seat"], area=f["city"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        acts = [_BLOCK[b] for b in self.candidates(s, f)]
        acts.append(_DONE)
        return acts

    def candidates(self, s: State, f: Frame) -> tuple[str, ...]:
        """The blocks that may still Muster (remembered from the previous step of the same Muster)."""
        known = s._muster
        if known is not None and known[0] == s.step and known[1] == f["city"]:
            return known[2]
        found = tuple(muster_candidates(s, f["seat"], f["city"], pool=_menu_pool(s)))
        s._muster = (s.step, f["city"], found)
        return found

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "done":
            s.stack.pop()
            return
        bid = str(a.arg)
        candidates = self.candidates(s, f)
        at = candidates.index(bid)  # one of them: the action is legal
        left = candidates[:at] + candidates[at + 1:]
        move_block(s, bid, f["city"], destinations(s, bid, muster=True, only=f["city"])[f["city"]])
        s._muster = (s.step + 1, f["city"], left)


def _menu_pool(s: State) -> list[Mover] | None:
    """The movers the Action menu listed at the step before, when that menu's Muster is the step now (its
    choice moved no block); else None."""
    kept = s._menu_pool
    stack = s.stack
    if kept is not None and kept[0] == s.step - 1 and len(stack) >= 2 and stack[-2] is kept[1]:
        return kept[2]
    return None


_NO_TOKENS: Final[set[int]] = set()

Mover = tuple[str, str, bool, bool, int]
"""(block, area, inside a besieged City, fleet, allowance) of a block that may still move this turn."""


def movers(s: State, side: str) -> list[Mover]:
    """The side's blocks that may still move this turn, with what a Muster search needs to know of them."""
    units, sieges = s.units, s.sieges
    moved = set(s.moved) if s.moved else _NO_TOKENS
    out = []
    for b, fleet, allowance in side_blocks(s, side)[0]:
        u = units[b]
        area = u.area
        if area is None or u.carrier is not None or u.token in moved:
            continue
        out.append((b, area, u.inside and area in sieges, fleet, allowance))
    return out


def muster_candidates(s: State, side: str, city: str, occ: tuple[Occupancy, Occupancy] | None = None,
                      first_only: bool = False, pool: list[Mover] | None = None) -> list[str]:
    """Blocks that can Muster into ``city`` this turn (5.0: each within its allowance, entering no enemy area).

    No search per block: land blocks read the cached reach table of their start (:func:`land_reach`), fleets
    the cached land areas a Mustering fleet reaches from where it stands (:func:`fleet_muster_reach`: the fewest
    steps through seas it may enter, the same answer as :func:`destinations`)."""
    fields = (occ or occupancy(s))[0]
    enemy = "athens" if side == "sparta" else "sparta"
    if city in NEUTRAL or city in s.no_entry or fields.get(city, 0) & BIT[enemy]:
        return []
    pool = pool if pool is not None else movers(s, side)
    closed, shut = muster_closed(s, enemy)
    reach: dict[str, tuple[int, ...]] = {}  # per start area (blocks in one area share it)
    bit = AREA_BIT[city]
    out = []
    for b, area, besieged, fleet, allowance in pool:
        if area == city:
            continue
        if fleet:
            if not fleet_muster_reach(shut, area, besieged, allowance) & bit:
                continue
        elif besieged or area in SEAS:
            continue
        else:
            got = reach.get(area)
            if got is None:
                got = reach[area] = land_reach(closed, area)
            if not got[allowance] & bit:
                continue
        out.append(b)
        if first_only:
            break
    return out


def land_closed(s: State, enemy: str) -> int:
    """The areas Mustering land blocks may not pass or enter (an area set, :data:`AREA_BIT`): Neutral ones
    aside, those closed this turn and those with ``enemy`` blocks in the field (not in Winter, when Mustering
    home passes through enemy areas, 9.2.1). What :func:`land_reach` is keyed by."""
    return muster_closed(s, enemy)[0]


def muster_closed(s: State, enemy: str) -> tuple[int, int]:
    """:func:`land_closed` and :func:`closed_seas` at once (one look at the enemy's positions)."""
    closed = area_mask(s.no_entry) if s.no_entry else 0
    if s.season == 4:
        return closed, closed & SEA_MASK
    enemy_land, enemy_seas = held(s, enemy)
    return closed | enemy_land, (closed | enemy_seas) & SEA_MASK


def land_reach(closed: int, start: str) -> tuple[int, ...]:
    """For Mustering land blocks standing in ``start``: ``land_reach(closed, start)[k]`` is the area set
    (:data:`AREA_BIT`) they may reach within ``k`` steps (5.0: through and into areas that are not Neutral nor
    in ``closed``, :func:`land_closed`; the start itself excluded; empty from a sea). A pure function of the
    closed areas near the start (:data:`_LAND_NEAR`), so cached across decisions."""
    near = _LAND_NEAR.get(start)
    if near is None:
        return ()
    closed &= near[_TOP]
    # one integer key (the closed areas near the start, then the start's number): a hit is one dict lookup, where
    # a cached function would build and hash a tuple and reorder its recency list at every call
    key = closed << _AREA_NUMBER_BITS | _AREA_NUMBER[start]
    got = _LAND_REACH.get(key)
    if got is None:
        got = remember(_LAND_REACH, key, _land_reach(closed, start))
    return got


def land_reach_union(closed: int, starts: dict[str, int]) -> int:
    """The areas Mustering land blocks may reach from any of ``starts`` (start area → the longest allowance of
    the blocks there): the union of their :func:`land_reach` rows, looked up here in one loop (the Action menu
    asks it for every start area at each step)."""
    out = 0
    for start, allowance in starts.items():
        key = (closed & _LAND_NEAR_TOP[start]) << _AREA_NUMBER_BITS | _AREA_NUMBER[start]
        got = _LAND_REACH.get(key)
        if got is None:
            got = land_reach(closed, start)
        out |= got[allowance]
    return out


_AREA_NUMBER: Final[dict[str, int]] = {a: i for i, a in enumerate(AREA_BIT)}
_AREA_NUMBER_BITS: Final = len(AREA_BIT).bit_length()
_LAND_REACH: Final[dict[int, tuple[int, ...]]] = {}
""":func:`land_reach`'s answers (read-only: shared by every caller in the same situation)."""


def _land_reach(closed: int, start: str) -> tuple[int, ...]:
    top = _TOP
    dist = {start: 0}
    frontier = [start]
    for step in range(1, top + 1):
        nxt: list[str] = []
        for a in frontier:
            for n in LAND_ADJ[a]:
                if n not in dist and not AREA_BIT[n] & closed and n not in NEUTRAL:
                    dist[n] = step
                    nxt.append(n)
        frontier = nxt
    return tuple(area_mask([a for a, d in dist.items() if 1 <= d <= k]) for k in range(top + 1))


_TOP: Final = max(allowance for _, _, fleet, allowance in roster() if not fleet)
"""The longest land move (cavalry): how far a Muster's land reach table goes."""
_LAND_NEAR_TOP: Final[dict[str, int]] = {a: balls[_TOP] for a, balls in _LAND_NEAR.items()}
"""Land area → the areas within :data:`_TOP` land steps (what :func:`land_reach`'s key keeps of the closed ones)."""


def closed_seas(s: State, enemy: str) -> int:
    """The seas a Mustering fleet may not pass: closed this turn, or held by enemy fleets (not in Winter,
    when a fleet going home to a friendly City passes through them, 9.2.1). The reach caches are keyed by
    this set, so a Winter answer is never served outside Winter or the other way round. An area set
    (:data:`AREA_BIT`)."""
    return muster_closed(s, enemy)[1]


@cache
def _sea_distances(closed: int) -> dict[str, dict[str, int]]:
    """From each sea: the fewest steps to every sea a Mustering fleet may pass into (those not in ``closed``,
    :func:`closed_seas`), the start itself at 0 (a pure function of the map: cached; read-only)."""
    out: dict[str, dict[str, int]] = {}
    for start in SEA_ADJ:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt: list[str] = []
            for a in frontier:
                step = dist[a] + 1
                for n in SEA_ADJ[a]:
                    if n not in dist and not AREA_BIT[n] & closed:
                        dist[n] = step
                        nxt.append(n)
            frontier = nxt
        out[start] = dist
    return out


def fleet_reach(shut: int, pool: list[Mover]) -> int:
    """The land areas some fleet in ``pool`` may Muster into (the fleet half of :func:`muster_candidates`
    for every City at once; ``shut``: :func:`closed_seas`; the caller still checks that the City itself may be
    entered), as an area set (:data:`AREA_BIT`)."""
    seas = shut >> _FIRST_SEA
    out = 0
    for _, area, besieged, _, allowance in pool:
        # fleet_muster_reach's lookup, written out: the menu asks it for every fleet at each step
        key = ((seas << _AREA_NUMBER_BITS | _AREA_NUMBER[area]) << 4 | allowance << 1) | besieged
        got = _FLEET_REACH.get(key)
        if got is None:
            got = fleet_muster_reach(shut, area, besieged, allowance)
        out |= got
    return out


def fleet_muster_reach(shut: int, area: str, besieged: bool, allowance: int) -> int:
    """The land areas a Mustering fleet standing in ``area`` may enter within ``allowance`` (not its own area;
    ``shut``: :func:`closed_seas`; the caller checks that the area itself may be entered), as an area set
    (:data:`AREA_BIT`); cached per situation."""
    # one integer key, as land_reach's: the closed seas alone (a few bits), the area's number, the allowance,
    # besieged
    key = (((shut >> _FIRST_SEA) << _AREA_NUMBER_BITS | _AREA_NUMBER[area]) << 4 | allowance << 1) | besieged
    got = _FLEET_REACH.get(key)
    if got is None:
        got = remember(_FLEET_REACH, key, _fleet_reach(shut, area, besieged, allowance))
    return got


_FIRST_SEA: Final = min(AREA_BIT[a] for a in SEAS).bit_length() - 1
"""The number of the first sea in an area set: every bit below it is a land area."""
_FLEET_REACH: Final[dict[int, int]] = {}
""":func:`fleet_reach`'s answers per fleet situation."""
if max(allowance for _, _, fleet, allowance in roster() if fleet) >= 8:
    raise DataError("a fleet's movement allowance does not fit the reach cache's key (at most 7)")


def _fleet_reach(closed: int, area: str, besieged: bool, allowance: int) -> int:
    """The land areas a fleet standing in ``area`` may Muster into (not its own area)."""
    if area in SEAS:
        got = _shores_within(closed, area, allowance - 1)
    elif besieged:
        off = OFFSHORE[area]
        got = _shores_within(closed, off, allowance - 2) if not AREA_BIT[off] & closed else 0
    else:
        got = 0
        for c in COASTS[area]:
            if not AREA_BIT[c] & closed:
                got |= _shores_within(closed, c, allowance - 2)
        if allowance >= 1:
            got |= area_mask(list(COAST_MATES[area]))
    return got & ~AREA_BIT[area]


@lru_cache(maxsize=65536)
def _shores_within(closed: int, sea: str, steps: int) -> int:
    """Land areas on the shore of a sea at most ``steps`` sea moves from ``sea`` (through open seas)."""
    if steps < 0:
        return 0
    out = 0
    for c, d in _sea_distances(closed)[sea].items():
        if d <= steps:
            out |= area_mask(list(SEA_SHORES[c]))
    return out


class FreeMove(Decision):
    """4.2.2: a Barbarian recruit may move at once at its full allowance, free of Actions."""

    kind = "free_move"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: free move of {block}", side=f["seat"], block=by_token(s, f["token"]))

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["token"] not in s.tok:
            return []
        dests = destinations(s, by_token(s, f["token"]))
        return [*(act("to", d) for d, r in dests.items() if not r[1]), act("stay")]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == "to":
            bid, dest = by_token(s, f["token"]), str(a.arg)
            move_block(s, bid, dest, destinations(s, bid, only=dest)[dest])

    def label(self, s: State, f: Frame, a: Action) -> str:
        return move_label(s, a, f["seat"]) if a.verb == "to" else said("stay")
