"""Shared building blocks of card events. Each is a frame: automatic, or a decision with a
finite legal list. When part of an event cannot be applied, that part is skipped and the rest
still applies (a decision with no legal choice lapses)."""

from __future__ import annotations

from functools import cache
from typing import Final

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, IMPERIAL_CANNON, INSURGENT, cannon_owner
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.engine import ACTIONS, VERB_ACTIONS, Decision, auto, count_down, frame, known, push
from muster.games.freedom.rules.cannons import can_fire, cannon_targets, fire, has_target, roll_needed
from muster.games.freedom.rules.combat import imperial_attack, imperial_loses_unit, insurgent_hit_needed
from muster.games.freedom.rules.common import (
    TRACK_NAME,
    add_imperial,
    adjust,
    area_index,
    camp_cannon_from_pool,
    imperial_room,
    imperial_units,
    insurgent_room,
    log,
    remove_cannon,
    remove_imperial,
    remove_insurgent,
    roll,
    said,
    set_damage,
    split_unit_arg,
    support,
    support_effect,
)
from muster.games.freedom.rules.imperial_actions import plea_for_funds
from muster.games.freedom.rules.insurgent_actions import raid_targets, regroup_targets
from muster.games.freedom.rules.movement import kinds_at, move_unit, opening_destinations
from muster.games.freedom.state import Frame, State
from muster.i18n import N_, entry

# --- automatic primitives ------------------------------------------------------------------


def support_at(side: str, area: str) -> Frame:
    """One Support action for ``side`` in a named area."""
    return frame("ev_support", side=side, area=area)


@auto("ev_support")
def _ev_support(s: State, f: Frame) -> None:
    support(s, f["side"], area_index(f["area"]))


def track(side: str, name_: str, delta: int) -> Frame:
    """Move one of a side's tracks (Morale, Money, Supplies, Pressure…)."""
    return frame("ev_track", side=side, track=name_, delta=delta)


@auto("ev_track")
def _ev_track(s: State, f: Frame) -> None:
    if f["track"] == "pressure" and s.tracks[f["side"]]["pressure"] < 0:
        log(s, "The Government has already answered: the Pressure track is gone.")
        return
    if adjust(s, f["side"], f["track"], f["delta"]) == 0:
        log(s, "{side} {track} cannot change.", side=f["side"], track=TRACK_NAME[f["track"]])


def cannon_to_camp() -> Frame:
    """A cannon from the pool to the Camp."""
    return frame("ev_camp_cannon")


@auto("ev_camp_cannon")
def _ev_camp_cannon(s: State, f: Frame) -> None:
    if camp_cannon_from_pool(s):
        log(s, "A cannon arrives in the Camp ({n} there).", n=s.camp_cannons)
    else:
        log(s, "No cannon is left in the pool.")


# --- decisions ------------------------------------------------------------------------------


def choose_support(seat: str, count: int, controlled_by: str | None) -> Frame:
    """``count`` Support actions by ``seat`` in distinct areas controlled by ``controlled_by`` (None: any)."""
    return frame("ev_choose_support", seat=seat, left=count, owner=controlled_by, done=[])


