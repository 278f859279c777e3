"""Small helpers every rule section uses: sides, dice, occupancy, placing and removing blocks, Prestige.

The map's and the roster's facts the rules read at every step are plain module constants here (typed,
``Final``): compiled, a read is a direct load and a typed dict lookup, not a call into the data models."""

from __future__ import annotations

from bisect import insort
from functools import cache
from typing import Any, Final, TypeVar

from muster.core import rng
from muster.games.hellenes.datafiles import BlockData, blocks, design, game_map
from muster.games.hellenes.state import RosterEntry, SideBlocks, State

SEATS = ("athens", "sparta")
SIGN = {"sparta": 1, "athens": -1}
"""The Prestige track is signed: positive means Sparta leads."""

_MAP: Final = game_map()
LAND_ADJ: Final[dict[str, tuple[str, ...]]] = _MAP.land_adj
"""Land area → its land neighbours (map order)."""
SEA_ADJ: Final[dict[str, tuple[str, ...]]] = _MAP.sea_adj
"""Sea → its sea neighbours."""
COASTS: Final[dict[str, tuple[str, ...]]] = _MAP.coasts
"""Land area → the seas on its coast."""
SEA_SHORES: Final[dict[str, tuple[str, ...]]] = _MAP.sea_shores
"""Sea → the land areas on its shore."""
SEAS: Final[frozenset[str]] = frozenset(_MAP.sea_adj)
"""Every sea area."""
NEUTRAL: Final[frozenset[str]] = _MAP.neutral
"""The Neutral land areas (never entered)."""
HAZARDOUS: Final[frozenset[tuple[str, str]]] = _MAP.hazardous
"""Hazardous sea borders, both ways."""
COAST_MATES: Final[dict[str, tuple[str, ...]]] = {a: _MAP.coast_mates(a) for a in _MAP.land_adj}
"""Land area → the adjacent land areas sharing a sea with it (a fleet's step along the coast, 5.1)."""
OFFSHORE: Final[dict[str, str]] = {a: c.offshore for a, c in _MAP.cities.items() if c.offshore is not None}
"""A Port's area → its offshore sea."""
CITY_VALUE: Final[dict[str, int]] = {a: c.value for a, c in _MAP.cities.items()}
"""A City's area → its value (Capacity, Militia, Tribute), in the map's City order."""

AREA_BIT: Final[dict[str, int]] = {a: 1 << i for i, a in enumerate((*_MAP.land, *_MAP.seas))}
"""Area → its bit in an area set held as an integer (the movement searches' keys: flat, hashed at once)."""
AREA_OF_BIT: Final[dict[int, str]] = {bit: a for a, bit in AREA_BIT.items()}
"""An area set's single bit → its area."""
SEA_MASK: Final = sum(AREA_BIT[a] for a in _MAP.seas)
"""Every sea, as an area set."""
ALL_AREAS: Final = sum(AREA_BIT.values())
"""Every area, as an area set."""


def areas_of(mask: int) -> list[str]:
    """The areas of an area set, in the map's order (land, then seas, each as the map lists them): a walk over
    its bits, for sets of a few areas."""
    out: list[str] = []
    while mask:
        low = mask & -mask
        out.append(AREA_OF_BIT[low])
        mask ^= low
    return out


def area_mask(areas: list[str]) -> int:
    """An area set of these areas (names that are no area are left out)."""
    out = 0
    for a in areas:
        out |= AREA_BIT.get(a, 0)
    return out


SIDE: Final[dict[str, str]] = {b: d.side for b, d in blocks().items()}
"""Block id → its side."""
FLEETS: Final[frozenset[str]] = frozenset(b for b, d in blocks().items() if d.kind == "fleet")
"""The fleets' ids."""
HOME: Final[dict[str, str]] = {b: d.home for b, d in blocks().items()}
"""Block id → its home area (a City, or a Barbarian's settlement)."""
GREEK: Final[frozenset[str]] = frozenset(b for b, d in blocks().items() if d.greek)
"""The Greek blocks' ids (the others are Barbarians)."""
BIT: Final[dict[str, int]] = {"athens": 1, "sparta": 2}
"""A side's bit in an :data:`Occupancy` value."""
ENEMY_BIT: Final[dict[str, int]] = {"athens": 2, "sparta": 1}
"""The opposing side's bit in an :data:`Occupancy` value."""


def other(side: str) -> str:
    """The opposing side."""
    return "athens" if side == "sparta" else "sparta"


