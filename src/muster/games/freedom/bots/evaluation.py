"""A hand-written evaluation of a Freedom! position, shared by the heuristic and ISMCTS bots.

The score is in "points" from the Imperial side (positive: good for the Imperial player),
roughly one point per Morale step. It reads a full :class:`State` — for bots always one built
by ``rules.determinize`` from the bot's own view, never the true state. The weights below are
the judgement of a sensible human player written down: what the Imperial needs to take the
city (guns, battered Wall, massed units in Row 4, a foothold on the Wall) and what the
Insurgent needs to hold out (manned forts, Morale, Supplies against Population, the clock).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, IMPERIAL_CANNON, INSURGENT
from muster.games.freedom.datafiles import design
from muster.games.freedom.state import State

WIN_POINTS = 100.0
"""The score of a finished game (the winner's side)."""


@dataclass(frozen=True)
class Weights:
    """Evaluation weights (points)."""

    ap: float = 0.25
    """What one unspent Action Point is worth: an action is bought only if it gains more than its cost."""
    preparation: float = 0.3
    imp_unit: float = 0.9
    camp_unit: float = 0.6
    advance_per_row: float = 0.22
    row4_vs_damage: float = 0.5
    wall_damage: tuple[float, float, float] = (0.0, 1.5, 4.0)
    breach: float = 2.0
    """An Imperial unit in front of a destroyed section (doubled if no defender stands there)."""
    imp_on_wall: float = 7.0
    imp_capture: float = 18.0
    ins_unit: float = 1.1
    ins_on_wall: float = 0.6
    manned_fort: float = 1.6
    civilian: float = 0.25
    imp_cannon: float = 1.6
    imp_cannon_close: float = 0.6
    camp_cannon: float = 0.3
    ins_cannon: float = 1.6
    money_short: float = 1.6
    money_spare: float = 0.08
    supply_short: float = 1.0
    supply_spare: float = 0.08
    area: float = 0.8
    marker: float = 0.25
    pressure: float = 0.35
    low_morale: float = 1.5
    reward_per_attack: float = 0.6
    lone_unit: float = 0.7
    imp_time: float = 2.5
    """How much each finished round costs the Imperial player (the clock favours the defence)."""
    beach_threat: float = 0.0
    """An Imperial unit in the Lagoon close to a Beach space no Insurgent unit blocks: that many
    points times ``threat_by_steps`` for the fewest Slow Movement steps (1 AP each) it needs. Off
    in these plain weights; both bots turn it on through their option ``beach_threat`` (12), which
    made each of them stronger on both sides (docs/balance.md)."""
    threat_by_steps: tuple[float, ...] = (0.0, 0.5, 0.3, 0.15, 0.05)
    reach_threat: float = 0.0
    """The fewest AP any Imperial unit needs to reach a fort or a Beach space (by land through a corner of
    the Wall, over the Wall, or through the Lagoon), each Insurgent unit on the way counted as two AP of
    attacks: that many points times ``threat_by_ap`` (indexed by the AP rounded up). Off in these plain
    weights (the bots' defaults are unchanged); the ISMCTS option ``reach_threat`` turns it on."""
    threat_by_ap: tuple[float, ...] = (0.0, 1.0, 0.75, 0.5, 0.3, 0.15, 0.05)
    reach_spread: float = 0.0
    """With ``reach_threat`` on, the share of it each *further* goal within reach adds, priced by its own fewest
    AP. The nearest goal alone is a threshold: a landing that three Beach spaces offer costs the same until the
    third is blocked, so a defence that takes two cards never shows a gain after the first. Summing the others at
    this share makes each blocked route worth its part. Off in these plain weights; the ISMCTS option
    ``reach_spread`` turns it on."""
    reach_islands: bool = False
    """Whether the routes ``reach_threat`` weighs may pass through an island, as Slow Movement may (one AP, an
    Insurgent unit there counted as two AP of attacks). Without it, units around Vasiladi, whose only way on is
    the island, count as out of reach. Off in these plain weights (every bot as it was); the bots' option
    ``reach_islands`` turns it on."""
    counter: float = 0.0
    """While the Insurgent spends a card's AP, the share of ``imp_capture`` its chance of clearing an Imperial-held
    fort or Beach space with those AP is worth (see :func:`counter_pending`). Off in these plain weights; the bots'
    option ``counter`` turns it on."""
    money_ahead: float = 0.0
    """Points per Money the Imperial will lack for the *next* round's upkeep once this round's is paid (the Money
    the change of period brings counted). Unpaid upkeep costs a unit per Money and two Morale, and the Plea
    for Funds gets harder with each success, so Money spent freely early is missed later. Off in these plain
    weights; the ISMCTS option ``money_ahead`` turns it on when the bot plays the Imperial."""
    supplies_ahead: float = 0.0
    """Points per Supply the Imperial will lack for the *next* round's upkeep once this round's is paid (the
    Supplies the change of period brings counted). Each Supply short costs a Morale (rule 4.5). Off in these plain
    weights; the ISMCTS option ``supplies_ahead`` turns it on when the bot plays the Imperial."""


BOT_BEACH_THREAT = 12.0
"""The default of both bots' ``beach_threat`` option (see :attr:`Weights.beach_threat`)."""


DEFAULT = Weights()


@lru_cache(maxsize=1)
def _geometry() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], dict[int, int]]:
    """(mainland, walls, forts, beaches, row-4 space → the Wall section in front of it)."""
    b = board()
    front: dict[int, int] = {}
    for i in b.mainland:
        if b.row[i] == 4:
            for j in b.adj[i]:
                if b.kind[j] == "wall":
                    front[i] = j
    return b.mainland, b.walls, b.forts, b.beaches, front


