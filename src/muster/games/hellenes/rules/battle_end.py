"""6.3.4 Panic and Pursuit, 6.4 Retreat, 6.4.1 Retreat Attrition and the end of a battle (DESIGN, digest 2.6):
the winner gains Prestige, routed blocks recover, the loser leaves the area."""

from __future__ import annotations

from muster.core.interface import Action
from muster.games.hellenes.datafiles import blocks, design, game_map
from muster.games.hellenes.engine import Decision, auto, frame, known, push, said
from muster.games.hellenes.rules.combat import (
    MILITIA,
    alive,
    allocate,
    can_retreat,
    describe,
    describe_entries,
    fire,
    firing_order,
    reveal,
    standing,
)
from muster.games.hellenes.rules.common import (
    eliminate,
    enemy_field,
    enemy_fleet_at,
    friendly_city,
    gain_prestige,
    in_area,
    is_fleet,
    lose_step,
    other,
    refresh_occupancy,
    roll,
)
from muster.games.hellenes.rules.movement import _relocate
from muster.games.hellenes.rules.victory import capture
from muster.games.hellenes.state import Frame, State
from muster.i18n import N_, entry


def finish(s: State, f: Frame, winner: str, how: str) -> None:
    """End a battle: Pursuit after a Panic, the loser's Retreat, Prestige, recovery of the routed."""
    area, att_side = f["area"], f["att_side"]
    for key in ("att", "dfn"):
        for t in alive(s, f, key):
            if t != MILITIA:
                u = s.units[s.tok[t]]
                u.seen = u.cv
    loser_key = "att" if winner != att_side else "dfn"
    if MILITIA in f["dfn"]:
        s.militia[area] = max(0, int(f["militia"]))
    why = {"retreat": N_("the enemy retreats"), "panic": N_("the enemy panics")}.get(how, N_("no enemy left"))
    if f["assault"]:
        s.say("{winner} wins the Assault on {area} ({why}).", winner=winner, area=area, why=why)
    else:
        s.say("{winner} wins the battle in {area} ({why}).", winner=winner, area=area, why=why)
    gain_prestige(s, winner, design()["prestige"]["battle"], entry("the battle in {area}", area=area))
    if f["assault"] and winner == att_side:
        capture(s, area, att_side)
    elif f["assault"]:
        if how == "panic":
            retreat(s, f, "att", attrition=True)  # besiegers who Panic leave the area
    elif f.get("sortie") and loser_key == "att":
        back_inside(s, f)  # 8.3: a Sortie that fails goes back inside; the Siege goes on
    else:
        if f.get("sortie"):
            end_siege(s, area)  # 8.3: the Sortie won: the Siege ends as the besiegers leave
            s.say("The Sortie breaks the Siege of {city}.", city=area)
        retreat(s, f, loser_key, attrition=True)


def end_siege(s: State, area: str) -> None:
    """A Siege ends at once: the blocks inside step out into the area (as at the end of a turn, 7.0)."""
    s.sieges.pop(area, None)
    for b in in_area(s, area, str(s.control.get(area))):
        s.units[b].inside = False
    refresh_occupancy(s, (area,))


def back_inside(s: State, f: Frame) -> None:
    """8.3 (DESIGN): a Sortie that Retreats or Panics goes back into its City; its routed
    blocks take Retreat Attrition on the way (6.4.1), the others go back unharmed."""
    lost = 0
    for t in alive(s, f, "att"):
        if t in f["routed"] and t in s.tok and roll(s) <= design()["retreat_attrition_max"]:
            lost += 1
            lose_step(s, s.tok[t])
    s.say("{side} falls back into {city} ({losses} on the way).", side=f["att_side"], city=f["area"],
          losses=entry("{n} loss", "{n} losses", n=lost))


def start_pursuit(s: State, f: Frame, winner_key: str) -> None:
    """6.3.4: the loser Panicked: each unrouted block of the winner will fire once more, in firing order; only
    hits count, on the routed enemy (who become targets for these firings). The state of the Pursuit lives
    in ``f["chase"]`` so that it can pause while the loser chooses among equally strong routed blocks."""
    loser_key = "dfn" if winner_key == "att" else "att"
    routed_only = {t for t in alive(s, f, loser_key) if t in f["routed"]}
    order = [t for key, t in firing_order(s, f) if key == winner_key]
    f["chase"] = {"key": winner_key, "order": order, "slot": 0, "saved": list(f["routed"])}
    f["routed"] = [t for t in f["routed"] if t not in routed_only]
    f["pursuit"] = True  # only hits count


