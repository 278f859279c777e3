"""5.0–5.2.1 and 5.3 Movement: Group Moves (each block to its own destination), Muster, land and sea moves,
fleets on land, sea transport, and forced marches (the roll itself is in :mod:`muster.games.hellenes.rules.storms`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache, partial

from muster.core.interface import Action
from muster.games.hellenes.datafiles import blocks, game_map
from muster.games.hellenes.engine import Decision, act, default_label, known, said, unit
from muster.games.hellenes.rules.common import (
    Occupancy,
    blocks_at,
    by_token,
    enemy_field,
    enemy_fleet_at,
    is_fleet,
    is_winter,
    movement_allowance,
    occupancy,
    passenger_of,
    refresh_occupancy,
    roster,
    side_of,
    side_roster,
)
from muster.games.hellenes.state import Frame, State

Route = tuple[str, bool, tuple[str, ...]]
"""(the area entered from, a forced march?, hazardous borders crossed) for one destination."""


def border_key(a: str, b: str) -> str:
    """A sea border's name, the same both ways."""
    return "|".join(sorted((a, b)))


def destinations(s: State, bid: str, muster: bool = False,
                 occ: tuple[Occupancy, Occupancy] | None = None, only: str | None = None) -> dict[str, Route]:
    """Where a block may move this turn, with how it gets there (5.1, 5.2, 5.3, 5.4).
    ``occ`` is :func:`occupancy` of the state when the caller asks for many blocks at once. ``only`` names the
    one destination the caller needs (its route is the same as in the full answer, which the cached searches
    give anyway)."""
    u = s.units[bid]
    if u["carrier"] is not None or u["area"] is None:
        return {}
    allowance = movement_allowance(bid)
    limit = allowance if muster else allowance + 1
    fields, fleets = occ or occupancy(s)
    if is_fleet(bid):
        return _fleet_destinations(s, bid, allowance, limit, muster, fields, fleets, only)
    start, side = str(u["area"]), side_of(bid)
    enemy = "athens" if side == "sparta" else "sparta"
    if start in game_map().sea_adj or (u["inside"] and start in s.sieges):
        return {}  # 5.1/7.4: besieged blocks cannot move by land
    enemy_land = frozenset(a for a, sides in fields.items() if enemy in sides)
    no_entry = frozenset(s.no_entry)
    out = dict(_land_routes(start, no_entry, enemy_land, muster, allowance, limit))
    if is_winter(s):
        # 9.2.1: going home in Winter, a block may pass through enemy-occupied areas to a friendly City
        # (within its allowance: a forced march would end short of the City). The cached searches stay
        # pure functions of their arguments: the Winter answer is a second search with no enemy to stop at.
        home = winter_homes(s, side, muster, fields, enemy)
        if home:
            through = _land_routes(start, no_entry, frozenset(), muster, allowance, allowance)
            for dest in home:
                if dest in through and (dest not in out or out[dest][1]):
                    out[dest] = through[dest]
    return out


def winter_homes(s: State, side: str, muster: bool, fields: Occupancy, enemy: str) -> list[str]:
    """9.2.1: the friendly Cities a block may go home to through enemy areas in Winter (a Mustering block
    still may not Engage, so not to a City with enemy blocks in its field)."""
    return [a for a, holder in s.control.items()
            if holder == side and not (muster and enemy in fields.get(a, ()))]


@lru_cache(maxsize=65536)
def _land_routes(start: str, no_entry: frozenset[str], enemy_land: frozenset[str], muster: bool, allowance: int,
                 limit: int) -> dict[str, Route]:
    """A land block's destinations from ``start``: a pure function of the closed areas and the enemy's
    positions, cached (read-only: shared by every caller in the same situation)."""
    g = game_map()
    neutral = g.neutral
    out: dict[str, Route] = {}
    frontier, seen = [start], {start}
    for dist in range(1, limit + 1):
        nxt = []
        for a in frontier:
            for n in g.land_adj[a]:
                if n in seen or n in neutral or n in no_entry:
                    continue
                seen.add(n)
                engaged = n in enemy_land
                if muster and engaged:
                    continue  # 5.0: Mustering blocks may not Engage
                out[n] = (a, dist > allowance, ())
                if not engaged:
                    nxt.append(n)  # 5.4: entering an enemy-occupied area stops the block
        frontier = nxt
    return out


