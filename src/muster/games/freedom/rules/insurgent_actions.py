"""Rule 4.3.2, Insurgent Player's Actions: Regroup, Attack, Raid, Preparation, Support,
Pressure the Government, Repair Wall, Train Civilians and Build Cannon."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import INSURGENT, INSURGENT_CANNON
from muster.games.freedom.datafiles import DataError, design
from muster.games.freedom.engine import ACTIONS, Op, push, select
from muster.games.freedom.rules.action_phase import (
    VERBS,
    Verb,
    affordable,
    find_ap,
    prep_room,
    register_menu,
    register_verbs,
    spend,
)
from muster.games.freedom.rules.combat import insurgent_attack, raid
from muster.games.freedom.rules.common import (
    adjust,
    imperial_units,
    insurgent_room,
    log,
    ruleset,
    said,
    set_damage,
    track_range,
)
from muster.games.freedom.rules.imperial_actions import afford_with, card_mode, has_choice, support_possible
from muster.games.freedom.state import Frame, State
from muster.i18n import N_

COST: Final = design()["actions"]["insurgent"]


def regroup_targets(s: State, src: int) -> list[int]:
    """Rule 4.3.2 Regroup: any City space (Rows 2–3) or island with room and no Imperial unit."""
    ins, exp, ally, limit = s.ins, s.exp, s.ally, board().limit
    # insurgent_room() inlined: every one of these spaces is one an Insurgent unit may stand in
    return [j for j in board().insurgent_spaces if j != src and ins[j] < limit[j] and not exp[j] and not ally[j]]


class RegroupOp(Op):
    """Regroup: move one Insurgent unit anywhere in the City or to an island."""

    name = "regroup"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Regroup: choose a unit, then its new space in the City or on an island.")

    def sources(self, s: State, f: Frame) -> list[str]:
        # a list built in a plain loop, not a generator: this runs at every AP menu
        b = board()
        ins, exp, ally, limit = s.ins, s.exp, s.ally, b.limit
        # insurgent_room() over the Insurgent spaces, inlined
        open_spaces = [j for j in b.insurgent_spaces if ins[j] < limit[j] and not exp[j] and not ally[j]]
        if not open_spaces:
            return []
        only = open_spaces[0] if len(open_spaces) == 1 else -1  # a unit there has nowhere else to go
        ids = b.ids
        return [ids[i] for i in b.insurgent_spaces if ins[i] and i != only]

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        return [b.ids[j] for j in regroup_targets(s, b.index[str(src)])]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        b = board()
        i, j = b.index[str(src)], b.index[dst]
        if f.get("paid", True):
            ap = find_ap(s)
            assert ap is not None
            spend(s, ap, COST["regroup"])
        s.ins[i] -= 1
        s.ins[j] += 1
        log(s, "Insurgent unit regroups from {src} to {dst}.", src=i, dst=j)


class OpeningRegroupOp(RegroupOp):
    """Rule 4.2: the free, optional Regroup of the Opening."""

    name = "opening_regroup"
    optional = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Opening: you may Regroup one unit for free.")

    def decline(self, s: State, f: Frame) -> None:
        log(s, "The Insurgent player does not regroup.")


class InsurgentAttackOp(Op):
    """Attack: 1d8 against an adjacent space with Imperial units (no limit per unit)."""

    name = "insurgent_attack"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Attack: choose the attacking unit's space, then the target.")

    def sources(self, s: State, f: Frame) -> list[str]:
        b = board()
        ins, exp, ally, adj, ids = s.ins, s.exp, s.ally, b.adj, b.ids
        out: list[str] = []
        for i in b.insurgent_spaces:
            if ins[i]:
                for j in adj[i]:
                    if exp[j] or ally[j]:
                        out.append(ids[i])
                        break
        return out

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        return [b.ids[j] for j in b.adj[b.index[str(src)]] if imperial_units(s, j)]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        b = board()
        ap = find_ap(s)
        assert ap is not None
        spend(s, ap, COST["attack"])
        insurgent_attack(s, b.index[str(src)], b.index[dst])


def raid_targets(s: State, src: int, reach: int = 99) -> list[tuple[int, int]]:
    """(target, AP cost) of Raids from space ``src`` costing at most ``reach``, in board order.

    From a Wall section: a mainland space holding Imperial units, not adjacent to the Wall (Row 5 or
    beyond); the cost is the length of the shortest path from the section out through mainland
    spaces holding no Imperial unit (2nd edition). The 1st edition's raid runs straight out along
    the section's column to the first space with Imperial units (``raid_paths``: ``column``).
    From Klisova (held): an outer water space with Imperial units while the inner ring holds none, for 2 AP.
    """
    b = board()
    out: list[tuple[int, int]] = []
    if b.kind[src] == "wall":
        if ruleset(s)["raid_paths"] == "column":
            return _column_raid_targets(s, src, reach)
        return _path_raid_targets(s, src, reach)
    if b.ids[src] == "klisova":
        ring = [i for i in b.adj[src] if b.ring[i]]
        if not any(imperial_units(s, i) for i in ring if b.ring[i] == "inner"):
            out += [(i, COST["klisova_raid"]) for i in ring if b.ring[i] == "outer" and imperial_units(s, i)]
    return out


def _column_raid_targets(s: State, src: int, reach: int) -> list[tuple[int, int]]:
    """1st edition: the first space with Imperial units straight out from the section, at row − 3 AP."""
    b = board()
    col = b.col[src]
    for row in range(4, 9):
        j = b.at(row, col)
        if j is None:
            break
        if imperial_units(s, j):
            return [(j, row - 3)] if row >= 5 and row - 3 <= reach else []
    return []


def _path_raid_targets(s: State, src: int, reach: int) -> list[tuple[int, int]]:
    """2nd edition: the targets of the search of :func:`_raid_check` from one section, in board order."""
    occupied = _occupied(s)
    seen = frontier = _BIT[src]
    out: list[tuple[int, int]] = []
    distance = 0
    while frontier and distance < reach:
        distance += 1
        reached = _step(frontier) & ~seen
        seen |= reached
        hits = reached & occupied & _RAIDABLE_BITS
        while hits:
            low = hits & -hits
            out.append((_SPACE_AT[low.bit_length() - 1], distance))
            hits ^= low
        frontier = reached & ~occupied
    out.sort()
    return out


def _step(frontier: int) -> int:
    """The mainland spaces next to the spaces of ``frontier`` (sets of grid spaces as bits, :data:`_BIT`)."""
    return ((frontier << _ROW) | (frontier >> _ROW) | (frontier << 1) | (frontier >> 1)) & _MAINLAND_BITS


def _raid_check(sources: int, reach: int, ap: int, printed: int, stored: int, occupied: int) -> int:
    """Breadth-first out from the sections ``sources`` (bits, :data:`_BIT`) through mainland spaces free of
    Imperial units (``occupied``: :func:`_occupied`), stopped at distance ``reach`` or at the first target
    whose distance (its AP cost) can be paid (:func:`~muster.games.freedom.rules.imperial_actions.afford_with`
    of the frame's values): 1 then; -1 when targets lie in reach but none can be paid (a distance between the
    AP left and the card's printed AP, which the track may not pay); 0 without any target in reach.

    A space with Imperial units ends a path (nothing may lie between raider and target); it is a target
    unless it is adjacent to the Wall. With several sections each space gets its distance from the nearest.
    The mainland is a grid, so a whole step of the search is four shifts of a set of spaces held as the bits
    of one integer, instead of a loop over each space's neighbours.
    """
    seen = frontier = sources
    found = 0
    distance = 0
    while frontier and distance < reach:
        distance += 1
        reached = _step(frontier) & ~seen
        seen |= reached
        if reached & occupied & _RAIDABLE_BITS:
            if distance <= ap or (stored >= 0 and distance > printed and ap + stored >= distance):
                return 1
            found = -1
        frontier = reached & ~occupied
    return found


def _occupied(s: State) -> int:
    """The mainland spaces holding Imperial units, as bits (:data:`_BIT`)."""
    exp, ally = s.exp, s.ally
    out = 0
    for i in _MAINLAND_SPACES:
        if exp[i] or ally[i]:
            out |= _BIT[i]
    return out


_MAINLAND_ADJ: Final = tuple(tuple(j for j in adj if board().kind[j] == "mainland") for adj in board().adj)
"""Each space's mainland neighbours: the spaces a Raid's path may run through."""
_RAIDABLE: Final = tuple(board().kind[i] == "mainland" and board().row[i] >= 5 for i in range(len(board().ids)))
"""Mainland spaces not adjacent to the Wall (Row 5 or beyond)."""
_ROW: Final = 10
"""Bits per board row in :data:`_BIT`: the 9 columns and one always clear, so a shift by one never wraps."""


def _grid_bits() -> tuple[int, ...]:
    """Per space, its bit in a set of Wall and mainland spaces (row by row from the Wall, column by column;
    0 for the other spaces). Checked against the board's adjacency: a board whose mainland were not that
    grid would fail here, at import, rather than give other Raids."""
    b = board()
    bits = tuple(1 << ((b.row[i] - 3) * _ROW + b.col[i] - 1) if b.kind[i] in ("mainland", "wall") else 0
                 for i in range(len(b.ids)))
    mainland = sum(bits[i] for i in b.mainland)
    for i, bit in enumerate(bits):
        if bit:
            step = ((bit << _ROW) | (bit >> _ROW) | (bit << 1) | (bit >> 1)) & mainland
            if step != sum(bits[j] for j in _MAINLAND_ADJ[i]) or not 1 <= b.col[i] < _ROW or b.row[i] < 3:
                raise DataError("board.json: the Wall and mainland are not the grid the Raid search assumes")
    return bits


_BIT: Final = _grid_bits()
_MAINLAND_SPACES: Final = tuple(board().mainland)
"""The mainland spaces' numbers."""
_OCCUPY_BIT: Final = tuple(bit if board().kind[i] == "mainland" else 0 for i, bit in enumerate(_BIT))
""":data:`_BIT` of the mainland spaces only (the spaces whose units block or are a Raid's target)."""
_MAINLAND_BITS: Final = sum(_OCCUPY_BIT)
_RAIDABLE_BITS: Final = sum(bit for i, bit in enumerate(_BIT) if _RAIDABLE[i])
_SPACE_AT: Final = {bit.bit_length() - 1: i for i, bit in enumerate(_BIT) if bit}
"""The space of each bit of :data:`_BIT`, by the bit's position."""


def _cheapest_raid() -> int:
    """A lower bound on any Raid's AP cost, from the board alone: Klisova's price, the 1st edition's
    nearest column target (Row 5: 2 AP) and the shortest mainland path from a section to a Row 5+ space
    on an empty board (pieces only block paths, so a real path is never shorter)."""
    b = board()
    costs: list[int] = [COST["klisova_raid"]]
    costs += [b.row[i] - 3 for i in b.mainland if b.row[i] >= 5]
    seen, frontier, distance = set(b.walls), list(b.walls), 0
    while frontier:
        distance += 1
        if any(_RAIDABLE[j] for i in frontier for j in _MAINLAND_ADJ[i] if j not in seen):
            costs.append(distance)
            break
        nxt = [j for i in frontier for j in _MAINLAND_ADJ[i] if j not in seen]
        seen.update(nxt)
        frontier = nxt
    return max(1, min(costs))


_CHEAPEST_RAID: Final = _cheapest_raid()
_WALLS: Final = board().walls
_RAID_SOURCES: Final = tuple(i for i in board().insurgent_spaces
                             if board().kind[i] == "wall" or board().ids[i] == "klisova")
"""The spaces :func:`raid_targets` may give targets from (the Wall sections and Klisova)."""
_IS_WALL: Final = tuple(kind == "wall" for kind in board().kind)
_OTHER_RAID_SOURCES: Final = tuple(i for i in _RAID_SOURCES if board().kind[i] != "wall")


class RaidOp(Op):
    """Raid: a Wall unit strikes a mainland space further out (or Klisova's outer ring)."""

    name = "raid"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Raid: choose the raiding unit, then the target (AP = length of the clear path to it).")

    def available(self, s: State, f: Frame) -> bool:
        # sources() stopping at the first affordable target: the AP menu asks this at every choice
        ap = find_ap(s)
        assert ap is not None
        return self.available_with(s, ap)

    def available_with(self, s: State, ap: Frame) -> bool:
        """:meth:`available`, given the AP frame paying (the AP menu's own frame)."""
        reach = self._reach(s, ap)
        if reach < _CHEAPEST_RAID:  # every Raid costs more than can be paid (a cheap necessary condition)
            return False
        path_raids = ruleset(s)["raid_paths"] != "column"
        ins = s.ins
        if path_raids:
            raiders = 0
            for i in _WALLS:
                if ins[i]:
                    raiders |= _BIT[i]
            # One search from every manned section at once gives each target's shortest distance: nothing
            # in reach means no Raid; an affordable one means a Raid. Otherwise (a shortest distance in the
            # gap between the AP left and the card's printed AP) a longer path may still be affordable.
            left: int = ap["ap"]
            printed: int = ap["printed"]
            stored = reach - left if ap["mode"] == "card" and not ap["prep_used"] else -1
            occupied = _occupied(s)
            found = _raid_check(raiders, reach, left, printed, stored, occupied)  # usually decided at once
            if found > 0:
                return True
            if found < 0:
                for i in _WALLS:
                    if ins[i] and _raid_check(_BIT[i], reach, left, printed, stored, occupied) > 0:
                        return True
        # Raids from elsewhere: only Klisova's, plus (1st edition) the sections' straight out along the column
        for i in (_OTHER_RAID_SOURCES if path_raids else _RAID_SOURCES):
            if ins[i] and any(affordable(s, ap, cost) for _j, cost in raid_targets(s, i, reach)):
                return True
        return False

    @staticmethod
    def _reach(s: State, ap: Frame) -> int:
        """The dearest Raid affordable: the card's AP, plus the track where it may still pay."""
        reach = int(ap["ap"])
        if ap["mode"] == "card" and not ap["prep_used"]:
            reach += s.tracks[INSURGENT]["preparation"]
        return reach

    def _affordable(self, s: State, src: int) -> list[int]:
        ap = find_ap(s)
        assert ap is not None
        reach = self._reach(s, ap)
        return [j for j, cost in raid_targets(s, src, reach) if affordable(s, ap, cost)]

    def sources(self, s: State, f: Frame) -> list[str]:
        # the AP frame and the reach found once, and each source's walk stopped at its first affordable target
        ap = find_ap(s)
        assert ap is not None
        reach = self._reach(s, ap)
        if reach < _CHEAPEST_RAID:
            return []
        b = board()
        ins, ids = s.ins, b.ids
        path_raids = ruleset(s)["raid_paths"] != "column"
        left: int = ap["ap"]
        printed: int = ap["printed"]
        stored = reach - left if ap["mode"] == "card" and not ap["prep_used"] else -1
        occupied = _occupied(s)
        out: list[str] = []
        for i in _RAID_SOURCES:  # raid_targets() is empty from every other space
            if not ins[i]:
                continue
            if path_raids and _IS_WALL[i]:
                if _raid_check(_BIT[i], reach, left, printed, stored, occupied) > 0:
                    out.append(ids[i])
                continue
            for _j, cost in raid_targets(s, i, reach):
                if affordable(s, ap, cost):
                    out.append(ids[i])
                    break
        return out

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        return [b.ids[j] for j in self._affordable(s, b.index[str(src)])]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        b = board()
        i, j = b.index[str(src)], b.index[dst]
        cost = dict(raid_targets(s, i))[j]
        ap = find_ap(s)
        assert ap is not None
        spend(s, ap, cost)
        raid(s, i, j)


class RepairOp(Op):
    """Repair Wall: a damaged or destroyed section with an Insurgent unit improves one step."""

    name = "repair"
    single = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Repair Wall: choose a damaged section that holds one of your units.")

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        return [b.ids[i] for i in b.walls if s.damage[i] and s.ins[i]]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        i = board().index[dst]
        ap = find_ap(s)
        assert ap is not None
        spend(s, ap, COST["repair"])
        set_damage(s, i, s.damage[i] - 1)
        state = ("intact", "damaged")[s.damage[i]]
        log(s, "{space} is repaired: now {state}.", space=i, state=state)


def train_targets(s: State) -> list[int]:
    """Where a trained Civilian may stand: Row 3, Row 2 or an island, free of Imperial units."""
    return [i for i in board().insurgent_spaces if insurgent_room(s, i)]


class TrainOp(Op):
    """Train Civilians: a Civilian becomes a unit in the City or on an island."""

    name = "train"
    single = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Train Civilians: choose where the new unit stands.")

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        if s.civilians <= 0 or s.pools["insurgent"] <= 0:
            return []
        return [board().ids[i] for i in train_targets(s)]

    def available(self, s: State, f: Frame) -> bool:
        # targets() with an early exit (insurgent_room inlined): the AP menu asks this at every choice
        if s.civilians <= 0 or s.pools["insurgent"] <= 0:
            return False
        ins, exp, ally, limit = s.ins, s.exp, s.ally, board().limit
        return any(ins[i] < limit[i] and not exp[i] and not ally[i] for i in board().insurgent_spaces)

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        i = board().index[dst]
        ap = find_ap(s)
        assert ap is not None
        spend(s, ap, COST["train"])
        s.civilians -= 1
        s.pools["civilians"] += 1
        s.pools["insurgent"] -= 1
        s.ins[i] += 1
        log(s, "A Civilian is trained: a new Insurgent unit in {space}.", space=i)


class InsurgentBuildOp(Op):
    """Build Cannon: 4 AP + 1 Supply, a unit in the space and no cannon there (1st edition: once a round)."""

    name = "insurgent_build"
    single = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Build Cannon: choose a space holding one of your units.")

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        if s.pools["cannons"] <= 0 or s.tracks[INSURGENT]["supplies"] < COST["build_supplies"]:
            return []
        b = board()
        return [b.ids[i] for i in b.insurgent_spaces if s.ins[i] and not s.cannon[i]]

    def available(self, s: State, f: Frame) -> bool:
        # targets() with an early exit: the AP menu asks this at every choice
        if s.pools["cannons"] <= 0 or s.tracks[INSURGENT]["supplies"] < COST["build_supplies"]:
            return False
        ins, cannon = s.ins, s.cannon
        return any(ins[i] and not cannon[i] for i in board().insurgent_spaces)

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        i = board().index[dst]
        ap = find_ap(s)
        assert ap is not None
        spend(s, ap, COST["build"])
        adjust(s, INSURGENT, "supplies", -COST["build_supplies"])
        s.pools["cannons"] -= 1
        s.cannon[i] = INSURGENT_CANNON
        s.built_this_round = True
        log(s, "Insurgent cannon built in {space}.", space=i)


# --- the Insurgent verbs ---------------------------------------------------------------------


def _op_verb(op: str, cost: int) -> Callable[[State, Frame], bool]:
    def ok(s: State, f: Frame) -> bool:
        return card_mode(f) and has_choice(op, s, f, cost)

    return ok


def _push_op(op: str) -> Callable[[State, Frame], None]:
    def start(s: State, f: Frame) -> None:
        push(s, select(op, f["seat"]))

    return start


def _raid_ok(s: State, f: Frame) -> bool:
    return card_mode(f) and has_choice("raid", s, f)


def _prep_ok(s: State, f: Frame) -> bool:
    return card_mode(f) and f["ap"] >= COST["prepare"] and prep_room(s, INSURGENT)


def _prep_start(s: State, f: Frame) -> None:
    spend(s, f, COST["prepare"])
    adjust(s, INSURGENT, "preparation", 1)


def _pressure_ok(s: State, f: Frame) -> bool:
    pressure = s.tracks[INSURGENT]["pressure"]
    return card_mode(f) and affordable(s, f, COST["pressure"]) and 0 <= pressure < track_range("pressure")[1]


def _pressure_start(s: State, f: Frame) -> None:
    spend(s, f, COST["pressure"])
    adjust(s, INSURGENT, "pressure", 1)


def _build_ok(s: State, f: Frame) -> bool:
    once = ruleset(s)["insurgent_build_once_per_round"]
    return not (once and s.built_this_round) and card_mode(f) and has_choice("insurgent_build", s, f, COST["build"])


register_verbs(
    INSURGENT,
    Verb(
        "regroup",
        N_("Regroup (1 AP): move a unit anywhere in the City or to an island"),
        _op_verb("regroup", COST["regroup"]),
        _push_op("regroup"),
    ),
    Verb(
        "attack",
        N_("Attack (1 AP): a unit attacks an adjacent Imperial space"),
        _op_verb("insurgent_attack", COST["attack"]),
        _push_op("insurgent_attack"),
    ),
    Verb("raid", N_("Raid (AP = distance): strike a space further out from the Wall"), _raid_ok, _push_op("raid")),
    Verb("prepare", N_("Preparation (1 AP): store 1 AP on the track"), _prep_ok, _prep_start),
    Verb("support", N_("Support Area (2 AP)"), _op_verb("support", COST["support"]), _push_op("support")),
    Verb("pressure", N_("Pressure the Government for Help (3 AP)"), _pressure_ok, _pressure_start),
    Verb("repair", N_("Repair Wall (4 AP)"), _op_verb("repair", COST["repair"]), _push_op("repair")),
    Verb("train", N_("Train Civilians (4 AP)"), _op_verb("train", COST["train"]), _push_op("train")),
    Verb("build", N_("Build Cannon (4 AP + 1 Supply)"), _build_ok, _push_op("insurgent_build")),
)


# --- the fast Insurgent AP menu --------------------------------------------------------------

_B: Final = board()
_INSURGENT_SPACES: Final = _B.insurgent_spaces
_ADJ: Final = _B.adj
_LIMIT: Final = _B.limit
_PREP_HIGH: Final = track_range("preparation")[1]
_PRESSURE_HIGH: Final = track_range("pressure")[1]
_MENU: Final = {v.name: ACTIONS[v.name, None] for v in VERBS[INSURGENT]}
_RAID: Final = RaidOp()
_COST_REGROUP: Final[int] = COST["regroup"]
_COST_ATTACK: Final[int] = COST["attack"]
_COST_PREPARE: Final[int] = COST["prepare"]
_COST_SUPPORT: Final[int] = COST["support"]
_COST_PRESSURE: Final[int] = COST["pressure"]
_COST_REPAIR: Final[int] = COST["repair"]
_COST_TRAIN: Final[int] = COST["train"]
_COST_BUILD: Final[int] = COST["build"]
_COST_BUILD_SUPPLIES: Final[int] = COST["build_supplies"]
_MENU_REGROUP: Final = _MENU["regroup"]
_MENU_ATTACK: Final = _MENU["attack"]
_MENU_RAID: Final = _MENU["raid"]
_MENU_PREPARE: Final = _MENU["prepare"]
_MENU_SUPPORT: Final = _MENU["support"]
_MENU_PRESSURE: Final = _MENU["pressure"]
_MENU_REPAIR: Final = _MENU["repair"]
_MENU_TRAIN: Final = _MENU["train"]
_MENU_BUILD: Final = _MENU["build"]


def _can_regroup(s: State) -> bool:
    """:class:`RegroupOp` has a source (its ``sources`` up to the first)."""
    ins, exp, ally = s.ins, s.exp, s.ally
    first = second = -1  # the first two open spaces are all that matters
    for j in _INSURGENT_SPACES:
        if ins[j] < _LIMIT[j] and not exp[j] and not ally[j]:
            if first < 0:
                first = j
            else:
                second = j
                break
    if first < 0:
        return False
    only = first if second < 0 else -1  # a unit there has nowhere else to go
    return any(ins[i] and i != only for i in _INSURGENT_SPACES)


def _can_attack(s: State) -> bool:
    ins, exp, ally = s.ins, s.exp, s.ally
    # plain loops: nested any() over generators costs a frame per space
    for i in _INSURGENT_SPACES:
        if ins[i]:
            for j in _ADJ[i]:
                if exp[j] or ally[j]:
                    return True
    return False


def insurgent_menu(s: State, f: Frame) -> list[Action]:
    """The Insurgent AP verbs available now: the same list as ``reference_menu``, with shared work."""
    if f["mode"] != "card":  # every Insurgent verb needs a card's AP
        return []
    ap: int = f["ap"]
    printed: int = f["printed"]
    track = s.tracks[INSURGENT]
    stored: int = -1 if f["prep_used"] else track["preparation"]

    # the costs and menu entries are module constants (compiled: C statics, not dict lookups by name)
    out: list[Action] = []
    if afford_with(ap, printed, stored, _COST_REGROUP) and _can_regroup(s):
        out.append(_MENU_REGROUP)
    if afford_with(ap, printed, stored, _COST_ATTACK) and _can_attack(s):
        out.append(_MENU_ATTACK)
    if _RAID.available_with(s, f):
        out.append(_MENU_RAID)
    if ap >= _COST_PREPARE and track["preparation"] < _PREP_HIGH:
        out.append(_MENU_PREPARE)
    if afford_with(ap, printed, stored, _COST_SUPPORT) and support_possible(s, INSURGENT):
        out.append(_MENU_SUPPORT)
    if afford_with(ap, printed, stored, _COST_PRESSURE) and 0 <= track["pressure"] < _PRESSURE_HIGH:
        out.append(_MENU_PRESSURE)
    ins = s.ins
    if afford_with(ap, printed, stored, _COST_REPAIR) and _can_repair(s):
        out.append(_MENU_REPAIR)
    if (afford_with(ap, printed, stored, _COST_TRAIN) and s.civilians > 0 and s.pools["insurgent"] > 0
            and _has_open_space(s)):
        out.append(_MENU_TRAIN)
    once = ruleset(s)["insurgent_build_once_per_round"]
    if (not (once and s.built_this_round) and afford_with(ap, printed, stored, _COST_BUILD)
            and s.pools["cannons"] > 0 and track["supplies"] >= _COST_BUILD_SUPPLIES):
        cannon = s.cannon
        for i in _INSURGENT_SPACES:
            if ins[i] and not cannon[i]:
                out.append(_MENU_BUILD)
                break
    return out


def _can_repair(s: State) -> bool:
    """A manned Wall section is damaged (plain loops here: any() over a generator costs a frame per space)."""
    damage, ins = s.damage, s.ins
    for i in _WALLS:  # noqa: SIM110
        if damage[i] and ins[i]:
            return True
    return False


def _has_open_space(s: State) -> bool:
    """Some Insurgent space has room and no Imperial unit."""
    ins, exp, ally = s.ins, s.exp, s.ally
    for i in _INSURGENT_SPACES:  # noqa: SIM110
        if ins[i] < _LIMIT[i] and not exp[i] and not ally[i]:
            return True
    return False


register_menu(INSURGENT, insurgent_menu)
