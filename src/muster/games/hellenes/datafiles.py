"""Loading and validating the versioned Hellenes data files in ``data/`` (map, blocks, cards, scenario, design).

Every file is checked on load (unknown keys are errors, values have ranges) and across files
(adjacency symmetric, Ports' offshore seas on their coasts, homes on the map, …). The compiled
:class:`Map` gives the engine fast lookups.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DATA_PACKAGE = "muster.games.hellenes"
SIDES = ("athens", "sparta")


class DataError(ValueError):
    """A data file is missing, malformed or inconsistent."""


def read_json(name: str) -> Any:
    """Read one data file by name from the package."""
    try:
        text = resources.files(DATA_PACKAGE).joinpath("data", name).read_text(encoding="utf-8")
        return json.loads(text)
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read data file {name}: {exc}") from exc


class Strict(BaseModel):
    """Base for data models: unknown keys are errors, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class CityData(Strict):
    """A walled City: its seed number (Capacity, Militia, Tribute), Port flag and loyalty."""

    name: str
    value: int = Field(ge=1, le=4)
    port: bool
    offshore: str | None = None
    loyal: Literal["athens", "sparta", "neutral"]


class LandData(Strict):
    """A land area (Province); at most one City or settlement."""

    id: str
    name: str
    region: str
    coasts: list[str]
    land: list[str]
    x: float
    y: float
    city: CityData | None = None
    settlement: str | None = None
    neutral: bool = False


class SeaData(Strict):
    """A sea area and its sea borders (hazardous ones listed again under ``hazardous``)."""

    id: str
    name: str
    adjacent: list[str]
    hazardous: list[str]
    x: float
    y: float


class MapFile(Strict):
    """data/map.json."""

    version: int
    about: str
    land: list[LandData]
    seas: list[SeaData]


class BlockData(Strict):
    """One block: letter (agility), firepower, maximum CV, kind and home."""

    id: str
    name: str
    side: Literal["athens", "sparta"]
    letter: Literal["A", "B", "C", "E", "F"]
    fire: int = Field(ge=1, le=3)
    max_cv: int = Field(ge=1, le=4)
    kind: Literal["hoplite", "infantry", "archers", "cavalry", "fleet"]
    home: str
    greek: bool
    elite: bool = False
    rebel: Literal["aeolian", "macedonian"] | None = None
    requires: Literal["odrysian"] | None = None
    source: str


class BlocksFile(Strict):
    """data/blocks.json."""

    version: int
    about: str
    blocks: list[BlockData]


EVENTS = ("levy", "civil_war", "revolt", "treachery", "oracle", "plague", "helot", "odrysian", "brasidas", "storm")


class CardData(Strict):
    """One card: its Action value and its Event (playable as an Event only by ``side`` unless ``any``)."""

    number: int = Field(ge=1)
    actions: int = Field(ge=1, le=3)
    event: Literal["levy", "civil_war", "revolt", "treachery", "oracle", "plague", "helot", "odrysian",
                   "brasidas", "storm"]
    name: str
    side: Literal["any", "athens", "sparta"]
    text: str


class CardsFile(Strict):
    """data/cards.json."""

    version: int
    about: str
    cards: list[CardData]


class SiegeSetup(Strict):
    """A Siege on the map at the start."""

    besieger: Literal["athens", "sparta"]
    established: bool


class ScenarioFile(Strict):
    """data/scenario_431.json."""

    version: int
    name: str
    title: str
    first_year: int
    years: int = Field(ge=1, le=3)
    leaders: dict[Literal["athens", "sparta"], str]
    control: dict[str, Literal["athens", "sparta"]]
    loyal: dict[str, Literal["athens", "sparta"]]
    sieges: dict[str, SiegeSetup]
    blocks: dict[str, tuple[str, int]]
    inside: dict[str, tuple[str, int]]
    prestige: int
    tie_winner: Literal["athens", "sparta"]