def _fleet_steps(a: str, start: str, besieged: bool) -> list[tuple[str, str]]:
    """(next area, hazardous border key or "") for one step of a fleet (``besieged``: the fleet starts inside
    a besieged City)."""
    g = game_map()
    if not g.is_sea(a):
        if a != start:
            return []  # a fleet stops on entering land (5.1)
        if besieged:
            city = g.cities[a]
            return [(str(city.offshore), "")]  # 5.2: a besieged Port is left only through its offshore sea
        return [(c, "") for c in g.coasts[a]] + [(n, "") for n in g.coast_mates(a)]
    return _sea_steps(a)


@cache
def _sea_steps(a: str) -> list[tuple[str, str]]:
    """:func:`_fleet_steps` from a sea: a pure function of the map (cached; read-only)."""
    g = game_map()
    steps = [(n, border_key(a, n) if (a, n) in g.hazardous else "") for n in g.sea_adj[a]]
    return steps + [(n, "") for n in g.sea_shores[a]]


def _fleet_destinations(s: State, bid: str, allowance: int, limit: int, muster: bool, fields: Occupancy,
                        fleets: Occupancy, only: str | None = None) -> dict[str, Route]:
    """A fleet's destinations: a pure function of where it stands, whether it is besieged there, the closed
    areas and the enemy's positions, so the search is cached per such situation (``only`` needs no early
    exit then: the full answer holds its route)."""
    u = s.units[bid]
    start = str(u["area"])
    enemy = "athens" if side_of(bid) == "sparta" else "sparta"
    besieged = bool(u["inside"]) and start in s.sieges
    enemy_seas = frozenset(a for a, sides in fleets.items() if enemy in sides)
    enemy_land = frozenset(a for a, sides in fields.items() if enemy in sides)
    no_entry = frozenset(s.no_entry)
    sealed = sealed_ports(s, side_of(bid), start)
    out = dict(_fleet_routes(start, besieged, no_entry, enemy_seas, enemy_land, muster, allowance, limit, sealed))
    if is_winter(s):
        # 9.2.1: a fleet going home in Winter may pass through seas held by enemy fleets (as for land blocks)
        home = winter_homes(s, side_of(bid), muster, fields, enemy)
        if home:
            through = _fleet_routes(start, besieged, no_entry, frozenset(), enemy_land if not muster else frozenset(),
                                    muster, allowance, allowance, sealed)
            for dest in home:
                if dest in through and (dest not in out or out[dest][1]):
                    out[dest] = through[dest]
    return out


def sealed_ports(s: State, side: str, start: str) -> frozenset[str]:
    """5.2: the areas of this side's besieged Ports (besieged by the enemy), which its fleets may enter only
    from the Port's offshore sea, as they may leave them only that way. The besiegers' own fleets come and go
    by any coast (5.2: sea access "including besiegers"). The fleet's own area is not entered, so not listed."""
    if not s.sieges:
        return frozenset()
    cities = game_map().cities
    return frozenset(a for a, siege in s.sieges.items()
                     if siege["by"] != side and a != start and cities[a].offshore is not None)


