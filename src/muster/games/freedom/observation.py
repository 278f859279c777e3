"""What one seat may know, as a fixed-size ``float32`` vector and as a string.

Both are built from ``view(state, seat)`` alone — the same dict the web app and the bots get — so
they can never carry the opponent's hand, the order of the draw piles or the future dice.
Numbers are raw counts and track values (no scaling), so each entry reads as what it says.

The layout, in order (``observation_layout()`` gives each block's name, offset and size):

==================  ======  ===============================================================
block               size    content
==================  ======  ===============================================================
``seat``            2       1 at the observing seat (imperial, insurgent)
``active``          2       1 at the seat deciding now
``ruleset``         2       2nd, 1st edition
``round``           1       the round (1–6)
``spaces``          78×8    per board space in board order: Expeditionary units, Allied
                            units, Insurgent units, Imperial cannon, Insurgent cannon,
                            Bombard, Wall damage, 1 if it is the source already chosen
``areas``           8×3     per area tile: held by Imperial, held by Insurgent, markers
``tracks``          10      Imperial morale, money, supplies, plea, preparation; Insurgent
                            morale, supplies, pressure, preparation, population
``pools``           8       pieces left in the pools (design.json's pool order)
``city``            5       Camp cannons, civilians, built this round, first seat (2)
``cards``           6       draw piles A and B, own hand, opponent's hand, cards played by
                            Imperial and by Insurgent this Action phase
``hand``            100     1 for each card in the observer's hand (card n at n − 1)
``discards``        100     1 for each card in either discard pile
``trigger``         100     the card waiting on a discard-to-trigger decision
``card``            100     the card being played now (nearest frame naming one)
``decision``        29      the kind of the current decision (one-hot; last: any other)
``op``              15      for a ``select`` decision, its operation (one-hot; last: other)
``budget``          5       AP left, AP printed, Reward bonus, repetitions left, Mahmud mode
==================  ======  ===============================================================
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON, SEATS
from muster.games.freedom.datafiles import areas_file, cards_file, design

if TYPE_CHECKING:  # numpy is imported where a tensor is made: playing a game does not load it
    import numpy as np

RULESETS = ("2nd", "1st")
TRACKS = {IMPERIAL: ("morale", "money", "supplies", "plea", "preparation"),
          INSURGENT: ("morale", "supplies", "pressure", "preparation", "population")}
SPACE_FEATURES = ("exp", "ally", "ins", "imperial_cannon", "insurgent_cannon", "bombard", "damage", "selected")
DECISIONS = (
    "ap", "cannons", "card_turn", "ev_advance", "ev_attack", "ev_build", "ev_choose_support", "ev_damage", "ev_fire",
    "ev_fire_one", "ev_from_camp", "ev_grenades", "ev_night_works", "ev_place_imperial", "ev_raid", "ev_regroup",
    "ev_remove", "ev_repair", "ev_send_back", "ev_spike", "ev_to_camp", "ev_train", "final_trigger", "morale_choice",
    "place_allied", "place_insurgent", "remove_units", "select",
)
"""The decision kinds the view's stack can show on top (any other lands in a last, spare slot)."""
OPS = ("advance", "imperial_attack", "imperial_build", "insurgent_attack", "insurgent_build", "move", "move_second",
       "opening_regroup", "raid", "regroup", "repair", "slow", "support", "train")
"""The operations a ``select`` decision can drive (plus a spare slot)."""
BUDGET = ("ap", "printed", "reward", "left", "mahmud")


@cache
def observation_layout() -> tuple[tuple[str, int, int], ...]:
    """(block name, offset, size) of every block of the observation vector, in order."""
    n_spaces, n_cards = len(board().ids), len(cards_file().cards)
    sizes = [("seat", 2), ("active", 2), ("ruleset", 2), ("round", 1),
             ("spaces", n_spaces * len(SPACE_FEATURES)), ("areas", len(areas_file().areas) * 3),
             ("tracks", sum(len(t) for t in TRACKS.values())), ("pools", len(design()["pools"])), ("city", 5),
             ("cards", 6), ("hand", n_cards), ("discards", n_cards), ("trigger", n_cards), ("card", n_cards),
             ("decision", len(DECISIONS) + 1), ("op", len(OPS) + 1), ("budget", len(BUDGET))]
    out, offset = [], 0
    for name, size in sizes:
        out.append((name, offset, size))
        offset += size
    return tuple(out)


