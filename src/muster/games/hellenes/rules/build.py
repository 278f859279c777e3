"""4.2 Build: 4.2.1 Reinforce (+1 CV in the home City), 4.2.2 Recruit (draw 3, place 1), 4.2.3 Detached garrison."""

from __future__ import annotations

from typing import Final

from muster.core import rng
from muster.core.interface import Action
from muster.games.hellenes.datafiles import blocks, design
from muster.games.hellenes.engine import Decision, auto, frame, push, said
from muster.games.hellenes.rules.common import (
    GREEK,
    HOME,
    can_build_in,
    city_lists,
    gain_prestige,
    in_area,
    other,
    place,
    set_control,
    side_blocks,
)
from muster.games.hellenes.state import Frame, State
from muster.i18n import entry


def home_of(s: State, bid: str) -> str:
    """A block's home City; the Aeolian rebel fleet's home becomes the City it took (4.2.2 sidebar)."""
    origin = s.units[bid].origin
    if origin.startswith("rebel:"):
        return origin.split(":", 1)[1]
    return blocks()[bid].home


def buildable(s: State, side: str) -> list[str]:
    """4.2.1: blocks below their maximum standing in their own home City, where Building is allowed."""
    out: list[str] = []
    units = s.units
    allowed: dict[str, bool] = {}
    for b, _, _ in side_blocks(s, side)[0]:  # the side's blocks on the map, in roster order
        u = units[b]
        if u.cv >= _BUILD_MAX[b] or u.carrier is not None:
            continue  # at its maximum (most blocks), a Barbarian (never Builds), or a passenger
        area = u.area
        origin = u.origin
        if area is None or area != (origin.split(":", 1)[1] if origin.startswith("rebel:") else HOME[b]):
            continue  # not in its home City
        if area not in allowed:
            allowed[area] = can_build_in(s, area, side)
        if allowed[area]:
            out.append(b)
    return out


_BUILD_MAX: Final[dict[str, int]] = {b: d.max_cv if d.greek else 0 for b, d in blocks().items()}
"""The CV up to which each block Builds: its maximum for a Greek block, none (0) for a Barbarian."""


def pool(s: State, side: str) -> list[str]:
    """The Recruit Pool: the side's blocks not on the map that are eligible (Odrysians only after their Event)."""
    if s.odrysian:
        return list(side_blocks(s, side)[1])
    return [b for b in side_blocks(s, side)[1] if b not in _REQUIRES]


def pool_has(s: State, side: str) -> bool:
    """True if the Recruit Pool is not empty (``pool`` without building the list)."""
    if s.odrysian:
        return bool(side_blocks(s, side)[1])
    for b in side_blocks(s, side)[1]:  # noqa: SIM110 - any() over a generator costs a frame in pure Python
        if b not in _REQUIRES:
            return True
    return False


_REQUIRES: Final[frozenset[str]] = frozenset(b for b, d in blocks().items() if d.requires is not None)
"""The blocks that join the Recruit Pool only after an Event (the Odrysians)."""


def placements(s: State, bid: str) -> list[str]:
    """Where a drawn block may legally be placed (4.2.2 and its sidebars)."""
    d = blocks()[bid]
    side = d.side
    if d.rebel == "aeolian":
        return [a for a in design()["aeolian_places"] if not in_area(s, a, other(side))]
    if d.rebel == "macedonian":
        return [a for a in design()["macedonian_places"] if not in_area(s, a, other(side))]
    if not d.greek:
        return [d.home] if not in_area(s, d.home, other(side)) else []
    return [d.home] if can_build_in(s, d.home, side) else []


def garrison_sites(s: State, side: str) -> list[str]:
    """4.2.3: enemy Cities this side holds with a Greek block there and no garrison yet."""
    out: list[str] = []
    enemy, loyal, garrison, control = other(side), s.loyal, s.garrison, s.control
    for area in city_lists(s)[2]:  # the captured Cities: the only ones that may be loyal to the enemy
        if (control[area] == side and loyal.get(area) == enemy and area not in garrison
                and any(b in GREEK for b in in_area(s, area, side))):
            out.append(area)
    return out


@auto("recruit_draw")
def recruit_draw(s: State, f: Frame) -> None:
    """4.2.2: draw 3 blocks at random from the Pool (seen only by the drawer)."""
    candidates = pool(s, f["side"])
    s.rng, shuffled = rng.shuffled(s.rng, list(range(len(candidates))))
    s.tainted = True
    s.draw = {"side": f["side"], "ids": [candidates[i] for i in shuffled[:3]], "cv": f.get("cv")}
    push(s, frame("recruit", seat=f["side"]))


class Recruit(Decision):
    """4.2.2: place one of the drawn blocks in its home (Greek at CV 1, the Aeolian rebel fleet included;
    Barbarian at full CV), or none."""

    kind = "recruit"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: Recruit: place one of the blocks drawn", side=f["seat"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if not s.draw:
            return []
        acts = [Action("place", f"{b}@{a}") for b in s.draw["ids"] for a in placements(s, b)]
        return acts or [Action("wasted")]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        draw = s.draw or {"ids": [], "cv": None}
        s.draw = None
        if a.verb == "wasted":
            s.say("{side} draws recruits but none can be placed.", side=f["seat"])
            return
        bid, area = str(a.arg).split("@")
        d = blocks()[bid]
        # 4.2.2: Greek recruits enter at CV 1 (the Levy's at its CV), the Aeolian rebel fleet too: the sidebar
        # makes it Greek and an ordinary recruit; only the Revolt Event's own text brings it at full CV
        cv = d.max_cv if not d.greek else min(d.max_cv, draw["cv"] or 1)
        besieged = area in s.sieges and s.sieges[area]["by"] != d.side
        origin = f"rebel:{area}" if d.rebel == "aeolian" else "recruit"
        place(s, bid, area, cv, origin, inside_city=besieged)
        s.say("{side} recruits a block in {area}.", side=f["seat"], area=area)
        if d.rebel == "aeolian":
            # the rebel fleet seizes its City on arrival
            set_control(s, area, d.side)
            s.militia[area] = 0
            s.sieges.pop(area, None)
            if area in s.garrison:
                s.garrison.remove(area)
            gain_prestige(s, d.side, design()["prestige"]["capture"], entry("the rebels take {city}", city=area))
        if not d.greek:
            push(s, frame("free_move", seat=d.side, token=s.units[bid].token))

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "wasted":
            return said("none can be placed: the Action is wasted")
        bid, area = str(a.arg).split("@")
        d = blocks()[bid]
        return said("place {block} {letter}{fire} (max {max}) in {area}", block=bid, letter=d.letter, fire=d.fire,
                    max=d.max_cv, area=area)


def reinforce(s: State, bid: str) -> None:
    """4.2.1: +1 CV (public: a Build in that City; which block is not)."""
    s.units[bid].cv += 1
    siege = s.sieges.get(str(s.units[bid].area))
    if siege is not None:
        # a Build inside a besieged Port (8.2.1) changes what the besieged know of the Siege: the Sortie
        # question names this City again (8.3, rules.siege.sortie_situation)
        siege.pop("held", None)
    s.say("{side} builds in {area}.", side=blocks()[bid].side, area=str(s.units[bid].area))


def detach_garrison(s: State, side: str, area: str) -> None:
    """4.2.3: a garrison keeps the City after every friendly block has left."""
    s.garrison.append(area)
    s.say("{side} leaves a garrison in {city}.", side=side, city=area)