@lru_cache(maxsize=1)
def _water() -> tuple[int, ...]:
    """Lagoon spaces that are not islands (where Imperial boats stand)."""
    b = board()
    return tuple(i for i, lag in enumerate(b.lagoon) if lag and i not in b.islands)


@lru_cache(maxsize=1)
def _lagoon() -> tuple[int, ...]:
    """Every Lagoon space: water, islands and the Coast (Row 1)."""
    return tuple(i for i, lag in enumerate(board().lagoon) if lag)


# The board's facts every evaluation reads, looked up once (a call per evaluation of each cached function above
# costs more than some of the terms).
_WALLS: Final = _geometry()[1]
_IS_FORT: Final = tuple(i in _geometry()[2] for i in range(len(board().ids)))
_BEACHES: Final = _geometry()[3]
_FRONT: Final = _geometry()[4]
_WATER: Final = _water()
_ISLANDS: Final = board().islands
_CAMP: Final = board().camp


def _beach_threat(s: State, w: Weights) -> float:
    """Rule 3.1 makes a single Imperial unit on the Beach at the end of the Action phase a win, and
    Slow Movement through the Lagoon gets it there a step per AP. A landing is made within one card,
    so the side to defend must block in time: count how close the nearest Imperial unit in the Lagoon
    is to a Beach space with no Insurgent unit (Insurgent units block spaces and their islands)."""
    if not w.beach_threat:
        return 0.0
    b = board()
    frontier = [i for i in _lagoon() if s.exp[i] + s.ally[i]]
    if not frontier or all(s.ins[i] for i in b.beaches):
        return 0.0
    seen = set(frontier)
    for steps in range(1, len(w.threat_by_steps)):
        nxt = []
        for i in frontier:
            for j in b.adj[i]:
                if j in seen or s.ins[j] or not (b.lagoon[j] or b.kind[j] == "beach"):
                    continue
                if b.thick[j] >= 0 and s.ins[b.thick[j]]:
                    continue
                if b.kind[j] == "beach":
                    return w.beach_threat * w.threat_by_steps[steps]
                seen.add(j)
                nxt.append(j)
        frontier = nxt
    return 0.0