def pursue(s: State, f: Frame) -> bool:
    """Fire the Pursuit's next blocks; False when a hit waits for its owner's choice (an ``allocate``
    decision is then on top), True when the Pursuit is over (the routed marks are restored)."""
    chase = known(f["chase"])
    winner_key = chase["key"]
    loser_key = "dfn" if winner_key == "att" else "att"
    while chase["slot"] < len(chase["order"]) and alive(s, f, loser_key):
        token = chase["order"][chase["slot"]]
        chase["slot"] += 1
        if token in standing(s, f, winner_key):
            fire(s, f, winner_key, token)
            if f.get("pending"):
                return False
    f["pursuit"] = False
    f["routed"] = chase["saved"]
    f["chase"] = None
    return True


def retreat_targets(s: State, f: Frame, bid: str, side: str, attacking: bool) -> list[str]:
    """6.4: where a retreating block may go, best first."""
    g = game_map()
    area = f["area"]
    vias = {s.via.get(str(t), "") for t in f["att"]}
    if is_fleet(bid):
        seas = list(g.sea_adj[area]) if g.is_sea(area) else list(g.coasts[area])
        lands = list(g.sea_shores[area]) if g.is_sea(area) else list(g.coast_mates(area))
        cands = [x for x in seas if not enemy_fleet_at(s, x, side)]
        cands += [x for x in lands if x not in g.neutral and not enemy_field(s, x, side)]
    elif g.is_sea(area):
        return []
    else:
        cands = [x for x in g.land_adj[area] if x not in g.neutral and not enemy_field(s, x, side)]
    own_via = s.via.get(str(s.units[bid].token), "")
    if attacking:
        cands = [x for x in cands if x == own_via or friendly_city(s, x, side) or in_area(s, x, side)]
    else:
        cands = [x for x in cands if x not in vias]
    return sorted(cands, key=lambda x: (x != own_via, not friendly_city(s, x, side), -len(in_area(s, x, side)), x))


def retreat(s: State, f: Frame, key: str, attrition: bool) -> None:
    """6.4: every block of the side leaves; 6.4.1: each routed one loses 1 CV on 1–2 first. The owner then
    chooses each survivor's destination where it has more than one (the ``retreat_moves`` step)."""
    side = f["att_side"] if key == "att" else other(f["att_side"])
    lost = 0
    movers: list[int] = []
    for t in alive(s, f, key):
        if t == MILITIA or t not in s.tok:
            continue
        bid = s.tok[t]
        if attrition and t in f["routed"] and roll(s) <= design()["retreat_attrition_max"]:
            lost += 1
            if lose_step(s, bid):
                continue
        movers.append(t)
    push(s, retreat_frame(side, f["area"], list(f["att"]), movers, key == "att", lost=lost, report=True))


def retreat_frame(side: str, area: str, att: list[int], movers: list[int], attacking: bool, lost: int = 0,
                  report: bool = False) -> Frame:
    """The blocks (tokens) of ``side`` that still have to leave ``area``, one by one (6.4)."""
    return frame("retreat_moves", seat=side, area=area, att=att, movers=movers, attacking=attacking, lost=lost,
                 report=report)


def retreat_options(s: State, f: Frame) -> list[str]:
    """Where the first block of a ``retreat_moves`` step may go."""
    bid = s.tok[f["movers"][0]]
    return retreat_targets(s, f, bid, f["seat"], f["attacking"])


@auto("retreat_moves")
def retreat_moves(s: State, f: Frame) -> None:
    """Move the retreating blocks in turn; a block with one way out takes it, one with none is eliminated,
    and one with several waits for its owner's choice (``retreat_to``)."""
    while f["movers"]:
        if f["movers"][0] not in s.tok:
            f["movers"].pop(0)
            continue
        dests = retreat_options(s, f)
        if len(dests) > 1:
            push(s, frame("retreat_to", seat=f["seat"]), f)
            return
        bid = s.tok[f["movers"].pop(0)]
        if dests:
            _relocate(s, bid, dests[0], "")
        else:
            eliminate(s, bid)
            f["lost"] += 1
    if f["report"]:
        s.say("{side} retreats from {area} ({losses} on the way).", side=f["seat"], area=f["area"],
              losses=entry("{n} loss", "{n} losses", n=f["lost"]))