def observation_size() -> int:
    """The length of the observation vector."""
    _, offset, size = observation_layout()[-1]
    return offset + size


def _one_hot(values: tuple[str, ...], value: Any) -> list[float]:
    out = [0.0] * (len(values) + 1)
    out[values.index(value) if value in values else len(values)] = 1.0
    return out


def _card_bits(cards: Any) -> np.ndarray:
    import numpy as np

    out = np.zeros(len(cards_file().cards), dtype=np.float32)
    for n in cards:
        out[int(n) - 1] = 1.0
    return out


def observation_from_view(v: dict[str, Any]) -> np.ndarray:
    """The observation vector of a view (see the module's table for the layout)."""
    import numpy as np

    b = board()
    seat = v["seat"]
    if seat not in SEATS:
        raise ValueError("an observation needs a seat's view (not a spectator's)")
    stack = v["stack"]
    top: dict[str, Any] = stack[-1] if stack else {}
    active = top.get("seat") if stack and v["result"] is None else None
    parts: list[Any] = [
        [float(seat == s) for s in SEATS],
        [float(active == s) for s in SEATS],
        [float(v["ruleset"] == r) for r in RULESETS],
        [float(v["round"])],
    ]
    spaces = np.zeros((len(b.ids), len(SPACE_FEATURES)), dtype=np.float32)
    per_space = v["spaces"]
    for col, key in enumerate(("exp", "ally", "ins")):
        for sid, n in per_space[key].items():
            spaces[b.index[sid], col] = n
    for sid, code in per_space["cannon"].items():
        slot = {IMPERIAL_CANNON: 3, INSURGENT_CANNON: 4, BOMBARD: 5}.get(code)
        if slot is not None:
            spaces[b.index[sid], slot] = 1.0
    for sid, n in per_space["damage"].items():
        spaces[b.index[sid], 6] = n
    src = str(top.get("src") or "").partition(":")[0]
    if src in b.index:
        spaces[b.index[src], 7] = 1.0
    parts.append(spaces.ravel())
    parts.append([x for side, markers in zip(v["areas"]["side"], v["areas"]["markers"], strict=True)
                  for x in (float(side == IMPERIAL), float(side == INSURGENT), float(markers))])
    parts.append([float(v["tracks"][s][k]) for s in SEATS for k in TRACKS[s]])
    parts.append([float(v["pools"][k]) for k in design()["pools"]])
    parts.append([float(v["camp_cannons"]), float(v["civilians"]), float(bool(v["built_this_round"])),
                  *(float(v["first"] == s) for s in SEATS)])
    opp = INSURGENT if seat == IMPERIAL else IMPERIAL
    parts.append([float(v["decks"]["A"]["count"]), float(v["decks"]["B"]["count"]), float(len(v["hands"][seat])),
                  float(v["hands"][opp]["count"]), *(float(v["played"][s]) for s in SEATS)])
    parts.append(_card_bits(v["hands"][seat]))
    parts.append(_card_bits([*v["discards"]["A"], *v["discards"]["B"]]))
    trigger = v.get("trigger") or {}
    parts.append(_card_bits([trigger["card"]] if isinstance(trigger.get("card"), int) else []))
    card = next((f["card"] for f in reversed(stack) if isinstance(f.get("card"), int)), None)
    parts.append(_card_bits([card] if card is not None else []))
    parts.append(_one_hot(DECISIONS, top.get("kind")))
    parts.append(_one_hot(OPS, top.get("op")) if top.get("kind") == "select" else [0.0] * (len(OPS) + 1))
    ap: dict[str, Any] = next((f for f in reversed(stack) if f.get("kind") == "ap"), {})
    parts.append([float(ap.get("ap", 0)), float(ap.get("printed", 0)), float(ap.get("reward", 0)),
                  float(top.get("left", 0) if isinstance(top.get("left"), int) else 0),
                  float(ap.get("mode") == "mahmud")])
    return np.concatenate([np.asarray(p, dtype=np.float32) for p in parts])


def information_state_from_view(v: dict[str, Any]) -> str:
    """The view as canonical JSON (sorted keys, no spaces), without the log (words for the same facts)."""
    data = {k: val for k, val in v.items() if k != "log"}
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
