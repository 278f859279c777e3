"""Small helpers every rule section uses: sides, dice, occupancy, placing and removing blocks, Prestige."""

from __future__ import annotations

from functools import cache
from typing import Any

from muster.core import rng
from muster.games.hellenes.datafiles import BlockData, blocks, design, game_map
from muster.games.hellenes.state import State

SEATS = ("athens", "sparta")
SIGN = {"sparta": 1, "athens": -1}
"""The Prestige track is signed: positive means Sparta leads."""


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
    return blocks()[bid].side


def is_fleet(bid: str) -> bool:
    """True for a fleet."""
    return blocks()[bid].kind == "fleet"


def on_map(s: State, side: str | None = None) -> list[str]:
    """Ids of the blocks on the map (of one side), in roster order."""
    return [b for b, u in s.units.items() if u["area"] is not None and (side is None or blocks()[b].side == side)]


def in_area(s: State, area: str, side: str) -> list[str]:
    """A side's blocks in an area (field, City and at sea alike)."""
    sides = _sides()
    return [b for b in blocks_at(s).get(area, ()) if sides[b] == side]


def field(s: State, area: str, side: str) -> list[str]:
    """A side's blocks in an area that are not inside its City (and not carried passengers)."""
    units, sides = s.units, _sides()
    out = []
    for b in blocks_at(s).get(area, ()):
        u = units[b]
        if not u["inside"] and u["carrier"] is None and sides[b] == side:
            out.append(b)
    return out


def inside(s: State, area: str, side: str) -> list[str]:
    """A side's blocks inside the City of an area."""
    units, sides = s.units, _sides()
    return [b for b in blocks_at(s).get(area, ()) if units[b]["inside"] and sides[b] == side]


def enemy_field(s: State, area: str, side: str) -> bool:
    """True if the enemy has unbesieged blocks in the area (entering it Engages them, 5.4)."""
    return other(side) in occupancy(s)[0].get(area, ())  # the sides of the blocks not inside a City


def blocks_at(s: State) -> dict[str, list[str]]:
    """The ids of the blocks in each area (in the field, inside its City, at sea, carried), in the order of
    ``s.units`` (read-only: kept in the state while :func:`occupancy` is, so until a block's area changes)."""
    fields = occupancy(s)[0]
    kept = s._where
    if kept is None or kept[0] is not fields:  # paired by the fields dict (a tuple may be a new box each read)
        _count(s)
        kept = s._where
        assert kept is not None
    return kept[1]


@cache
def _block_info() -> dict[str, tuple[str, bool]]:
    """(side, fleet?) of every block."""
    return {b: (side, fleet) for b, side, fleet, _ in roster()}


@cache
def _sides() -> dict[str, str]:
    return {b: d.side for b, d in blocks().items()}


Occupancy = dict[str, set[str]]


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
    info = _block_info()
    for i, (b, u) in enumerate(s.units.items()):
        position[b] = i
        a = u["area"]
        if a is None:
            continue
        if a in index:
            index[a].append(b)
        else:
            index[a] = [b]
        if not u["inside"]:
            _add(fields, fleets, a, info[b])
    occ = s._occ
    if occ is None:
        occ = s._occ = (fields, fleets)
    s._where = (occ[0], index, position)
    return occ


def _add(fields: Occupancy, fleets: Occupancy, area: str, info: tuple[str, bool]) -> None:
    side, fleet = info
    if area in fields:
        fields[area].add(side)
    else:
        fields[area] = {side}
    if fleet:
        if area in fleets:
            fleets[area].add(side)
        else:
            fleets[area] = {side}


def refresh_occupancy(s: State, areas: set[str]) -> None:
    """After blocks moved between ``areas``: recount only those areas in the cached :func:`occupancy` and
    :func:`blocks_at` (the same result as recounting everything; the cached dicts are shared by clones, so
    new ones are built). The blocks now in those areas were all in them before the move, so when the kept
    index is still current only they are looked at."""
    occ = s._occ
    if occ is None:
        return
    fields, fleets = dict(occ[0]), dict(occ[1])
    for a in areas:
        fields.pop(a, None)
        fleets.pop(a, None)
    kept = s._where
    if kept is None or kept[0] is not occ[0]:
        _tally(s, fields, fleets, areas)
        s._occ = (fields, fleets)
        return
    old, position = kept[1], kept[2]
    index = dict(old)
    members: list[str] = []
    for a in areas:
        members += index.pop(a, ())
    members.sort(key=position.__getitem__)
    units, info = s.units, _block_info()
    for b in members:
        u = units[b]
        a = u["area"]
        if a in index:
            index[a].append(b)
        else:
            index[a] = [b]
        if not u["inside"]:
            _add(fields, fleets, a, info[b])
    s._occ = (fields, fleets)
    s._where = (fields, index, position)