@lru_cache(maxsize=2)
def _reach_graph(islands: bool = False) -> tuple[tuple[tuple[tuple[int, float], ...], ...], tuple[bool, ...],
                                                 tuple[bool, ...], tuple[float, ...]]:
    """Per space, its neighbours an Imperial unit may step to with the AP one step costs (half an AP along
    the mainland, where one Normal Movement covers about two spaces; one AP for a Slow Movement step);
    which spaces are goals (forts and Beach spaces); which spaces a unit may start a landing from; and per
    space the fewest AP to a goal with no defender anywhere (a lower bound that lets the search skip
    whatever cannot reach a goal in time). With ``islands``, the islands are steps and starts like the water."""
    b = board()
    n = len(b.ids)
    slow = ("wall", "beach", "water", "coast", "island") if islands else ("wall", "beach", "water", "coast")
    goal = tuple(i in b.forts or b.kind[i] == "beach" for i in range(n))
    start = tuple((b.kind[i] == "mainland" and b.row[i] <= 7) or (b.kind[i] in slow and b.kind[i] != "beach")
                  for i in range(n))
    steps = []
    for i in range(n):
        out = []
        for j in b.adj[i]:
            if b.kind[j] == "mainland" and b.kind[i] == "mainland":
                if b.depth[j] <= b.depth[i]:
                    out.append((j, 0.5))
            elif b.kind[j] in slow:
                out.append((j, 1.0))
        steps.append(tuple(out))
    bound = [99.0] * n
    for i in range(n):
        if goal[i]:
            bound[i] = 0.0
    for _ in range(n):  # Bellman-Ford backwards from the goals: a few hundred edges, once
        for i in range(n):
            for j, step in steps[i]:
                if bound[j] + step < bound[i]:
                    bound[i] = bound[j] + step
    return tuple(steps), goal, start, tuple(bound)


_REACH: dict[bytes, tuple[float, ...]] = {}
"""The fewest AP to the goals within reach (see :func:`_goal_costs`) by the positions of both sides' units: a
lookahead evaluates many positions where no unit moved."""


def _reach_threat(s: State, w: Weights) -> float:
    """How close the Imperial side is to a capture (rule 3.1): the nearest goal's ``threat_by_ap``, plus
    ``reach_spread`` times each further goal's (see :attr:`Weights.reach_threat` and :attr:`Weights.reach_spread`)."""
    if not w.reach_threat:
        return 0.0
    table = w.threat_by_ap
    limit = len(table) - 1
    nearest_only = not w.reach_spread
    key = bytes(s.exp) + bytes(s.ally) + bytes(s.ins) + bytes((limit, w.reach_islands, nearest_only))
    costs = _REACH.get(key)
    if costs is None:
        if len(_REACH) >= 8192:
            _REACH.clear()
        costs = _REACH[key] = _goal_costs(s, float(limit), w.reach_islands, nearest_only)
    if not costs or costs[0] == 0.0:
        return 0.0  # nothing within reach, or a unit already on a goal: the capture term counts it
    total = table[max(1, math.ceil(costs[0]))]
    for c in costs[1:]:
        total += w.reach_spread * table[max(1, math.ceil(c))]
    return w.reach_threat * total


