"""Draw Hellenes' map of Greece from real coastlines: writes ``src/muster/games/hellenes/data/coast.json``.

Run by hand when ``map.json`` or the drawing changes; the game only reads the JSON it writes. It needs two things
that the game itself does not:

* the coastlines: Natural Earth's 1:10m land polygons (public domain, naturalearthdata.com), as the TopoJSON
  ``land-10m.json`` of the npm package ``world-atlas`` 2.0.2 (``npm pack world-atlas@2.0.2``);
* ``shapely`` (``pip install shapely``) for the geometry.

``python scripts/hellenes_map.py path/to/land-10m.json``

What it does: cuts the coastlines to the Aegean, projects them (an equirectangular projection whose horizontal
scale is true at 38.5° N, so that shapes look right at this latitude), divides each landmass among the areas whose
places stand on it (the Voronoi cells of the areas' label points, so borders fall half-way between neighbours;
off-map peoples such as Persia and Epirus get cells of their own, drawn as land nobody can enter), divides the
water among the sea areas the same way, and simplifies every outline to about half a pixel.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from shapely.geometry import MultiPoint, MultiPolygon, Point, Polygon, box
from shapely.ops import unary_union, voronoi_diagram

DATA = Path(__file__).resolve().parents[1] / "src/muster/games/hellenes/data"
LON0, LON1, LAT0, LAT1 = 19.2, 29.4, 35.85, 41.95
K = 150.0  # pixels per degree of latitude
COS = math.cos(math.radians(38.5))
TOLERANCE = 0.5  # pixels

# Where each City really stood (longitude, latitude): the marker on the map.
CITIES = {
    "laconia": (22.43, 37.08), "messenia": (21.67, 36.91), "arcadia": (22.41, 37.46), "elis": (21.38, 37.89),
    "achaea": (22.55, 38.04), "argolis": (22.73, 37.63), "corinthia": (22.88, 37.91), "megaris": (23.35, 38.0),
    "attica": (23.73, 37.97), "plataea": (23.27, 38.22), "boeotia": (23.32, 38.32), "naupactus": (21.83, 38.39),
    "acarnania": (21.32, 38.67), "corcyra": (19.92, 39.62), "euboea": (23.60, 38.46), "chalcidice": (23.33, 40.19),
    "amphipolis": (23.84, 40.82), "thrace": (25.51, 40.87), "lesbos": (26.55, 39.11), "chios": (26.14, 38.37),
    "ionia": (27.34, 37.94), "samos": (26.94, 37.69), "cyclades": (25.38, 37.10), "eretria": (23.79, 38.39),
    "torone": (23.90, 39.98), "stagira": (23.75, 40.53), "abdera": (24.98, 40.94), "sestos": (26.39, 40.24),
    "byzantium": (28.98, 41.01), "abydos": (26.42, 40.18), "cyzicus": (27.88, 40.39), "cyme": (26.94, 38.76),
    "erythrae": (26.49, 38.38), "miletus": (27.28, 37.53), "cnidus": (27.37, 36.69), "rhodes": (28.22, 36.43),
    "andros": (24.82, 37.83), "cephallenia": (20.65, 38.25), "zacynthos": (20.90, 37.78),
}
SETTLEMENTS = {"macedonia": (22.52, 40.76), "lyncus": (21.35, 41.01), "thrace": (25.45, 41.55)}
# The label point of each land area (its name and blocks stand there) and the seed of its region.
LABELS = {
    "laconia": (22.6, 36.9), "messenia": (21.85, 37.2), "arcadia": (22.2, 37.55), "elis": (21.5, 37.75),
    "achaea": (22.2, 38.05), "argolis": (22.95, 37.6), "corinthia": (22.9, 37.8), "megaris": (23.3, 38.03),
    "attica": (23.9, 38.05), "plataea": (23.3, 38.2), "boeotia": (23.35, 38.42), "phocis": (22.5, 38.6),
    "naupactus": (21.9, 38.5), "aetolia": (21.6, 38.8), "acarnania": (21.1, 38.75), "corcyra": (19.85, 39.65),
    "euboea": (23.4, 38.65), "eretria": (24.2, 38.4), "thessaly": (22.3, 39.5), "macedonia": (22.35, 40.55),
    "lyncus": (21.6, 40.95), "chalcidice": (23.2, 40.3), "torone": (23.85, 40.1), "stagira": (23.6, 40.6),
    "amphipolis": (23.9, 41.05), "abdera": (24.8, 41.1), "thrace": (25.7, 41.25), "sestos": (26.45, 40.4),
    "byzantium": (28.6, 41.2), "abydos": (26.65, 39.9), "cyzicus": (27.8, 40.25), "cyme": (27.15, 38.95),
    "erythrae": (26.4, 38.35), "ionia": (27.45, 38.0), "miletus": (27.45, 37.45), "cnidus": (27.9, 37.0),
    "lesbos": (26.25, 39.2), "chios": (26.0, 38.4), "samos": (26.8, 37.72), "cyclades": (25.4, 37.05),
    "andros": (24.8, 37.85), "rhodes": (27.95, 36.2), "cephallenia": (20.55, 38.2), "zacynthos": (20.8, 37.75),
}
# Land that no area covers: off-map peoples (cells of their own) and the name drawn on them.
OFF_MAP = {
    "epirus": ("Epirus", [(20.75, 39.85)]), "illyria": ("Illyria", [(19.9, 40.9)]),
    "paeonia": ("Paeonia", [(22.6, 41.7)]),
    "persia": ("Persian Empire", [(28.35, 38.7), (28.5, 39.6), (28.2, 38.0), (28.5, 37.3), (29.0, 40.1), (28.8, 36.8),
                                  (29.2, 39.0)]),
}
# Seeds of the sea areas (several where a sea is long or wraps round a coast).
SEA_SEEDS = {
    "ionian": [(20.2, 38.0), (19.6, 39.3), (21.0, 37.3), (20.8, 36.5)],
    "corinthian": [(22.4, 38.2), (21.7, 38.3), (21.4, 38.2)],
    "saronic": [(23.45, 37.75)],
    "myrtoan": [(23.4, 36.9), (22.85, 37.35), (22.6, 36.6), (24.0, 36.3)],
    "euboean": [(23.0, 38.85), (23.55, 38.5), (23.85, 38.2)],
    "north_aegean": [(24.2, 40.2), (22.9, 40.3), (24.0, 39.5), (25.4, 40.6), (23.6, 39.8), (25.3, 40.0)],
    "aegean": [(25.2, 38.6), (24.6, 37.7), (25.6, 39.3), (26.4, 39.6)],
    "icarian": [(26.5, 37.3), (25.8, 36.5), (27.0, 37.1), (26.3, 37.7)],
    "propontis": [(27.8, 40.7), (26.55, 40.3), (28.6, 40.8)],
    "rhodian": [(27.5, 36.3), (28.6, 36.6), (26.9, 36.2)],
}


def px(lon: float, lat: float) -> tuple[float, float]:
    """Projected map coordinates of a place (pixels, y down)."""
    return ((lon - LON0) * COS * K, (LAT1 - lat) * K)


def decode(topo: dict) -> list[Polygon]:
    """The land polygons of a TopoJSON topology, projected."""
    sx, sy = topo["transform"]["scale"]
    tx, ty = topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(indices: list[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indices:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        return out

    polys = []
    for geom in topo["objects"]["land"]["geometries"]:
        parts = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
        for part in parts:
            rings = [ring(r) for r in part]
            lons = [p[0] for p in rings[0]]
            lats = [p[1] for p in rings[0]]
            if max(lons) < LON0 - 1 or min(lons) > LON1 + 1 or max(lats) < LAT0 - 1 or min(lats) > LAT1 + 1:
                continue
            proj = [[px(*p) for p in r] for r in rings]
            polys.append(Polygon(proj[0], proj[1:]).buffer(0))
    return polys


def path_d(geom) -> str:
    """An SVG path for a polygon or multipolygon, coordinates to one decimal."""
    geoms = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    out = []
    for g in geoms:
        if g.is_empty or g.area < 2.0:  # specks under 2 square pixels are noise at this scale
            continue
        for r in (g.exterior, *g.interiors):
            pts = list(r.coords)[:-1]
            out.append("M" + "L".join(f"{x:.1f},{y:.1f}" for x, y in pts) + "Z")
    return "".join(out)


def cells(seeds: dict[str, list[tuple[float, float]]], within) -> dict[str, object]:
    """Each key's share of ``within``: the union of its seeds' Voronoi cells, clipped."""
    flat = [(k, Point(px(*p))) for k, pts in seeds.items() for p in pts]
    diagram = voronoi_diagram(MultiPoint([p for _, p in flat]), envelope=within.envelope.buffer(2000))
    parts: dict[str, list] = {k: [] for k in seeds}
    for cell in diagram.geoms:
        key = next(k for k, p in flat if cell.contains(p))
        parts[key].append(cell)
    return {k: unary_union(v).intersection(within) for k, v in parts.items()}


def main(source: str) -> None:
    topo = json.loads(Path(source).read_text())
    frame = box(0, 0, (LON1 - LON0) * COS * K, (LAT1 - LAT0) * K)
    land = unary_union([p for p in decode(topo) if p.intersects(frame)]).intersection(frame)
    pieces = list(land.geoms) if isinstance(land, MultiPolygon) else [land]
    areas: dict[str, list] = {a: [] for a in LABELS}
    off: dict[str, list] = {a: [] for a in OFF_MAP}
    seeds = {**{a: [p] for a, p in LABELS.items()}, **{k: pts for k, (_, pts) in OFF_MAP.items()}}
    for piece in pieces:
        mine = {k: pts for k, pts in seeds.items()
                if any(piece.distance(Point(px(*p))) < 3 for p in pts)
                or (k in CITIES and piece.distance(Point(px(*CITIES[k]))) < 3)}
        if not mine:
            continue  # an island no area claims: land, but nobody's
        if len(mine) == 1:
            k = next(iter(mine))
            (areas if k in areas else off)[k].append(piece)
            continue
        for k, g in cells(mine, piece).items():
            (areas if k in areas else off)[k].append(g)
    water = frame.difference(land)
    seas = cells(SEA_SEEDS, water)
    tol = TOLERANCE
    out = {
        "about": "Hellenes' drawn map, written by scripts/hellenes_map.py: coastlines from Natural Earth 1:10m land "
                 "(public domain; naturalearthdata.com), via the TopoJSON of world-atlas 2.0.2, cut to the Aegean, "
                 "projected (equirectangular, true scale at 38.5° N) and simplified to half a pixel; the areas' "
                 "regions are the Voronoi cells of their label points on each landmass. Units: pixels, y down.",
        "projection": {"lon0": LON0, "lat1": LAT1, "k": K, "cos": round(COS, 6)},
        "size": [round(frame.bounds[2], 1), round(frame.bounds[3], 1)],
        "land": path_d(land.simplify(tol)),
        "areas": {a: path_d(unary_union(v).simplify(tol)) for a, v in areas.items()},
        "seas": {s: path_d(g.simplify(tol)) for s, g in seas.items()},
        "off_map": {k: {"name": OFF_MAP[k][0], "d": path_d(unary_union(v).simplify(tol)),
                        "label": [round(c, 1) for c in px(*OFF_MAP[k][1][0])]} for k, v in off.items() if v},
        "labels": {a: [round(c, 1) for c in px(*p)] for a, p in LABELS.items()},
        "cities": {a: [round(c, 1) for c in px(*p)] for a, p in CITIES.items()},
        "settlements": {a: [round(c, 1) for c in px(*p)] for a, p in SETTLEMENTS.items()},
        "sea_labels": {s: [round(c, 1) for c in px(*pts[0])] for s, pts in SEA_SEEDS.items()},
    }
    for a, xy in out["cities"].items():  # a City must stand inside its own area's region
        if not unary_union(areas[a]).buffer(4).contains(Point(xy)):
            print("warning: city outside its area:", a, file=sys.stderr)
    empty = [a for a, d in out["areas"].items() if not d]
    if empty:
        print("warning: areas without land:", empty, file=sys.stderr)
    (DATA / "coast.json").write_text(json.dumps(out, indent=0, ensure_ascii=False) + "\n")
    print(f"wrote {DATA / 'coast.json'}: {(DATA / 'coast.json').stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "land-10m.json")
