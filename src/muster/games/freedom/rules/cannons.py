"""Rule 4.4 Cannons: every Imperial cannon with a unit beside it fires, then every Insurgent one.

Each shot rolls 2d6; each die reaching the number for the distance is a hit (Allied unit
with the cannon: +1; the Bombard: +1 and reach to Row 7). Reach tables are board data.
"""

from __future__ import annotations

from typing import Final

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON, cannon_owner
from muster.games.freedom.datafiles import design
from muster.games.freedom.engine import Decision, auto, frame, known, push, space_actions
from muster.games.freedom.rules.combat import imperial_loses_unit, insurgent_loses_unit
from muster.games.freedom.rules.common import (
    imperial_units,
    log,
    morale_choice,
    remove_cannon,
    roll_dice,
    ruleset,
    said,
    set_damage,
)
from muster.games.freedom.state import Frame, State
from muster.i18n import entry


@auto("cannons_phase")
def cannons_phase(s: State, f: Frame) -> None:
    """Imperial cannons first, then Insurgent cannons."""
    log(s, "Cannons phase.")
    push(s, frame("cannons", seat=IMPERIAL, fired=[], src=None), frame("cannons", seat=INSURGENT, fired=[], src=None))


_INSURGENT_CODES: Final = (INSURGENT_CANNON, BOMBARD)
"""The cannon codes :func:`cannon_owner` gives to the Insurgent."""


def cannon_targets(s: State, i: int) -> list[tuple[int, int]]:
    """(target, roll needed) for the cannon in space ``i`` (ignoring whether it may fire)."""
    code = s.cannon[i]
    kind = _KIND[i]
    if code == IMPERIAL_CANNON:
        if kind != "mainland":
            return []
        damage, ins, cannon = s.damage, s.ins, s.cannon
        out = [(w, need) for w, need in REVERSE_ORDINARY[i] if damage[w] < 2 or ins[w] or cannon[w] in _INSURGENT_CODES]
        out += [(m, need) for m, need in _REVERSE_MARMAROU[i] if ins[m] or cannon[m]]
        return out
    targets = _insurgent_targets(s, i, code, kind)
    exp, ally, cannon = s.exp, s.ally, s.cannon
    return [(j, need) for j, need in targets if exp[j] or ally[j] or cannon[j] == IMPERIAL_CANNON]


def _insurgent_targets(s: State, i: int, code: int, kind: str) -> tuple[tuple[int, int], ...]:
    """Every (target, roll needed) the Insurgent cannon at space ``i`` reaches, whatever the pieces: a Wall
    cannon's table by its kind (a Bombard's reaches further) and the edition (Wall to Wall or not)."""
    if kind == "wall":
        return _INSURGENT_REACH[(2 if code == BOMBARD else 0) + (1 if ruleset(s)["wall_cannons_fire_wall"] else 0)][i]
    return _INSURGENT_REACH[0][i]


def has_target(s: State, i: int) -> bool:
    """``bool(cannon_targets(s, i))`` with an early exit and no list built: the Cannons phase asks it of every
    cannon that may fire, at each of its choices."""
    code = s.cannon[i]
    kind = _KIND[i]
    if code == IMPERIAL_CANNON:
        if kind != "mainland":
            return False
        damage, ins, cannon = s.damage, s.ins, s.cannon
        for w, _need in REVERSE_ORDINARY[i]:
            if damage[w] < 2 or ins[w] or cannon[w] in _INSURGENT_CODES:
                return True
        for m, _need in _REVERSE_MARMAROU[i]:  # noqa: SIM110 - any() over a generator costs more in pure Python
            if ins[m] or cannon[m]:
                return True
        return False
    targets = _insurgent_targets(s, i, code, kind)
    exp, ally, cannon = s.exp, s.ally, s.cannon
    for j, _need in targets:  # noqa: SIM110 - as above
        if exp[j] or ally[j] or cannon[j] == IMPERIAL_CANNON:
            return True
    return False


