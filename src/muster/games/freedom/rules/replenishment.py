"""Rule 4.5 Replenishment: area rewards, upkeep, desertion, Population and the Government."""

from __future__ import annotations

from typing import Any, Final

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.datafiles import Reward, areas_file, design
from muster.games.freedom.engine import Decision, auto, count_down, frame, push, space_actions
from muster.games.freedom.rules.common import (
    add_imperial,
    add_insurgent,
    adjust,
    areas_of,
    camp_cannon_from_pool,
    imperial_room,
    imperial_units,
    insurgent_room,
    log,
    pay,
    period_b,
    place_cannon,
    remove_imperial,
    remove_insurgent,
    roll_dice,
    ruleset,
    said,
    split_unit_arg,
)
from muster.games.freedom.state import Frame, State
from muster.i18n import entry


@auto("replenishment")
def replenishment(s: State, f: Frame) -> None:
    """The Imperial steps, then the Insurgent steps, in the order of rule 4.5."""
    log(s, "Replenishment phase.")
    push(
        s,
        frame("imperial_rewards"),
        frame("imperial_money"),
        frame("imperial_supplies"),
        frame("imperial_desertion"),
        frame("insurgent_population"),
        frame("insurgent_rewards"),
        frame("insurgent_upkeep"),
        frame("government"),
    )


def track_rewards(s: State, side: str, r: Reward) -> list[Any]:
    """Add an area's Supplies and Morale reward; return what was gained, in words (nothing in a quiet game,
    which logs nothing: the words are not built)."""
    got = []
    loud = not s.quiet
    if r.supplies:
        adjust(s, side, "supplies", r.supplies)
        if loud:
            got.append(entry("{n} Supply", "{n} Supplies", n=r.supplies))
    if r.morale:
        adjust(s, side, "morale", r.morale)
        if loud:
            got.append(entry("{n} Morale", n=r.morale))
    return got


@auto("imperial_rewards")
def imperial_rewards(s: State, f: Frame) -> None:
    """Rule 4.5.1: rewards of the Imperial areas (units and cannons into the Camp; 3 at Vasiladi)."""
    b = board()
    loss = ruleset(s)["period_b_replenishment_morale_loss"]
    if loss and period_b(s):
        adjust(s, IMPERIAL, "morale", -loss)
        if s.result:
            return
    for i in areas_of(s, IMPERIAL):
        r = areas_file().areas[i].rewards["imperial"]
        got = track_rewards(s, IMPERIAL, r)
        if r.units:
            n = add_imperial(s, b.camp, "E", r.units)
            if not s.quiet:
                got.append(entry("{n} unit to the Camp", "{n} units to the Camp", n=n))
        for _ in range(r.cannons):
            if camp_cannon_from_pool(s) and not s.quiet:
                got.append(entry("a cannon to the Camp"))
        if r.vasiladi:
            got.append(vasiladi_landing(s, r.vasiladi))
        if not s.quiet:
            log(s, "Imperial reward from {area}: {got}.", area=i, got=got)


def vasiladi_landing(s: State, count: int) -> dict[str, Any]:
    """Up to ``count`` Expeditionary units land on the space around Vasiladi, as far as the rules
    allow there (limit, no Insurgent or Allied unit); the rest do not come this round."""
    b = board()
    i = b.index["vas1"]
    placed = 0
    while placed < count and imperial_room(s, i, "E") and add_imperial(s, i, "E"):
        placed += 1
    return entry("{n} unit lands at {space}", "{n} units land at {space}", n=placed, space=i)


@auto("imperial_money")
def imperial_money(s: State, f: Frame) -> None:
    """Pay the mercenaries: each missing Money costs a unit on the map; any shortfall costs 2 Morale."""
    cost = design()["upkeep"]["B" if period_b(s) else "A"]["money"]
    missing = pay(s, IMPERIAL, "money", cost)
    log(s, "Imperial pays {paid} of {cost} Money upkeep.", paid=cost - missing, cost=cost)
    if missing:
        push(s, frame("remove_units", seat=IMPERIAL, side=IMPERIAL, left=missing, why="unpaid troops leave"))
        adjust(s, IMPERIAL, "morale", -design()["upkeep"]["unpaid_money_morale"])