@lru_cache(maxsize=65536)
def _fleet_routes(start: str, besieged: bool, no_entry: frozenset[str], enemy_seas: frozenset[str],
                  enemy_land: frozenset[str], muster: bool, allowance: int, limit: int,
                  sealed: frozenset[str] = frozenset()) -> dict[str, Route]:
    """:func:`_fleet_destinations`' search (read-only: shared by every caller with the same situation).
    ``sealed``: besieged Ports entered only from their offshore sea (:func:`sealed_ports`)."""
    g = game_map()
    out: dict[str, Route] = {}
    frontier: list[tuple[str, tuple[str, ...]]] = [(start, ())]
    seen = {start}
    seas, neutral = g.sea_adj, g.neutral
    for dist in range(1, limit + 1):
        nxt: list[tuple[str, tuple[str, ...]]] = []
        if len(frontier) > 1:
            frontier.sort(key=_borders_crossed)  # stable: the fewest hazardous borders first
        for a, borders in frontier:
            for n, hz in _fleet_steps(a, start, besieged):
                if n in seen or n in neutral or n in no_entry:
                    continue
                if n in sealed and a != g.cities[n].offshore:
                    continue  # 5.2: a besieged Port is entered only through its offshore sea
                path = (*borders, hz) if hz else borders
                at_sea = n in seas
                engaged = n in (enemy_seas if at_sea else enemy_land)
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
    token = u["token"]
    crossed = borders
    if forced:
        last = ""
        if borders and game_map().is_sea(via) and game_map().is_sea(dest) and (via, dest) in game_map().hazardous:
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
    touched = {area, u["area"]}
    u["area"], u["inside"] = area, False
    s.via[str(u["token"])] = via
    cargo = passenger_of(s, bid)
    if cargo is not None:
        c = s.units[cargo]
        touched.add(c["area"])
        c["area"], c["inside"] = area, False
        s.via[str(c["token"])] = via
        if c["token"] not in s.moved:
            s.moved.append(c["token"])
        if not game_map().is_sea(area):
            c["carrier"] = None  # landed with its fleet (5.2.1)
    touched.discard(None)
    refresh_occupancy(s, touched)


def boardable(s: State, bid: str) -> list[str]:
    """5.2.1: fleets that may carry this Greek land block: same area, not moved, CV above the block's, empty."""
    d, u = blocks()[bid], s.units[bid]
    if d.kind == "fleet" or not d.greek or u["carrier"] is not None:
        return []
    out = []
    for f in blocks_at(s).get(u["area"], ()):
        fu = s.units[f]
        if (fu["inside"] == u["inside"] and blocks()[f].kind == "fleet"
                and blocks()[f].side == d.side and fu["token"] not in s.moved and fu["cv"] > u["cv"]
                and passenger_of(s, f) is None):
            out.append(f)
    return out


def boardable_reduced(s: State, bid: str) -> list[str]:
    """5.2.1: fleets this Greek land block may board only by reducing its CV below the fleet's first (the
    player may do so): as :func:`boardable`, but the block's CV is not below the fleet's, and the fleet has CV 2
    or more so the block keeps at least 1."""
    d, u = blocks()[bid], s.units[bid]
    if d.kind == "fleet" or not d.greek or u["carrier"] is not None:
        return []
    out = []
    for f in blocks_at(s).get(u["area"], ()):
        fu = s.units[f]
        if (fu["inside"] == u["inside"] and blocks()[f].kind == "fleet"
                and blocks()[f].side == d.side and fu["token"] not in s.moved and 2 <= fu["cv"] <= u["cv"]
                and passenger_of(s, f) is None):
            out.append(f)
    return out


def group_blocks(s: State, area: str, side: str) -> list[str]:
    """4.1: the blocks of a side's Group in an area that have not moved this turn."""
    units, moved = s.units, s.moved
    return [b for b in blocks_at(s).get(area, ()) if units[b]["carrier"] is None
            and units[b]["token"] not in moved and side_of(b) == side]


def can_move(s: State, bid: str, occ: tuple[Occupancy, Occupancy] | None = None) -> bool:
    """True if the block has somewhere to go (or a fleet to board): the same as ``destinations`` being
    non-empty, without the search. A fleet always has a sea to enter; a land block needs one enterable land
    neighbour and must not be besieged (or it may board a fleet)."""
    u = s.units[bid]
    if u["carrier"] is not None or u["area"] is None:
        return False
    if is_fleet(bid):
        return True
    g = game_map()
    area = str(u["area"])
    if not g.is_sea(area) and not (u["inside"] and area in s.sieges) and any(
            n not in g.neutral and n not in s.no_entry for n in g.land_adj[area]):
        return True
    return bool(boardable(s, bid)) or bool(boardable_reduced(s, bid))


