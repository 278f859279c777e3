"""Helpers that build rule-test positions on the real Freedom! engine.

A position starts from ``RULES.setup(seed)``; tests then edit the State's fields (units,
tracks, areas, hands) and put the decision they want on top of the stack. Sub-decisions are
driven through ``RULES.apply`` exactly as a player would. Dice are forced by choosing the
generator state whose next rolls are the wanted values (:func:`force_dice`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from muster.core import rng
from muster.core.interface import Action
from muster.games.freedom import RULES, engine
from muster.games.freedom.board import board
from muster.games.freedom.datafiles import areas_file, design
from muster.games.freedom.engine import frame
from muster.games.freedom.rules.common import area_index
from muster.games.freedom.state import State


def new_state(seed: int = 1, ruleset: str = "2nd") -> State:
    """A freshly set-up game (rule 2), waiting at the round-1 Opening."""
    return RULES.setup(seed, {"ruleset": ruleset})


def idx(space: str) -> int:
    """The board index of a space id."""
    return board().index[space]


def clear_board(s: State) -> State:
    """Return every unit, cannon and damage marker to its pool (Camp included); Civilians stay."""
    b = board()
    pools = design()["pools"]
    n = len(b.ids)
    s.exp, s.ally, s.ins, s.cannon, s.damage = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    s.camp_cannons = 0
    for key in ("expeditionary", "allied", "insurgent", "cannons", "bombard", "damage_markers"):
        s.pools[key] = int(pools[key])
    s._legal = None
    return s


def place(
    s: State,
    space: str,
    exp: int = 0,
    ally: int = 0,
    ins: int = 0,
    cannon: int | None = None,
    damage: int | None = None,
) -> None:
    """Add units from the pools to a space; set its cannon code and Wall damage when given."""
    i = idx(space)
    s.exp[i] += exp
    s.pools["expeditionary"] -= exp
    s.ally[i] += ally
    s.pools["allied"] -= ally
    s.ins[i] += ins
    s.pools["insurgent"] -= ins
    if cannon is not None:
        s.cannon[i] = cannon
        s.pools["bombard" if cannon == 3 else "cannons"] -= 1 if cannon else 0
    if damage is not None:
        if s.damage[i] == 0 and damage > 0:
            s.pools["damage_markers"] -= 1
        elif s.damage[i] > 0 and damage == 0:
            s.pools["damage_markers"] += 1
        s.damage[i] = damage
    s._legal = None


def set_area(s: State, area: str, side: str, markers: int) -> None:
    """Set an area tile's side and Support markers (keeping the marker pool consistent)."""
    i = area_index(area)
    s.pools["support_markers"] += s.area_markers[i] - markers
    s.area_side[i] = side
    s.area_markers[i] = markers


def all_areas(s: State, side: str, markers: int = 0) -> None:
    """Every area to one side with the same number of markers."""
    for area in areas_file().areas:
        set_area(s, area.id, side, markers)


def give_card(s: State, seat: str, number: int) -> None:
    """Move a card (wherever it is) into a seat's hand."""
    for piles in (s.decks, s.hands, s.discards):
        for pile in piles.values():
            if number in pile:
                pile.remove(number)
    s.hands[seat].append(number)
    s.hands[seat].sort()
    s._legal = None  # the cached legal list of the current decision is stale now


def run(s: State, *frames: dict[str, Any]) -> State:
    """Replace the decision stack by these frames (first runs first) and run to the next decision."""
    s.stack = []
    engine.push(s, *frames)
    s._legal = None
    engine.advance(s)
    return s


def card_turn(s: State, seat: str, number: int | None = None) -> State:
    """Make it ``seat``'s Action-phase turn (rule 4.3), with card ``number`` in hand."""
    if number is not None:
        give_card(s, seat, number)
    s.trigger = None
    return run(s, frame("card_turn", seat=seat))


def play_ap(s: State, seat: str, number: int) -> State:
    """``seat`` plays card ``number`` for its Action Points (rule 4.3.2)."""
    card_turn(s, seat, number)
    act(s, "ap", number)
    return s


def act(s: State, verb: str, arg: Any = None) -> None:
    """Apply one action through the public interface (raises if illegal)."""
    RULES.apply(s, Action(verb, arg))


def acts(s: State, *steps: tuple[Any, ...]) -> None:
    """Apply several actions: each step is (verb,) or (verb, arg)."""
    for step in steps:
        act(s, step[0], step[1] if len(step) > 1 else None)


def legal(s: State) -> list[Action]:
    """The legal actions now."""
    return RULES.legal_actions(s)


def ap_turn_ended(s: State) -> bool:
    """True once the card's AP turn is over (with no AP left and nothing to buy it ends by itself)."""
    return not any(f["kind"] == "ap" for f in s.stack)


def verbs(s: State) -> set[str]:
    """The verbs offered now."""
    return {a.verb for a in legal(s)}


def args(s: State, verb: str) -> set[Any]:
    """The arguments offered with a verb now."""
    return {a.arg for a in legal(s) if a.verb == verb}


def top(s: State) -> str | None:
    """The kind of the decision on top of the stack."""
    return s.stack[-1]["kind"] if s.stack else None


def ap_left(s: State) -> int:
    """AP left in the nearest AP frame."""
    for f in reversed(s.stack):
        if f["kind"] == "ap":
            return int(f["ap"])
    raise AssertionError("no AP frame on the stack")


@cache
def _dice_state(rolls: tuple[tuple[int, int], ...]) -> int:
    """A generator state whose next rolls are exactly ``rolls`` ((sides, value) pairs, in order)."""
    return rng.state_for_rolls(rolls, multiplier=0x632BE59BD9B4E019)


def force_dice(s: State, *rolls: tuple[int, int]) -> None:
    """Make the next die rolls equal ``rolls``: (sides, value) pairs, e.g. (8, 6), (6, 4)."""
    s.rng = _dice_state(tuple(rolls))


def d8(*values: int) -> tuple[tuple[int, int], ...]:
    """d8 rolls for :func:`force_dice`."""
    return tuple((8, v) for v in values)


def d6(*values: int) -> tuple[tuple[int, int], ...]:
    """d6 rolls for :func:`force_dice`."""
    return tuple((6, v) for v in values)


def track(s: State, side: str, name: str) -> int:
    """A track value."""
    return s.tracks[side][name]


def units(s: State, space: str) -> tuple[int, int, int]:
    """(Expeditionary, Allied, Insurgent) units in a space."""
    i = idx(space)
    return s.exp[i], s.ally[i], s.ins[i]


def imperial_total(s: State) -> int:
    """Imperial units on the map, the Camp included."""
    return sum(s.exp) + sum(s.ally)


def board_with(*spaces: tuple[str, dict[str, int]]) -> State:
    """A fresh game with an empty board, then the given pieces: ``board_with(("w4", {"ins": 1}))``."""
    s = clear_board(new_state())
    for space, what in spaces:
        place(s, space, **what)
    return s
