"""Rule 4.3.2, Imperial Player's Actions: movement, attacks, Reward, Preparation, Support,
Plea for Funds and Build Cannon. Each is an AP verb; spatial choices go through Ops."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Final

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, IMPERIAL_CANNON
from muster.games.freedom.datafiles import areas_file, design
from muster.games.freedom.engine import ACTIONS, OPS, Op, push, select
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
from muster.games.freedom.rules.combat import imperial_attack
from muster.games.freedom.rules.common import (
    adjust,
    area_index,
    imperial_units,
    log,
    roll_dice,
    ruleset,
    said,
    support,
    support_effect,
)
from muster.games.freedom.rules.movement import (
    can_move_normally,
    kinds_at,
    move_unit,
    normal_destinations,
    normal_steps,
    single_step_destinations,
    slow_destinations,
    slow_steps,
    used_counts,
)
from muster.games.freedom.state import Frame, State
from muster.i18n import N_

COST: Final = design()["actions"]["imperial"]


def movers(s: State, f: Frame, i: int) -> int:
    """Imperial units in space ``i`` free to move (a unit that just moved may not move again)."""
    n = imperial_units(s, i)
    if f.get("moved_to") == board().ids[i]:
        n -= 1
    return n


def unit_classes(s: State, i: int) -> list[str]:
    """The classes among which the player picks the unit that moves out of space ``i``."""
    kinds = kinds_at(s, i)
    if len(kinds) > 1:
        return kinds
    ap = find_ap(s)
    if ap is None or board().ids[i] not in ap["spent"]:  # every unit there is fresh: nothing to tell apart
        return []
    used = sorted(set(used_counts(ap, board().ids[i], imperial_units(s, i))))
    return [str(u) for u in used] if len(used) > 1 else []


def resolve_class(s: State, i: int, cls: str | None) -> tuple[str, int]:
    """(kind, attacks used) of the unit chosen to move out of space ``i``."""
    if cls in ("E", "A"):
        return cls, 0
    kind = kinds_at(s, i)[0]
    if cls is None:
        ap = find_ap(s)
        if ap is None or board().ids[i] not in ap["spent"]:  # every unit there is fresh
            return kind, 0
        used = used_counts(ap, board().ids[i], imperial_units(s, i))
        return kind, used[0]
    return kind, int(cls)


class UnitMoveOp(Op):
    """Moving one Imperial unit: choose its space, the unit (when it matters), then where it goes."""

    moved = "moves"

    def destinations(self, s: State, f: Frame, i: int, kind: str) -> list[int]:
        """Where a unit of ``kind`` in space ``i`` may go."""
        raise NotImplementedError

    def can_start(self, s: State, f: Frame, i: int, kind: str) -> bool:
        """True if a unit of ``kind`` in space ``i`` has somewhere to go (override for an early exit)."""
        return bool(self.destinations(s, f, i, kind))

    def candidates(self) -> Iterable[int] | None:
        """The spaces worth looking at as sources, in board order (None: every space)."""
        return None

    def sources(self, s: State, f: Frame) -> list[str]:
        return self._sources(s, f, False)

    def available(self, s: State, f: Frame) -> bool:
        return bool(self._sources(s, f, True))

    def _sources(self, s: State, f: Frame, first_only: bool) -> list[str]:
        """The sources in board order (``first_only``: up to the first). A list built in a plain loop, not a
        generator: the AP menus ask at every choice."""
        ids = _IDS
        exp, ally = s.exp, s.ally
        moved_to = f.get("moved_to")
        spaces = self.candidates()
        out: list[str] = []
        for i in _SPACES if spaces is None else spaces:
            n = exp[i] + ally[i]
            if not n or (n == 1 and moved_to == ids[i]):  # empty, or only the unit that just moved
                continue
            # any(can_start(k) for k in kinds_at(s, i)), without building the list
            if (exp[i] and self.can_start(s, f, i, "E")) or (ally[i] and self.can_start(s, f, i, "A")):
                out.append(ids[i])
                if first_only:
                    break
        return out

    def classes(self, s: State, f: Frame, src: str) -> list[str]:
        return unit_classes(s, board().index[src])

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        i = b.index[str(src)]
        kind, _ = resolve_class(s, i, f.get("cls"))
        return [b.ids[j] for j in self.destinations(s, f, i, kind)]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        b = board()
        i, j = b.index[str(src)], b.index[dst]
        kind, used = resolve_class(s, i, f.get("cls"))
        ap = find_ap(s)
        self.pay(s, ap)
        move_unit(s, i, j, kind, used, ap)
        log(s, "Imperial unit {what} from {src} to {dst}.", what=self.moved, src=i, dst=j)
        self.after(s, i, j)

    def pay(self, s: State, ap: Frame | None) -> None:
        """Pay for the move (Normal Movement is paid when the action is chosen)."""

    def after(self, s: State, i: int, j: int) -> None:
        """What follows the move."""


class MoveOp(UnitMoveOp):
    """Normal Movement: one unit up to 2 spaces, or (then) a second unit 1 space."""

    name = "move"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Normal Movement: choose a unit, then where it goes (1 or 2 spaces).")

    def destinations(self, s: State, f: Frame, i: int, kind: str) -> list[int]:
        return normal_destinations(s, i, kind)

    def can_start(self, s: State, f: Frame, i: int, kind: str) -> bool:
        return can_move_normally(s, i, kind)

    def after(self, s: State, i: int, j: int) -> None:
        if j in board().adj[i]:  # one space: a second unit may follow
            push(s, select("move_second", IMPERIAL, moved_to=board().ids[j]))


class MoveSecondOp(UnitMoveOp):
    """The optional second unit of a Normal Movement (one space)."""

    name = "move_second"
    optional = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Normal Movement: you may move a second unit 1 space (or be done).")

    def destinations(self, s: State, f: Frame, i: int, kind: str) -> list[int]:
        return single_step_destinations(s, i, kind)


class SlowOp(UnitMoveOp):
    """Slow Movement: one unit one space onto the Wall, Rows 1–2 or into the Lagoon."""

    name = "slow"
    moved = "moves slowly"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Slow Movement: choose a unit, then the slow space it enters.")

    def candidates(self) -> Iterable[int]:
        return slow_frontier()

    def destinations(self, s: State, f: Frame, i: int, kind: str) -> list[int]:
        ap = find_ap(s)
        return slow_destinations(s, i, kind, lagoon_only=bool(ap and ap["mode"] == "mahmud"))

    def sources(self, s: State, f: Frame) -> list[str]:
        # UnitMoveOp's sources with the paying AP frame found once, not once per unit kind and space
        ap = find_ap(s)
        lagoon_only = bool(ap and ap["mode"] == "mahmud")
        exp, ally = s.exp, s.ally
        moved_to = f.get("moved_to")
        out: list[str] = []
        for i in _SLOW_FRONTIER:
            n = exp[i] + ally[i]
            if not n or (n == 1 and moved_to == _IDS[i]):
                continue
            if ((exp[i] and slow_destinations(s, i, "E", lagoon_only))
                    or (ally[i] and slow_destinations(s, i, "A", lagoon_only))):
                out.append(_IDS[i])
        return out

    def pay(self, s: State, ap: Frame | None) -> None:
        assert ap is not None
        spend(s, ap, COST["slow"])


def attackers(s: State, ap: Frame, i: int) -> int:
    """Units in space ``i`` that may still attack with this card."""
    used = used_counts(ap, board().ids[i], imperial_units(s, i))
    return sum(1 for u in used if u < ap["attack_limit"])


class ImperialAttackOp(Op):
    """Attack: a unit attacks an adjacent space holding Insurgent units (once per unit per card)."""

    name = "imperial_attack"

    def prompt(self, s: State, f: Frame) -> str:
        return said("Attack: choose the attacking unit's space, then the target.")

    def sources(self, s: State, f: Frame) -> list[str]:
        b = board()
        ap = find_ap(s)
        assert ap is not None
        lagoon = ap["mode"] == "mahmud"
        ins, exp, ally, adj = s.ins, s.exp, s.ally, b.adj
        spent, limit = ap["spent"], ap["attack_limit"]
        near = sorted({j for i in b.insurgent_spaces if ins[i] for j in adj[i]})
        out: list[str] = []
        for i in near:
            units = exp[i] + ally[i]
            if not units or (lagoon and not b.lagoon[i]):
                continue
            # attackers() > 0; where no unit has attacked yet every one may, without building its list
            if (limit > 0 if b.ids[i] not in spent else attackers(s, ap, i) > 0):
                out.append(b.ids[i])
        return out

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        return [b.ids[j] for j in b.adj[b.index[str(src)]] if s.ins[j]]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        b = board()
        i, j = b.index[str(src)], b.index[dst]
        ap = find_ap(s)
        assert ap is not None
        spend(s, ap, COST["attack"])
        used = used_counts(ap, b.ids[i], imperial_units(s, i))
        attacker = max(u for u in used if u < ap["attack_limit"])  # keep the fresher units fresh
        spent = list(ap["spent"].get(b.ids[i], []))
        if attacker > 0:
            spent.remove(attacker)
        spent.append(attacker + 1)
        ap["spent"][b.ids[i]] = spent
        imperial_attack(s, i, j, ap["reward"])


@cache
def build_sites() -> tuple[tuple[int, int], ...]:
    """(space, AP cost) of every space where the Imperial player may build (rows 6/5/4: 3/5/7)."""
    b = board()
    return tuple((i, int(COST["build"][str(b.row[i])])) for i in b.mainland if str(b.row[i]) in COST["build"])


@cache
def slow_frontier() -> tuple[int, ...]:
    """Spaces from which some slow space is one step away (where Slow Movement can start)."""
    b = board()
    return tuple(i for i in range(len(b.ids)) if any(b.slow[j] for j in b.adj[i]))


def build_cost(s: State, i: int) -> int | None:
    """AP to build a cannon in space ``i``, or None where it cannot be built."""
    return dict(build_sites()).get(i)


class ImperialBuildOp(Op):
    """Build Cannon: take a cannon from the Camp to a space with an Imperial unit and no cannon."""

    name = "imperial_build"
    single = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Build Cannon: choose the space (Row 6: 3 AP, Row 5: 5 AP, Row 4: 7 AP).")

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        ap = find_ap(s)
        if ap is None or s.camp_cannons <= 0:
            return []
        return [
            b.ids[i]
            for i, cost in build_sites()
            if (s.exp[i] or s.ally[i]) and not s.cannon[i] and affordable(s, ap, cost)
        ]

    def available(self, s: State, f: Frame) -> bool:
        # targets() with an early exit: the AP menu asks this at every choice
        ap = find_ap(s)
        if ap is None or s.camp_cannons <= 0:
            return False
        exp, ally, cannon = s.exp, s.ally, s.cannon
        return any((exp[i] or ally[i]) and not cannon[i] and affordable(s, ap, cost) for i, cost in build_sites())

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        i = board().index[dst]
        ap = find_ap(s)
        cost = build_cost(s, i)
        assert ap is not None and cost is not None
        spend(s, ap, cost)
        s.camp_cannons -= 1
        s.cannon[i] = IMPERIAL_CANNON
        log(s, "Imperial cannon built in {space} for {n} AP.", space=i, n=cost)


class SupportOp(Op):
    """Support Area (either side): add a marker, remove an enemy marker, or flip the tile."""

    name = "support"
    single = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Support Area: choose an area.")

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        return [a.id for i, a in enumerate(areas_file().areas) if support_effect(s, f["seat"], i)]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        ap = find_ap(s)
        assert ap is not None
        spend(s, ap, design()["actions"][f["seat"]]["support"])
        support(s, f["seat"], area_index(dst))


# --- the Imperial verbs --------------------------------------------------------------------


def has_choice(op: str, s: State, f: Frame, cost: int = 0) -> bool:
    """True if ``cost`` AP can be paid and the op has at least one complete choice."""
    if not affordable(s, f, cost):
        return False
    key = (op, f["seat"])
    probe = _PROBES.get(key)
    if probe is None:
        probe = _PROBES[key] = select(op, f["seat"])
    return OPS[op].available(s, probe.copy())  # a copy of the fresh select frame the verb would push


_PROBES: Final[dict[tuple[str, str], Frame]] = {}


def card_mode(f: Frame) -> bool:
    """True when spending a card's AP (not a restricted event budget such as Captain Mahmud's)."""
    return bool(f["mode"] == "card")


def _move_ok(s: State, f: Frame) -> bool:
    return card_mode(f) and has_choice("move", s, f, COST["move"])


def _move_start(s: State, f: Frame) -> None:
    spend(s, f, COST["move"])
    push(s, select("move", IMPERIAL))


def _slow_ok(s: State, f: Frame) -> bool:
    return has_choice("slow", s, f, COST["slow"])


def _attack_ok(s: State, f: Frame) -> bool:
    return has_choice("imperial_attack", s, f, COST["attack"])


def _reward_ok(s: State, f: Frame) -> bool:
    once = ruleset(s)["reward_once_per_turn"]
    return (
        card_mode(f)
        and affordable(s, f, COST["reward"])
        and s.tracks[IMPERIAL]["money"] >= COST["reward_money"]
        and not (once and f["rewarded"])
    )


def _reward_start(s: State, f: Frame) -> None:
    spend(s, f, COST["reward"])
    adjust(s, IMPERIAL, "money", -COST["reward_money"])
    f["rewarded"] = True
    f["reward"] += COST["reward_bonus"]
    log(s, "Imperial Reward Attacks: +{n} to the attacks of this turn.", n=f["reward"])


def _prep_ok(s: State, f: Frame) -> bool:
    return card_mode(f) and f["ap"] >= COST["prepare"] and prep_room(s, IMPERIAL)


def _prep_start(s: State, f: Frame) -> None:
    spend(s, f, COST["prepare"])
    adjust(s, IMPERIAL, "preparation", 1)


def _support_ok(s: State, f: Frame) -> bool:
    return card_mode(f) and has_choice("support", s, f, COST["support"])


def _plea_ok(s: State, f: Frame) -> bool:
    return card_mode(f) and affordable(s, f, COST["plea"])


def _plea_start(s: State, f: Frame) -> None:
    spend(s, f, COST["plea"])
    plea_for_funds(s)


def plea_for_funds(s: State) -> bool:
    """Roll 2d6 + the Plea track; below 12: +3 Money and the track +2 (rule 4.3.2)."""
    p = design()["plea"]
    dice = roll_dice(s, p["dice"], p["die"])
    track = s.tracks[IMPERIAL]["plea"]
    total = sum(dice) + track
    ok: bool = total < p["succeeds_below"]
    log(
        s,
        "Plea for Funds: rolls {rolled} + {track} = {total}: {verdict}.",
        rolled=dice,
        track=track,
        total=total,
        verdict="granted" if ok else "refused",
    )
    if ok:
        adjust(s, IMPERIAL, "money", p["money"])
        adjust(s, IMPERIAL, "plea", p["track_step"])
    return ok


def _build_ok(s: State, f: Frame) -> bool:
    return card_mode(f) and has_choice("imperial_build", s, f)


def _push_op(op: str) -> Callable[[State, Frame], None]:
    def start(s: State, f: Frame) -> None:
        push(s, select(op, f["seat"]))

    return start


register_verbs(
    IMPERIAL,
    Verb("move", N_("Normal Movement (1 AP): 2 units 1 space, or 1 unit up to 2 spaces"), _move_ok, _move_start),
    Verb(
        "slow", N_("Slow Movement (1 AP): 1 unit 1 space onto the Wall, Rows 1–2 or the Lagoon"), _slow_ok,
        _push_op("slow"),
    ),
    Verb(
        "attack", N_("Attack (1 AP): a unit attacks an adjacent Insurgent space"), _attack_ok,
        _push_op("imperial_attack"),
    ),
    Verb("reward", N_("Reward Attacks (1 AP + 1 Money): +2 to this turn's later attacks"), _reward_ok, _reward_start),
    Verb("prepare", N_("Preparation (1 AP): store 1 AP on the track"), _prep_ok, _prep_start),
    Verb("support", N_("Support Area (2 AP)"), _support_ok, _push_op("support")),
    Verb("plea", N_("Plea for Funds from the High Porte (3 AP)"), _plea_ok, _plea_start),
    Verb("build", N_("Build Cannon (Row 6: 3 AP, Row 5: 5 AP, Row 4: 7 AP)"), _build_ok, _push_op("imperial_build")),
)


# --- the fast Imperial AP menu ---------------------------------------------------------------

_SPACES: Final = range(len(board().ids))
_IDS: Final = board().ids
_ADJ: Final = board().adj
_INSURGENT_SPACES: Final = board().insurgent_spaces
_LAGOON: Final = board().lagoon
_SLOW_FRONTIER: Final = slow_frontier()
_SLOW_STEPS: Final = slow_steps()
_PREP_HIGH: Final = design()["tracks"]["preparation"][1]
_AREA_LIMIT: Final = areas_file().support_limit
_MENU: Final = {v.name: ACTIONS[v.name, None] for v in VERBS[IMPERIAL]}
_BUILD_SITES: Final = build_sites()
_BUILD_COSTS: Final = tuple(sorted({cost for _i, cost in _BUILD_SITES}))
_IS_WALL: Final = tuple(kind == "wall" for kind in board().kind)
_THICK: Final = board().thick
_LIMIT: Final = board().limit
_CAMP: Final = board().camp
_STEPS: Final = normal_steps()
_COST_MOVE: Final[int] = COST["move"]
_COST_SLOW: Final[int] = COST["slow"]
_COST_ATTACK: Final[int] = COST["attack"]
_COST_REWARD: Final[int] = COST["reward"]
_COST_REWARD_MONEY: Final[int] = COST["reward_money"]
_COST_PREPARE: Final[int] = COST["prepare"]
_COST_SUPPORT: Final[int] = COST["support"]
_COST_PLEA: Final[int] = COST["plea"]
_MENU_MOVE: Final = _MENU["move"]
_MENU_SLOW: Final = _MENU["slow"]
_MENU_ATTACK: Final = _MENU["attack"]
_MENU_REWARD: Final = _MENU["reward"]
_MENU_PREPARE: Final = _MENU["prepare"]
_MENU_SUPPORT: Final = _MENU["support"]
_MENU_PLEA: Final = _MENU["plea"]
_MENU_BUILD: Final = _MENU["build"]


def afford_with(ap: int, printed: int, stored: int, cost: int) -> bool:
    """:func:`muster.games.freedom.rules.action_phase.affordable` from the frame's values read once
    (``stored`` < 0: the track may not pay)."""
    return cost <= ap or (stored >= 0 and cost > printed and ap + stored >= cost)


def support_possible(s: State, seat: str) -> bool:
    """True if a Support action by ``seat`` would change some area (:func:`support_effect` is not None)."""
    pool = s.pools["support_markers"] > 0
    markers = s.area_markers
    for i, side in enumerate(s.area_side):  # noqa: SIM110 - any() over a generator costs a frame per area
        if side != seat or (pool and markers[i] < _AREA_LIMIT):
            return True
    return False


def _can_move(s: State) -> bool:
    """:class:`MoveOp` has a source: some unit with a Normal Movement destination (board order, early exit).

    ``can_move_normally`` for each kind present, with ``_room`` inlined, over the spaces holding Imperial
    units: the AP menu asks this at every Imperial choice."""
    exp, ally, ins = s.exp, s.ally, s.ins
    for a in _SPACES:
        e, al = exp[a], ally[a]
        if not e and not al:
            continue
        for m in _STEPS[a]:
            if ins[m]:
                continue
            if exp[m] + ally[m] < _LIMIT[m] and (m == _CAMP or (e and ally[m] == 0) or (al and exp[m] == 0)):
                return True
            for b in _STEPS[m]:
                if b == a or ins[b] or exp[b] + ally[b] >= _LIMIT[b]:
                    continue
                if b == _CAMP or (e and ally[b] == 0) or (al and exp[b] == 0):
                    return True
    return False


def _can_slow(s: State, lagoon_only: bool) -> bool:
    """:class:`SlowOp` has a source: only spaces next to a slow space can start a Slow Movement.

    ``slow_destinations`` of each kind present, up to the first destination, with its tests inlined
    (and the edition's switch read once): the AP menu asks this at every Imperial choice."""
    exp, ally, ins, damage = s.exp, s.ally, s.ins, s.damage
    min_damage: int = ruleset(s)["wall_entry_min_damage"]
    for a in _SLOW_FRONTIER:
        e, al = exp[a], ally[a]
        if not e and not al:
            continue
        from_wall = _IS_WALL[a]
        for b in _SLOW_STEPS[a]:
            if ins[b] or exp[b] + ally[b] >= _LIMIT[b] or (lagoon_only and not _LAGOON[b]):
                continue
            if not from_wall and _IS_WALL[b] and damage[b] < min_damage:
                continue
            thick = _THICK[b]
            if thick >= 0 and exp[thick] + ally[thick] == 0:
                continue
            # _room(): in the Camp any kind; elsewhere Expeditionary and Allied units never share a space
            if b == _CAMP or (e and ally[b] == 0) or (al and exp[b] == 0):
                return True
    return False


def _can_attack(s: State, f: Frame) -> bool:
    """:class:`ImperialAttackOp` has a source: a unit that may still attack beside Insurgent units."""
    ins, exp, ally = s.ins, s.exp, s.ally
    lagoon = f["mode"] == "mahmud"
    spent, limit = f["spent"], f["attack_limit"]
    for i in _INSURGENT_SPACES:  # (Insurgent units stand only there)
        if not ins[i]:
            continue
        for j in _ADJ[i]:
            units = exp[j] + ally[j]
            if not units or (lagoon and not _LAGOON[j]):
                continue
            used = spent.get(_IDS[j])
            if used is None:
                if limit > 0:
                    return True
            elif any(u < limit for u in used_counts(f, _IDS[j], units)):
                return True
    return False


def _can_build(s: State, ap: int, printed: int, stored: int) -> bool:
    if s.camp_cannons <= 0:
        return False
    # the few distinct prices first (affordability is not monotonic in the price: stored AP pays only
    # for an action dearer than the card's printed AP), then the sites at a price that can be paid
    paid = [cost for cost in _BUILD_COSTS if afford_with(ap, printed, stored, cost)]
    if not paid:
        return False
    exp, ally, cannon = s.exp, s.ally, s.cannon
    for i, cost in _BUILD_SITES:  # noqa: SIM110 - a plain loop: any() over a generator is slower in pure Python
        if (exp[i] or ally[i]) and not cannon[i] and cost in paid:
            return True
    return False


def imperial_menu(s: State, f: Frame) -> list[Action]:
    """The Imperial AP verbs available now: the same list as ``reference_menu``, with shared work."""
    ap: int = f["ap"]
    printed: int = f["printed"]
    card = f["mode"] == "card"
    stored: int = s.tracks[IMPERIAL]["preparation"] if card and not f["prep_used"] else -1

    # the costs and menu entries are module constants (compiled: C statics, not dict lookups by name)
    out: list[Action] = []
    if afford_with(ap, printed, stored, _COST_MOVE) and card and _can_move(s):
        out.append(_MENU_MOVE)
    if afford_with(ap, printed, stored, _COST_SLOW) and _can_slow(s, not card and f["mode"] == "mahmud"):
        out.append(_MENU_SLOW)
    if afford_with(ap, printed, stored, _COST_ATTACK) and _can_attack(s, f):
        out.append(_MENU_ATTACK)
    if card:
        track = s.tracks[IMPERIAL]
        once = ruleset(s)["reward_once_per_turn"]
        if (afford_with(ap, printed, stored, _COST_REWARD) and track["money"] >= _COST_REWARD_MONEY
                and not (once and f["rewarded"])):
            out.append(_MENU_REWARD)
        if ap >= _COST_PREPARE and track["preparation"] < _PREP_HIGH:
            out.append(_MENU_PREPARE)
        if afford_with(ap, printed, stored, _COST_SUPPORT) and support_possible(s, IMPERIAL):
            out.append(_MENU_SUPPORT)
        if afford_with(ap, printed, stored, _COST_PLEA):
            out.append(_MENU_PLEA)
        if _can_build(s, ap, printed, stored):
            out.append(_MENU_BUILD)
    return out


register_menu(IMPERIAL, imperial_menu)