@auto("imperial_supplies")
def imperial_supplies(s: State, f: Frame) -> None:
    """Feed the army: each missing Supply costs 1 Morale."""
    cost = design()["upkeep"]["B" if period_b(s) else "A"]["supplies"]
    missing = pay(s, IMPERIAL, "supplies", cost)
    log(s, "Imperial pays {paid} of {cost} Supplies upkeep.", paid=cost - missing, cost=cost)
    if missing:
        adjust(s, IMPERIAL, "morale", -missing)


def desertion_for(morale: int) -> int:
    """Units deserting at a Morale level (DESIGN table)."""
    for row in design()["desertion"]:
        low, high = row["morale"]
        if low <= morale <= high:
            return int(row["units"])
    return 0


@auto("imperial_desertion")
def imperial_desertion(s: State, f: Frame) -> None:
    """Low Morale: units desert (the Morale track's table)."""
    n = desertion_for(s.tracks[IMPERIAL]["morale"])
    if n:
        log(s, "Low Morale: {n} Imperial unit deserts.", "Low Morale: {n} Imperial units desert.", n=n)
        push(s, frame("remove_units", seat=IMPERIAL, side=IMPERIAL, left=n, why="deserters"))



_REMOVE: Final = space_actions("remove")
_REMOVE_EXPEDITIONARY: Final = space_actions("remove", ":E")
_REMOVE_ALLIED: Final = space_actions("remove", ":A")
_TO: Final = space_actions("to")

