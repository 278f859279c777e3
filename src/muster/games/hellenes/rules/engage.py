"""5.4 Engage and the Combat phase (6.0): battles where the active side's blocks met unbesieged enemies,
smaller battles first; 5.4.1 uncoordinated Forces (by the area they entered from) fight one after another;
then Sieges laid and resolved."""

from __future__ import annotations

from typing import Final

from muster.core.interface import Action
from muster.games.hellenes.datafiles import game_map
from muster.games.hellenes.engine import Decision, act, auto, frame, push, said
from muster.games.hellenes.rules.combat import battle_frame
from muster.games.hellenes.rules.common import AREA_BIT, field, held, other
from muster.games.hellenes.rules.siege import can_fortify, lay_sieges, sieges_to_resolve, sortie_questions, upkeep
from muster.games.hellenes.state import Frame, State


def battle_areas(s: State, side: str) -> list[str]:
    """Areas where the active side and the enemy both have blocks in the field, smallest battle first."""
    both = held(s, "athens")[0] & held(s, "sparta")[0]  # area sets: most turns, no area at all
    if not both:
        return []
    areas = [a for a in _MAP_ORDER if AREA_BIT[a] & both and field(s, a, side) and field(s, a, other(side))]
    return sorted(areas, key=lambda a: len(field(s, a, side)))


_MAP_ORDER: Final = (*game_map().land, *game_map().seas)
"""Every area in the map's order: land, then seas (the order battles of one size are listed in)."""


def forces(s: State, area: str, side: str) -> dict[str, list[str]]:
    """5.4.1: the active side's blocks in an area grouped by the area they entered from."""
    out: dict[str, list[str]] = {}
    for b in field(s, area, side):
        out.setdefault(s.via.get(str(s.units[b].token), ""), []).append(b)
    return out


@auto("combat")
def combat(s: State, f: Frame) -> None:
    """The Combat phase of the active side."""
    side = f["side"]
    lay_sieges(s, side)
    if s.result is not None:
        return
    areas = battle_areas(s, side)
    push(s, *([frame("battles", side=side, todo=areas)] if areas else []), frame("after_battles", side=side))


def next_battles(s: State, f: Frame) -> list[str]:
    """6.0: the areas of a ``battles`` step still to be fought that are the smallest now (several: a tie)."""
    side = f["side"]
    live = [a for a in f["todo"] if field(s, a, side) and field(s, a, other(side))]
    if not live:
        return []
    sizes = {a: len(field(s, a, side)) for a in live}
    low = min(sizes.values())
    return [a for a in live if sizes[a] == low]


@auto("battles")
def battles(s: State, f: Frame) -> None:
    """6.0: the battles one by one, smaller first; among battles of equal size the active side picks
    (``battle_pick``, asked only on a tie)."""
    smallest = next_battles(s, f)
    if not smallest:
        return
    if len(smallest) > 1:
        push(s, frame("battle_pick", seat=f["side"]), f)
        return
    start_battle_area(s, f, smallest[0])


def start_battle_area(s: State, f: Frame, area: str) -> None:
    """Take ``area`` off the ``battles`` step ``f`` (already off the stack) and fight there next."""
    f["todo"].remove(area)
    push(s, frame("battle_area", area=area, side=f["side"], fought=[], asked=False, next=None), f)


class BattlePick(Decision):
    """6.0: several battles of the same, smallest size: the active side chooses which is fought first."""

    kind = "battle_pick"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: battles of equal size: which is fought first?", side=f["seat"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act("battle", a) for a in next_battles(s, s.stack[-2])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        start_battle_area(s, s.stack.pop(), str(a.arg))

    def label(self, s: State, f: Frame, a: Action) -> str:
        area = str(a.arg)
        return said("the battle in {area} first (your {n} block)", "the battle in {area} first (your {n} blocks)",
                    area=area, n=len(field(s, area, f["seat"])))


def force_arg(area: str, key: str) -> str:
    """How an action names a Force (5.4.1): the area it entered from; the battle's own area for blocks that
    were already there."""
    return key or area


@auto("battle_area")
def battle_area(s: State, f: Frame) -> None:
    """One area's battles: the defender may Fortify first; then Force after Force until one wins."""
    area, side = f["area"], f["side"]
    enemy = other(side)
    dfn = field(s, area, enemy)
    if not field(s, area, side) or not dfn:
        return
    if not f["asked"] and can_fortify(s, area, enemy):
        f["asked"] = True
        push(s, frame("fortify", seat=enemy, area=area), f)
        return
    todo = {k: v for k, v in forces(s, area, side).items() if k not in f["fought"]}
    if not todo:
        return
    key = f.get("next")
    if key not in todo:
        if len(todo) > 1:
            push(s, frame("force_pick", seat=side), f)  # 5.4.1: the attacker chooses which Force fights first
            return
        key = next(iter(todo))
    f["next"] = None
    f["fought"].append(key)
    push(s, battle_frame(s, area, side, todo[key], dfn), f)


def untried_forces(s: State, f: Frame) -> dict[str, list[str]]:
    """The Forces of a ``battle_area`` step that have not fought yet."""
    return {k: v for k, v in forces(s, f["area"], f["side"]).items() if k not in f["fought"]}


class ForcePick(Decision):
    """5.4.1: several Forces Engage the same enemy Group: the attacker chooses which fights first (and, if it
    loses, which fights next against the survivors)."""

    kind = "force_pick"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: uncoordinated Forces in {area}: which Force fights first?", side=f["seat"],
                    area=s.stack[-2]["area"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        area_f = s.stack[-2]
        return [act("force", force_arg(area_f["area"], k)) for k in untried_forces(s, area_f)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        area_f = s.stack[-1]
        arg = str(a.arg)
        area_f["next"] = "" if arg == area_f["area"] else arg

    def label(self, s: State, f: Frame, a: Action) -> str:
        area_f = s.stack[-2]
        key = "" if a.arg == area_f["area"] else str(a.arg)
        n = len(untried_forces(s, area_f).get(key, []))
        if not key:
            return said("the Force already in {area} ({n} block)", "the Force already in {area} ({n} blocks)",
                        area=area_f["area"], n=n)
        return said("the Force from {area} ({n} block)", "the Force from {area} ({n} blocks)", area=key, n=n)


@auto("after_battles")
def after_battles(s: State, f: Frame) -> None:
    """After the battles: Sieges are laid where the active side now stands alone, then resolved."""
    side = f["side"]
    lay_sieges(s, side)
    if s.result is not None:
        return
    sortie = [frame("sortie", seat=side, done=[])] if sortie_questions(s, side) else []  # 8.3
    push(s, *sortie, *(frame("siege_choice", seat=side, area=a) for a in sieges_to_resolve(s, side)))


@auto("turn_end")
def turn_end(s: State, f: Frame) -> None:
    """The Player Turn ends: Siege and control upkeep."""
    upkeep(s)
    s.active, s.actions_left = None, 0
    s.moved, s.via, s.forced, s.crossings, s.no_entry = [], {}, [], {}, []
