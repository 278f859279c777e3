"""Helpers for Hellenes rule tests: build a position on the real engine, force dice, play actions."""

from __future__ import annotations

from typing import Any

from muster.core import Action, rng
from muster.games.hellenes import RULES
from muster.games.hellenes.datafiles import game_map
from muster.games.hellenes.engine import advance, frame
from muster.games.hellenes.rules.common import cities_changed, eliminate, place
from muster.games.hellenes.state import State


def fresh(seed: int = 0) -> State:
    """The 431 scenario at its first decision."""
    return RULES.setup(seed)


def empty(seed: int = 0) -> State:
    """The 431 map with no blocks, no Sieges, every City with its loyal side and full Militia."""
    s = fresh(seed)
    for bid in list(s.units):
        eliminate(s, bid)
    s.sieges = {}
    s.garrison = []
    for area, city in game_map().cities.items():
        loyal = city.loyal
        s.loyal[area] = loyal
        if loyal != "neutral":
            s.control[area] = loyal
            s.militia[area] = city.value
    cities_changed(s)  # control and loyalty written directly above
    s.log = []
    return s


def put(s: State, bid: str, area: str, cv: int, inside: bool = False) -> int:
    """Place a block; returns its token."""
    place(s, bid, area, cv, "setup", inside_city=inside)
    return s.units[bid].token


def dice(s: State, *values: int) -> None:
    """The next d6 rolls will be exactly ``values``."""
    s.rng = rng.state_for_rolls(tuple((6, v) for v in values))


def turn(s: State, side: str, actions: int = 3, season: int = 1, mode: str = "actions") -> State:
    """Start ``side``'s Player Turn with a number of Actions (the opponent's turn follows)."""
    s.season = season
    s.active, s.mode, s.actions_left = side, mode, actions
    s.moved, s.via, s.forced, s.crossings, s.no_entry = [], {}, [], {}, []
    s.hands = {"athens": [1, 2, 3], "sparta": [4, 5, 6]}
    s.deck = [c for c in range(7, 31)]
    s.discard = []
    s.revealed = {"athens": [1, "actions"], "sparta": [4, "actions"]}
    s.result = None
    first = [frame("actions", seat=side)] if mode == "actions" else []
    s.stack = list(reversed([*first, frame("end_actions"), frame("combat", side=side), frame("turn_end"),
                             frame("ny_card", seat="sparta", card=None)]))
    s._legal = None
    advance(s)
    return s


def combat_only(s: State, side: str, mode: str = "actions") -> State:
    """Run ``side``'s Combat phase on the position as it stands (in Early Summer unless a Season is set)."""
    if s.season < 0:
        s.season = 1
    s.active, s.mode = side, mode
    s.hands = {"athens": [1, 2, 3], "sparta": [4, 5, 6]}
    s.deck = [c for c in range(7, 31)]
    s.discard = []
    s.stack = list(reversed([frame("combat", side=side), frame("turn_end"),
                             frame("ny_card", seat="sparta", card=None)]))
    s._legal = None
    advance(s)
    return s


def act(s: State, *actions: Any) -> State:
    """Apply actions given as Action, (verb, arg) or verb."""
    for a in actions:
        if isinstance(a, str):
            a = Action(a)
        elif isinstance(a, tuple):
            a = Action(*a)
        RULES.apply(s, a)
    return s


def legal(s: State) -> list[Action]:
    """The legal actions now."""
    return RULES.legal_actions(s)


def kinds(s: State) -> str:
    """The kind of the top frame."""
    return str(s.stack[-1]["kind"]) if s.stack else ""


def at_end_of_turn(s: State) -> bool:
    """True when the test position reached its sentinel (the next New-Year card)."""
    return kinds(s) == "ny_card"


def said(s: State) -> list[str]:
    """The log so far in English words (it is stored as message ids and arguments)."""
    return RULES.log(s)
