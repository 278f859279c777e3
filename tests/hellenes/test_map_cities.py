"""The seed's table of subject cities on Hellenes' map: every City with its number, Port mark and region, each in
its own area, and the drawn map (data/coast.json) places each City inside its own area's region."""

from __future__ import annotations

import re

import pytest

from muster.games.hellenes.datafiles import game_map
from muster.games.hellenes.web import geometry

# The fragment's table (between 4.4 and 5.0), as printed: region, City, number, Port mark (the asterisk).
SEED_TABLE = [
    ("Euboea", "Chalcis", 3, True), ("Euboea", "Eretria", 2, False),
    ("Chalcidice", "Potidaea", 2, True), ("Chalcidice", "Torone", 2, True), ("Chalcidice", "Stagira", 1, False),
    ("Thrace", "Amphipolis", 3, True), ("Thrace", "Abdera", 1, True), ("Thrace", "Maronea", 2, False),
    ("Propontis", "Byzantium", 3, True), ("Propontis", "Abydos", 2, True), ("Propontis", "Cyzicus", 1, False),
    ("Propontis", "Sestos", 1, False),
    ("Ionia", "Miletus", 2, True), ("Ionia", "Ephesus", 3, True), ("Ionia", "Cyme", 2, False),
    ("Ionia", "Erythrae", 1, False), ("Ionia", "Cnidus", 1, True),
    ("Sporades", "Samos", 3, True), ("Sporades", "Rhodes", 2, True),
    ("Cyclades", "Naxos", 2, True), ("Cyclades", "Andros", 1, True),
    ("Western Islands", "Cephallenia", 1, False), ("Western Islands", "Zacynthos", 1, False),
    ("Aeolian Islands", "Chios", 3, True), ("Aeolian Islands", "Lesbos", 2, True),
]


def _city_area(name: str) -> str:
    """The area whose City is ``name`` (the table's "Lesbos" is the island's City, Mytilene)."""
    g = game_map()
    found = [a for a, c in g.cities.items() if c.name == name or (name == "Lesbos" and a == "lesbos")]
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def test_the_table_has_25_cities() -> None:
    assert len(SEED_TABLE) == 25 and len({c for _, c, _, _ in SEED_TABLE}) == 25


@pytest.mark.parametrize(("region", "name", "number", "port"), SEED_TABLE)
def test_every_city_of_the_seed_table_is_on_the_map(region: str, name: str, number: int, port: bool) -> None:
    g = game_map()
    area = _city_area(name)
    city = g.cities[area]
    assert (city.value, city.port, g.regions[area]) == (number, port, region)
    assert city.loyal == "athens"  # subject cities of Athens (the Aeolian islands are allies that can revolt)
    if port:  # a Port's offshore sea is one of its area's coasts
        assert city.offshore in g.coasts[area]


def test_each_city_has_an_area_of_its_own() -> None:
    areas = [_city_area(name) for _, name, _, _ in SEED_TABLE]
    assert len(set(areas)) == 25


def _rings(d: str) -> list[list[tuple[float, float]]]:
    """The closed rings of an SVG path made of M, L and Z commands."""
    return [[(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", ring)]
            for ring in d.split("M") if ring]


def _inside(point: tuple[float, float], d: str) -> bool:
    """Even-odd point-in-polygon over all rings of a path."""
    x, y = point
    hit = False
    for ring in _rings(d):
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
    return hit


def _near(point: tuple[float, float], d: str, within: float) -> bool:
    """The point is inside the path or within ``within`` pixels of one of its vertices (a City on the shore)."""
    x, y = point
    return _inside(point, d) or any((x - a) ** 2 + (y - b) ** 2 <= within ** 2 for ring in _rings(d) for a, b in ring)


def test_the_drawn_map_has_every_area_and_places_each_city_in_its_area() -> None:
    g = game_map()
    geo = geometry()
    assert "Natural Earth" in geo["about"]
    assert set(geo["areas"]) == set(g.land) and set(geo["seas"]) == set(g.seas)
    assert all(geo["areas"][a] for a in g.land) and all(geo["seas"][s] for s in g.seas)
    assert set(geo["cities"]) == set(g.cities)
    for area in g.cities:
        assert _near(tuple(geo["cities"][area]), geo["areas"][area], 6), area
    # the real places, through the projection: Athens at 23.73° E 37.97° N, Byzantium at 28.98° E 41.01° N
    p = geo["projection"]

    def lonlat(xy: list[float]) -> tuple[float, float]:
        return xy[0] / (p["cos"] * p["k"]) + p["lon0"], p["lat1"] - xy[1] / p["k"]

    for area, (lon, lat) in {"attica": (23.73, 37.97), "byzantium": (28.98, 41.01), "rhodes": (28.22, 36.43)}.items():
        got = lonlat(geo["cities"][area])
        assert abs(got[0] - lon) < 0.02 and abs(got[1] - lat) < 0.02, (area, got)
