"""7.0–8.3 Sieges (DESIGN on the seed's hints, digest 2.5): Fortify, laying a Siege (also against a City's
Militia), Siege Assault with Double Defense, Siege Attrition (three times as deadly in Winter; a Port only
when blockaded), capture, and City control (4.2.3 garrisons)."""

from __future__ import annotations

from muster.core.interface import Action
from muster.games.hellenes.datafiles import design, game_map
from muster.games.hellenes.engine import Decision, act, auto, frame, push, said, unit
from muster.games.hellenes.rules.battle_end import retreat_frame
from muster.games.hellenes.rules.combat import battle_frame
from muster.games.hellenes.rules.common import (
    GREEK,
    areas_of,
    blockaded,
    city_lists,
    defenders_inside,
    established,
    field,
    gain_prestige,
    held,
    in_area,
    inside,
    is_fleet,
    is_winter,
    lose_step,
    militia_active,
    other,
    refresh_occupancy,
    roll,
    set_control,
)
from muster.games.hellenes.rules.victory import capture
from muster.games.hellenes.state import Frame, State
from muster.i18n import entry


def lay_sieges(s: State, side: str) -> None:
    """7.2: Greek blocks alone in the area of an enemy City besiege it; an undefended City falls at once."""
    enemy = other(side)
    # First the cheap necessary condition, on area sets: this side alone in the field of an enemy City (most
    # turns, none at all).
    lists = city_lists(s)
    alone = held(s, side)[0] & ~held(s, enemy)[0] & (lists[3] if enemy == "athens" else lists[4])
    if not alone:
        return
    targets = areas_of(alone)  # in the map's City order (the Cities are listed in the map's land order)
    for area in targets:
        if not _any_greek(field(s, area, side)):
            continue  # no Greek block of this side in the field there
        blocks_in, militia = defenders_inside(s, area)
        if not blocks_in and militia <= 0:
            capture(s, area, side)
            if s.result is not None:
                return
        elif area not in s.sieges:
            s.sieges[area] = {"since": s.season_index(), "by": side}
            s.say("{side} lays siege to {city}.", side=side, city=area)


def _any_greek(bids: list[str]) -> bool:
    for b in bids:  # noqa: SIM110 - any() over a generator costs a frame in pure Python
        if b in GREEK:
            return True
    return False


def can_fortify(s: State, area: str, side: str) -> bool:
    """7.1: the defender holds the City and it has room."""
    city = game_map().cities.get(area)
    return city is not None and s.control.get(area) == side and len(inside(s, area, side)) < city.value