class ChooseSupport(Decision):
    """Pick the areas of an event's Support actions, one at a time, all different."""

    kind = "ev_choose_support"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Choose an area for Support ({n} left).", n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["left"] <= 0:
            return []
        return [
            ACTIONS["area", a.id]
            for i, a in enumerate(areas_file().areas)
            if a.id not in f["done"]
            and (f["owner"] is None or s.area_side[i] == f["owner"])
            and support_effect(s, f["seat"], i)
        ]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        area = str(a.arg)
        support(s, f["seat"], area_index(area))
        f["done"] = [*f["done"], area]
        count_down(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        return said("Support in {area}", area=area_index(str(a.arg)))


def remove_unit(chooser: str, side: str, count: int = 1) -> Frame:
    """``chooser`` removes ``count`` units of ``side`` from spaces of its choice."""
    return frame("remove_units", seat=chooser, side=side, left=count, why="event")


def units_to_camp(chooser: str, count: int, exclude_row: int | None) -> Frame:
    """``chooser`` sends ``count`` Imperial units (not in ``exclude_row``) back to the Camp."""
    return frame("ev_to_camp", seat=chooser, left=count, exclude_row=exclude_row)


class UnitsToCamp(Decision):
    """Send Imperial units back to the Camp (Marsh Diseases)."""

    kind = "ev_to_camp"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Choose an Imperial unit to send back to the Camp ({n} left).", n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["left"] <= 0:
            return []
        acts = []
        for i in range(len(b.ids)):
            if i == b.camp or not imperial_units(s, i):
                continue
            if f["exclude_row"] and b.kind[i] == "mainland" and b.row[i] == f["exclude_row"]:
                continue
            kinds = kinds_at(s, i)
            acts += [ACTIONS["unit", b.ids[i] if len(kinds) == 1 else f"{b.ids[i]}:{k}"] for k in kinds]
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        i, kind = split_unit_arg(a.arg)
        move_unit(s, i, b.camp, kind or kinds_at(s, i)[0])
        log(s, "An Imperial unit in {space} falls sick and goes back to the Camp.", space=i)
        count_down(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        sid = str(a.arg).partition(":")[0]
        return said("send a unit in {space} back to the Camp", space=board().index[sid])


def march_from_camp(seat: str, count: int) -> Frame:
    """``count`` Imperial units leave the Camp, one space each (Kütahi)."""
    return frame("ev_from_camp", seat=seat, left=count)


class MarchFromCamp(Decision):
    """Move units out of the Camp into adjacent spaces."""

    kind = "ev_from_camp"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Move a unit out of the Camp one space ({n} left).", n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["left"] <= 0:
            return []
        acts = []
        kinds = kinds_at(s, b.camp)
        for j in b.adj[b.camp]:
            for k in kinds:
                if imperial_room(s, j, k) and not b.slow[j]:
                    acts.append(ACTIONS["to", b.ids[j] if len(kinds) == 1 else f"{b.ids[j]}:{k}"])
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        j, kind = split_unit_arg(a.arg)
        move_unit(s, b.camp, j, kind or kinds_at(s, b.camp)[0])
        log(s, "An Imperial unit marches from the Camp to {space}.", space=j)
        count_down(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        sid, _, kind = str(a.arg).partition(":")
        i = board().index[sid]
        if kind == "E":
            return said("move an Expeditionary unit from the Camp to {space}", space=i)
        if kind == "A":
            return said("move an Allied unit from the Camp to {space}", space=i)
        return said("move a unit from the Camp to {space}", space=i)


def fire_one_cannon(seat: str, stone_balls: bool) -> Frame:
    """Fire one Imperial cannon now (Stone Cannon Balls), then march a unit to Row 4 before the target."""
    return frame("ev_fire_one", seat=seat, src=None, stone_balls=stone_balls)


class FireOne(Decision):
    """Choose one of your cannons that can fire at the Wall, then its target."""

    kind = "ev_fire_one"

    def _targets(self, s: State, i: int) -> list[tuple[int, int]]:
        from muster.games.freedom.rules.cannons import REVERSE_ORDINARY

        return list(REVERSE_ORDINARY[i])

    def prompt(self, s: State, f: Frame) -> str:
        if f["src"] is None:
            return said("Choose the cannon to fire.")
        return said("Choose the Wall section to fire at.")

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is None:
            return [ACTIONS["cannon", b.ids[i]] for i in b.mainland if can_fire(s, i, IMPERIAL) and self._targets(s, i)]
        return [ACTIONS["target", b.ids[w]] for w, _ in self._targets(s, b.index[f["src"]])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "cannon":
            f["src"] = str(a.arg)
            return
        s.stack.pop()
        src, dst = b.index[known(f["src"])], b.index[str(a.arg)]
        need = dict(self._targets(s, src))[dst]
        push(s, frame("ev_camp_to_row4", col=b.col[dst]))
        fire(s, src, dst, need, stone_balls=f["stone_balls"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        i = board().index[str(a.arg)]
        return said("fire the cannon in {space}", space=i) if a.verb == "cannon" else said("fire at {space}", space=i)


@auto("ev_camp_to_row4")
def _ev_camp_to_row4(s: State, f: Frame) -> None:
    b = board()
    j = b.at(4, f["col"])
    kinds = kinds_at(s, b.camp)
    for k in kinds:
        if j is not None and imperial_room(s, j, k):
            move_unit(s, b.camp, j, k)
            log(s, "An Imperial unit comes up from the Camp to {space}.", space=j)
            return
    log(s, "No unit can come up from the Camp to Row 4 there.")


def night_works(seat: str) -> Frame:
    """Move a Row 6 cannon (and up to 1 unit with it) one space forward."""
    return frame("ev_night_works", seat=seat, src=None)


class NightWorks(Decision):
    """Choose the Row 6 cannon to move forward, then whether a unit goes with it."""

    kind = "ev_night_works"

    def _forward(self, i: int) -> int | None:
        b = board()
        return b.at(b.row[i] - 1, b.col[i])

    def prompt(self, s: State, f: Frame) -> str:
        if f["src"] is None:
            return said("Night Works: choose a Row 6 space with your cannon.")
        return said("Night Works: may a unit move forward with the cannon?")

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is None:
            out = []
            for i in b.mainland:
                fwd = self._forward(i)
                if (
                    b.row[i] == 6
                    and cannon_owner(s.cannon[i]) == IMPERIAL
                    and fwd is not None
                    and not s.cannon[fwd]
                    and s.ins[fwd] == 0
                ):
                    out.append(ACTIONS["cannon", b.ids[i]])
            return out
        i = b.index[f["src"]]
        fwd = self._forward(i)
        assert fwd is not None
        acts = [ACTIONS["with", k] for k in kinds_at(s, i) if imperial_room(s, fwd, k)]
        return [*acts, ACTIONS["alone", None]]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "cannon":
            f["src"] = str(a.arg)
            i = b.index[str(a.arg)]
            fwd = self._forward(i)
            assert fwd is not None
            s.cannon[fwd], s.cannon[i] = s.cannon[i], 0
            log(s, "Night Works: the cannon in {space} moves forward to {fwd}.", space=i, fwd=fwd)
            return
        s.stack.pop()
        if a.verb == "with":
            i = b.index[known(f["src"])]
            fwd = self._forward(i)
            assert fwd is not None
            move_unit(s, i, fwd, str(a.arg))
            log(s, "An Imperial unit moves forward with it to {space}.", space=fwd)

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "cannon":
            return said("move the cannon in {space} forward", space=board().index[str(a.arg)])
        if a.verb == "alone":
            return said("the cannon moves alone")
        return said("a unit moves forward with it")


def grenades(seat: str) -> Frame:
    """Each Allied unit in a chosen Row 5 space attacks the Wall section in front of it."""
    return frame("ev_grenades", seat=seat)


class Grenades(Decision):
    """Choose the Row 5 space with Allied units whose grenadiers attack."""

    kind = "ev_grenades"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Grenades: choose a Row 5 space with Allied units.")

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        return [ACTIONS["to", b.ids[i]] for i in b.mainland if b.row[i] == 5 and s.ally[i]]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        s.stack.pop()
        i = b.index[str(a.arg)]
        wall = b.at(3, b.col[i])
        assert wall is not None
        for _ in range(s.ally[i]):
            if not s.ins[wall]:
                log(s, "No Insurgent unit is left in {space} to attack.", space=wall)
                break
            imperial_attack(s, i, wall, 0)

    def label(self, s: State, f: Frame, a: Action) -> str:
        b = board()
        i = b.index[str(a.arg)]
        wall = b.at(3, b.col[i])
        assert wall is not None
        return said("{n} Allied unit in {space} attacks {wall}", "{n} Allied units in {space} attack {wall}",
                    n=s.ally[i], space=i, wall=wall)


# --- designed-card primitives ---------------------------------------------------------------
# Where-filters name sets of spaces by board data only, so frames stay plain JSON.


def _where(name_: str, i: int) -> bool:
    b = board()
    kind, row = b.kind[i], b.row[i]
    tests = {
        "any": i != b.camp,
        "map": True,
        "row45": kind == "mainland" and row in (4, 5),
        "row46": kind == "mainland" and row in (4, 5, 6),
        "rows56": kind == "mainland" and row in (5, 6),
        "rows78": kind == "mainland" and row in (7, 8),
        "mainland": kind == "mainland",
        "islands": kind == "island",
        "water": kind == "water",
        "klisova": b.ids[i] == "klisova" or b.ring[i] != "",
        "wall": kind == "wall",
    }
    return tests[name_]


WHERE_WORDS: Final = {
    "any": "any space",
    "map": "any space or the Camp",
    "row45": "Row 4 or Row 5",
    "row46": "Rows 4–6",
    "rows56": "Row 5 or Row 6",
    "rows78": "Row 7 or Row 8",
    "mainland": "the mainland",
    "islands": "an island",
    "water": "the Lagoon waters",
    "klisova": "Klisova and its waters",
    "wall": "the Wall",
}
"""Words for the where-filters, used in prompts."""


@cache
def spaces_where(where: str) -> tuple[int, ...]:
    """Board indexes matching a where-filter (board data only: each filter's spaces are found once)."""
    spaces = _WHERE_SPACES.get(where)
    if spaces is None:
        spaces = _WHERE_SPACES[where] = tuple(i for i in range(len(board().ids)) if _where(where, i))
    return spaces


_WHERE_SPACES: Final[dict[str, tuple[int, ...]]] = {}
"""The spaces of each where-filter used so far, in board order."""


def pool_to_camp(kind: str, count: int) -> Frame:
    """Imperial units of ``kind`` (E or A) from the pool to the Camp, as many as the pool holds."""
    return frame("ev_pool_to_camp", unit=kind, count=count)


@auto("ev_pool_to_camp")
def _ev_pool_to_camp(s: State, f: Frame) -> None:
    n = add_imperial(s, board().camp, f["unit"], f["count"])
    if not n:
        log(s, "No Imperial unit is left in the pool.")
    elif f["unit"] == "E":
        log(s, "{n} Expeditionary unit arrives in the Camp.", "{n} Expeditionary units arrive in the Camp.", n=n)
    else:
        log(s, "{n} Allied unit arrives in the Camp.", "{n} Allied units arrive in the Camp.", n=n)


def civilians(delta: int) -> Frame:
    """Civilians arrive in the City Center from the pool (``delta`` > 0) or leave it (< 0)."""
    return frame("ev_civilians", delta=delta)


@auto("ev_civilians")
def _ev_civilians(s: State, f: Frame) -> None:
    delta = f["delta"]
    n = min(delta, s.pools["civilians"]) if delta > 0 else -min(-delta, s.civilians)
    s.civilians += n
    s.pools["civilians"] -= n
    log(s, "Civilians in the City: {old} → {new}.", old=s.civilians - n, new=s.civilians)


def free_plea() -> Frame:
    """A Plea for Funds at no AP cost."""
    return frame("ev_plea")


@auto("ev_plea")
def _ev_plea(s: State, f: Frame) -> None:
    plea_for_funds(s)


def place_insurgent(count: int, what: str = "unit", where: str = "insurgent") -> Frame:
    """New Insurgent units or cannons from the pool, in the City (``city``) or also on islands."""
    return frame("place_insurgent", seat=INSURGENT, left=count, what=what, where=where)


class _Picker(Decision):
    """A decision repeated ``left`` times over a list of spaces (optionally declinable)."""

    optional = False
    words = N_("choose {space}")
    """What a pick does, in words naming the space (a message id, for labels)."""

    def spaces(self, s: State, f: Frame) -> list[str]:
        """The ids (or ``id:kind``) that may be picked now."""
        raise NotImplementedError

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        """Carry out one pick."""
        raise NotImplementedError

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["left"] <= 0:
            return []
        acts = [ACTIONS["pick", x] for x in self.spaces(s, f)]
        return [*acts, ACTIONS["done", None]] if acts and self.optional else acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "done":
            s.stack.pop()
            return
        sid, _, kind = str(a.arg).partition(":")
        count_down(s, f)
        self.pick(s, f, board().index[sid], kind)

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "done":
            return said("stop here")
        sid, _, kind = str(a.arg).partition(":")
        pick = entry(self.words, space=board().index[sid])
        if kind == "E":
            return said("{pick} (Expeditionary)", pick=pick)
        if kind == "A":
            return said("{pick} (Allied)", pick=pick)
        return said(self.words, space=board().index[sid])


_FROM: Final = VERB_ACTIONS["from"]
_DONE: Final = ACTIONS["done", None]


def _unit_choices(s: State, i: int, only: str | None) -> list[str]:
    """``id`` or ``id:kind`` for the Imperial units in space ``i`` (``only``: E or A)."""
    kinds = [k for k in kinds_at(s, i) if only is None or k == only]
    sid = board().ids[i]
    if only is not None:
        return [f"{sid}:{k}" for k in kinds]
    return [sid] if len(kinds) == 1 else [f"{sid}:{k}" for k in kinds]


def remove_where(chooser: str, side: str, count: int, where: str, only: str | None = None) -> Frame:
    """``chooser`` removes ``count`` units of ``side`` from spaces matching ``where`` (``only``: E/A)."""
    return frame("ev_remove", seat=chooser, side=side, left=count, where=where, only=only)


class RemoveWhere(_Picker):
    """Remove units (to their pool) from a named set of spaces, one at a time."""

    kind = "ev_remove"
    words = N_("remove a unit from {space}")

    def prompt(self, s: State, f: Frame) -> str:
        return said("Remove an {side} unit from {where} ({n} left).", side=f["side"], where=WHERE_WORDS[f["where"]],
                    n=f["left"])

    def spaces(self, s: State, f: Frame) -> list[str]:
        out: list[str] = []
        exp, ally, ins, ids = s.exp, s.ally, s.ins, board().ids
        imperial = f["side"] == IMPERIAL
        only = f["only"] if imperial else None
        for i in spaces_where(f["where"]):
            if imperial:
                if exp[i] or ally[i]:  # (_unit_choices() is empty elsewhere)
                    out += _unit_choices(s, i, only)
            elif ins[i]:
                out.append(ids[i])
        return out

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        if f["side"] == IMPERIAL:
            remove_imperial(s, i, kind or None)
        else:
            remove_insurgent(s, i)
        log(s, "An {side} unit is removed from {space}.", side=f["side"], space=i)


def send_back(chooser: str, count: int, where: str) -> Frame:
    """``chooser`` sends ``count`` Imperial units in ``where`` back to the Camp."""
    return frame("ev_send_back", seat=chooser, left=count, where=where)


class SendBack(_Picker):
    """Imperial units go back to the Camp (floods, rain)."""

    kind = "ev_send_back"
    words = N_("send back to the Camp a unit from {space}")

    def prompt(self, s: State, f: Frame) -> str:
        return said("Send an Imperial unit in {where} back to the Camp ({n} left).", where=WHERE_WORDS[f["where"]],
                    n=f["left"])

    def spaces(self, s: State, f: Frame) -> list[str]:
        exp, ally = s.exp, s.ally
        return [x for i in spaces_where(f["where"]) if exp[i] or ally[i] for x in _unit_choices(s, i, None)]

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        move_unit(s, i, board().camp, kind or kinds_at(s, i)[0])
        log(s, "An Imperial unit in {space} goes back to the Camp.", space=i)


def place_imperial(seat: str, kind: str, count: int, where: str, from_camp: bool = False) -> Frame:
    """Imperial units of ``kind`` from the pool (or the Camp) into spaces matching ``where``."""
    return frame("ev_place_imperial", seat=seat, unit=kind, left=count, where=where, from_camp=from_camp)


def imperial_may_enter(s: State, i: int, kind: str) -> bool:
    """Room for a unit of ``kind``, and a thick Lagoon space only while its island is held."""
    b = board()
    return imperial_room(s, i, kind) and (b.thick[i] < 0 or imperial_units(s, b.thick[i]) > 0)


class PlaceImperial(_Picker):
    """New Imperial units (or Camp units) into a named set of spaces; the player may stop."""

    kind = "ev_place_imperial"
    words = N_("place a unit in {space}")
    optional = True

    def prompt(self, s: State, f: Frame) -> str:
        src = "the Camp" if f["from_camp"] else "the pool"
        return said("Place a unit from {src} in {where} ({n} left), or stop.", src=src, where=WHERE_WORDS[f["where"]],
                    n=f["left"])

    def spaces(self, s: State, f: Frame) -> list[str]:
        kind = f["unit"]
        if f["from_camp"]:
            have = (s.exp if kind == "E" else s.ally)[board().camp]
        else:
            have = s.pools["expeditionary" if kind == "E" else "allied"]
        if have <= 0:
            return []
        return [board().ids[i] for i in spaces_where(f["where"]) if imperial_may_enter(s, i, kind)]

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        if f["from_camp"]:
            move_unit(s, board().camp, i, f["unit"])
        else:
            add_imperial(s, i, f["unit"])
        log(s, "An Imperial unit is placed in {space}.", space=i)


def damage_wall(seat: str, count: int) -> Frame:
    """``seat`` damages Wall sections by one step, ``count`` times (no Morale choice: an event)."""
    return frame("ev_damage", seat=seat, left=count)


class DamageWall(_Picker):
    """Choose a Wall section that is not destroyed; it takes one step of damage."""

    kind = "ev_damage"
    words = N_("damage {space}")

    def prompt(self, s: State, f: Frame) -> str:
        return said("Choose a Wall section to damage ({n} left).", n=f["left"])

    def spaces(self, s: State, f: Frame) -> list[str]:
        b = board()
        return [b.ids[i] for i in b.walls if s.damage[i] < 2]

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        set_damage(s, i, s.damage[i] + 1)
        log(s, ("{space} is damaged.", "{space} is destroyed.")[s.damage[i] - 1], space=i)


def repair_wall(seat: str, count: int) -> Frame:
    """``seat`` repairs damaged Wall sections by one step each, ``count`` times."""
    return frame("ev_repair", seat=seat, left=count)


class RepairWall(_Picker):
    """Choose a damaged or destroyed Wall section without Imperial units; it improves one step."""

    kind = "ev_repair"
    words = N_("repair {space}")

    def prompt(self, s: State, f: Frame) -> str:
        return said("Choose a Wall section to repair ({n} left).", n=f["left"])

    def spaces(self, s: State, f: Frame) -> list[str]:
        b = board()
        return [b.ids[i] for i in b.walls if s.damage[i] > 0 and imperial_units(s, i) == 0]

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        set_damage(s, i, s.damage[i] - 1)
        log(s, ("{space} is repaired: now intact.", "{space} is repaired: now damaged.")[s.damage[i]], space=i)


def train(count: int) -> Frame:
    """Civilians become Insurgent units, free of AP (as Train Civilians)."""
    return frame("ev_train", seat=INSURGENT, left=count)


class TrainFree(_Picker):
    """Choose where a trained Civilian stands: Row 3, Row 2 or an island free of Imperial units."""

    kind = "ev_train"
    words = N_("train a Civilian in {space}")

    def prompt(self, s: State, f: Frame) -> str:
        return said("Train a Civilian: choose where the new unit stands ({n} left).", n=f["left"])

    def spaces(self, s: State, f: Frame) -> list[str]:
        if s.civilians <= 0 or s.pools["insurgent"] <= 0:
            return []
        b = board()
        return [b.ids[i] for i in b.insurgent_spaces if insurgent_room(s, i)]

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        s.civilians -= 1
        s.pools["civilians"] += 1
        s.pools["insurgent"] -= 1
        s.ins[i] += 1
        log(s, "A Civilian takes up arms in {space}.", space=i)


def spike_cannon(seat: str, side: str, where: str) -> Frame:
    """``seat`` removes one cannon of ``side`` standing in ``where`` (back to the pool)."""
    return frame("ev_spike", seat=seat, side=side, left=1, where=where)


class SpikeCannon(_Picker):
    """Choose an enemy cannon to put out of action."""

    kind = "ev_spike"
    words = N_("remove the cannon in {space}")

    def prompt(self, s: State, f: Frame) -> str:
        return said("Choose an {side} cannon in {where} to remove.", side=f["side"], where=WHERE_WORDS[f["where"]])

    def spaces(self, s: State, f: Frame) -> list[str]:
        b = board()
        return [b.ids[i] for i in spaces_where(f["where"]) if cannon_owner(s.cannon[i]) == f["side"]]

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        remove_cannon(s, i)
        log(s, "The cannon in {space} is put out of action.", space=i)


def build_free(seat: str, where: str) -> Frame:
    """A free Imperial cannon (from the Camp, else the pool) in a ``where`` space with a unit and no cannon."""
    return frame("ev_build", seat=seat, left=1, where=where)


class BuildFree(_Picker):
    """Choose the space of a free Imperial cannon."""

    kind = "ev_build"
    words = N_("build a cannon in {space}")

    def prompt(self, s: State, f: Frame) -> str:
        return said("Choose a space in {where} with your unit for a new cannon.", where=WHERE_WORDS[f["where"]])

    def spaces(self, s: State, f: Frame) -> list[str]:
        if s.camp_cannons <= 0 and s.pools["cannons"] <= 0:
            return []
        b = board()
        return [b.ids[i] for i in spaces_where(f["where"]) if imperial_units(s, i) and not s.cannon[i]]

    def pick(self, s: State, f: Frame, i: int, kind: str) -> None:
        if s.camp_cannons > 0:
            s.camp_cannons -= 1
        else:
            s.pools["cannons"] -= 1
        s.cannon[i] = IMPERIAL_CANNON
        log(s, "A new Imperial cannon stands in {space}.", space=i)


def advance(seat: str, count: int) -> Frame:
    """``seat`` may move up to ``count`` Imperial units one space forward each (no Slow Movement)."""
    return frame("ev_advance", seat=seat, left=count, src=None, moved=[])


class Advance(Decision):
    """Choose a unit, then the space one step forward (from the Camp: any adjacent space)."""

    kind = "ev_advance"

    def prompt(self, s: State, f: Frame) -> str:
        if f["src"] is None:
            return said("Move an Imperial unit one space forward ({n} left), or stop.", n=f["left"])
        return said("Choose where the unit moves.")

    def _targets(self, s: State, i: int, kind: str) -> list[int]:
        return opening_destinations(s, i, kind)

    def _fresh(self, s: State, f: Frame, i: int, kind: str) -> bool:
        """True if a unit of ``kind`` in space ``i`` has not moved with this event yet."""
        here = (s.exp if kind == "E" else s.ally)[i]
        return here > f["moved"].count(f"{board().ids[i]}:{kind}")

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is not None:
            sid, _, kind = str(f["src"]).partition(":")
            i = b.index[sid]
            return [ACTIONS["to", b.ids[j]] for j in self._targets(s, i, kind or kinds_at(s, i)[0])]
        if f["left"] <= 0:
            return []
        acts = []
        exp, ally, source = s.exp, s.ally, _FROM
        for i in range(len(exp)):  # a plain loop: compiled, it beats scanning with C-level iterators
            if not exp[i] and not ally[i]:
                continue
            for x in _unit_choices(s, i, None):
                kind = x.partition(":")[2] or kinds_at(s, i)[0]
                if self._fresh(s, f, i, kind) and self._targets(s, i, kind):
                    acts.append(source[x])
        return [*acts, _DONE] if acts else []

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "done":
            s.stack.pop()
        elif a.verb == "from":
            f["src"] = str(a.arg)
        else:
            sid, _, kind = str(f["src"]).partition(":")
            i, j = b.index[sid], b.index[str(a.arg)]
            kind = kind or kinds_at(s, i)[0]
            move_unit(s, i, j, kind)
            log(s, "An Imperial unit moves forward from {src} to {dst}.", src=i, dst=j)
            f["moved"] = [*f["moved"], f"{b.ids[j]}:{kind}"]  # each unit moves once per event
            f["src"] = None
            count_down(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "done":
            return said("move no more units")
        i = board().index[str(a.arg).partition(":")[0]]
        return said("from {space}", space=i) if a.verb == "from" else said("to {space}", space=i)


def free_attacks(seat: str, count: int, bonus: int, only: str | None = None, from_where: str = "map") -> Frame:
    """Up to ``count`` attacks by ``seat`` at no AP cost, each roll + ``bonus``.

    ``only`` limits Imperial attackers to one kind (E or A); ``from_where`` to a set of spaces.
    """
    return frame("ev_attack", seat=seat, left=count, bonus=bonus, only=only, where=from_where, src=None)


def attack_sources(s: State, seat: str, only: str | None = None, where: str = "map") -> list[int]:
    """Spaces from which ``seat`` can attack now (an enemy unit adjacent)."""
    b = board()
    out = []
    for i in spaces_where(where):
        if seat == IMPERIAL:
            mine = (s.ally[i] if only == "A" else s.exp[i] if only == "E" else imperial_units(s, i)) > 0
            if mine and b.kind[i] != "camp" and any(s.ins[j] for j in b.adj[i]):
                out.append(i)
        elif s.ins[i] and any(imperial_units(s, j) for j in b.adj[i]):
            out.append(i)
    return out


class FreeAttack(Decision):
    """Choose the attacking space, then the adjacent target; the player may stop between attacks."""

    kind = "ev_attack"

    def prompt(self, s: State, f: Frame) -> str:
        if f["src"] is None:
            return said("Free attack ({n} left, {bonus} to the roll): choose the attacker, or stop.", n=f["left"],
                        bonus=f["bonus"])
        return said("Choose the target of the attack.")

    def _targets(self, s: State, f: Frame, i: int) -> list[int]:
        enemy = s.ins if f["seat"] == IMPERIAL else [imperial_units(s, j) for j in range(len(s.ins))]
        return [j for j in board().adj[i] if enemy[j]]

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is not None:
            return [ACTIONS["target", b.ids[j]] for j in self._targets(s, f, b.index[f["src"]])]
        if f["left"] <= 0:
            return []
        acts = [ACTIONS["from", b.ids[i]] for i in attack_sources(s, f["seat"], f["only"], f["where"])]
        return [*acts, ACTIONS["done", None]] if acts else []

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "done":
            s.stack.pop()
            return
        if a.verb == "from":
            f["src"] = str(a.arg)
            return
        i, j = b.index[known(f["src"])], b.index[str(a.arg)]
        f["src"] = None
        count_down(s, f)
        if f["seat"] == IMPERIAL:
            imperial_attack(s, i, j, f["bonus"])
        else:
            insurgent_attack_with(s, i, j, f["bonus"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "done":
            return said("make no more attacks")
        i = board().index[str(a.arg)]
        return said("attack from {space}", space=i) if a.verb == "from" else said("attack {space}", space=i)


def modifier(bonus: int) -> str:
    """A die modifier as the log writes it: " +1", " -1", or nothing for 0."""
    return f" {bonus:+d}" if bonus else ""


def insurgent_attack_with(s: State, src: int, dst: int, bonus: int) -> bool:
    """An Insurgent attack (1d8) with a modifier; a hit removes an Imperial unit."""

    need = insurgent_hit_needed(dst)
    die = roll(s, 8)
    hit = die + bonus >= need
    log(
        s,
        "Insurgent attack from {src} on {dst}: rolls {die}{mod}, needs {need}: {result}.",
        src=src, dst=dst, die=die, mod=modifier(bonus), need=need, result="hit" if hit else "miss",
    )
    if hit:
        imperial_loses_unit(s, dst, INSURGENT)
    return hit


def free_raids(count: int, bonus: int) -> Frame:
    """Up to ``count`` Raids by the Insurgent at no AP cost (any distance), each roll + ``bonus``."""
    return frame("ev_raid", seat=INSURGENT, left=count, bonus=bonus, src=None)


def raid_sources(s: State) -> list[int]:
    """Spaces from which a Raid can be made now."""
    b = board()
    return [i for i in b.insurgent_spaces if s.ins[i] and raid_targets(s, i)]


class FreeRaid(Decision):
    """Choose the raiding unit, then the target; the player may stop between raids."""

    kind = "ev_raid"

    def prompt(self, s: State, f: Frame) -> str:
        if f["src"] is None:
            return said("Free Raid ({n} left, {bonus} to the roll): choose the raider, or stop.", n=f["left"],
                        bonus=f["bonus"])
        return said("Choose the target of the Raid.")

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is not None:
            return [ACTIONS["target", b.ids[j]] for j, _ in raid_targets(s, b.index[f["src"]])]
        if f["left"] <= 0:
            return []
        acts = [ACTIONS["from", b.ids[i]] for i in raid_sources(s)]
        return [*acts, ACTIONS["done", None]] if acts else []

    def apply(self, s: State, f: Frame, a: Action) -> None:

        b = board()
        if a.verb == "done":
            s.stack.pop()
            return
        if a.verb == "from":
            f["src"] = str(a.arg)
            return
        i, j = b.index[known(f["src"])], b.index[str(a.arg)]
        f["src"] = None
        count_down(s, f)
        die = roll(s, 8)
        hit = die + f["bonus"] >= 5
        log(
            s,
            "Insurgent raid from {src} on {dst}: rolls {die}{mod}, needs {need}: {result}.",
            src=i, dst=j, die=die, mod=modifier(f["bonus"]), need=5, result="hit" if hit else "miss",
        )
        if hit:
            imperial_loses_unit(s, j, INSURGENT)

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "done":
            return said("make no more raids")
        i = board().index[str(a.arg)]
        return said("raid from {space}", space=i) if a.verb == "from" else said("raid {space}", space=i)


def free_regroups(count: int) -> Frame:
    """Up to ``count`` Regroups by the Insurgent at no AP cost."""
    return frame("ev_regroup", seat=INSURGENT, left=count, src=None)


class FreeRegroup(Decision):
    """Choose a unit, then its new City or island space; the player may stop."""

    kind = "ev_regroup"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Free Regroup ({n} left): choose a unit, or stop.", n=f["left"]) if f["src"] is None else \
            said("Choose where.")

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is not None:
            return [ACTIONS["to", b.ids[j]] for j in regroup_targets(s, b.index[f["src"]])]
        if f["left"] <= 0:
            return []
        acts = [ACTIONS["from", b.ids[i]] for i in b.insurgent_spaces if s.ins[i] and regroup_targets(s, i)]
        return [*acts, ACTIONS["done", None]] if acts else []

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "done":
            s.stack.pop()
            return
        if a.verb == "from":
            f["src"] = str(a.arg)
            return
        i, j = b.index[known(f["src"])], b.index[str(a.arg)]
        s.ins[i] -= 1
        s.ins[j] += 1
        log(s, "Insurgent unit regroups from {src} to {dst}.", src=i, dst=j)
        f["src"] = None
        count_down(s, f)


def fire_cannons(seat: str, count: int, bonus: int) -> Frame:
    """Up to ``count`` different cannons of ``seat`` fire now, each die + ``bonus``."""
    return frame("ev_fire", seat=seat, left=count, bonus=bonus, fired=[], src=None)


def ready_cannons(s: State, seat: str, fired: list[str]) -> list[int]:
    """Cannons of ``seat`` that may fire now (a friendly unit with them and a target in reach)."""
    b = board()
    return [
        i
        for i in range(len(b.ids))
        if s.cannon[i] and b.ids[i] not in fired and can_fire(s, i, seat) and has_target(s, i)
    ]


class FireCannons(Decision):
    """Choose a cannon, then its target; the shot's dice get the event's modifier."""

    kind = "ev_fire"

    def prompt(self, s: State, f: Frame) -> str:
        if f["src"] is None:
            return said("Fire a cannon ({n} left, {bonus} to each die), or stop.", n=f["left"], bonus=f["bonus"])
        return said("Choose the target.")

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is not None:
            return [ACTIONS["target", b.ids[j]] for j, _ in cannon_targets(s, b.index[f["src"]])]
        if f["left"] <= 0:
            return []
        acts = [ACTIONS["cannon", b.ids[i]] for i in ready_cannons(s, f["seat"], f["fired"])]
        return [*acts, ACTIONS["done", None]] if acts else []

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "done":
            s.stack.pop()
            return
        if a.verb == "cannon":
            f["src"] = str(a.arg)
            return
        src_id = known(f["src"])
        src, dst = b.index[src_id], b.index[str(a.arg)]
        need = roll_needed(s, src, dst)
        f["fired"] = [*f["fired"], src_id]
        f["src"] = None
        count_down(s, f)
        fire(s, src, dst, need - f["bonus"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "done":
            return said("fire no more cannons")
        i = board().index[str(a.arg)]
        return said("fire the cannon in {space}", space=i) if a.verb == "cannon" else said("fire at {space}", space=i)


def take_island(seat: str, island: str, kind: str) -> Frame:
    """The Insurgent units on ``island`` are removed and one Imperial unit of ``kind`` from the pool lands."""
    return frame("ev_take_island", seat=seat, island=island, unit=kind)


@auto("ev_take_island")
def _ev_take_island(s: State, f: Frame) -> None:
    i = board().index[f["island"]]
    while remove_insurgent(s, i):
        log(s, "An Insurgent unit on {space} is lost.", space=i)
    if imperial_may_enter(s, i, f["unit"]) and add_imperial(s, i, f["unit"]):
        log(s, "An Imperial unit lands on {space}.", space=i)