def _goal_costs(s: State, limit: float, islands: bool = False, first: bool = False) -> tuple[float, ...]:
    """The fewest AP Imperial units need to reach each goal they can reach within ``limit``, ascending (a lone
    0.0 if a unit stands on a goal: the capture term counts it); with ``first``, the nearest goal's alone.
    An A* from every unit at once on :func:`_reach_graph`: the bound never overestimates and never drops by more
    than a step costs, so goals come off the heap in the order of their cost, each at its fewest AP."""
    steps, goal, start, bound = _reach_graph(islands)
    exp, ally, ins = s.exp, s.ally, s.ins
    cost: dict[int, float] = {}
    frontier: list[tuple[float, float, int]] = []
    for i in range(len(steps)):
        if start[i] and bound[i] <= limit and exp[i] + ally[i]:
            if goal[i]:
                return (0.0,)
            cost[i] = 0.0
            frontier.append((bound[i], 0.0, i))
    heapq.heapify(frontier)
    found: list[float] = []
    while frontier:
        _f, c, i = heapq.heappop(frontier)
        if c > cost[i]:
            continue
        if goal[i]:
            if first:
                return (c,)
            found.append(c)
        for j, step in steps[i]:
            nc = c + step + 2.0 * ins[j]
            if nc + bound[j] <= limit and nc < cost.get(j, 99.0):
                cost[j] = nc
                heapq.heappush(frontier, (nc + bound[j], nc, j))
    return tuple(found)


def _population_cost_of(population: int) -> int:
    for band in design()["population_cost"]:
        lo, hi = band["population"]
        if lo <= population <= hi:
            return int(band["supplies"])
    return int(design()["population_cost"][-1]["supplies"])


_POPULATION_COSTS: Final = tuple(_population_cost_of(p) for p in range(256))
"""The Supplies a Population costs, by Population (the design's bands looked up once: every evaluation needs one)."""


def _population_cost(population: int) -> int:
    if 0 <= population < 256:
        return _POPULATION_COSTS[population]
    return _population_cost_of(population)


def evaluate(s: State, w: Weights = DEFAULT) -> float:
    """The position's worth in points for the Imperial side (negate it for the Insurgent)."""
    if s.result is not None:
        winner = s.result.get("winner")
        return WIN_POINTS if winner == IMPERIAL else -WIN_POINTS if winner == INSURGENT else 0.0
    return (_forces(s, w) + _wall(s, w) + _economy(s, w) + _morale(s, w) + _areas(s, w) + _beach_threat(s, w)
            + _reach_threat(s, w))


TERMS = ("forces", "wall", "economy", "morale", "areas", "lagoon")
"""The names of the evaluation's parts, in the order :func:`terms` returns them."""


def terms(s: State, w: Weights = DEFAULT) -> dict[str, float]:
    """The evaluation of an unfinished position split into its parts (points for the Imperial side).

    Their sum is :func:`evaluate`; the win-probability estimate and the hints read them one by one.
    """
    return {"forces": _forces(s, w), "wall": _wall(s, w), "economy": _economy(s, w),
            "morale": _morale(s, w), "areas": _areas(s, w), "lagoon": _beach_threat(s, w) + _reach_threat(s, w)}


_TERMS: dict[int, tuple[Weights, Any]] = {}


def _space_terms(w: Weights) -> tuple[tuple[tuple[int, float, bool, int], ...], tuple[float, ...]]:
    """Per mainland space (index, worth of a unit there, lone-unit penalty applies, the Wall section in
    front or -1); per space the worth of an Imperial cannon there. Computed once per weights, with the
    same arithmetic as before, so evaluations are unchanged to the last bit. (Keyed by the object's id:
    hashing a dataclass of weights on every evaluation costs more than the table saves.)"""
    hit = _TERMS.get(id(w))
    if hit is not None and hit[0] is w:
        terms: tuple[tuple[tuple[int, float, bool, int], ...], tuple[float, ...]] = hit[1]
        return terms
    if len(_TERMS) > 64:
        _TERMS.clear()
    b = board()
    mainland, _walls, _forts, _beaches, front = _geometry()
    spaces = tuple((i, w.imp_unit + w.advance_per_row * (8 - b.row[i]), b.row[i] <= 6, front.get(i, -1))
                   for i in mainland)
    cannons = tuple(w.imp_cannon + (w.imp_cannon_close if b.row[i] in (4, 5) else 0.0) for i in range(len(b.ids)))
    _TERMS[id(w)] = (w, (spaces, cannons))
    return spaces, cannons