class Fortify(Decision):
    """7.1/6.1: before a new battle the defender may withdraw into the City (up to its Capacity)."""

    kind = "fortify"

    def prompt(self, s: State, f: Frame) -> str:
        room = game_map().cities[f["area"]].value - len(inside(s, f["area"], f["seat"]))
        return said("{side.name}: enemy blocks enter {area}: fortify {city} (room for {n}) or fight in the field?",
                    side=f["seat"], area=f["area"], city=f["area"], n=room)

    def legal(self, s: State, f: Frame) -> list[Action]:
        # 8.3 (DESIGN): Fortifying may also answer the coming Sortie questions at once ("hold")
        return [Action("fight"), Action("fortify"), Action("hold", f["area"])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb in ("fortify", "hold"):
            fortify(s, f["area"], f["seat"], hold=a.verb == "hold")

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "hold":
            return said("fortify the City, and no Sortie until its Siege changes")
        return said("fight in the field") if a.verb == "fight" else said("fortify the City (a Siege begins, no battle)")


def fortify_candidates(s: State, area: str, side: str) -> list[str]:
    """7.1: the defender's blocks in the field that may go into the City (fleets only into a Port)."""
    port = game_map().cities[area].port
    return [b for b in field(s, area, side) if port or not is_fleet(b)]


def fortify(s: State, area: str, side: str, hold: bool = False) -> None:
    """7.1: blocks go inside up to Capacity: all of them if they fit, else the owner picks them one by one
    (``fortify_pick``); the rest retreat without Attrition. ``hold``: no Sortie until the Siege changes (8.3)."""
    city = game_map().cities[area]
    room = city.value - len(inside(s, area, side))
    cands = fortify_candidates(s, area, side)
    if area not in s.sieges:
        s.sieges[area] = {"since": s.season_index(), "by": other(side)}
    if len(cands) > room:
        push(s, frame("fortify_pick", seat=side, area=area, left=room, hold=hold))
        return
    for b in cands:
        s.units[b].inside = True
    refresh_occupancy(s, (area,))
    fortified(s, area, side, hold)


def fortified(s: State, area: str, side: str, hold: bool = False) -> None:
    """After the blocks went in: a Siege begins; the blocks left in the field retreat (6.4, no Attrition).
    ``hold``: the side makes no Sortie until the Siege changes (8.3, :func:`hold_sorties`)."""
    if hold:
        hold_sorties(s, area, side)
    attackers = [s.units[b].token for b in field(s, area, other(side))]
    s.say("{side} fortifies {city}: a Siege begins.", side=side, city=area)
    movers = [s.units[b].token for b in field(s, area, side)]
    if movers:
        push(s, retreat_frame(side, area, attackers, movers, attacking=False))


class FortifyPick(Decision):
    """7.1: more blocks than the City holds: the owner picks, one by one, the blocks that go inside."""

    kind = "fortify_pick"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: fortify {city}: choose a block to go inside ({n} place left)",
                    "{side.name}: fortify {city}: choose a block to go inside ({n} places left)", side=f["seat"],
                    city=f["area"], n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [Action("inside", b) for b in fortify_candidates(s, f["area"], f["seat"])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.units[str(a.arg)].inside = True
        refresh_occupancy(s, (f["area"],))
        f["left"] -= 1
        if f["left"] <= 0 or not fortify_candidates(s, f["area"], f["seat"]):
            s.stack.pop()
            fortified(s, f["area"], f["seat"], bool(f.get("hold")))

    def label(self, s: State, f: Frame, a: Action) -> str:
        return said("{unit} goes inside", unit=unit(s, str(a.arg)))


@auto("assault")
def assault(s: State, f: Frame) -> None:
    """8.1: the besiegers attack the blocks inside and the Militia; Double Defense unless ``double`` is off."""
    area, side = f["area"], f["side"]
    att = field(s, area, side)
    blocks_in, militia = defenders_inside(s, area)
    if not att or (not blocks_in and militia <= 0):
        return
    push(s, battle_frame(s, area, side, att, blocks_in, assault=True, double=bool(f.get("double", True)),
                         militia=militia))


def attrition(s: State, area: str, side: str) -> None:
    """8.2: one die per besieged block and one for the Militia; each 1 (1–3 in Winter) costs a CV.
    The besieged side loses its Militia first; then its owner secretly chooses which block takes each loss
    (``attrition_loss``, asked only when more than one block is inside)."""
    blocks_in, militia = defenders_inside(s, area)
    dice = len(blocks_in) + (1 if militia > 0 else 0)
    need = design()["attrition_hit"]["winter" if is_winter(s) else "normal"]
    losses = sum(1 for _ in range(dice) if roll(s) <= need)
    f = frame("attrition_loss", seat=str(s.control[area]), area=area, side=side, left=losses, losses=losses,
              eliminated=0)
    attrition_steps(s, f)


def attrition_steps(s: State, f: Frame) -> None:
    """Take the Attrition losses left in ``f``; stop (with ``f`` pushed) when the owner must choose a block."""
    area = f["area"]
    while f["left"] > 0:
        if militia_active(s, area):
            s.militia[area] -= 1
            f["left"] -= 1
            continue
        remaining = inside(s, area, str(s.control[area]))
        if not remaining:
            f["left"] = 0
            break
        if len(remaining) > 1:
            push(s, f)
            return
        f["left"] -= 1
        if lose_step(s, remaining[0], public=False):
            f["eliminated"] += 1
    s.say("Siege Attrition at {city}: {steps}, {gone}.", city=area,
          steps=entry("{n} step lost", "{n} steps lost", n=f["losses"]),
          gone=entry("{n} block eliminated", "{n} blocks eliminated", n=f["eliminated"]))
    blocks_in, militia = defenders_inside(s, area)
    if not blocks_in and militia <= 0 and field(s, area, f["side"]):
        capture(s, area, f["side"])


class AttritionLoss(Decision):
    """8.2 (DESIGN, digest 2.5): the besieged player secretly chooses which block inside takes each loss."""

    kind = "attrition_loss"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: Siege Attrition at {city}: which block loses 1 CV ({n} to take)?", side=f["seat"],
                    city=f["area"], n=f["left"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [Action("lose", b) for b in inside(s, f["area"], f["seat"])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        f["left"] -= 1
        if lose_step(s, str(a.arg), public=False):
            f["eliminated"] += 1
        attrition_steps(s, f)

    def label(self, s: State, f: Frame, a: Action) -> str:
        return said("{unit} loses 1 CV", unit=unit(s, str(a.arg)))


class SiegeChoice(Decision):
    """6.0/8.0: for each Siege established in an earlier Season: Assault (Action turns), Attrition, or neither."""

    kind = "siege_choice"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: the Siege of {city}", side=f["seat"], city=f["area"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        area = f["area"]
        blocks_in, militia = defenders_inside(s, area)
        if not field(s, area, f["seat"]) or (not blocks_in and militia <= 0) or area not in s.sieges:
            return []
        acts = []
        if s.mode == "actions":
            acts.append(Action("assault", area))
        if not game_map().cities[area].port or blockaded(s, area):
            acts.append(Action("attrition", area))
        return [*acts, Action("skip", area)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == "assault":
            push(s, frame("assault", area=f["area"], side=f["seat"], double=True))
        elif a.verb == "attrition":
            attrition(s, f["area"], f["seat"])

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "assault":
            return said("Assault {city} (Double Defense)", city=f["area"])
        return said("Siege Attrition at {city}", city=f["area"]) if a.verb == "attrition" else said(
            "leave {city} besieged", city=f["area"])


def sortie_sites(s: State, side: str, done: list[str] | tuple[str, ...] = ()) -> list[str]:
    """8.3: Cities of ``side`` besieged by the enemy, with its blocks inside and besiegers in the field, from
    which it may Sortie in its own Combat phase (not in an Event turn: a Sortie is an attack, like an
    Assault, 6.0); ``done``: Cities that made a Sortie this phase already."""
    if s.mode != "actions" or not s.sieges:
        return []
    enemy = other(side)
    return [a for a, siege in s.sieges.items()
            if siege["by"] == enemy and a not in done and inside(s, a, side) and field(s, a, enemy)]


def sortie_situation(s: State, area: str, side: str) -> str:
    """8.3 (DESIGN): what the besieged ``side`` learns about the Siege of ``area`` that could change its answer
    to the Sortie question, as one string: the tokens of its blocks inside, the besieging tokens with what it
    has seen of each in battle (identity and CV), and whether the Port is blockaded (Attrition becomes
    possible, 8.2.1). The calendar is left out (the Siege becoming established, Winter): the side knew it was
    coming when it chose to wait. Only facts both players know go in, since the Siege record that keeps it is
    public; a Build in the City, public too, drops the record instead
    (:func:`~muster.games.hellenes.rules.build.reinforce`)."""
    units = s.units
    mine = sorted(units[b].token for b in inside(s, area, side))
    theirs = sorted((units[b].token, b if units[b].known else "", units[b].seen if units[b].known else 0)
                    for b in field(s, area, other(side)))
    return (f"{','.join(map(str, mine))}|{','.join(f'{t}:{b}:{cv}' for t, b, cv in theirs)}|"
            f"{int(blockaded(s, area))}")


def hold_sorties(s: State, area: str, side: str) -> None:
    """8.3 (DESIGN): the besieged ``side`` makes no Sortie from ``area`` until its situation there changes."""
    s.sieges[area]["held"] = sortie_situation(s, area, side)


def sortie_questions(s: State, side: str, done: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The Cities :func:`sortie_sites` lists that the Sortie question names: all but those whose side chose
    "no Sortie until the Siege changes" (``hold``, on Fortifying or at an earlier question; ``held`` in the Siege
    record) and whose :func:`sortie_situation` is still the one it chose that in."""
    return [a for a in sortie_sites(s, side, done)
            if s.sieges[a].get("held") is None or s.sieges[a]["held"] != sortie_situation(s, a, side)]


class Sortie(Decision):
    """8.3: the besieged side may come out of a City and attack the besiegers in a field battle; asked once
    per Combat phase with every City it may Sortie from (and again after each Sortie), so declining answers
    for the whole phase. A City may also be put off until its Siege changes (``hold`` + area): the question
    then leaves it out while :func:`sortie_situation` stays the same, so a Sortie the side has judged
    hopeless is not asked about again every turn, and none is ever lost (the side chose to wait)."""

    kind = "sortie"

    def prompt(self, s: State, f: Frame) -> str:
        return said("{side.name}: Sortie from a besieged City?", side=f["seat"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        sites = sortie_questions(s, f["seat"], f["done"])
        if not sites:
            return []
        return [*(act("sortie", a) for a in sites), *(act("hold", a) for a in sites), act("stay")]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == "stay":
            s.stack.pop()
            return
        area, side = str(a.arg), f["seat"]
        f["done"].append(area)
        if a.verb == "hold":
            hold_sorties(s, area, side)
            return
        s.say("{side} makes a Sortie from {city}.", side=side, city=area)
        push(s, battle_frame(s, area, side, inside(s, area, side), field(s, area, other(side)), sortie=True))

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "stay":
            return said("no Sortie this Season")
        area = str(a.arg)
        if a.verb == "hold":
            return said("no Sortie from {city} until its Siege changes", city=area)
        n, m = len(inside(s, area, f["seat"])), len(field(s, area, other(f["seat"])))
        return said("Sortie from {city} ({n} block against {m} besieging)",
                    "Sortie from {city} ({n} blocks against {m} besieging)", city=area, n=n, m=m)


def sieges_to_resolve(s: State, side: str) -> list[str]:
    """Established Sieges by ``side`` with besiegers present."""
    return [a for a, siege in s.sieges.items() if siege["by"] == side and established(s, a) and field(s, a, side)]


def upkeep(s: State) -> None:
    """Sieges without besiegers end; blocks step out of unbesieged Cities; captured Cities with no Greek
    block of their holder and no garrison revert to their loyal side (4.2.3)."""
    sieges = s.sieges
    if sieges:
        for area in list(sieges):
            if not field(s, area, sieges[area]["by"]):
                del sieges[area]
    out: set[str] = set()  # the areas whose blocks stepped out
    for u in s.units.values():
        if u.inside:
            where = u.area  # its own name: ``area`` is a ``str`` above (compiled code types a local once)
            if where not in sieges:
                u.inside = False
                if where is not None:  # always: a block in the Pool is never inside
                    out.add(where)
    if out:
        refresh_occupancy(s, out)
    loyal_of, control = s.loyal, s.control
    for area in city_lists(s)[2]:  # the captured Cities (a kept tuple: the reverts below replace it)
        holder = control[area]
        loyal = str(loyal_of[area])
        if area not in s.garrison and not _any_greek(in_area(s, area, holder)):
            set_control(s, area, loyal)
            s.militia[area] = 0
            s.sieges.pop(area, None)
            s.say("{city} returns to {side.name}.", city=area, side=str(loyal))


__all__ = ["established", "gain_prestige"]
