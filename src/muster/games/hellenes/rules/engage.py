"""5.4 Engage and the Combat phase (6.0): battles where the active side's blocks met unbesieged enemies,
smaller battles first; 5.4.1 uncoordinated Forces (by the area they entered from) fight one after another;
then Sieges laid and resolved."""

from __future__ import annotations

from muster.games.hellenes.datafiles import game_map
from muster.games.hellenes.engine import auto, frame, push
from muster.games.hellenes.rules.combat import battle_frame
from muster.games.hellenes.rules.common import field, occupancy, other
from muster.games.hellenes.rules.siege import can_fortify, lay_sieges, sieges_to_resolve, upkeep
from muster.games.hellenes.state import Frame, State


def battle_areas(s: State, side: str) -> list[str]:
    """Areas where the active side and the enemy both have blocks in the field, smallest battle first."""
    g = game_map()
    fields, _ = occupancy(s)
    both = {a for a, sides in fields.items() if len(sides) == 2}
    if not both:
        return []
    areas = [a for a in (*g.land, *g.seas) if a in both and field(s, a, side) and field(s, a, other(side))]
    return sorted(areas, key=lambda a: len(field(s, a, side)))


def forces(s: State, area: str, side: str) -> dict[str, list[str]]:
    """5.4.1: the active side's blocks in an area grouped by the area they entered from."""
    out: dict[str, list[str]] = {}
    for b in field(s, area, side):
        out.setdefault(s.via.get(str(s.units[b]["token"]), ""), []).append(b)
    return out


@auto("combat")
def combat(s: State, f: Frame) -> None:
    """The Combat phase of the active side."""
    side = f["side"]
    lay_sieges(s, side)
    if s.result is not None:
        return
    push(s, *(frame("battle_area", area=a, side=side, fought=[], asked=False) for a in battle_areas(s, side)),
         frame("after_battles", side=side))


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
    key = max(todo, key=lambda k: (len(todo[k]), k))  # the main Force first
    f["fought"].append(key)
    push(s, battle_frame(s, area, side, todo[key], dfn), f)


@auto("after_battles")
def after_battles(s: State, f: Frame) -> None:
    """After the battles: Sieges are laid where the active side now stands alone, then resolved."""
    side = f["side"]
    lay_sieges(s, side)
    if s.result is not None:
        return
    push(s, *(frame("siege_choice", seat=side, area=a) for a in sieges_to_resolve(s, side)))


@auto("turn_end")
def turn_end(s: State, f: Frame) -> None:
    """The Player Turn ends: Siege and control upkeep."""
    upkeep(s)
    s.active, s.actions_left = None, 0
    s.moved, s.via, s.forced, s.crossings, s.no_entry = [], {}, [], {}, []