def _forces(s: State, w: Weights) -> float:
    spaces, cannon_worth = _space_terms(w)
    exp, ally, ins, damage = s.exp, s.ally, s.ins, s.damage
    score = 0.0
    for i, worth, exposed, wall in spaces:
        n = exp[i] + ally[i]
        if n:
            score += n * worth
            if n == 1 and exposed:
                score -= w.lone_unit  # a lone unit under the guns: its loss also costs Morale
            if wall >= 0:
                score += min(n, 3) * w.row4_vs_damage * damage[wall]
                if damage[wall] >= 2:
                    score += w.breach * (1 if ins[wall] else 2)
    score += (exp[_CAMP] + ally[_CAMP]) * w.camp_unit
    water_unit = w.imp_unit + 0.3
    for i in _WATER:
        score += (exp[i] + ally[i]) * water_unit
    island_unit = w.imp_unit + 1.0
    for i in _ISLANDS:
        score += (exp[i] + ally[i]) * island_unit
    score -= sum(ins) * w.ins_unit + s.civilians * w.civilian
    for i, code in enumerate(s.cannon):
        if code == IMPERIAL_CANNON:
            score += cannon_worth[i]
        elif code:
            score -= w.ins_cannon
    score += s.camp_cannons * w.camp_cannon
    return score


def _wall(s: State, w: Weights) -> float:
    exp, ally, ins, damage = s.exp, s.ally, s.ins, s.damage
    wall_damage, imp_capture, ins_on_wall = w.wall_damage, w.imp_capture, w.ins_on_wall
    score = 0.0
    on_wall = 0
    for i in _WALLS:
        score += wall_damage[min(damage[i], 2)]
        imp = exp[i] + ally[i]
        fort = _IS_FORT[i]
        if imp:
            on_wall += imp
            if fort:
                score += imp_capture
        score -= ins[i] * ins_on_wall
        if fort and ins[i]:
            score -= w.manned_fort
    for i in _BEACHES:
        if exp[i] + ally[i]:
            score += imp_capture
    # A foothold on the Wall is worth much; a second unit there much less.
    score += w.imp_on_wall * min(on_wall, 1) + 0.3 * w.imp_on_wall * max(on_wall - 1, 0)
    return score


_PERIOD_B_FROM: Final[int] = design()["period_b_from_round"]
_UPKEEP_MONEY: Final[dict[str, int]] = {period: int(u["money"]) for period, u in design()["upkeep"].items()
                                        if isinstance(u, dict)}
_UPKEEP_SUPPLIES: Final[dict[str, int]] = {period: int(u["supplies"]) for period, u in design()["upkeep"].items()
                                           if isinstance(u, dict)}


def _economy(s: State, w: Weights) -> float:
    imp, ins = s.tracks[IMPERIAL], s.tracks[INSURGENT]
    period = "B" if s.round >= _PERIOD_B_FROM else "A"
    money_spare = imp["money"] - _UPKEEP_MONEY[period]
    score = 0.0
    score += _balance(money_spare, w.money_short, w.money_spare)
    supplies_spare = imp["supplies"] - _UPKEEP_SUPPLIES[period]
    score += _balance(supplies_spare, w.supply_short, w.supply_spare)
    if w.money_ahead:
        score -= w.money_ahead * next_money_gap(s, money_spare)
    if w.supplies_ahead:
        score -= w.supplies_ahead * next_supplies_gap(s, supplies_spare)
    population = sum(s.ins) + s.civilians
    score -= _balance(ins["supplies"] - _population_cost(population), w.supply_short, w.supply_spare)
    if ins.get("pressure", 0) >= 0:
        score -= ins["pressure"] * w.pressure
    score += (imp.get("preparation", 0) - ins.get("preparation", 0)) * w.preparation
    return score