def roll(s: State) -> int:
    """One d6 from the state's generator; the turn can no longer be undone."""
    s.rng, value = rng.below(s.rng, 6)
    s.tainted = True
    return value + 1


def bdata(bid: str) -> BlockData:
    """A block's printed data."""
    return blocks()[bid]


def side_of(bid: str) -> str:
    """A block's side."""
    return SIDE[bid]


def is_fleet(bid: str) -> bool:
    """True for a fleet."""
    return bid in FLEETS


def on_map(s: State, side: str | None = None) -> list[str]:
    """Ids of the blocks on the map (of one side), in roster order."""
    if side is not None:
        return [entry[0] for entry in side_blocks(s, side)[0]]
    return [b for b, u in s.units.items() if u.area is not None]


def in_area(s: State, area: str, side: str) -> list[str]:
    """A side's blocks in an area (field, City and at sea alike)."""
    out: list[str] = []
    for b in blocks_at(s).get(area, ()):
        if SIDE[b] == side:
            out.append(b)
    return out


def field(s: State, area: str, side: str) -> list[str]:
    """A side's blocks in an area that are not inside its City (and not carried passengers)."""
    units = s.units
    out: list[str] = []
    for b in blocks_at(s).get(area, ()):
        u = units[b]
        if not u.inside and u.carrier is None and SIDE[b] == side:
            out.append(b)
    return out


def inside(s: State, area: str, side: str) -> list[str]:
    """A side's blocks inside the City of an area."""
    units = s.units
    out: list[str] = []
    for b in blocks_at(s).get(area, ()):
        if units[b].inside and SIDE[b] == side:
            out.append(b)
    return out


def enemy_field(s: State, area: str, side: str) -> bool:
    """True if the enemy has unbesieged blocks in the area (entering it Engages them, 5.4)."""
    return bool(occupancy(s)[0].get(area, 0) & ENEMY_BIT[side])  # the sides of the blocks not inside a City


def blocks_at(s: State) -> dict[str, list[str]]:
    """The ids of the blocks in each area (in the field, inside its City, at sea, carried), in the order of
    ``s.units`` (read-only: kept in the state while :func:`occupancy` is, so until a block's area changes)."""
    fields = (s._occ or _count(s))[0]  # occupancy(s), read here without a call
    kept = s._where
    if kept is None or kept[0] is not fields:  # paired by the fields dict (a tuple may be a new box each read)
        _count(s)
        kept = s._where
        assert kept is not None
    return kept[1]


Occupancy = dict[str, int]
"""Area → the sides standing there as bits (:data:`BIT`: 1 Athens, 2 Sparta, 3 both; an area with none is
absent). Plain integers: a copy is one flat dict, and reading a side is one ``&``."""


def held(s: State, side: str) -> tuple[int, int]:
    """The areas where ``side`` has blocks in the field, and where it has fleets, as area sets
    (:data:`AREA_BIT`): the enemy positions the movement searches are keyed by, built once per
    :func:`occupancy` (shared by clones like it)."""
    occ = s._occ or _count(s)  # occupancy(s), read here without a call: the rules ask this at every step
    fields = occ[0]
    kept = s._held
    if kept is None or kept[0] is not fields:
        kept = s._held = (fields, {})
    got = kept[1].get(side)
    if got is None:
        bit = BIT[side]
        land = seas = 0
        for a, v in fields.items():
            if v & bit:
                land |= AREA_BIT[a]
        for a, v in occ[1].items():
            if v & bit:
                seas |= AREA_BIT[a]
        got = kept[1][side] = (land, seas)
    return got


def occupancy(s: State) -> tuple[Occupancy, Occupancy]:
    """The sides with blocks in the field of each area, and with fleets in each area (read-only: cached in
    the state until a block's area or City flag changes)."""
    occ = s._occ
    if occ is None:
        return _count(s)
    return occ


def _count(s: State) -> tuple[Occupancy, Occupancy]:
    """Count everything afresh: the occupancy and the blocks in each area (one pass over the blocks)."""
    fields: Occupancy = {}
    fleets: Occupancy = {}
    index: dict[str, list[str]] = {}
    position: dict[str, int] = {}
    i = 0
    for b, u in s.units.items():
        position[b] = i
        i += 1
        a = u.area
        if a is None:
            continue
        if a in index:
            index[a].append(b)
        else:
            index[a] = [b]
        if not u.inside:
            bit = _BITS[b]
            fields[a] = fields.get(a, 0) | bit
            if b in FLEETS:
                fleets[a] = fleets.get(a, 0) | bit
    occ = s._occ
    if occ is None:
        occ = s._occ = (fields, fleets)
        s._own_occ = True
    s._where = (occ[0], index, position)
    return occ


