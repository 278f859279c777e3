"""What one Hellenes seat may know, as a fixed-size ``float32`` vector and as a string.

Both are built from ``view(state, seat)`` alone, so they never carry what blocks standing upright hide:
an enemy block the seat has not seen in battle appears only as its side and token (counted per area
below), its identity and CV never. Numbers are raw counts and values (no scaling).

The layout, in order (``observation_layout()`` gives each block's name, offset and size); areas are in
map order (``game_map().names``), blocks in roster order (``blocks.json``), cards by number:

==================  ==========  ==========================================================
block               size        content
==================  ==========  ==========================================================
``seat``            2           1 at the observing seat (athens, sparta)
``active``          2           1 at the seat deciding now
``first``           2           the seat with the initiative this Season
``time``            8           years played (year 431 − year), scenario years, Season
                                one-hot (New Year, Spring … Winter)
``score``           4           Prestige (positive: Sparta leads), Odrysian alliance,
                                Actions left, 1 in the Action phase
``areas``           36×11       per area: controlled by Athens, by Sparta; loyal to Athens,
                                Sparta, neutral; Militia; garrison; pillaged; besieged by
                                Athens, by Sparta; closed to entry this turn
``blocks``          53×41       per block whose identity the seat knows (its own on the map,
                                enemy blocks seen in battle): on the map, area one-hot (36),
                                CV (the last seen for an enemy), inside the City, carried by
                                a fleet, in the observer's own Pool
``unknown``         36×2        per area: enemy blocks standing upright unseen, in the field
                                and inside the City
``cards``           5           deck, own hand, enemy hand, enemy Pool, own Pool sizes
``hand``            30          1 for each card in the observer's hand
``discard``         30          1 for each card in the discard pile
``revealed``        2×33        per side: the card revealed this Season (30) and its use
                                (actions, event, sacrifice)
``draw``            53          the observer's recruit draw
``decision``        13          the kind of the current decision (one-hot; last: any other)
==================  ==========  ==========================================================
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from muster.games.hellenes.action_space import CARD_USES
from muster.games.hellenes.datafiles import SIDES, blocks, cards_file, design, game_map

if TYPE_CHECKING:  # numpy is imported where a tensor is made: playing a game does not load it
    import numpy as np

DECISION_KINDS = ("actions", "battle_retreat", "commit", "ev_city", "fortify", "free_move", "group", "muster",
                  "ny_card", "pillage_to", "recruit", "siege_choice")
AREA_FEATURES = 11
BLOCK_FEATURES = 5  # beside the area one-hot


@cache
def _cards() -> tuple[int, ...]:
    return tuple(sorted(c.number for c in cards_file().cards))


@cache
def observation_layout() -> tuple[tuple[str, int, int], ...]:
    """(name, offset, size) of every block of the vector, in order."""
    n_areas, n_blocks, n_cards = len(game_map().names), len(blocks()), len(_cards())
    seasons = 1 + len(design()["seasons"])
    sizes = [("seat", 2), ("active", 2), ("first", 2), ("time", 2 + seasons), ("score", 4),
             ("areas", n_areas * AREA_FEATURES), ("blocks", n_blocks * (n_areas + BLOCK_FEATURES)),
             ("unknown", n_areas * 2), ("cards", 5), ("hand", n_cards), ("discard", n_cards),
             ("revealed", 2 * (n_cards + len(CARD_USES))), ("draw", n_blocks), ("decision", len(DECISION_KINDS) + 1)]
    out, offset = [], 0
    for name, size in sizes:
        out.append((name, offset, size))
        offset += size
    return tuple(out)


def observation_size() -> int:
    """The vector's length."""
    _, offset, size = observation_layout()[-1]
    return offset + size


def _one_hot(values: tuple[Any, ...], value: Any) -> list[float]:
    return [float(v == value) for v in values]


def _card_bits(numbers: Any) -> list[float]:
    held = set(numbers) if isinstance(numbers, list) else set()
    return [float(n in held) for n in _cards()]


def _count(value: Any) -> float:
    return float(len(value) if isinstance(value, list) else value["count"])


def observation_from_view(v: dict[str, Any]) -> np.ndarray:
    """The observation vector of ``v`` (a view made for one seat)."""
    import numpy as np

    seat = v["seat"]
    enemy = "athens" if seat == "sparta" else "sparta"
    g, roster = game_map(), blocks()
    areas = tuple(g.names)
    n_seasons = len(design()["seasons"])
    parts: list[list[float]] = [
        _one_hot(SIDES, seat), _one_hot(SIDES, v["active"]), _one_hot(SIDES, v["first"]),
        [float(431 - v["year"]), float(v["years"]), *_one_hot(tuple(range(-1, n_seasons)), v["season"])],
        [float(v["prestige"]), float(v["odrysian"]), float(v["actions_left"]), float(v["mode"] == "actions")],
    ]
    area_part: list[float] = []
    for a in areas:
        siege = v["sieges"].get(a)
        area_part += [float(v["control"].get(a) == "athens"), float(v["control"].get(a) == "sparta"),
                      *_one_hot(("athens", "sparta", "neutral"), v["loyal"].get(a)), float(v["militia"].get(a, 0)),
                      float(a in v["garrison"]), float(a in v["pillaged"]),
                      float(bool(siege) and siege["by"] == "athens"), float(bool(siege) and siege["by"] == "sparta"),
                      float(a in v["no_entry"])]
    parts.append(area_part)
    known: dict[str, dict[str, Any]] = {b: dict(u) for b, u in v["units"].items()}
    unknown = {a: [0.0, 0.0] for a in areas}
    for t in v["enemy"]:
        if "known_as" in t:
            known[t["known_as"]] = {"area": t["area"], "cv": t["seen"], "inside": t["inside"], "carrier": None}
        else:
            unknown[t["area"]][1 if t["inside"] else 0] += 1.0
    own_pool = set(v["pools"][seat])
    block_part: list[float] = []
    for b in roster:
        u = known.get(b)
        if u is None or u["area"] is None:
            block_part += [0.0] * (len(areas) + 4) + [float(b in own_pool)]
        else:
            block_part += [1.0, *_one_hot(areas, u["area"]), float(u["cv"]), float(u["inside"]),
                           float(u["carrier"] is not None), 0.0]
    parts.append(block_part)
    parts.append([x for a in areas for x in unknown[a]])
    parts.append([_count(v["deck"]), _count(v["hands"][seat]), _count(v["hands"][enemy]),
                  _count(v["pools"][enemy]), _count(v["pools"][seat])])
    parts.append(_card_bits(v["hands"][seat]))
    parts.append(_card_bits(v["discard"]))
    for side in SIDES:
        shown = v["revealed"][side]
        parts.append(_card_bits([shown[0]] if shown else []) + _one_hot(CARD_USES, shown[1] if shown else None))
    draw = v["draw"]
    drawn = set(draw["ids"]) if draw and "ids" in draw else set()
    parts.append([float(b in drawn) for b in roster])
    kind = v["stack"][-1]["kind"] if v["stack"] and v["result"] is None else None
    parts.append([*_one_hot(DECISION_KINDS, kind), float(kind is not None and kind not in DECISION_KINDS)])
    return np.concatenate([np.asarray(p, dtype=np.float32) for p in parts])


def information_state_from_view(v: dict[str, Any]) -> str:
    """The view as canonical JSON (sorted keys, no spaces), without the log (words for the same facts)."""
    data = {k: val for k, val in v.items() if k != "log"}
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