def next_money_gap(s: State, spare: int) -> int:
    """The Money the Imperial will lack for the next round's upkeep if ``spare`` Money (this round's upkeep
    paid; negative when short) is all it keeps, after the Money the change of period brings (rule 5)."""
    return max(0, _next_need(s, "money") - max(spare, 0))


def next_supplies_gap(s: State, spare: int) -> int:
    """The Supplies the Imperial will lack for the next round's upkeep if ``spare`` Supplies (this round's upkeep
    paid; negative when short) is all it keeps, after the Supplies the change of period brings (rule 5)."""
    return max(0, _next_need(s, "supplies") - max(spare, 0))


def _next_need(s: State, track: str) -> int:
    need = _NEXT_ROUND_UPKEEP.get((s.round, s.ruleset, track))
    return _next_round_upkeep(s.round, s.ruleset, track) if need is None else need


def _next_round_upkeep(round_now: int, ruleset: str, track: str) -> int:
    """The Money or Supplies (``track``) the next round's Imperial upkeep asks beyond what the change of period
    brings (0 after the last round)."""
    d = design()
    following = round_now + 1
    if following > d["rounds"]:
        return 0
    need: int = d["upkeep"]["B" if following >= d["period_b_from_round"] else "A"][track]
    if following == d["period_b_from_round"]:
        brought = d["period_change"]["imperial"][track]
        need -= brought[ruleset] if isinstance(brought, dict) else brought
    return max(need, 0)


_NEXT_ROUND_UPKEEP: Final[dict[tuple[int, str, str], int]] = {
    (r, ruleset, track): _next_round_upkeep(r, ruleset, track) for r in range(0, design()["rounds"] + 1)
    for ruleset in ("1st", "2nd") for track in ("money", "supplies")}
""":func:`_next_round_upkeep` of every round, edition and track, worked out once (an evaluation with
``money_ahead`` or ``supplies_ahead`` asks it every time)."""


def _balance(margin: int, short: float, spare: float) -> float:
    return margin * short if margin < 0 else min(margin, 10) * spare


def _morale(s: State, w: Weights) -> float:
    im, gm = s.tracks[IMPERIAL]["morale"], s.tracks[INSURGENT]["morale"]
    score = float(im - gm)
    score -= max(0, 5 - im) * w.low_morale - max(0, 5 - gm) * w.low_morale
    score -= (s.round - 1) * w.imp_time
    return score


def _areas(s: State, w: Weights) -> float:
    score = 0.0
    sides, all_markers = s.area_side, s.area_markers
    if len(sides) != len(all_markers):
        raise ValueError("a state's area sides and markers differ in length")
    for k in range(len(sides)):  # an index loop: compiled, zip() is a generic iterator
        sign = 1.0 if sides[k] == IMPERIAL else -1.0
        score += sign * (w.area + w.marker * all_markers[k])
    return score


def ap_left(s: State, seat: str) -> int:
    """Unspent AP of ``seat``'s current card (0 outside an AP frame)."""
    for f in reversed(s.stack):
        if f["kind"] == "ap":
            return int(f["ap"]) if f.get("seat") == seat else 0
    return 0


def reward_pending(s: State, w: Weights = DEFAULT) -> float:
    """Points for a Reward Attacks bonus still to be used this turn (Imperial side).

    The bonus raises each later attack's chance from about a quarter to about three in five, so it
    is worth something for every AP left that could buy an attack by a unit next to defenders.
    """
    if not s.stack:
        return 0.0
    f = s.stack[-1]
    if f["kind"] != "ap" or f.get("seat") != IMPERIAL or not f.get("reward"):
        return 0.0
    ready = sum(min(s.exp[i] + s.ally[i], 2) for i, wall in _FRONT.items() if s.ins[wall])
    return w.reward_per_attack * min(int(f["ap"]), ready)