_BITS: Final[dict[str, int]] = {b: BIT[side] for b, side in SIDE.items()}


def refresh_occupancy(s: State, areas: set[str] | tuple[str, ...], arrived: str | None = None) -> None:
    """After blocks moved between ``areas``, stepped in or out of a City there, or left the map from them:
    recount only those areas in the cached :func:`occupancy` and :func:`blocks_at` (the same result as
    recounting everything; the cached dicts are shared by clones, so new ones are built). ``arrived``: a block
    just placed from the Pool into one of them. Every block now in those areas was in them before or is
    ``arrived``, so when the kept index is still current only they are looked at."""
    occ = s._occ
    if occ is None:
        return
    fields, fleets = occ[0].copy(), occ[1].copy()
    for a in areas:
        fields.pop(a, None)
        fleets.pop(a, None)
    kept = s._where
    units = s.units
    if kept is None or kept[0] is not occ[0]:
        for b, u in units.items():
            # its own name: compiled code types a local by its first binding (``a`` is a ``str`` from ``areas``)
            where = u.area
            if where is None or u.inside or where not in areas:
                continue
            bit = _BITS[b]
            fields[where] = fields.get(where, 0) | bit
            if b in FLEETS:
                fleets[where] = fleets.get(where, 0) | bit
        s._occ = (fields, fleets)
        s._own_occ = True
        return
    old, position = kept[1], kept[2]
    index = old.copy()
    members: list[str] = []
    for a in areas:
        if a in index:
            members.extend(index.pop(a))
    if arrived is not None:
        members.append(arrived)
    if len(members) > 1:
        members.sort(key=position.__getitem__)
    same_blocks = arrived is None  # the same blocks on the map as before (none placed, none back in the Pool)
    for b in members:
        u = units[b]
        where = u.area
        if where is None:  # back in the Pool
            same_blocks = False
            continue
        if where in index:
            index[where].append(b)
        else:
            index[where] = [b]
        if not u.inside:
            bit = _BITS[b]
            fields[where] = fields.get(where, 0) | bit
            if b in FLEETS:
                fleets[where] = fleets.get(where, 0) | bit
    kept_sides = s._sides
    s._occ = (fields, fleets)
    s._where = (fields, index, position)
    s._own_occ = True
    if same_blocks and kept_sides is not None and kept_sides[0] is occ[0]:
        s._sides = (fields, kept_sides[1])  # blocks only stepped into or out of a City: the lists hold
    kept_held = s._held
    if kept_held is not None and kept_held[0] is occ[0] and kept_held[1]:
        # a side's positions (:func:`held`) stay as they were unless its bits changed in the areas recounted
        # (a move changes one side's)
        old_fields, old_fleets = occ
        changed = 0  # the sides whose bits changed somewhere
        for a in areas:
            changed |= (old_fields.get(a, 0) ^ fields.get(a, 0)) | (old_fleets.get(a, 0) ^ fleets.get(a, 0))
        carry: dict[str, tuple[int, int]] = {}
        for side, got in kept_held[1].items():
            if not changed & BIT[side]:
                carry[side] = got
        s._held = (fields, carry)


_T = TypeVar("_T")


def remember(cache: dict[int, _T], key: int, value: _T, size: int = 65536) -> _T:
    """Keep ``value`` under ``key`` in one of the rules' integer-keyed caches and return it; a cache that has grown
    to ``size`` is emptied first (situations seldom seen again are dropped together)."""
    if len(cache) >= size:
        cache.clear()
    cache[key] = value
    return value


def shift_occupancy(s: State, moved: list[tuple[str, str | None]], dest: str) -> None:
    """After the blocks of ``moved`` (each with the area it left) were put in ``dest``, outside its City: update
    the kept :func:`occupancy`, :func:`blocks_at` and :func:`held` for just them (the answers
    :func:`refresh_occupancy` of the areas they left and ``dest`` gives). A block joins ``dest``'s list at its
    roster place and leaves the lists of the areas it left; only those areas are counted again, so a Muster
    into a crowded City does not recount every block already there at each arrival."""
    occ = s._occ
    if occ is None:
        return
    kept = s._where
    if kept is not None and kept[0] is occ[0]:
        left: list[str] = []  # the areas left, each once
        for _, was in moved:
            if was is None:
                break  # a block from the Pool
            if was != dest and was not in left:
                left.append(was)
        else:
            _shift(s, occ, kept, moved, left, dest)
            return
    touched = {dest}  # otherwise (a block from the Pool, or no index kept) the general recount
    for _, was in moved:
        if was is not None:
            touched.add(was)
    refresh_occupancy(s, touched)


