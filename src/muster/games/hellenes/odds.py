"""Battle odds: an exact calculator of a Hellenes battle (6.2–6.3.3 with the DESIGN end rules), and a Monte
Carlo estimate over the same rules to check it.

Both sides fire in letter order (the defender first on a tie); a block of CV n rolls n dice; each die hits on
≤ firepower and routs on ≥ 7 − firepower; hits go one at a time to the strongest standing enemy, routs to the
weakest; Assault defenders cannot be routed and, with Double Defense, need two hits per CV. The battle ends
when a side has no standing block (it is eliminated or Panics); there is no round limit (6.1/6.2), so the exact
calculator solves each round's chance of changing nothing (a round repeats itself then) instead of unrolling
rounds, and nothing is left undecided. Both sides fight on (no voluntary Retreat), which is what "the odds of
fighting on" means. Expected losses count
the CV lost in the Combat Rounds and after them: the Pursuit of a side that Panicked and the Retreat Attrition
of its routed blocks (6.3.4, 6.4.1). Only a block with nowhere to retreat (eliminated by the map, not the dice)
is left out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any

from muster.games.hellenes.datafiles import blocks, design, game_map

Fighter = tuple[str, int, int, bool]
"""(letter, firepower, CV, routed) of one block in a battle, in token order."""

EXACT_LIMIT = 8
"""With more blocks than this in a battle (or more than ``EXACT_CV`` steps) the calculator falls back to
Monte Carlo: the exact state space grows as the product of the blocks' CVs."""
EXACT_CV = 20
MC_ROUNDS = 10_000
"""A safety bound for one Monte Carlo battle (a trial reaching it counts as undecided). Every standing block
rolls at least one die a round, so a round without a hit has a chance of at most (5/6)^2 when both sides fire:
reaching this bound has a probability far below anything a float can show."""


@dataclass(frozen=True)
class BattleOdds:
    """The chances of a battle, from the attacker's side: win, lose, undecided, and expected CV lost."""

    att_win: float
    def_win: float
    draw: float
    att_loss: float
    def_loss: float
    exact: bool = True


@dataclass(frozen=True)
class SideOdds:
    """The same from one side's point of view."""

    win: float
    lose: float
    draw: float
    my_loss: float
    enemy_loss: float


def _order(att: tuple[Fighter, ...], dfn: tuple[Fighter, ...]) -> tuple[tuple[int, int], ...]:
    """The static firing order: (side 0 = attacker / 1 = defender, index), by letter, the defender first."""
    rank = {x: i for i, x in enumerate(design()["firing_order"])}
    entries = [(rank[f[0]], 0, i, 1) for i, f in enumerate(dfn)] + [(rank[f[0]], 1, i, 0) for i, f in enumerate(att)]
    return tuple((side, i) for _, _, i, side in sorted(entries))


@cache
def _outcomes(n: int, power: int) -> tuple[tuple[int, int, float], ...]:
    """(hits, routs, probability) of n dice with a firepower: P(hit) = P(rout) = power/6."""
    p = power / 6
    rest = 1 - 2 * p
    out = []
    for h in range(n + 1):
        for k in range(n - h + 1):
            prob = comb(n, h) * comb(n - h, k) * p ** h * p ** k * rest ** (n - h - k)
            if prob > 0:
                out.append((h, k, prob))
    return tuple(out)


def _apply(cvs: list[int], routed: list[bool], fires: tuple[int, ...], hits: int, routs: int, double: bool,
           carry: int, can_rout: bool) -> int:
    """Apply hits (to the strongest) and routs (to the weakest) to one side in place; return the new carry."""
    for _ in range(hits):
        standing = [i for i in range(len(cvs)) if cvs[i] > 0 and not routed[i]]
        if not standing:
            break
        if double:
            carry += 1
            if carry < 2:
                continue
            carry = 0
        target = max(standing, key=lambda i: (cvs[i], -fires[i], -i))
        cvs[target] -= 1
    if can_rout:
        for _ in range(routs):
            standing = [i for i in range(len(cvs)) if cvs[i] > 0 and not routed[i]]
            if not standing:
                break
            routed[min(standing, key=lambda i: (cvs[i], fires[i], i))] = True
    return carry


Position = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[bool, ...], int]
"""(attacker CVs, defender CVs, attacker routed, defender routed, Double Defense carry) between two firings."""
Value = tuple[float, float, float, float, float]
"""(attacker wins, defender wins, undecided, attacker's expected CV lost, defender's) from a position on."""


