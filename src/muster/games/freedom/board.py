"""The city map of Messolonghi, loaded from ``data/board.json`` and checked on load.

Spaces are addressed by index (fast) inside the rules and by id (``"r5c3"``, ``"w6"``,
``"camp"``) everywhere else. ``depth`` orders the spaces from the Camp (9) to the City
(2): an Imperial move to a space of greater depth is a move backwards (rule 4.3.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from muster.games.freedom.datafiles import DataError, read_json

KINDS: Final = ("mainland", "camp", "wall", "city", "beach", "coast", "water", "island")
SLOW_KINDS: Final = frozenset({"wall", "beach", "coast", "water", "island"})
"""Entering these needs Slow Movement (rule 4.3.2): the Wall, Rows 1–2 and the Lagoon."""
LAGOON_KINDS: Final = frozenset({"coast", "water", "island"})
"""The Lagoon: water around the islands, Row 1 outside the City, and the islands (rule 4.3.2, Regroup)."""
REACH_TABLES: Final = ("ordinary", "bombard", "wall_to_wall", "marmarou", "island", "beach")
UNLIMITED: Final = 1_000_000


@dataclass(frozen=True)
class Board:
    """Indexed, validated board data. Build with :func:`board`."""

    version: int
    ids: tuple[str, ...]
    index: dict[str, int]
    names: tuple[str, ...]
    kind: tuple[str, ...]
    depth: tuple[int, ...]
    limit: tuple[int, ...]
    row: tuple[int, ...]
    col: tuple[int, ...]
    fort: tuple[bool, ...]
    thick: tuple[int, ...]
    """Index of the island whose control a "thick" space needs, else -1."""
    ring: tuple[str, ...]
    xy: tuple[tuple[int, int], ...]
    adj: tuple[tuple[int, ...], ...]
    slow: tuple[bool, ...]
    lagoon: tuple[bool, ...]
    reach: dict[str, tuple[tuple[tuple[int, int], ...], ...]]
    """reach[table][from] = ((target, needed roll), …)."""
    camp: int
    city: int
    walls: tuple[int, ...]
    forts: tuple[int, ...]
    beaches: tuple[int, ...]
    islands: tuple[int, ...]
    mainland: tuple[int, ...]
    city_spaces: tuple[int, ...]
    """Row 3 and Row 2: where Regroup and Government units may go."""
    insurgent_spaces: tuple[int, ...]
    """Row 3, Row 2 and the islands: every space an Insurgent unit may stand in."""
    grid: dict[tuple[int, int], int]
    """(row, column) → the mainland or Wall space there (Rows 3–8)."""

    def id(self, i: int) -> str:
        """The id of space ``i``."""
        return self.ids[i]

    def at(self, row: int, col: int) -> int | None:
        """The mainland or Wall space at (row, column), if any."""
        return self.grid.get((row, col))

    def is_wall(self, i: int) -> bool:
        """True for a Wall section (Row 3)."""
        return self.kind[i] == "wall"


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(f"board.json: {message}")


def build_board(data: dict[str, Any]) -> Board:
    """Validate raw board data and index it. Raises DataError on any inconsistency."""
    spaces: list[dict[str, Any]] = data.get("spaces") or []
    _check(isinstance(spaces, list) and len(spaces) > 0, "no spaces")
    ids = tuple(str(s["id"]) for s in spaces)
    _check(len(set(ids)) == len(ids), "duplicate space ids")
    index = {sid: i for i, sid in enumerate(ids)}
    for s in spaces:
        _check(s.get("kind") in KINDS, f"{s.get('id')}: unknown kind {s.get('kind')!r}")
        _check(isinstance(s.get("depth"), int), f"{s['id']}: depth must be an integer")
        lim = s.get("limit")
        _check(
            (lim is None and s["kind"] in ("camp", "city")) or (isinstance(lim, int) and lim > 0),
            f"{s['id']}: a limit is required (only the Camp and City Center are unlimited)",
        )
        if s.get("thick") is not None:
            _check(
                s["thick"] in index and spaces[index[s["thick"]]]["kind"] == "island",
                f"{s['id']}: thick space must name an island",
            )
    neighbours: list[set[int]] = [set() for _ in ids]
    for pair in data.get("adjacency", []):
        _check(isinstance(pair, list) and len(pair) == 2, f"bad adjacency entry {pair!r}")
        a, b = pair
        _check(a in index and b in index, f"adjacency names an unknown space: {pair}")
        _check(a != b, f"space adjacent to itself: {a}")
        neighbours[index[a]].add(index[b])
        neighbours[index[b]].add(index[a])
    for i, sid in enumerate(ids):
        for j in neighbours[i]:
            _check(i in neighbours[j], f"adjacency not symmetric: {sid}-{ids[j]}")
    kind = tuple(s["kind"] for s in spaces)
    city = kind.index("city") if "city" in kind else -1
    _check(city >= 0 and not neighbours[city], "the City Center must exist and touch no space (civilians only)")
    _check(kind.count("camp") == 1, "exactly one Camp")
    reach: dict[str, list[list[tuple[int, int]]]] = {t: [[] for _ in ids] for t in REACH_TABLES}
    for entry in data.get("cannon_reach", []):
        _check(isinstance(entry, list) and len(entry) == 4, f"bad cannon_reach entry {entry!r}")
        table, src, dst, need = entry
        _check(table in REACH_TABLES, f"unknown reach table {table!r}")
        _check(src in index and dst in index, f"cannon_reach names an unknown space: {entry}")
        _check(isinstance(need, int) and 2 <= need <= 7, f"cannon_reach: bad roll needed {entry}")
        reach[table][index[src]].append((index[dst], need))
    walls = tuple(sorted((i for i, k in enumerate(kind) if k == "wall"), key=lambda i: spaces[i]["col"]))
    _check(len(walls) > 0 and all(spaces[w].get("fort") is not None for w in walls), "Wall sections need a fort flag")
    limit = tuple(UNLIMITED if s["limit"] is None else int(s["limit"]) for s in spaces)
    return Board(
        version=int(data.get("version", 0)),
        ids=ids,
        index=index,
        names=tuple(str(s["name"]) for s in spaces),
        kind=kind,
        depth=tuple(int(s["depth"]) for s in spaces),
        limit=limit,
        row=tuple(int(s.get("row", 0)) for s in spaces),
        col=tuple(int(s.get("col", 0)) for s in spaces),
        fort=tuple(bool(s.get("fort", False)) for s in spaces),
        thick=tuple(index[s["thick"]] if s.get("thick") else -1 for s in spaces),
        ring=tuple(str(s.get("ring", "")) for s in spaces),
        xy=tuple((int(s["xy"][0]), int(s["xy"][1])) for s in spaces),
        adj=tuple(tuple(sorted(n)) for n in neighbours),
        slow=tuple(k in SLOW_KINDS for k in kind),
        lagoon=tuple(k in LAGOON_KINDS for k in kind),
        reach={t: tuple(tuple(r) for r in rows) for t, rows in reach.items()},
        camp=kind.index("camp"),
        city=city,
        walls=walls,
        forts=tuple(w for w in walls if spaces[w]["fort"]),
        beaches=tuple(i for i, k in enumerate(kind) if k == "beach"),
        islands=tuple(i for i, k in enumerate(kind) if k == "island"),
        mainland=tuple(i for i, k in enumerate(kind) if k == "mainland"),
        city_spaces=tuple(i for i, k in enumerate(kind) if k in ("wall", "beach")),
        insurgent_spaces=tuple(i for i, k in enumerate(kind) if k in ("wall", "beach", "island")),
        grid={(int(spaces[i].get("row", 0)), int(spaces[i].get("col", 0))): i
              for i, k in enumerate(kind) if k in ("mainland", "wall")},
    )


_LOADED: Final[list[Board]] = []
"""The board once loaded (a plain module-level cache: compiled code calls :func:`board` directly, where
a ``functools.cache`` wrapper would cost a Python-level call at every use in the rules)."""


def board() -> Board:
    """The validated board of Freedom!."""
    if not _LOADED:
        _LOADED.append(build_board(read_json("board.json")))
    return _LOADED[0]