def _shift(s: State, occ: tuple[Occupancy, Occupancy], kept: tuple[dict[str, int], dict[str, list[str]],
           dict[str, int]], moved: list[tuple[str, str | None]], left: list[str], dest: str) -> None:
    """:func:`shift_occupancy` with the kept index current and every block coming from the map. The kept dicts
    are changed in place when this state alone holds them (``State._own_occ``), else copied first; an area's
    list of blocks is always a new list, so one handed out before stays as it was."""
    owned = s._own_occ
    fields, fleets = occ if owned else (occ[0].copy(), occ[1].copy())
    index, position = (kept[1] if owned else kept[1].copy()), kept[2]
    kept_held = s._held
    watch = kept_held is not None and kept_held[0] is occ[0] and bool(kept_held[1])
    changed = 0  # the sides whose bits change in the areas touched (for :func:`held`)
    units = s.units
    ids: list[str] = []
    for b, _ in moved:
        ids.append(b)
    for a in left:  # the areas left: their remaining blocks counted again (few, as a rule)
        rest = list(index.get(a, ()))
        for b in ids:
            if b in rest:
                rest.remove(b)
        field_bits = fleet_bits = 0
        for b in rest:
            if not units[b].inside:
                bit = _BITS[b]
                field_bits |= bit
                if b in FLEETS:
                    fleet_bits |= bit
        if rest:
            index[a] = rest
        else:
            index.pop(a, None)
        if watch:
            changed |= (fields.get(a, 0) ^ field_bits) | (fleets.get(a, 0) ^ fleet_bits)
        _put(fields, a, field_bits)
        _put(fleets, a, fleet_bits)
    # the destination: the newcomers added at their roster places, their sides to its bits
    here = list(index.get(dest, ()))
    was_field, was_fleet = fields.get(dest, 0), fleets.get(dest, 0)
    field_bits, fleet_bits = was_field, was_fleet
    for b in ids:
        bit = _BITS[b]
        field_bits |= bit
        if b in FLEETS:
            fleet_bits |= bit
        if b not in here:
            insort(here, b, key=position.__getitem__)  # the list is in roster order: a binary search
    index[dest] = here
    if field_bits != was_field:
        fields[dest] = field_bits  # bits are only added here: never to none
    if fleet_bits != was_fleet:
        fleets[dest] = fleet_bits
    if not owned:
        kept_sides = s._sides
        s._occ = (fields, fleets)
        s._where = (fields, index, position)
        s._own_occ = True
        if kept_sides is not None and kept_sides[0] is occ[0]:
            s._sides = (fields, kept_sides[1])  # a move leaves every block on the map: the lists hold
    if not watch or kept_held is None:
        if not owned:
            s._held = None
        return
    changed |= (was_field ^ field_bits) | (was_fleet ^ fleet_bits)
    if owned:  # a side's positions stay as they were unless its bits changed (a move changes one side's)
        for side in SEATS:
            if changed & BIT[side]:
                kept_held[1].pop(side, None)
        return
    carry: dict[str, tuple[int, int]] = {}
    for side, got in kept_held[1].items():
        if not changed & BIT[side]:
            carry[side] = got
    s._held = (fields, carry)


def _put(bits_by_area: Occupancy, area: str, bits: int) -> None:
    """Set an area's bits in an occupancy dict (an area with none is absent)."""
    if bits:
        bits_by_area[area] = bits
    else:
        bits_by_area.pop(area, None)


@cache
def roster() -> tuple[tuple[str, str, bool, int], ...]:
    """(id, side, fleet?, movement allowance) of every block in roster order: what the hot loops need."""
    return tuple((b, d.side, d.kind == "fleet", _allowance(d.kind)) for b, d in blocks().items())


def side_roster(side: str) -> tuple[RosterEntry, ...]:
    """(id, fleet?, movement allowance) of one side's blocks in roster order."""
    return _SIDE_ROSTERS[side]