def battle_odds(att: list[Fighter], dfn: list[Fighter], assault: bool = False, double: bool = False,
                start: tuple[int, int] | None = None, carry: int = 0) -> BattleOdds:
    """The exact odds of a battle fought to its end (no round limit: 6.1/6.2). ``start``: the (side, index)
    about to fire in the current round.

    Every firing only takes CV, routs blocks or adds to the Double Defense carry, so a position can come back
    only as a whole round that changed nothing. A round's value is therefore solved for that chance ``q``: the
    value at a round's start is (its value through rounds that changed something) / (1 − q), and every other
    path leads to a position strictly further on, so the recursion ends."""
    a, d = tuple(att), tuple(dfn)
    if len(a) + len(d) > EXACT_LIMIT or sum(f[2] for f in a + d) > EXACT_CV:
        return monte_carlo(att, dfn, assault, double, trials=3000, seed=len(a) * 97 + len(d))
    order = _order(a, d)
    slot = order.index(start) if start is not None and start in order else 0
    fires = (tuple(f[1] for f in a), tuple(f[1] for f in d))
    total0 = (sum(f[2] for f in a), sum(f[2] for f in d))

    def ended(pos: Position) -> Value | None:
        acv, dcv, ar, dr, _ = pos
        losses = (total0[0] - sum(acv), total0[1] - sum(dcv))
        if not any(c > 0 and not r for c, r in zip(acv, ar, strict=True)):
            return (0.0, 1.0, 0.0, losses[0] + aftermath(acv, ar, dcv, dr, fires[1]), losses[1])
        if not any(c > 0 and not r for c, r in zip(dcv, dr, strict=True)):
            return (1.0, 0.0, 0.0, losses[0], losses[1] + (0.0 if assault else aftermath(dcv, dr, acv, ar, fires[0])))
        return None

    @cache
    def round_value(pos: Position) -> Value:
        """The value of a position at the start of a round."""
        done = ended(pos)
        if done is not None:
            return done
        vec, same = within(0, pos, pos)
        if same >= 1.0 - 1e-12:  # no firing can change anything (not reachable with the rules' dice)
            return (0.0, 0.0, 1.0, total0[0] - sum(pos[0]), total0[1] - sum(pos[1]))
        return (vec[0] / (1 - same), vec[1] / (1 - same), vec[2] / (1 - same), vec[3] / (1 - same),
                vec[4] / (1 - same))

    @cache
    def within(slot: int, pos: Position, first: Position | None) -> tuple[Value, float]:
        """From a firing slot of a round begun at ``first`` (None: a round already under way when asked):
        the value through paths that change something by the round's end, and the chance of a round that
        changed nothing."""
        done = ended(pos)
        if done is not None:
            return done, 0.0
        if slot == len(order):
            if pos == first:
                return (0.0, 0.0, 0.0, 0.0, 0.0), 1.0
            return round_value(pos), 0.0
        acv, dcv, ar, dr, carry = pos
        side, i = order[slot]
        cvs, rts = (acv, ar) if side == 0 else (dcv, dr)
        if cvs[i] <= 0 or rts[i]:
            return within(slot + 1, pos, first)
        power = (a if side == 0 else d)[i][1]
        acc = [0.0] * 5
        same = 0.0
        for h, k, p in _outcomes(cvs[i], power):
            if side == 0:  # the attacker fires at the defender
                tc, tr = list(dcv), list(dr)
                nc = _apply(tc, tr, fires[1], h, k, double, carry, not assault)
                res, q = within(slot + 1, (acv, tuple(tc), ar, tuple(tr), nc), first)
            else:
                tc, tr = list(acv), list(ar)
                _apply(tc, tr, fires[0], h, k, False, 0, True)
                res, q = within(slot + 1, (tuple(tc), dcv, tuple(tr), dr, carry), first)
            for j in range(5):
                acc[j] += p * res[j]
            same += p * q
        return (acc[0], acc[1], acc[2], acc[3], acc[4]), same

    pos0: Position = (tuple(f[2] for f in a), tuple(f[2] for f in d), tuple(f[3] for f in a),
                      tuple(f[3] for f in d), carry)
    r = round_value(pos0) if slot == 0 else within(slot, pos0, None)[0]
    return BattleOdds(*r)


def _pursuit_hits(shooters: tuple[tuple[int, int], ...]) -> tuple[float, ...]:
    """The distribution of the hits of a Pursuit volley: each (CV, firepower) rolls CV dice hitting on ≤ firepower."""
    dist = [1.0]
    for cv, power in shooters:
        p = power / 6
        one = [comb(cv, h) * p ** h * (1 - p) ** (cv - h) for h in range(cv + 1)]
        out = [0.0] * (len(dist) + cv)
        for i, x in enumerate(dist):
            for h, y in enumerate(one):
                out[i + h] += x * y
        dist = out
    return tuple(dist)


@cache
def _aftermath(routed: tuple[int, ...], shooters: tuple[tuple[int, int], ...]) -> float:
    """Expected CV the loser still loses after the Combat Rounds (6.3.4, 6.4.1): the Pursuit's hits on its routed
    blocks (to the strongest first), then Retreat Attrition, 1 CV on each routed survivor with the DESIGN chance."""
    attrition = design()["retreat_attrition_max"] / 6
    total = 0.0
    for hits, p in enumerate(_pursuit_hits(shooters)):
        if p == 0:
            continue
        cvs = sorted(routed)
        for _ in range(hits):
            if not cvs:
                break
            cvs[-1] -= 1
            if cvs[-1] == 0:
                cvs.pop()
            cvs.sort()
        total += p * (sum(routed) - sum(cvs) + attrition * len(cvs))
    return total