def _tally(s: State, fields: Occupancy, fleets: Occupancy, areas: set[str]) -> None:
    """Add the sides of the blocks in the field (and of the fleets) of ``areas``."""
    units = s.units
    for b, side, fleet, _ in roster():
        u = units[b]
        a = u["area"]
        if a is None or u["inside"] or a not in areas:
            continue
        _add(fields, fleets, a, (side, fleet))


@cache
def roster() -> tuple[tuple[str, str, bool, int], ...]:
    """(id, side, fleet?, movement allowance) of every block in roster order: what the hot loops need."""
    return tuple((b, d.side, d.kind == "fleet", _allowance(d.kind)) for b, d in blocks().items())


@cache
def side_roster(side: str) -> tuple[tuple[str, bool, int], ...]:
    """(id, fleet?, movement allowance) of one side's blocks in roster order."""
    return tuple((b, fleet, allowance) for b, b_side, fleet, allowance in roster() if b_side == side)


@cache
def _allowances() -> dict[str, int]:
    return {b: allowance for b, _, _, allowance in roster()}


def _allowance(kind: str) -> int:
    m = design()["movement"]
    return int(m["fleet"] if kind == "fleet" else m["cavalry"] if kind == "cavalry" else m["foot"])


def enemy_fleet_at(s: State, area: str, side: str) -> bool:
    """True if an enemy fleet is in the area (not inside a City; fleets are never carried)."""
    return other(side) in occupancy(s)[1].get(area, ())


def passenger_of(s: State, fleet: str) -> str | None:
    """The block a fleet carries, if any."""
    if blocks()[fleet].kind != "fleet":
        return None  # only fleets carry (5.2.1): no need to look
    for b, u in s.units.items():
        if u["carrier"] == fleet:
            return b
    return None


def token_of(s: State, bid: str) -> int:
    """A block's current token."""
    return int(s.units[bid]["token"])


def by_token(s: State, token: int) -> str:
    """The block standing under a token."""
    return s.tok[token]


def place(s: State, bid: str, area: str, cv: int, origin: str, inside_city: bool = False) -> None:
    """Put a block from the Pool on the map, under a fresh token."""
    u = s.units[bid]
    token = s.next_token
    s.next_token += 1
    u.update(area=area, cv=cv, inside=inside_city, carrier=None, token=token, known=False, seen=0, origin=origin)
    s._occ = None
    s.tok[token] = bid


def eliminate(s: State, bid: str) -> None:
    """A block goes back to its side's Pool (6.3.2); a fleet's passenger goes with it."""
    u = s.units[bid]
    if u["area"] is None:
        return
    cargo = passenger_of(s, bid)
    s.tok.pop(u["token"], None)
    u.update(area=None, cv=0, inside=False, carrier=None, token=0, known=False, seen=0, origin="")
    s._occ = None
    if cargo is not None:
        eliminate(s, cargo)


def lose_step(s: State, bid: str, public: bool = True) -> bool:
    """Take 1 CV from a block; True if it was eliminated. Public losses update what the enemy saw."""
    u = s.units[bid]
    u["cv"] -= 1
    if u["cv"] <= 0:
        eliminate(s, bid)
        return True
    if public and u["known"]:
        u["seen"] = u["cv"]
    cargo = passenger_of(s, bid)
    if cargo is not None and s.units[cargo]["cv"] >= u["cv"]:
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


def friendly_city(s: State, area: str, side: str) -> bool:
    """True if the area's City is controlled by ``side``."""
    return s.control.get(area) == side


def in_friendly_place(s: State, bid: str) -> bool:
    """True if a block stands in a friendly City (or a Barbarian in its home settlement): no Winter supply needed."""
    u, d = s.units[bid], blocks()[bid]
    area = u["area"]
    if area is None or u["carrier"] is not None:
        return False
    if not d.greek and area == d.home:
        return True
    return bool(s.control.get(area) == d.side)


def movement_allowance(bid: str) -> int:
    """Areas a block may enter in one move (DESIGN: 2 on foot, 3 cavalry, 4 fleets)."""
    return _allowances()[bid]


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
    city = game_map().cities.get(area)
    siege = s.sieges.get(area)
    if city is None or not city.port or siege is None or city.offshore is None:
        return False
    by = siege["by"]
    return enemy_fleet_at(s, city.offshore, other(by)) and not enemy_fleet_at(s, city.offshore, by)


def can_build_in(s: State, area: str, side: str) -> bool:
    """4.2: Builds need a friendly City, not besieged, or a besieged Port that is not blockaded."""
    if s.control.get(area) != side:
        return False
    if area in s.sieges and s.sieges[area]["by"] != side:
        city = game_map().cities[area]
        return city.port and not blockaded(s, area)
    return True


def public_block(s: State, bid: str) -> dict[str, Any]:
    """What a block shows to its owner."""
    u = s.units[bid]
    return {"id": bid, **u}