def side_blocks(s: State, side: str) -> SideBlocks:
    """A side's blocks on the map (their :func:`side_roster` entries) and the ids of its blocks in the Pool, each
    in roster order (read-only). Kept per :func:`occupancy`, as :func:`held` is: a block enters or leaves the map
    only through :func:`place` or :func:`eliminate`, whose recount replaces the occupancy, while a move keeps
    both sides' lists; so the Action menu's checks walk the side's blocks on the map, not its whole roster."""
    fields = (s._occ or _count(s))[0]  # occupancy(s), read here without a call
    kept = s._sides
    if kept is None or kept[0] is not fields:
        kept = s._sides = (fields, {})
    got = kept[1].get(side)
    if got is None:
        units = s.units
        on: list[RosterEntry] = []
        off: list[str] = []
        for entry in _SIDE_ROSTERS[side]:
            if units[entry[0]].area is None:
                off.append(entry[0])
            else:
                on.append(entry)
        got = kept[1][side] = (tuple(on), tuple(off))
    return got


def _allowance(kind: str) -> int:
    m = design()["movement"]
    return int(m["fleet"] if kind == "fleet" else m["cavalry"] if kind == "cavalry" else m["foot"])


def enemy_fleet_at(s: State, area: str, side: str) -> bool:
    """True if an enemy fleet is in the area (not inside a City; fleets are never carried)."""
    return bool(occupancy(s)[1].get(area, 0) & ENEMY_BIT[side])


def passenger_of(s: State, fleet: str) -> str | None:
    """The block a fleet carries, if any (looked for among the blocks in the fleet's area: a passenger
    always stands where its fleet does, 5.2.1)."""
    if fleet not in FLEETS:
        return None  # only fleets carry (5.2.1): no need to look
    area = s.units[fleet].area
    if area is None:
        return None
    units = s.units
    for b in blocks_at(s).get(area, ()):
        if units[b].carrier == fleet:
            return b
    return None


def token_of(s: State, bid: str) -> int:
    """A block's current token."""
    return s.units[bid].token


def by_token(s: State, token: int) -> str:
    """The block standing under a token."""
    return s.tok[token]


def place(s: State, bid: str, area: str, cv: int, origin: str, inside_city: bool = False) -> None:
    """Put a block from the Pool on the map, under a fresh token."""
    u = s.units[bid]
    token = s.next_token
    s.next_token += 1
    u.area, u.cv, u.inside, u.carrier = area, cv, inside_city, None
    u.token, u.known, u.seen, u.origin = token, False, 0, origin
    refresh_occupancy(s, (area,), bid)
    s.tok[token] = bid


def eliminate(s: State, bid: str) -> None:
    """A block goes back to its side's Pool (6.3.2); a fleet's passenger goes with it."""
    u = s.units[bid]
    if u.area is None:
        return
    cargo = passenger_of(s, bid)
    s.tok.pop(u.token, None)
    area = u.area
    u.area, u.cv, u.inside, u.carrier = None, 0, False, None
    u.token, u.known, u.seen, u.origin = 0, False, 0, ""
    refresh_occupancy(s, (area,))
    if cargo is not None:
        eliminate(s, cargo)


def lose_step(s: State, bid: str, public: bool = True) -> bool:
    """Take 1 CV from a block; True if it was eliminated. Public losses update what the enemy saw."""
    u = s.units[bid]
    u.cv -= 1
    if u.cv <= 0:
        eliminate(s, bid)
        return True
    if public and u.known:
        u.seen = u.cv
    cargo = passenger_of(s, bid)
    if cargo is not None and s.units[cargo].cv >= u.cv:
        # 5.2.3: the passenger stays below its fleet's CV
        lose_step(s, cargo, public)
    return False


def gain_prestige(s: State, side: str, amount: int, why: str | dict[str, Any]) -> None:
    """Move the signed Prestige track toward ``side`` (14.0; DESIGN limit ±20)."""
    limit = design()["prestige"]["limit"]
    s.prestige = max(-limit, min(limit, s.prestige + SIGN[side] * amount))
    s.say("{side} +{amount} Prestige ({why}); Prestige {prestige}.", side=side, amount=amount, why=why,
          prestige=s.prestige)


def prestige_words(value: int) -> str:
    """The track in words."""
    if value == 0:
        return "level"
    return f"Sparta +{value}" if value > 0 else f"Athens +{-value}"