class RemoveUnits(Decision):
    """Remove units of one side chosen by ``seat`` (upkeep, desertion, events)."""

    kind = "remove_units"

    def prompt(self, s: State, f: Frame) -> str:
        whose = "your" if f["seat"] == f["side"] else "an enemy"
        return said("Remove {whose} unit ({why}; {n} left).", whose=whose, why=f["why"], n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f["left"] <= 0:
            return []
        b = board()
        remove = _REMOVE
        if f["side"] != IMPERIAL:
            ins = s.ins
            return [remove[i] for i in range(len(remove)) if ins[i]]
        acts = []
        exclude, exp, ally = f.get("exclude_row"), s.exp, s.ally
        for i in range(len(remove)):
            if not (exp[i] or ally[i]) or (exclude and b.row[i] == exclude and b.kind[i] == "mainland"):
                continue
            if exp[i] and ally[i]:
                acts.append(_REMOVE_EXPEDITIONARY[i])
                acts.append(_REMOVE_ALLIED[i])
            else:
                acts.append(remove[i])
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        i, kind = split_unit_arg(a.arg)
        if f["side"] == IMPERIAL:
            remove_imperial(s, i, kind or None)
        else:
            remove_insurgent(s, i)
        log(s, "{side} unit removed from {space} ({why}).", side=f["side"], space=i, why=f["why"])
        count_down(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        sid, _, kind = str(a.arg).partition(":")
        i = board().index[sid]
        if kind == "E":
            return said("remove an Expeditionary unit from {space}", space=i)
        if kind == "A":
            return said("remove an Allied unit from {space}", space=i)
        return said("remove a unit from {space}", space=i)


@auto("insurgent_population")
def insurgent_population(s: State, f: Frame) -> None:
    """Rule 4.5.2: set the Population track to units + Civilians on the map."""
    pop = sum(s.ins) + s.civilians
    s.tracks[INSURGENT]["population"] = pop
    log(s, "Insurgent Population: {n}.", n=pop)


@auto("insurgent_rewards")
def insurgent_rewards(s: State, f: Frame) -> None:
    """Rule 4.5.2: rewards of the Insurgent areas; new units and cannons placed in the City."""
    steps: list[Frame] = []
    for i in areas_of(s, INSURGENT):
        r = areas_file().areas[i].rewards["insurgent"]
        got = track_rewards(s, INSURGENT, r)
        if r.units:
            steps.append(frame("place_insurgent", seat=INSURGENT, left=r.units, what="unit", where="insurgent"))
            if not s.quiet:
                got.append(entry("{n} unit", "{n} units", n=r.units))
        if r.cannons:
            steps.append(frame("place_insurgent", seat=INSURGENT, left=r.cannons, what="cannon", where="insurgent"))
            if not s.quiet:
                got.append(entry("{n} cannon", "{n} cannons", n=r.cannons))
        if not s.quiet:
            log(s, "Insurgent reward from {area}: {got}.", area=i, got=got)
        if s.result:
            return
    push(s, *steps)


class PlaceInsurgent(Decision):
    """Place a new Insurgent unit or cannon in Row 3, Row 2 or on an island (not held by the enemy)."""

    kind = "place_insurgent"

    def _spaces(self, s: State, f: Frame) -> list[int]:
        b = board()
        pool = s.pools["insurgent" if f["what"] == "unit" else "cannons"]
        if f["left"] <= 0 or pool <= 0:
            return []
        spaces = b.city_spaces if f["where"] == "city" else b.insurgent_spaces
        if f["what"] == "unit":
            return [i for i in spaces if insurgent_room(s, i)]
        return [i for i in spaces if not s.cannon[i] and imperial_units(s, i) == 0]

    def prompt(self, s: State, f: Frame) -> str:
        where = "the City" if f["where"] == "city" else "the City or an island"
        return said("Place a new {what} in {where} ({n} left).", what=f["what"], where=where, n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        to = _TO
        return [to[i] for i in self._spaces(s, f)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        i = board().index[str(a.arg)]
        if f["what"] == "unit":
            add_insurgent(s, i)
        else:
            place_cannon(s, i, INSURGENT_CANNON)
        log(s, "A new Insurgent {what} is placed in {space}.", what=f["what"], space=i)
        count_down(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        i = board().index[str(a.arg)]
        return said("place the cannon in {space}", space=i) if f["what"] == "cannon" else \
            said("place the unit in {space}", space=i)


def population_cost(population: int) -> int:
    """Supplies the Population eats (DESIGN band table; the rulebook's example: 24 → 5)."""
    for row in design()["population_cost"]:
        low, high = row["population"]
        if low <= population <= high:
            return int(row["supplies"])
    return int(design()["population_cost"][-1]["supplies"])


@auto("insurgent_upkeep")
def insurgent_upkeep(s: State, f: Frame) -> None:
    """Feed the City: each missing Supply costs 1 Morale."""
    cost = population_cost(s.tracks[INSURGENT]["population"])
    missing = pay(s, INSURGENT, "supplies", cost)
    log(s, "Insurgent pays {paid} of {cost} Supplies upkeep.", paid=cost - missing, cost=cost)
    if missing:
        adjust(s, INSURGENT, "morale", -missing)


@auto("government")
def government(s: State, f: Frame) -> None:
    """The plea to the Government in Nafplio: 2d6 + Pressure ≥ 12 brings help, once a game."""
    g = design()["government"]
    track = s.tracks[INSURGENT]["pressure"]
    if track < 0:
        return
    dice = roll_dice(s, g["dice"], g["die"])
    total = sum(dice) + track
    if total >= g["succeeds_at"]:
        log(s, "Government check: rolls {rolled} + {track} = {total}: help arrives!",
            rolled=dice, track=track, total=total)
        s.tracks[INSURGENT]["pressure"] = -1
        adjust(s, INSURGENT, "supplies", g["supplies"])
        adjust(s, INSURGENT, "morale", g["morale"])
        push(s, frame("place_insurgent", seat=INSURGENT, left=g["units"], what="unit", where="city"))
    else:
        log(s, "Government check: rolls {rolled} + {track} = {total}: no answer.",
            rolled=dice, track=track, total=total)
        adjust(s, INSURGENT, "pressure", g["track_step"])

