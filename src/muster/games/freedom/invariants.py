"""Invariants every reachable state of Freedom! satisfies; the fuzzer checks them after each step."""

from __future__ import annotations

from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON, SEATS
from muster.games.freedom.datafiles import design
from muster.games.freedom.rules.common import track_range
from muster.games.freedom.state import State
from muster.games.freedom.view import view


def violations(s: State) -> list[str]:
    """Every broken invariant of a state, in words (empty when all hold)."""
    return _pools(s) + _spaces(s) + _tracks(s) + _cards(s) + _views(s)


def _pools(s: State) -> list[str]:
    """Pieces are conserved: pool + pieces in play == the box's count, for every kind of piece."""
    totals = design()["pools"]
    in_play = {
        "expeditionary": sum(s.exp),
        "allied": sum(s.ally),
        "insurgent": sum(s.ins),
        "civilians": s.civilians,
        "cannons": sum(1 for c in s.cannon if c in (IMPERIAL_CANNON, INSURGENT_CANNON)) + s.camp_cannons,
        "bombard": sum(1 for c in s.cannon if c == BOMBARD),
        "support_markers": sum(s.area_markers),
        "damage_markers": sum(1 for d in s.damage if d),
    }
    out = []
    for name, total in totals.items():
        if s.pools[name] < 0 or s.pools[name] + in_play[name] != total:
            out.append(f"pool {name}: {s.pools[name]} in pool + {in_play[name]} in play != {total}")
    return out


def _spaces(s: State) -> list[str]:
    """Limits, one side per space, pieces only where they may stand."""
    b = board()
    out = []
    period_b = s.round >= design()["period_b_from_round"]
    for i, sid in enumerate(b.ids):
        imp = s.exp[i] + s.ally[i]
        if imp and s.ins[i]:
            out.append(f"{sid}: both sides present")
        if imp > b.limit[i] or s.ins[i] > b.limit[i]:
            out.append(f"{sid}: over its limit of {b.limit[i]}")
        if s.ins[i] and i not in b.insurgent_spaces:
            out.append(f"{sid}: Insurgent unit where none may stand")
        if imp and b.kind[i] == "city":
            out.append(f"{sid}: Imperial unit in the City Center")
        if s.ally[i] and not period_b:
            out.append(f"{sid}: Allied unit in Period A")
        if period_b and i != b.camp and s.exp[i] and s.ally[i]:
            out.append(f"{sid}: Expeditionary and Allied units together")
        if s.cannon[i] == IMPERIAL_CANNON and b.kind[i] != "mainland":
            out.append(f"{sid}: Imperial cannon off the mainland")
        if s.cannon[i] in (INSURGENT_CANNON, BOMBARD) and i not in b.insurgent_spaces:
            out.append(f"{sid}: Insurgent cannon outside the City and islands")
        if (s.damage[i] and not b.is_wall(i)) or not 0 <= s.damage[i] <= 2:
            out.append(f"{sid}: bad damage {s.damage[i]}")
    return out


def _tracks(s: State) -> list[str]:
    out = []
    for side in SEATS:
        for name, value in s.tracks[side].items():
            low, high = track_range(name)
            if name == "pressure" and value == -1:
                continue
            if not low <= value <= high:
                out.append(f"{side} {name} = {value} outside {low}..{high}")
    if not 1 <= s.round <= design()["rounds"]:
        out.append(f"round {s.round} out of range")
    return out


def _cards(s: State) -> list[str]:
    """Every card is in exactly one place: a draw pile, a hand or a discard pile."""
    places = s.decks["A"] + s.decks["B"] + s.hands[IMPERIAL] + s.hands[INSURGENT] + s.discards["A"] + s.discards["B"]
    if sorted(places) != list(range(1, 101)):
        return ["cards lost or duplicated"]
    return []


def _views(s: State) -> list[str]:
    """A seat's view holds its own hand only; no view holds deck order, the generator or the seed."""
    out = []
    for seat in (*SEATS, None):
        v = view(s, seat)
        for key in ("rng", "seed"):
            if key in v:
                out.append(f"view for {seat} shows {key}")
        for deck in ("A", "B"):
            if v["decks"][deck] != {"count": len(s.decks[deck])}:
                out.append(f"view for {seat} shows deck {deck}")
        for side in SEATS:
            shown = v["hands"][side]
            if side == seat:
                if shown != s.hands[side]:
                    out.append(f"view for {seat} lacks its own hand")
            elif shown != {"count": len(s.hands[side])}:
                out.append(f"view for {seat} shows the {side} hand")
    return out