def city_lists(s: State) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int, int]:
    """The Cities Athens holds, those Sparta holds, and the captured ones (held by a side against their loyalty to
    the other), each in the order of ``State.control``, then Athens' and Sparta's Cities as area sets
    (:data:`AREA_BIT`); kept in the state until a City changes hands or loyalty (read-only)."""
    kept = s._cities
    if kept is None:
        athens: list[str] = []
        sparta: list[str] = []
        captured: list[str] = []
        loyal = s.loyal
        for area, holder in s.control.items():
            if holder == "athens":
                athens.append(area)
            elif holder == "sparta":
                sparta.append(area)
            was = loyal.get(area)
            if was != holder and (was == "athens" or was == "sparta"):
                captured.append(area)
        kept = s._cities = (tuple(athens), tuple(sparta), tuple(captured), area_mask(athens), area_mask(sparta))
    return kept


def cities_of(s: State, side: str) -> tuple[str, ...]:
    """The Cities ``side`` holds, in the order of ``State.control``."""
    lists = city_lists(s)
    return lists[0] if side == "athens" else lists[1]


def set_control(s: State, area: str, side: str) -> None:
    """A City changes hands: the one way the rules write ``State.control`` (the kept :func:`city_lists` follow)."""
    s.control[area] = side
    s._cities = None


def cities_changed(s: State) -> None:
    """After ``State.control`` or ``State.loyal`` was written directly (a test building a position, setup): the
    kept :func:`city_lists` are counted again at their next use."""
    s._cities = None


def friendly_city(s: State, area: str, side: str) -> bool:
    """True if the area's City is controlled by ``side``."""
    return s.control.get(area) == side


def in_friendly_place(s: State, bid: str) -> bool:
    """True if a block stands in a friendly City (or a Barbarian in its home settlement): no Winter supply needed."""
    u = s.units[bid]
    area = u.area
    if area is None or u.carrier is not None:
        return False
    if bid not in GREEK and area == HOME[bid]:
        return True
    return bool(s.control.get(area) == SIDE[bid])


def movement_allowance(bid: str) -> int:
    """Areas a block may enter in one move (DESIGN: 2 on foot, 3 cavalry, 4 fleets)."""
    return _ALLOWANCES[bid]


_SIDE_ROSTERS: Final[dict[str, tuple[RosterEntry, ...]]] = {
    side: tuple((b, fleet, allowance) for b, b_side, fleet, allowance in roster() if b_side == side)
    for side in SEATS}
_ALLOWANCES: Final[dict[str, int]] = {b: allowance for b, _, _, allowance in roster()}


def season_name(s: State) -> str:
    """The current Season's name (or New Year)."""
    return "New Year" if s.season < 0 else str(design()["seasons"][s.season])


def is_winter(s: State) -> bool:
    """True in the fifth Season."""
    return s.season == 4


def militia_active(s: State, area: str) -> bool:
    """DESIGN 7.2: a City defends itself with its Militia while its loyal side holds it and has no block inside."""
    if s.militia.get(area, 0) <= 0:
        return False
    loyal = s.loyal.get(area)
    return s.control.get(area) == loyal and not (loyal is not None and inside(s, area, loyal))


def defenders_inside(s: State, area: str) -> tuple[list[str], int]:
    """The blocks inside a City (of its controller) and the Militia CV that defends it."""
    holder = s.control.get(area)
    if holder is None or holder == "neutral":
        return [], 0
    blocks_in = inside(s, area, holder)
    return blocks_in, (s.militia.get(area, 0) if militia_active(s, area) else 0)


def established(s: State, area: str) -> bool:
    """A Siege laid in an earlier Season (7.2: Assault, Attrition and Pillage need it)."""
    siege = s.sieges.get(area)
    return siege is not None and int(siege["since"]) < s.season_index()


def blockaded(s: State, area: str) -> bool:
    """8.2.1 (DESIGN): a besieged Port is blockaded when the besieger has a fleet in its offshore sea and
    the besieged side has none there."""
    offshore = OFFSHORE.get(area)  # Ports only
    siege = s.sieges.get(area)
    if offshore is None or siege is None:
        return False
    # the besieger's fleet there and none of the besieged side's
    return occupancy(s)[1].get(offshore, 0) & (BIT["athens"] | BIT["sparta"]) == BIT[siege["by"]]


def can_build_in(s: State, area: str, side: str) -> bool:
    """4.2: Builds need a friendly City, not besieged, or a besieged Port that is not blockaded."""
    if s.control.get(area) != side:
        return False
    if area in s.sieges and s.sieges[area]["by"] != side:
        return area in OFFSHORE and not blockaded(s, area)  # a Port
    return True


def public_block(s: State, bid: str) -> dict[str, Any]:
    """What a block shows to its owner."""
    return {"id": bid, **s.units[bid].to_json()}
