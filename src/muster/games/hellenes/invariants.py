"""Invariants every reachable state of Hellenes satisfies; the fuzzer checks them after each step."""

from __future__ import annotations

import json

from muster.games.hellenes.datafiles import SIDES, blocks, cards, design, game_map
from muster.games.hellenes.state import State
from muster.games.hellenes.view import view


def violations(s: State) -> list[str]:
    """Every broken invariant of a state, in words (empty when all hold)."""
    return _blocks(s) + _cities(s) + _cards(s) + _tracks(s) + _views(s)


def _blocks(s: State) -> list[str]:
    """Each block is in the Pool or in one area, CV within 1..max, passengers below their fleet, tokens unique."""
    out = []
    g = game_map()
    tokens: dict[int, str] = {}
    for bid, u in s.units.items():
        d = blocks()[bid]
        if u.area is None:
            if u.cv or u.token or u.carrier or u.inside:
                out.append(f"{bid}: in the Pool with map fields set")
            continue
        if not 1 <= u.cv <= d.max_cv:
            out.append(f"{bid}: CV {u.cv} outside 1..{d.max_cv}")
        if u.token in tokens:
            out.append(f"{bid}: token {u.token} shared with {tokens[u.token]}")
        tokens[u.token] = bid
        if s.tok.get(u.token) != bid:
            out.append(f"{bid}: token index out of date")
        area = u.area
        if g.is_sea(area) and d.kind != "fleet" and u.carrier is None:
            out.append(f"{bid}: a land block at sea without a fleet")
        if d.kind == "fleet" and not g.is_sea(area) and not g.coasts[area]:
            out.append(f"{bid}: a fleet inland in {area}")
        if area in g.neutral:
            out.append(f"{bid}: in a Neutral area")
        if u.carrier is not None:
            c = s.units[u.carrier]
            if c.area != area or c.cv <= u.cv or not d.greek or d.kind == "fleet":
                out.append(f"{bid}: carried against 5.2.1")
        if u.inside and area not in s.sieges:
            out.append(f"{bid}: inside an unbesieged City")
    if len(s.tok) != len(tokens):
        out.append("token index holds blocks not on the map")
    return out


def _cities(s: State) -> list[str]:
    out = []
    g = game_map()
    for area, city in g.cities.items():
        if not 0 <= s.militia.get(area, 0) <= city.value:
            out.append(f"{area}: Militia {s.militia.get(area)} outside 0..{city.value}")
    for area, siege in s.sieges.items():
        if area not in g.cities or s.control.get(area) == siege["by"]:
            out.append(f"{area}: a Siege of one's own City")
    return out


def _cards(s: State) -> list[str]:
    """Every card is in exactly one place: the deck, a hand, committed, or the discard pile."""
    places = s.deck + s.discard + s.hands["athens"] + s.hands["sparta"]
    places += [int(c[0]) for c in s.committed.values() if c]
    if sorted(places) != sorted(cards()):
        return ["cards lost or duplicated"]
    return []


def _tracks(s: State) -> list[str]:
    limit = design()["prestige"]["limit"]
    out = []
    if not -limit <= s.prestige <= limit:
        out.append(f"Prestige {s.prestige} off the track")
    if not 431 - s.years < s.year <= 431:
        out.append(f"year {s.year} out of range")
    return out


def _views(s: State) -> list[str]:
    """No view shows an enemy block's identity or CV unless it was seen, nor hands, deck, draws, dice."""
    out = []
    for seat in (*SIDES, None):
        v = view(s, seat)
        for key in ("rng", "seed"):
            if key in v:
                out.append(f"view for {seat} shows {key}")
        if v["deck"] != {"count": len(s.deck)}:
            out.append(f"view for {seat} shows the deck")
        for side in SIDES:
            if side != seat and v["hands"][side] != {"count": len(s.hands[side])}:
                out.append(f"view for {seat} shows the {side} hand")
            if side != seat and not isinstance(v["committed"][side], bool):
                out.append(f"view for {seat} shows the {side} committed card")
        if any(blocks()[b].side != seat for b in v["units"]):
            out.append(f"view for {seat} lists enemy blocks by id")
        text = json.dumps({k: v[k] for k in ("enemy", "stack", "pools", "draw", "via", "moved")})
        for bid, u in s.units.items():
            if blocks()[bid].side != seat and not u.known and f'"{bid}"' in text:
                out.append(f"view for {seat} leaks the unrevealed block {bid}")
        if s.draw and s.draw["side"] != seat and "ids" in (v["draw"] or {}):
            out.append(f"view for {seat} shows the enemy recruit draw")
    return out