def aftermath(cvs: tuple[int, ...], routed: tuple[bool, ...], win_cvs: tuple[int, ...], win_routed: tuple[bool, ...],
              win_fires: tuple[int, ...]) -> float:
    """Expected CV a losing side (``cvs``, ``routed``) loses after the battle's rounds: a side left with routed
    blocks Panicked, so the winner's standing blocks pursue; the routed then retreat with Retreat Attrition.
    (With no winner given: the routed blocks' Retreat Attrition only.) A block with nowhere to
    retreat is eliminated by the rules; the map decides that, so it is not counted here."""
    left = tuple(sorted(c for c, r in zip(cvs, routed, strict=True) if c > 0 and r))
    if not left:
        return 0.0
    shooters = tuple(sorted((c, f) for c, r, f in zip(win_cvs, win_routed, win_fires, strict=True) if c > 0 and not r))
    return _aftermath(left, shooters)


def monte_carlo(att: list[Fighter], dfn: list[Fighter], assault: bool = False, double: bool = False,
                trials: int = 20000, seed: int = 0) -> BattleOdds:
    """A Monte Carlo estimate of :func:`battle_odds` by playing the battle with real dice ``trials`` times."""
    limit = MC_ROUNDS
    rng = random.Random(seed)
    a, d = tuple(att), tuple(dfn)
    order = _order(a, d)
    fires = (tuple(f[1] for f in a), tuple(f[1] for f in d))
    wins = losses = draws = 0
    lost = [0, 0]
    for _ in range(trials):
        cv = [[f[2] for f in a], [f[2] for f in d]]
        rt = [[f[3] for f in a], [f[3] for f in d]]
        carry = 0
        result = None
        for _round in range(limit):
            for side, i in order:
                if not any(c > 0 and not r for c, r in zip(cv[0], rt[0], strict=True)):
                    result = "d"
                    break
                if not any(c > 0 and not r for c, r in zip(cv[1], rt[1], strict=True)):
                    result = "a"
                    break
                if cv[side][i] <= 0 or rt[side][i]:
                    continue
                power = (a if side == 0 else d)[i][1]
                hits = routs = 0
                for _die in range(cv[side][i]):
                    x = rng.randint(1, 6)
                    if x <= power:
                        hits += 1
                    elif x >= 7 - power:
                        routs += 1
                enemy = 1 - side
                if enemy == 1:
                    carry = _apply(cv[1], rt[1], fires[1], hits, routs, double, carry, not assault)
                else:
                    _apply(cv[0], rt[0], fires[0], hits, routs, False, 0, True)
            if result:
                break
            if not any(c > 0 and not r for c, r in zip(cv[0], rt[0], strict=True)):
                result = "d"
            elif not any(c > 0 and not r for c, r in zip(cv[1], rt[1], strict=True)):
                result = "a"
            if result:
                break
        loser = {"a": None if assault else 1, "d": 0}.get(result or "", 0)
        if loser is not None:
            _after_battle(rng, cv, rt, fires, loser, pursuit=result is not None)
        if result == "a":
            wins += 1
        elif result == "d":
            losses += 1
        else:
            draws += 1
        lost[0] += sum(f[2] for f in a) - sum(cv[0])
        lost[1] += sum(f[2] for f in d) - sum(cv[1])
    n = float(trials)
    return BattleOdds(wins / n, losses / n, draws / n, lost[0] / n, lost[1] / n, exact=False)


def _after_battle(rng: random.Random, cv: list[list[int]], rt: list[list[bool]], fires: tuple[tuple[int, ...], ...],
                  loser: int, pursuit: bool) -> None:
    """Pursuit (the winner's standing blocks fire once, hits only, at the routed loser) and Retreat Attrition,
    with dice, as :func:`aftermath` counts them."""
    routed = [i for i, c in enumerate(cv[loser]) if c > 0 and rt[loser][i]]
    if not routed:
        return
    if pursuit:
        win = 1 - loser
        for i, c in enumerate(cv[win]):
            if c <= 0 or rt[win][i]:
                continue
            for _die in range(c):
                alive = [j for j in routed if cv[loser][j] > 0]
                if alive and rng.randint(1, 6) <= fires[win][i]:
                    cv[loser][max(alive, key=lambda j: cv[loser][j])] -= 1
    limit = design()["retreat_attrition_max"]
    for j in routed:
        if cv[loser][j] > 0 and rng.randint(1, 6) <= limit:
            cv[loser][j] -= 1


def _fighter(s: Any, f: dict[str, Any], bid: str) -> Fighter:
    d = blocks()[bid]
    if d.kind == "fleet" and not game_map().is_sea(f["area"]):
        land = design()["fleet_on_land"]
        return (str(land["letter"]), int(land["fire"]), int(s.units[bid].cv), False)
    return (d.letter, d.fire, int(s.units[bid].cv), False)
