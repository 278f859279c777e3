"""5.2.2 Hazardous borders, 5.2.3 Ship damage and the 5.3 forced-march rolls: all rolled when the Actions
are over, before the Combat phase."""

from __future__ import annotations

from muster.core.interface import Action
from muster.games.hellenes.datafiles import blocks, design
from muster.games.hellenes.engine import Decision, auto, frame, push, said
from muster.games.hellenes.rules.common import SEAS, eliminate, is_winter, lose_step, roll, season_name
from muster.games.hellenes.rules.movement import _relocate
from muster.games.hellenes.state import Frame, State


def forced_threshold(bid: str) -> int:
    """5.3: the lowest roll that succeeds: 5 for normal blocks, 3 for Elite ones."""
    fm = design()["forced_march"]
    return int(fm["elite"] if blocks()[bid].elite else fm["normal"])


def storm_max(s: State) -> int:
    """5.2.2: a storm strikes on this roll or less (Spring/Winter 3, Early Summer/Fall 2, Late Summer 1)."""
    return int(design()["storm"][season_name(s)])


@auto("forced_rolls")
def forced_rolls(s: State, f: Frame) -> None:
    """5.3: the owner rolls one die per block trying; after a success the owner may make the extra move or
    decline it (``forced_take``: "may, but need not", e.g. to keep the Group together)."""
    while s.forced:
        token, dest, last = s.forced.pop(0)
        bid = s.tok.get(token)
        if bid is None:
            continue
        die = roll(s)
        if die >= forced_threshold(bid):
            s.say("{side}: a forced march to {area} succeeds ({die}).", side=blocks()[bid].side, area=dest, die=die)
            push(s, frame("forced_take", seat=blocks()[bid].side, token=token, dest=dest, last=last), f)
            return
        s.say("{side}: a forced march to {area} fails ({die}).", side=blocks()[bid].side, area=dest, die=die)


def take_forced(s: State, token: int, dest: str, last: str) -> None:
    """Make a successful forced march's extra move (a passenger follows)."""
    bid = s.tok[token]
    via = str(s.units[bid].area)
    _relocate(s, bid, dest, via)
    if last:
        s.crossings.setdefault(last, []).append(token)


class ForcedTake(Decision):
    """5.3: a successful forced march may be taken or declined."""

    kind = "forced_take"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: {block}'s forced march to {area} succeeded: make the extra move?", side=f["seat"],
                    block=s.tok[f["token"]], area=f["dest"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["token"] not in s.tok:
            return []
        return [Action("to", f["dest"]), Action("stay")]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == "to":
            take_forced(s, f["token"], f["dest"], f["last"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "to":
            return said("march on to {area}", area=f["dest"])
        return said("stay in {area}", area=str(s.units[s.tok[f["token"]]].area))


def resolve_storms(s: State) -> None:
    """5.2.2/5.2.3: one storm die per hazardous border crossed; on a storm, one damage die per fleet that
    crossed it: 1–3 Tempest (fleet and passenger lost), 4–6 Heavy seas (−1 CV)."""
    chance = storm_max(s)
    tempest = design()["tempest_max"]
    for key in sorted(s.crossings):
        die = roll(s)
        if die > chance:
            continue
        s.say("A storm on the border {area} / {other_area} ({die}).", area=key.split("|")[0],
              other_area=key.split("|")[1], die=die)
        for token in s.crossings[key]:
            bid = s.tok.get(token)
            if bid is None:
                continue
            damage = roll(s)
            if damage <= tempest:
                eliminate(s, bid)
                s.say("Tempest ({die}): a fleet of {side.name} is lost with all aboard.", die=damage,
                      side=blocks()[bid].side)
            else:
                lose_step(s, bid)
                s.say("Heavy seas ({die}): a fleet of {side.name} loses 1 CV.", die=damage, side=blocks()[bid].side)
    s.crossings = {}


@auto("end_actions")
def end_actions(s: State, f: Frame) -> None:
    """When all Actions are over: forced-march rolls, then storms; passengers left on land disembark."""
    push(s, frame("forced_rolls"), frame("storms"))


@auto("storms")
def storms(s: State, f: Frame) -> None:
    """After the forced marches: storms; passengers left on land disembark."""
    resolve_storms(s)
    for u in s.units.values():
        if u.carrier is not None and u.area not in SEAS:
            u.carrier = None


__all__ = ["is_winter"]