def move_label(s: State, a: Action, side: str) -> str:
    """'to Attica (Engage)', 'forced march to …'."""
    dest = str(a.arg)
    engage = enemy_fleet_at(s, dest, side) if game_map().is_sea(dest) else enemy_field(s, dest, side)
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
            acts = [act("block", b) for b in group_blocks(s, f["area"], f["seat"])
                    if s.units[b]["token"] not in f["skip"] and can_move(s, b)]
            return [*acts, act("done")]
        bid = by_token(s, f["cur"])
        dests = destinations(s, bid)
        acts = [act("forced" if r[1] else "to", d) for d, r in dests.items()]
        acts += [act("board", fl) for fl in boardable(s, bid)]
        acts += [act("board_reduce", fl) for fl in boardable_reduced(s, bid)]
        return [*acts, act("stay")]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "done":
            s.stack.pop()
            return
        if a.verb == "block":
            f["cur"] = s.units[str(a.arg)]["token"]
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
                s.units[bid]["cv"] = int(s.units[str(a.arg)]["cv"]) - 1
            s.units[bid]["carrier"] = str(a.arg)
            s.moved.append(cur)
        else:
            f["skip"].append(cur)
            cargo = passenger_of(s, bid)
            if cargo is not None and not game_map().is_sea(str(s.units[bid]["area"])):
                s.units[cargo]["carrier"] = None
        f["cur"] = None

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb in ("to", "forced"):
            return move_label(s, a, f["seat"])
        if a.verb == "board":
            return said("board {unit} (sea transport)", unit=unit(s, str(a.arg)))
        if a.verb == "board_reduce":
            return said("reduce to CV {cv} to board {unit} (sea transport)", cv=int(s.units[str(a.arg)]["cv"]) - 1,
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
        return [*(act("block", b) for b in self.candidates(s, f)), act("done")]

    def candidates(self, s: State, f: Frame) -> tuple[str, ...]:
        """The blocks that may still Muster (remembered from the previous step of the same Muster)."""
        known = s._muster
        if known is not None and known[0] == s.step and known[1] == f["city"]:
            return known[2]
        found = tuple(muster_candidates(s, f["seat"], f["city"]))
        s._muster = (s.step, f["city"], found)
        return found

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "done":
            s.stack.pop()
            return
        bid = str(a.arg)
        left = tuple(b for b in self.candidates(s, f) if b != bid)
        move_block(s, bid, f["city"], destinations(s, bid, muster=True, only=f["city"])[f["city"]])
        s._muster = (s.step + 1, f["city"], left)


Mover = tuple[str, str, bool, bool, int]
"""(block, area, inside a besieged City, fleet, allowance) of a block that may still move this turn."""


def movers(s: State, side: str) -> list[Mover]:
    """The side's blocks that may still move this turn, with what a Muster search needs to know of them."""
    units, moved, sieges = s.units, set(s.moved), s.sieges
    out = []
    for b, fleet, allowance in side_roster(side):
        u = units[b]
        area = u["area"]
        if area is None or u["carrier"] is not None or u["token"] in moved:
            continue
        out.append((b, area, bool(u["inside"]) and area in sieges, fleet, allowance))
    return out


def muster_candidates(s: State, side: str, city: str, occ: tuple[Occupancy, Occupancy] | None = None,
                      first_only: bool = False, pool: list[Mover] | None = None) -> list[str]:
    """Blocks that can Muster into ``city`` this turn (5.0: each within its allowance, entering no enemy area).

    No search per block: land blocks read the cached reach table of their start (:func:`land_reach`), fleets
    the cached sea distances (:func:`sea_distances`: the fewest steps through seas a Mustering fleet may
    enter, the same answer as :func:`destinations`)."""
    g = game_map()
    fields, fleets = occ or occupancy(s)
    enemy = "athens" if side == "sparta" else "sparta"
    if city in g.neutral or city in s.no_entry or enemy in fields.get(city, ()):
        return []
    pool = pool if pool is not None else movers(s, side)
    seas = g.sea_adj
    reach: LandReach | None = None
    dist: dict[str, dict[str, int]] | None = None
    coasts = g.coasts[city]
    out = []
    for b, area, besieged, fleet, allowance in pool:
        if area == city:
            continue
        if fleet:
            if dist is None:
                dist = sea_distances(s, enemy, fleets)
            if area in seas:
                steps = _via_sea(dist[area], coasts)
            elif besieged:
                off = str(g.cities[area].offshore)
                steps = 1 + _via_sea(dist[off], coasts) if _open_sea(s, off, enemy, fleets) else 99
            else:
                by_sea = [1 + _via_sea(dist[c], coasts) for c in g.coasts[area] if _open_sea(s, c, enemy, fleets)]
                steps = min([*by_sea, *([1] if city in g.coast_mates(area) else [])], default=99)
        elif besieged or area in seas:
            continue
        else:
            if reach is None:
                reach = land_reach(s, enemy, fields)
            if city not in reach(area)[allowance]:
                continue
            steps = allowance
        if steps <= allowance:
            out.append(b)
            if first_only:
                break
    return out


def _via_sea(d: dict[str, int], coasts: tuple[str, ...]) -> int:
    """Steps to a City with these coasts from a sea whose distances are ``d`` (99: out of reach)."""
    return min((1 + d[c] for c in coasts if c in d), default=99)


def _open_sea(s: State, sea: str, enemy: str, fleets: Occupancy) -> bool:
    """A sea a Mustering fleet may enter: open this turn and free of enemy fleets (in Winter enemy fleets do
    not bar the way home, 9.2.1)."""
    return sea not in s.no_entry and (enemy not in fleets.get(sea, ()) or is_winter(s))


def land_reach(s: State, enemy: str, fields: Occupancy) -> LandReach:
    """For Mustering land blocks: ``reach(area)[k]`` is the set of areas they may reach from ``area`` within
    ``k`` steps (5.0: through and into areas that are not Neutral, not closed this turn and free of enemy field
    blocks; the start itself excluded). A pure function of the closed areas, so cached across decisions."""
    if is_winter(s):
        closed = frozenset(s.no_entry)  # 9.2.1: Mustering home in Winter passes through enemy areas
    else:
        closed = frozenset((*(a for a, sides in fields.items() if enemy in sides), *s.no_entry))
    return partial(_land_reach, closed)


LandReach = Callable[[str], tuple[frozenset[str], ...]]


@lru_cache(maxsize=65536)
def _land_reach(closed: frozenset[str], start: str) -> tuple[frozenset[str], ...]:
    g = game_map()
    if start not in g.land_adj:
        return ()
    neutral = g.neutral
    top = _max_land_allowance()
    dist = {start: 0}
    frontier = [start]
    for step in range(1, top + 1):
        nxt = []
        for a in frontier:
            for n in g.land_adj[a]:
                if n not in dist and n not in closed and n not in neutral:
                    dist[n] = step
                    nxt.append(n)
        frontier = nxt
    return tuple(frozenset(a for a, d in dist.items() if 1 <= d <= k) for k in range(top + 1))


@cache
def _max_land_allowance() -> int:
    return max(allowance for _, _, fleet, allowance in roster() if not fleet)


def sea_distances(s: State, enemy: str, fleets: Occupancy) -> dict[str, dict[str, int]]:
    """From each sea: the fewest steps to every sea a Mustering fleet may pass into (free of enemy fleets
    and open to entry), the start itself at 0. What :func:`fleet_reaches` needs for every City at once."""
    return _sea_distances(closed_seas(s, enemy, fleets))


def closed_seas(s: State, enemy: str, fleets: Occupancy) -> frozenset[str]:
    """The seas a Mustering fleet may not pass: closed this turn, or held by enemy fleets (not in Winter,
    when a fleet going home to a friendly City passes through them, 9.2.1). The reach caches are keyed by
    this set, so a Winter answer is never served outside Winter or the other way round."""
    g = game_map()
    if is_winter(s):
        return frozenset(a for a in g.sea_adj if a in s.no_entry)
    return frozenset(a for a in g.sea_adj if a in s.no_entry or enemy in fleets.get(a, ()))


@cache
def _sea_distances(closed: frozenset[str]) -> dict[str, dict[str, int]]:
    """:func:`sea_distances` for a set of closed seas (a pure function of the map: cached; read-only)."""
    g = game_map()
    out: dict[str, dict[str, int]] = {}
    for start in g.sea_adj:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for a in frontier:
                step = dist[a] + 1
                for n in g.sea_adj[a]:
                    if n not in dist and n not in closed:
                        dist[n] = step
                        nxt.append(n)
            frontier = nxt
        out[start] = dist
    return out


def fleet_reach(s: State, enemy: str, fleets: Occupancy, pool: list[Mover]) -> set[str]:
    """The land areas some fleet in ``pool`` may Muster into (the fleet half of :func:`muster_candidates`
    for every City at once; the caller still checks that the City itself may be entered)."""
    closed = closed_seas(s, enemy, fleets)
    out: set[str] = set()
    for _, area, besieged, _, allowance in pool:
        out |= _fleet_reach(closed, area, besieged, allowance)
    return out


@lru_cache(maxsize=65536)
def _fleet_reach(closed: frozenset[str], area: str, besieged: bool, allowance: int) -> frozenset[str]:
    """The land areas a fleet standing in ``area`` may Muster into (not its own area)."""
    g = game_map()
    if g.is_sea(area):
        got = _shores_within(closed, area, allowance - 1)
    elif besieged:
        off = str(g.cities[area].offshore)
        got = _shores_within(closed, off, allowance - 2) if off not in closed else frozenset()
    else:
        got = frozenset().union(*(_shores_within(closed, c, allowance - 2) for c in g.coasts[area]
                                  if c not in closed))
        if allowance >= 1:
            got = got | frozenset(g.coast_mates(area))
    return got - {area}


@lru_cache(maxsize=65536)
def _shores_within(closed: frozenset[str], sea: str, steps: int) -> frozenset[str]:
    """Land areas on the shore of a sea at most ``steps`` sea moves from ``sea`` (through open seas)."""
    if steps < 0:
        return frozenset()
    g = game_map()
    dist = _sea_distances(closed)[sea]
    return frozenset(x for c, d in dist.items() if d <= steps for x in g.sea_shores[c])


def fleet_reaches(s: State, enemy: str, city: str, fleets: Occupancy, pool: list[Mover],
                  dist: dict[str, dict[str, int]]) -> bool:
    """True if one of the fleets in ``pool`` can Muster into ``city`` (the fleet half of
    :func:`muster_candidates`, with the sea distances of :func:`sea_distances`)."""
    g = game_map()
    coasts = g.coasts[city]

    def via_sea(sea: str) -> int:
        d = dist[sea]
        return min((1 + d[c] for c in coasts if c in d), default=99)

    def open_sea(a: str) -> bool:
        return _open_sea(s, a, enemy, fleets)

    for _, area, besieged, _, allowance in pool:
        if area == city:
            continue
        if g.is_sea(area):
            steps = via_sea(area)
        elif besieged:
            off = str(g.cities[area].offshore)
            steps = 1 + via_sea(off) if open_sea(off) else 99
        else:
            by_sea = [1 + via_sea(c) for c in g.coasts[area] if open_sea(c)]
            steps = min([*by_sea, *([1] if city in g.coast_mates(area) else [])], default=99)
        if steps <= allowance:
            return True
    return False


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