@dataclass(frozen=True)
class Map:
    """The compiled map: ids, neighbours and city facts for fast lookups."""

    version: int
    land: tuple[str, ...]
    seas: tuple[str, ...]
    names: dict[str, str]
    land_adj: dict[str, tuple[str, ...]]
    coasts: dict[str, tuple[str, ...]]
    sea_adj: dict[str, tuple[str, ...]]
    sea_shores: dict[str, tuple[str, ...]]
    hazardous: frozenset[tuple[str, str]]
    cities: dict[str, CityData]
    settlements: dict[str, str]
    neutral: frozenset[str]
    regions: dict[str, str]
    xy: dict[str, tuple[float, float]]

    def is_sea(self, area: str) -> bool:
        """True for a sea area."""
        return area in self.sea_adj

    def coast_mates(self, area: str) -> tuple[str, ...]:
        """Adjacent land areas that share a sea with ``area`` (a fleet's one step along the coast, 5.1)."""
        return self._coast_mates[area]

    @cached_property
    def _coast_mates(self) -> dict[str, tuple[str, ...]]:
        out = {}
        for area in self.land_adj:
            mine = set(self.coasts.get(area, ()))
            out[area] = tuple(n for n in self.land_adj[area] if mine & set(self.coasts.get(n, ())))
        return out


@cache
def map_file() -> MapFile:
    """The validated map file."""
    return MapFile.model_validate(read_json("map.json"))


