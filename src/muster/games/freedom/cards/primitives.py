"""Shared building blocks of card events. Each is a frame: automatic, or a decision with a
finite legal list. When part of an event cannot be applied, that part is skipped and the rest
still applies (a decision with no legal choice lapses)."""

from __future__ import annotations

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT, cannon_owner, other
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.engine import Decision, auto, frame, push
from muster.games.freedom.rules.cannons import can_fire, fire
from muster.games.freedom.rules.combat import imperial_attack
from muster.games.freedom.rules.common import (
    SIDE_NAME,
    adjust,
    area_index,
    area_name,
    camp_cannon_from_pool,
    imperial_room,
    imperial_units,
    kind_fits,
    log,
    name,
    support,
    support_effect,
)
from muster.games.freedom.rules.movement import kinds_at, move_unit
from muster.games.freedom.state import Frame, State

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
        log(s, f"{SIDE_NAME[f['side']]} {f['track']} cannot change.")


def cannon_to_camp() -> Frame:
    """A cannon from the pool to the Camp."""
    return frame("ev_camp_cannon")


@auto("ev_camp_cannon")
def _ev_camp_cannon(s: State, f: Frame) -> None:
    if camp_cannon_from_pool(s):
        log(s, f"A cannon arrives in the Camp ({s.camp_cannons} there).")
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
        return f"Choose an area for Support ({f['left']} left)."

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["left"] <= 0:
            return []
        return [
            Action("area", a.id)
            for i, a in enumerate(areas_file().areas)
            if a.id not in f["done"]
            and (f["owner"] is None or s.area_side[i] == f["owner"])
            and support_effect(s, f["seat"], i)
        ]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        area = str(a.arg)
        support(s, f["seat"], area_index(area))
        f["done"] = [*f["done"], area]
        f["left"] -= 1
        if f["left"] <= 0:
            s.stack.pop()

    def label(self, s: State, f: Frame, a: Action) -> str:
        return f"Support in {area_name(area_index(str(a.arg)))}"


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
        return f"Choose an Imperial unit to send back to the Camp ({f['left']} left)."

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
            acts += [Action("unit", b.ids[i] if len(kinds) == 1 else f"{b.ids[i]}:{k}") for k in kinds]
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        sid, _, kind = str(a.arg).partition(":")
        i = b.index[sid]
        move_unit(s, i, b.camp, kind or kinds_at(s, i)[0])
        log(s, f"An Imperial unit in {name(i)} falls sick and goes back to the Camp.")
        f["left"] -= 1
        if f["left"] <= 0:
            s.stack.pop()

    def label(self, s: State, f: Frame, a: Action) -> str:
        sid = str(a.arg).partition(":")[0]
        return f"send a unit in {name(board().index[sid])} back to the Camp"


def march_from_camp(seat: str, count: int) -> Frame:
    """``count`` Imperial units leave the Camp, one space each (Kütahi)."""
    return frame("ev_from_camp", seat=seat, left=count)


class MarchFromCamp(Decision):
    """Move units out of the Camp into adjacent spaces."""

    kind = "ev_from_camp"

    def prompt(self, s: State, f: Frame) -> str:
        return f"Move a unit out of the Camp one space ({f['left']} left)."

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["left"] <= 0:
            return []
        acts = []
        kinds = kinds_at(s, b.camp)
        for j in b.adj[b.camp]:
            for k in kinds:
                if imperial_room(s, j, k) and not b.slow[j]:
                    acts.append(Action("to", b.ids[j] if len(kinds) == 1 else f"{b.ids[j]}:{k}"))
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        sid, _, kind = str(a.arg).partition(":")
        j = b.index[sid]
        move_unit(s, b.camp, j, kind or kinds_at(s, b.camp)[0])
        log(s, f"An Imperial unit marches from the Camp to {name(j)}.")
        f["left"] -= 1
        if f["left"] <= 0:
            s.stack.pop()

    def label(self, s: State, f: Frame, a: Action) -> str:
        sid, _, kind = str(a.arg).partition(":")
        what = {"E": "an Expeditionary unit", "A": "an Allied unit"}.get(kind, "a unit")
        return f"move {what} from the Camp to {name(board().index[sid])}"


def fire_one_cannon(seat: str, stone_balls: bool) -> Frame:
    """Fire one Imperial cannon now (Stone Cannon Balls), then march a unit to Row 4 before the target."""
    return frame("ev_fire_one", seat=seat, src=None, stone_balls=stone_balls)