def roll_needed(s: State, i: int, j: int) -> int:
    """The roll the cannon in space ``i`` needs to hit space ``j``, one of its :func:`cannon_targets` (its last
    entry for ``j``, as a dict made of the list would keep), without building that dict."""
    found = -1
    for target, need in cannon_targets(s, i):
        if target == j:
            found = need
    if found < 0:
        raise KeyError(j)
    return found


def _reverse(table: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A reach table read backwards: Imperial cannons fire along the same lines (rule 4.4)."""
    b = board()
    rev: list[list[tuple[int, int]]] = [[] for _ in b.ids]
    for src, row in enumerate(b.reach[table]):
        for dst, need in row:
            rev[dst].append((src, need))
    return tuple(tuple(row) for row in rev)


_KIND: Final = board().kind
_REACH: Final = board().reach
REVERSE_ORDINARY: Final = _reverse("ordinary")
"""Per space, (Wall section, roll needed) of an Imperial cannon there: the ordinary reach table backwards."""
_REVERSE_MARMAROU: Final = _reverse("marmarou")



def _insurgent_reach(bombard: bool, wall_to_wall: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per space, the (target, roll needed) an Insurgent cannon there may fire at, whatever the pieces:
    from the Wall the ordinary or the Bombard's table (and, where the edition allows, Wall to Wall); from an
    island the water around it, and Marmarou's mainland spaces; from a beach its own table."""
    rows: list[tuple[tuple[int, int], ...]] = []
    for i, kind in enumerate(_KIND):
        if kind == "wall":
            row = _REACH["bombard" if bombard else "ordinary"][i] + (_REACH["wall_to_wall"][i] if wall_to_wall else ())
        elif kind == "island":
            row = _REACH["island"][i] + _REACH["marmarou"][i]
        elif kind == "beach":
            row = _REACH["beach"][i]
        else:
            row = ()
        rows.append(row)
    return tuple(rows)


_INSURGENT_REACH: Final = tuple(_insurgent_reach(bombard, w2w) for bombard in (False, True) for w2w in (False, True))
"""Indexed by 2 × (the Bombard) + (Wall to Wall allowed), then by space."""
_SPACES: Final = range(len(board().ids))
_CAN_FIRE_FROM: Final = tuple(i for i in _SPACES
                              if (_KIND[i] == "mainland" and (REVERSE_ORDINARY[i] or _REVERSE_MARMAROU[i]))
                              or any(table[i] for table in _INSURGENT_REACH))
"""The spaces from which a cannon may ever have a target (:func:`cannon_targets` is empty elsewhere), in board
order."""
_IDS: Final = board().ids
_INDEX: Final = board().index
_CANNONS: Final[dict[str, int]] = design()["cannons"]


def can_fire(s: State, i: int, seat: str) -> bool:
    """A cannon fires only with a friendly unit in its space."""
    if cannon_owner(s.cannon[i]) != seat:
        return False
    return bool(imperial_units(s, i) if seat == IMPERIAL else s.ins[i])


def bonus(s: State, i: int) -> int:
    """+1 with an Allied unit beside an Imperial cannon; +1 for the Bombard."""
    c = _CANNONS
    if s.cannon[i] == BOMBARD:
        return int(c["bombard_bonus"])
    if s.cannon[i] == IMPERIAL_CANNON and s.ally[i] > 0:
        return int(c["allied_bonus"])
    return 0


def fire(s: State, src: int, dst: int, need: int, stone_balls: bool = False) -> int:
    """Fire one cannon; apply each hit in turn; return the number of hits."""
    c = _CANNONS
    seat = cannon_owner(s.cannon[src])
    assert seat is not None
    dice = roll_dice(s, c["dice"], c["die"])
    plus = bonus(s, src)
    hits = 0
    for d in dice:  # (a plain loop: a generator in sum() costs a frame at every shot in pure Python)
        if d + plus >= need:
            hits += 1
    if not s.quiet:  # (quiet simulations skip building the log line's parts)
        extra = entry(", +{n} each", n=plus) if plus else ""
        result = entry("no hit") if hits == 0 else entry("{n} hit", "{n} hits", n=hits)
        log(
            s,
            "{side} cannon in {src} fires at {dst}: rolls {dice}{extra}, needs {need}: {result}.",
            side=seat, src=src, dst=dst, dice=dice, extra=extra, need=need, result=result,
        )
    for _ in range(hits):
        if seat == IMPERIAL:
            imperial_hit(s, dst, stone_balls)
        else:
            insurgent_hit(s, dst)
    return hits


def imperial_hit(s: State, dst: int, stone_balls: bool = False) -> None:
    """Rule 4.4.1: the Wall is damaged, then destroyed; then units fall, then the cannon.

    With Stone Cannon Balls (card 42A) a hit removes a unit instead of damaging the Wall.
    """
    b = board()
    if b.kind[dst] == "wall" and s.damage[dst] < 2 and not stone_balls:
        set_damage(s, dst, s.damage[dst] + 1)
        if s.damage[dst] == 2:
            log(s, "{space} is destroyed.", space=dst)
            if ruleset(s)["wall_destroyed_morale_choice"]:
                morale_choice(s, IMPERIAL)
        else:
            log(s, "{space} is damaged.", space=dst)
    elif s.ins[dst]:
        insurgent_loses_unit(s, dst, IMPERIAL)
    elif cannon_owner(s.cannon[dst]) == INSURGENT and not stone_balls:
        log(s, "The cannon in {space} is destroyed.", space=dst)
        remove_cannon(s, dst)


def insurgent_hit(s: State, dst: int) -> None:
    """Rule 4.4.2: each hit removes an Imperial unit, then an Imperial cannon."""
    if imperial_units(s, dst):
        imperial_loses_unit(s, dst, INSURGENT)
    elif cannon_owner(s.cannon[dst]) == IMPERIAL:
        log(s, "The Imperial cannon in {space} is destroyed.", space=dst)
        remove_cannon(s, dst)


_CANNON_ACTIONS: Final = space_actions("cannon")
_TARGET_ACTIONS: Final = space_actions("target")


class Cannons(Decision):
    """Choose the next cannon to fire, then its target. Every cannon able to fire fires."""

    kind = "cannons"

    def _ready(self, s: State, f: Frame) -> list[int]:
        fired: list[str] = f["fired"]
        cannon = s.cannon
        # can_fire() inlined, in board order, over the spaces from where a cannon can ever hit something
        if f["seat"] == IMPERIAL:
            exp, ally = s.exp, s.ally
            return [i for i in _CAN_FIRE_FROM if cannon[i] == IMPERIAL_CANNON and (exp[i] or ally[i])
                    and _IDS[i] not in fired and has_target(s, i)]
        ins = s.ins
        return [i for i in _CAN_FIRE_FROM if cannon[i] in _INSURGENT_CODES and ins[i] and _IDS[i] not in fired
                and has_target(s, i)]

    def prompt(self, s: State, f: Frame) -> str:
        if f["src"] is None:
            return said("{side} cannons: choose the next cannon to fire.", side=f["seat"])
        return said("Choose the target of the cannon in {space}.", space=board().index[f["src"]])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["src"] is None:
            return [_CANNON_ACTIONS[i] for i in self._ready(s, f)]
        return [_TARGET_ACTIONS[j] for j, _ in cannon_targets(s, _INDEX[f["src"]])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "cannon":
            f["src"] = str(a.arg)
            return
        src_id = known(f["src"])
        src = _INDEX[src_id]
        dst = _INDEX[str(a.arg)]
        need = roll_needed(s, src, dst)
        f["fired"] = [*f["fired"], src_id]
        f["src"] = None
        fire(s, src, dst, need)

    def label(self, s: State, f: Frame, a: Action) -> str:
        b = board()
        i = b.index[str(a.arg)]
        if a.verb == "cannon":
            return said("fire the cannon in {space}", space=i)
        return said("fire at {space} (hits on {n}+)", space=i, n=dict(cannon_targets(s, b.index[known(f["src"])]))[i])