@cache
def game_map() -> Map:
    """The compiled, cross-checked map."""
    m = map_file()
    land = tuple(a.id for a in m.land)
    seas = tuple(s.id for s in m.seas)
    if len(set(land + seas)) != len(land) + len(seas):
        raise DataError("map.json: duplicate area ids")
    land_adj = {a.id: tuple(a.land) for a in m.land}
    sea_adj = {s.id: tuple(s.adjacent) for s in m.seas}
    for a, ns in land_adj.items():
        for n in ns:
            if n not in land_adj or a not in land_adj[n] or n == a:
                raise DataError(f"map.json: land border {a}-{n} is not symmetric")
    for sid, ns in sea_adj.items():
        for n in ns:
            if n not in sea_adj or sid not in sea_adj[n] or n == sid:
                raise DataError(f"map.json: sea border {sid}-{n} is not symmetric")
    hazardous: set[tuple[str, str]] = set()
    for sea in m.seas:
        for h in sea.hazardous:
            if h not in sea.adjacent:
                raise DataError(f"map.json: hazardous border {sea.id}-{h} is not a sea border")
            hazardous |= {(sea.id, h), (h, sea.id)}
    for x, y in hazardous:
        if x not in next(sd for sd in m.seas if sd.id == y).hazardous:
            raise DataError(f"map.json: hazardous border {x}-{y} listed on one side only")
    shores: dict[str, list[str]] = {sid: [] for sid in seas}
    for ld in m.land:
        for c in ld.coasts:
            if c not in shores:
                raise DataError(f"map.json: {ld.id} has an unknown coast {c}")
            shores[c].append(ld.id)
        if ld.city and ld.city.port and ld.city.offshore not in ld.coasts:
            raise DataError(f"map.json: the Port of {ld.id} has no offshore sea on its coasts")
        if ld.city and ld.city.port != (ld.city.offshore is not None):
            raise DataError(f"map.json: {ld.id}: a Port needs an offshore sea and only a Port has one")
    # connected: every area reachable from the first one through land borders, coasts and sea borders
    graph: dict[str, set[str]] = {x: set() for x in land + seas}
    for ld in m.land:
        graph[ld.id] |= set(ld.land) | set(ld.coasts)
        for c in ld.coasts:
            graph[c].add(ld.id)
    for sea in m.seas:
        graph[sea.id] |= set(sea.adjacent)
    seen, todo = {land[0]}, deque([land[0]])
    while todo:
        for n in graph[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(graph):
        raise DataError(f"map.json: not connected: {sorted(set(graph) - seen)}")
    return Map(
        version=m.version,
        land=land,
        seas=seas,
        names={**{a.id: a.name for a in m.land}, **{s.id: s.name for s in m.seas}},
        land_adj=land_adj,
        coasts={a.id: tuple(a.coasts) for a in m.land},
        sea_adj=sea_adj,
        sea_shores={s: tuple(v) for s, v in shores.items()},
        hazardous=frozenset(hazardous),
        cities={a.id: a.city for a in m.land if a.city},
        settlements={a.id: a.settlement for a in m.land if a.settlement},
        neutral=frozenset(a.id for a in m.land if a.neutral),
        regions={a.id: a.region for a in m.land},
        xy={**{a.id: (a.x, a.y) for a in m.land}, **{s.id: (s.x, s.y) for s in m.seas}},
    )


@cache
def blocks_file() -> BlocksFile:
    """The validated blocks file, cross-checked against the map."""
    f = BlocksFile.model_validate(read_json("blocks.json"))
    g = game_map()
    ids = [b.id for b in f.blocks]
    if len(set(ids)) != len(ids):
        raise DataError("blocks.json: duplicate block ids")
    for b in f.blocks:
        if b.home not in g.land:
            raise DataError(f"blocks.json: {b.id} has an unknown home {b.home}")
        if b.greek and b.home not in g.cities:
            raise DataError(f"blocks.json: Greek block {b.id} needs a home City")
        if not b.greek and b.home not in g.settlements:
            raise DataError(f"blocks.json: Barbarian block {b.id} needs a home settlement")
        if not b.greek and b.kind == "fleet":
            raise DataError(f"blocks.json: {b.id}: fleets are Greek")
    return f


@cache
def blocks() -> dict[str, BlockData]:
    """Block id → its data."""
    return {b.id: b for b in blocks_file().blocks}


@cache
def cards_file() -> CardsFile:
    """The validated deck."""
    f = CardsFile.model_validate(read_json("cards.json"))
    numbers = [c.number for c in f.cards]
    if numbers != list(range(1, len(numbers) + 1)):
        raise DataError("cards.json: cards must be numbered 1..N in order")
    return f


@cache
def cards() -> dict[int, CardData]:
    """Card number → card."""
    return {c.number: c for c in cards_file().cards}


@cache
def scenario() -> ScenarioFile:
    """The 431 scenario, cross-checked."""
    f = ScenarioFile.model_validate(read_json("scenario_431.json"))
    g, bl = game_map(), blocks()
    for bid, (area, cv) in {**f.blocks, **f.inside}.items():
        if bid not in bl or area not in g.land or not 1 <= cv <= bl[bid].max_cv:
            raise DataError(f"scenario_431.json: bad placement {bid} {area} {cv}")
        if bl[bid].kind == "fleet" and not g.coasts[area]:
            raise DataError(f"scenario_431.json: fleet {bid} inland")
    for area in (*f.control, *f.loyal, *f.sieges):
        if area not in g.cities:
            raise DataError(f"scenario_431.json: {area} has no City")
    return f


@cache
def design() -> dict[str, Any]:
    """Every DESIGN number (data/design.json), checked for the keys the engine reads."""
    d = read_json("design.json")
    need = ("version", "seasons", "hand_size", "movement", "storm", "tempest_max", "forced_march", "attrition_hit",
            "retreat_attrition_max", "fleet_on_land", "firing_order", "militia", "prestige",
            "levy_cv", "civil_war_max_value", "helot_loss_max", "storm_event", "leaders", "plague_from",
            "plague_kills_pericles_from", "revolt_regions", "aeolian_places", "macedonian_places", "capitals")
    missing = [k for k in need if k not in d]
    if missing:
        raise DataError(f"design.json lacks {missing}")
    if len(d["seasons"]) != 5 or set(d["storm"]) != set(d["seasons"]):
        raise DataError("design.json: five Seasons, each with a storm chance")
    g = game_map()
    for area in (*d["revolt_regions"], *d["aeolian_places"], *d["macedonian_places"], *d["capitals"].values()):
        if area not in g.land:
            raise DataError(f"design.json: unknown area {area}")
    return dict(d)