class FireOne(Decision):
    """Choose one of your cannons that can fire at the Wall, then its target."""

    kind = "ev_fire_one"

    def _targets(self, s: State, i: int) -> list[tuple[int, int]]:
        from muster.games.freedom.rules.cannons import _reverse

        return [(w, need) for w, need in _reverse("ordinary")[i]]

    def prompt(self, s: State, f: Frame) -> str:
        return "Choose the cannon to fire." if f["src"] is None else "Choose the Wall section to fire at."

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        if f["src"] is None:
            return [Action("cannon", b.ids[i]) for i in b.mainland if can_fire(s, i, IMPERIAL) and self._targets(s, i)]
        return [Action("target", b.ids[w]) for w, _ in self._targets(s, b.index[f["src"]])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "cannon":
            f["src"] = a.arg
            return
        s.stack.pop()
        src, dst = b.index[f["src"]], b.index[str(a.arg)]
        need = dict(self._targets(s, src))[dst]
        push(s, frame("ev_camp_to_row4", col=b.col[dst]))
        fire(s, src, dst, need, stone_balls=f["stone_balls"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        return f"{'fire the cannon in' if a.verb == 'cannon' else 'fire at'} {name(board().index[str(a.arg)])}"


@auto("ev_camp_to_row4")
def _ev_camp_to_row4(s: State, f: Frame) -> None:
    b = board()
    j = b.at(4, f["col"])
    kinds = kinds_at(s, b.camp)
    for k in kinds:
        if j is not None and imperial_room(s, j, k):
            move_unit(s, b.camp, j, k)
            log(s, f"An Imperial unit comes up from the Camp to {name(j)}.")
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
            return "Night Works: choose a Row 6 space with your cannon."
        return "Night Works: may a unit move forward with the cannon?"

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
                    out.append(Action("cannon", b.ids[i]))
            return out
        i = b.index[f["src"]]
        fwd = self._forward(i)
        assert fwd is not None
        acts = [Action("with", k) for k in kinds_at(s, i) if imperial_room(s, fwd, k)]
        return [*acts, Action("alone")]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        if a.verb == "cannon":
            f["src"] = a.arg
            i = b.index[str(a.arg)]
            fwd = self._forward(i)
            assert fwd is not None
            s.cannon[fwd], s.cannon[i] = s.cannon[i], 0
            log(s, f"Night Works: the cannon in {name(i)} moves forward to {name(fwd)}.")
            return
        s.stack.pop()
        if a.verb == "with":
            i = b.index[f["src"]]
            fwd = self._forward(i)
            assert fwd is not None
            move_unit(s, i, fwd, str(a.arg))
            log(s, f"An Imperial unit moves forward with it to {name(fwd)}.")

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "cannon":
            return f"move the cannon in {name(board().index[str(a.arg)])} forward"
        if a.verb == "alone":
            return "the cannon moves alone"
        return "a unit moves forward with it"


def grenades(seat: str) -> Frame:
    """Each Allied unit in a chosen Row 5 space attacks the Wall section in front of it."""
    return frame("ev_grenades", seat=seat)


class Grenades(Decision):
    """Choose the Row 5 space with Allied units whose grenadiers attack."""

    kind = "ev_grenades"

    def prompt(self, s: State, f: Frame) -> str:
        return "Grenades: choose a Row 5 space with Allied units."

    def legal(self, s: State, f: Frame) -> list[Action]:
        b = board()
        return [Action("to", b.ids[i]) for i in b.mainland if b.row[i] == 5 and s.ally[i]]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        b = board()
        s.stack.pop()
        i = b.index[str(a.arg)]
        wall = b.at(3, b.col[i])
        assert wall is not None
        for _ in range(s.ally[i]):
            if not s.ins[wall]:
                log(s, f"No Insurgent unit is left in {name(wall)} to attack.")
                break
            imperial_attack(s, i, wall, 0)

    def label(self, s: State, f: Frame, a: Action) -> str:
        b = board()
        i = b.index[str(a.arg)]
        wall = b.at(3, b.col[i])
        assert wall is not None
        return f"{s.ally[i]} Allied unit(s) in {name(i)} attack {name(wall)}"


__all__ = ["INSURGENT", "kind_fits", "other"]