def _clear_chances(most: int, hit: float) -> tuple[tuple[float, ...], ...]:
    """``[units][attacks]``: the chance that ``attacks`` rolls hitting with chance ``hit`` score at least ``units``
    hits (units 0..2, the most a fort or Beach space holds; attacks 0..``most``)."""
    table = []
    for need in range(3):
        row = []
        for n in range(most + 1):
            row.append(sum(math.comb(n, k) * hit ** k * (1 - hit) ** (n - k) for k in range(need, n + 1)))
        table.append(tuple(row))
    return tuple(table)


_CLEAR: Final = _clear_chances(12, 0.5)
"""The Insurgent hits a unit on the Wall or in Row 2 on 5+ of a d8 (rule 4): a half."""
_GOALS: Final = tuple(i for i in range(len(board().ids)) if _IS_FORT[i] or i in _BEACHES)
_GOAL_NEIGHBOURS: Final = tuple(tuple(j for j in board().adj[i] if board().kind[j] in ("wall", "beach"))
                                for i in _GOALS)
"""Per goal, the City spaces next to it, from where an Insurgent unit attacks it (the Lagoon's waters and the
mainland hold none)."""


def counter_pending(s: State, w: Weights = DEFAULT) -> float:
    """Points (for the Insurgent) for the chance of clearing an Imperial-held fort or Beach space (rule 3.1: held at
    the end of the Action phase, it wins the game) with the AP still on the Insurgent's card: an attack (1 AP) from a
    City space next to it hits on 5+, and a unit regrouped next to it (1 AP) can attack with the rest. A one-action
    lookahead never sees the regroup pay; this prices it, the chances of the best such target. Nothing outside the
    Insurgent's AP spending, nor once ending the card is the question (see :func:`settled_value`)."""
    if not w.counter or not s.stack:
        return 0.0
    f = s.stack[-1]
    if f["kind"] != "ap" or f.get("seat") != INSURGENT:
        return 0.0
    ap = min(int(f["ap"]), len(_CLEAR[0]) - 1)
    if ap <= 0:
        return 0.0
    exp, ally, ins = s.exp, s.ally, s.ins
    best = 0.0
    for k in range(len(_GOALS)):
        g = _GOALS[k]
        held = exp[g] + ally[g]
        if not held:
            continue
        attacks = 0
        for j in _GOAL_NEIGHBOURS[k]:
            if ins[j]:
                attacks = ap
                break
            if not exp[j] and not ally[j]:
                attacks = ap - 1  # a Regroup first (an empty City space always has room)
        chance = _CLEAR[min(held, 2)][attacks]
        if chance > best:
            best = chance
    return w.counter * w.imp_capture * best


def own_counter(s: State, seat: str, w: Weights = DEFAULT) -> float:
    """:func:`counter_pending` as ``seat`` counts it (a gain for the Insurgent, a loss for the Imperial)."""
    pending = counter_pending(s, w)
    return pending if seat == INSURGENT else -pending


def settled_value(s: State, seat: str, w: Weights = DEFAULT) -> float:
    """:func:`value` without :func:`counter_pending`: what ending the card now keeps (the AP left at their price)."""
    return value(s, seat, w) - own_counter(s, seat, w)


def value(s: State, seat: str, w: Weights = DEFAULT) -> float:
    """The position's worth for ``seat``, counting the AP it still holds this turn."""
    v = evaluate(s, w) + reward_pending(s, w) - counter_pending(s, w)
    own = v if seat == IMPERIAL else -v
    if s.result is None:
        own += ap_left(s, seat) * w.ap
    return own


def win_probability(s: State, seat: str, scale: float = 8.0) -> float:
    """The evaluation squashed to a 0..1 chance that ``seat`` wins (for tree search)."""
    v = evaluate(s)
    own = v if seat == IMPERIAL else -v
    return 1.0 / (1.0 + math.exp(-own / scale))