class RetreatTo(Decision):
    """6.4: the owner chooses where a retreating block goes, among the areas open to it."""

    kind = "retreat_to"

    def prompt(self, s: State, f: Frame) -> str:
        moves = s.stack[-2]
        return said("{side.name}: {block} retreats from {area}: where to?", side=f["seat"],
                    block=s.tok[moves["movers"][0]], area=moves["area"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [Action("to", x) for x in retreat_options(s, s.stack[-2])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        moves = s.stack[-1]
        _relocate(s, s.tok[moves["movers"].pop(0)], str(a.arg), "")

    def label(self, s: State, f: Frame, a: Action) -> str:
        area = str(a.arg)
        friendly = game_map().cities.get(area) is not None and friendly_city(s, area, f["seat"])
        mates = len(in_area(s, area, f["seat"]))
        if friendly and mates:
            return said("retreat to {area} (friendly City, {n} friendly block)",
                        "retreat to {area} (friendly City, {n} friendly blocks)", area=area, n=mates)
        if mates:
            return said("retreat to {area} ({n} friendly block)", "retreat to {area} ({n} friendly blocks)",
                        area=area, n=mates)
        return said("retreat to {area} (friendly City)", area=area) if friendly else said("retreat to {area}",
                                                                                          area=area)


__all__ = ["blocks", "describe"]


@auto("battle")
def battle(s: State, f: Frame) -> None:
    """Run the battle until it ends or a side must decide whether to Retreat."""
    defender = other(f["att_side"])
    if not f["started"]:
        f["started"] = True
        reveal(s, f)
        if f.get("sortie"):
            s.say("Sortie from {city}: {side} ({att}) against the besieging {foe} ({dfn}).", city=f["area"],
                  side=f["att_side"], att=describe_entries(s, f, "att"), foe=defender,
                  dfn=describe_entries(s, f, "dfn"))
        else:
            s.say(("Battle in {area}: {side} ({att}) against {foe} ({dfn}).",
                   "Assault on {area}: {side} ({att}) against {foe} ({dfn}).")[bool(f["assault"])], area=f["area"],
                  side=f["att_side"], att=describe_entries(s, f, "att"), foe=defender,
                  dfn=describe_entries(s, f, "dfn"))
    while True:
        if f.get("pending") and not allocate(s, f, ask=True):
            return
        chase = f.get("chase")
        if chase:
            loser = defender if chase["key"] == "att" else f["att_side"]
            if not pursue(s, f):
                return  # the loser chooses which of its equally strong routed blocks a Pursuit hit takes
            finish(s, f, winner=other(loser), how="panic")
            return
        if f["leave"] is not None:
            leaving = f["leave"]
            finish(s, f, winner=other(leaving), how="retreat")
            return
        for key in ("att", "dfn"):
            if not standing(s, f, key):
                side = f["att_side"] if key == "att" else defender
                if alive(s, f, key):  # 6.3.4: a Panic; the winner's Pursuit comes first
                    start_pursuit(s, f, "dfn" if key == "att" else "att")
                    break
                finish(s, f, winner=other(side), how="eliminated")
                return
        if f.get("chase"):
            continue
        if f["slot"] >= len(f["order"]):
            # 6.1/6.2: rounds follow one another until a side is eliminated, Panics or Retreats; there is no
            # limit (every standing block rolls at least one die, so a battle ends with certainty)
            f["round"] += 1
            f["order"], f["slot"], f["asked"] = firing_order(s, f), 0, []
            continue
        key, token = f["order"][f["slot"]]
        if token not in standing(s, f, key):
            f["slot"] += 1
            continue
        asked = f["asked"]
        if not isinstance(asked, list):  # a battle's is a list (a battle area's is a flag)
            raise TypeError(f"a battle's asked sides are not a list: {asked!r}")
        if key not in asked:
            asked.append(key)
            if can_retreat(f, key):
                side = f["att_side"] if key == "att" else defender
                push(s, frame("battle_retreat", seat=side, key=key), f)
                return
        f["slot"] += 1
        fire(s, f, key, token)
        if f.get("pending"):
            return  # the owner chooses where a hit or rout lands (the Allocate decision is on top)
