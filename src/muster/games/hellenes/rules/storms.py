"""5.2.2 Hazardous borders, 5.2.3 Ship damage and the 5.3 forced-march rolls: all rolled when the Actions
are over, before the Combat phase."""

from __future__ import annotations

from muster.games.hellenes.datafiles import blocks, design, game_map
from muster.games.hellenes.engine import auto
from muster.games.hellenes.rules.common import eliminate, is_winter, lose_step, roll, season_name
from muster.games.hellenes.rules.movement import _relocate
from muster.games.hellenes.state import Frame, State


def forced_threshold(bid: str) -> int:
    """5.3: the lowest roll that succeeds: 5 for normal blocks, 3 for Elite ones."""
    fm = design()["forced_march"]
    return int(fm["elite"] if blocks()[bid].elite else fm["normal"])


def storm_max(s: State) -> int:
    """5.2.2: a storm strikes on this roll or less (Spring/Winter 3, Early Summer/Fall 2, Late Summer 1)."""
    return int(design()["storm"][season_name(s)])


def resolve_forced(s: State) -> None:
    """5.3: the owner rolls one die per block trying; success makes the extra move (a passenger follows)."""
    for token, dest, last in s.forced:
        bid = s.tok.get(token)
        if bid is None:
            continue
        die = roll(s)
        if die >= forced_threshold(bid):
            via = str(s.units[bid]["area"])
            _relocate(s, bid, dest, via)
            if last:
                s.crossings.setdefault(last, []).append(token)
            s.say("{side}: a forced march to {area} succeeds ({die}).", side=blocks()[bid].side, area=dest, die=die)
        else:
            s.say("{side}: a forced march to {area} fails ({die}).", side=blocks()[bid].side, area=dest, die=die)
    s.forced = []


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
    resolve_forced(s)
    resolve_storms(s)
    g = game_map()
    for u in s.units.values():
        if u["carrier"] is not None and not g.is_sea(str(u["area"])):
            u["carrier"] = None


__all__ = ["is_winter"]
