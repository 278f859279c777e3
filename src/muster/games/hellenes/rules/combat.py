"""6.0–6.3.3 Combat: battles fought in Combat Rounds; blocks fire in letter order (A, B, C, then fleets' E
and F; the defender first within a letter); each die hits on ≤ firepower and routs on ≥ 7 − firepower;
hits go to the strongest enemy block, routs to the weakest; routed blocks neither fire nor take hits."""

from __future__ import annotations

from typing import Any

from muster.core.interface import Action
from muster.games.hellenes.datafiles import blocks, design
from muster.games.hellenes.engine import Decision, frame, known, push, said, unit
from muster.games.hellenes.odds import Fighter, SideOdds, battle_odds
from muster.games.hellenes.rules.common import FLEETS, SEAS, lose_step, other, roll
from muster.games.hellenes.state import Frame, State
from muster.i18n import entry

MILITIA = 0
"""The token standing for a City's Militia in an Assault."""


def battle_frame(s: State, area: str, att_side: str, att: list[str], dfn: list[str], assault: bool = False,
                 double: bool = False, militia: int = 0, sortie: bool = False) -> Frame:
    """A new battle between blocks (ids) in an area; the Militia (CV) joins the defence of an Assault;
    ``sortie``: the attackers come out of their besieged City (8.3)."""
    tokens_d = [s.units[b].token for b in dfn] + ([MILITIA] if militia > 0 else [])
    return frame("battle", area=area, att_side=att_side, att=[s.units[b].token for b in att], dfn=tokens_d,
                 assault=assault, double=double, militia=militia, routed=[], round=0, order=[], slot=0, asked=[],
                 carry=0, leave=None, started=False, pending=None, sortie=sortie)


def stats(s: State, f: Frame, token: int) -> tuple[str, int, int]:
    """(letter, firepower, CV) of a participant; fleets fight as C1 on land; the Militia is C1."""
    if token == MILITIA:
        m = design()["militia"]
        return str(m["letter"]), int(m["fire"]), int(f["militia"])
    bid = s.tok[token]
    d = blocks()[bid]
    if bid in FLEETS and f["area"] not in SEAS:
        land = design()["fleet_on_land"]
        return str(land["letter"]), int(land["fire"]), s.units[bid].cv
    return d.letter, d.fire, s.units[bid].cv


def alive(s: State, f: Frame, side_key: str) -> list[int]:
    """Participants of one side (``att`` or ``dfn``) still in the battle (routed or not)."""
    tokens = f["att"] if side_key == "att" else f["dfn"]
    return [t for t in tokens if (t == MILITIA and f["militia"] > 0) or (t != MILITIA and t in s.tok)]


def standing(s: State, f: Frame, side_key: str) -> list[int]:
    """Unrouted participants of one side."""
    return [t for t in alive(s, f, side_key) if t not in f["routed"]]


def firing_order(s: State, f: Frame) -> list[list[Any]]:
    """6.2: every unrouted block fires once a round: by letter, the defender first on a tie."""
    rank = {x: i for i, x in enumerate(design()["firing_order"])}
    entries = []
    for key, tie in (("dfn", 0), ("att", 1)):
        for t in standing(s, f, key):
            entries.append((rank[stats(s, f, t)[0]], tie, t, key))
    return [[key, t] for _, _, t, key in sorted(entries)]


def strongest(s: State, f: Frame, tokens: list[int]) -> int:
    """6.3.2: the enemy block with the highest CV takes the hit (ties: the lower firepower, then the token)."""
    return max(tokens, key=lambda t: (stats(s, f, t)[2], -stats(s, f, t)[1], -t))


def weakest(s: State, f: Frame, tokens: list[int]) -> int:
    """6.3.3: the enemy block with the lowest CV is routed (ties: the lower firepower, then the token)."""
    return min(tokens, key=lambda t: (stats(s, f, t)[2], stats(s, f, t)[1], t))


def take_hit(s: State, f: Frame, token: int) -> None:
    """Remove 1 CV (6.3.2); the Militia's CV lives in the frame."""
    if token == MILITIA:
        f["militia"] -= 1
    else:
        lose_step(s, s.tok[token])


def fire(s: State, f: Frame, key: str, token: int, ask: bool = True) -> tuple[int, int]:
    """6.3.1: a block rolls its CV in dice; hits first, then routs (6.3.2/6.3.3). Returns (hits, routs) rolled.

    The results wait in ``f["pending"]`` until they are applied; with ``ask`` the owner chooses among
    equally strong (hits) or equally weak (routs) blocks, so the battle may pause for that decision."""
    _, power, cv = stats(s, f, token)
    hits = routs = 0
    faces: list[int] = []
    for _ in range(cv):
        die = roll(s)
        faces.append(die)
        if die <= power:
            hits += 1
        elif die >= 7 - power:
            routs += 1
    enemy = "dfn" if key == "att" else "att"
    # 6.3.3: defenders inside a City cannot be routed; Pursuit (6.3.4) counts hits only
    no_routs = bool(f.get("pursuit") or (f["assault"] and enemy == "dfn"))
    kept_routs = 0 if no_routs else routs
    say_fire(s, f, token, faces, power, hits, None if no_routs else kept_routs)
    f["pending"] = {"key": enemy, "hits": hits, "routs": kept_routs, "ready": False}
    allocate(s, f, ask)
    return hits, routs


def say_fire(s: State, f: Frame, token: int, faces: list[int], power: int, hits: int, routs: int | None) -> None:
    """Log one firing with its dice faces as typed arguments, so that a front end can draw the dice and mark each
    one, and a reader sees the roll behind every hit: ``rolled`` the faces in the order rolled, ``hit`` the
    highest face that hits (the firepower), ``rout`` the lowest face that routs (0 where routs do not count: a
    Pursuit, or firing at the defenders of an Assault); ``routs`` None in that case."""
    if s.quiet:
        return  # the log is skipped in quiet simulations: not even the arguments are built
    rolled: dict[str, Any] = {"rolled": faces, "hit": power, "rout": 0 if routs is None else 7 - power,
                              "hits": entry("{n} hit", "{n} hits", n=hits)}
    # one literal message per case, so that the catalog finds each
    if token == MILITIA and routs is None:
        s.say("The Militia of {city} fires: rolls {rolled}: {hits}.", city=f["area"], **rolled)
    elif token == MILITIA:
        s.say("The Militia of {city} fires: rolls {rolled}: {hits}, {routs}.", city=f["area"], **rolled,
              routs=entry("{n} rout", "{n} routs", n=routs))
    elif routs is None:
        s.say("{block} fires: rolls {rolled}: {hits}.", block=s.tok[token], **rolled)
    else:
        s.say("{block} fires: rolls {rolled}: {hits}, {routs}.", block=s.tok[token], **rolled,
              routs=entry("{n} rout", "{n} routs", n=routs))


def hit_candidates(s: State, f: Frame) -> list[int]:
    """6.3.2: the standing enemy blocks with the highest CV (the owner chooses among them)."""
    targets = standing(s, f, known(f["pending"])["key"])
    if not targets:
        return []
    cvs = [stats(s, f, t)[2] for t in targets]
    top = max(cvs)
    return [t for t, cv in zip(targets, cvs, strict=True) if cv == top]


def rout_candidates(s: State, f: Frame) -> list[int]:
    """6.3.3: the standing enemy blocks with the lowest CV (the owner chooses among them)."""
    targets = standing(s, f, known(f["pending"])["key"])
    if not targets:
        return []
    cvs = [stats(s, f, t)[2] for t in targets]
    low = min(cvs)
    return [t for t, cv in zip(targets, cvs, strict=True) if cv == low]


def allocate(s: State, f: Frame, ask: bool) -> bool:
    """Apply the pending hits, then routs, of one firing. Returns False when the owner must choose among
    equal blocks first (an ``allocate`` decision is then pushed above the battle, which has left the stack)."""
    p = f.get("pending")
    while p:
        if p["hits"] > 0:
            cands = hit_candidates(s, f)
            if not cands:
                p["hits"] = 0
                continue
            if f["double"] and p["key"] == "dfn" and not p["ready"]:
                f["carry"] += 1  # 8.1.1 Double Defense: two hits remove one CV
                if f["carry"] < 2:
                    p["hits"] -= 1
                    continue
                f["carry"], p["ready"] = 0, True
            if len(cands) > 1 and ask:
                push(s, frame("allocate", seat=owner(f, p["key"]), verb="hit"), f)
                return False
            apply_hit(s, f, strongest(s, f, cands))
            continue
        if p["routs"] > 0:
            cands = rout_candidates(s, f)
            if not cands:
                p["routs"] = 0
                continue
            if len(cands) > 1 and ask:
                push(s, frame("allocate", seat=owner(f, p["key"]), verb="rout"), f)
                return False
            apply_rout(f, weakest(s, f, cands))
            continue
        f["pending"] = p = None
    return True


def apply_hit(s: State, f: Frame, token: int) -> None:
    """One pending hit lands on ``token``."""
    take_hit(s, f, token)
    p = known(f["pending"])
    p["hits"] -= 1
    p["ready"] = False


def apply_rout(f: Frame, token: int) -> None:
    """One pending rout lands on ``token``."""
    f["routed"].append(token)
    known(f["pending"])["routs"] -= 1


def owner(f: Frame, key: str) -> str:
    """The side of one side of a battle (``att`` or ``dfn``)."""
    return str(f["att_side"]) if key == "att" else other(f["att_side"])


def token_arg(s: State, token: int) -> str:
    """How an action names a participant: its block id, or ``militia``."""
    return "militia" if token == MILITIA else s.tok[token]


class Allocate(Decision):
    """6.3.2/6.3.3: the owner chooses which of several equally strong blocks takes a hit, or which of several
    equally weak blocks is routed. Offered only when there is such a tie."""

    kind = "allocate"

    def _candidates(self, s: State, f: Frame) -> list[int]:
        battle_f = s.stack[-2]
        return hit_candidates(s, battle_f) if f["verb"] == "hit" else rout_candidates(s, battle_f)

    def prompt(self, s: State, f: Frame) -> str:
        battle_f = s.stack[-2]
        p = known(battle_f["pending"])
        if f["verb"] == "hit":
            return said("{side.name}: a hit in {area} ({n} to take): which of your equally strong blocks loses 1 CV?",
                        side=f["seat"], area=battle_f["area"], n=p["hits"])
        return said("{side.name}: a rout in {area} ({n} to take): which of your equally weak blocks is routed?",
                    side=f["seat"], area=battle_f["area"], n=p["routs"])

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [Action(f["verb"], token_arg(s, t)) for t in self._candidates(s, f)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        battle_f = s.stack[-1]
        token = MILITIA if a.arg == "militia" else s.units[str(a.arg)].token
        if f["verb"] == "hit":
            apply_hit(s, battle_f, token)
        else:
            apply_rout(battle_f, token)

    def label(self, s: State, f: Frame, a: Action) -> str:
        hit = f["verb"] == "hit"
        if a.arg == "militia":
            return said("the Militia loses 1 CV") if hit else said("the Militia is routed")
        bid = str(a.arg)
        return said("{unit} loses 1 CV", unit=unit(s, bid)) if hit else said("{unit} is routed", unit=unit(s, bid))


def describe(s: State, f: Frame, key: str) -> str:
    """The revealed blocks of one side, in words."""
    parts = []
    for t in alive(s, f, key):
        if t == MILITIA:
            parts.append(f"Militia C1 ({f['militia']})")
        else:
            d = blocks()[s.tok[t]]
            parts.append(f"{d.name} {d.letter}{d.fire} ({s.units[s.tok[t]].cv})")
    return ", ".join(parts) or "nothing"


def describe_entries(s: State, f: Frame, key: str) -> list[dict[str, Any]]:
    """The revealed blocks of one side, as log entries (rendered in each reader's language)."""
    out = []
    for t in alive(s, f, key):
        if t == MILITIA:
            out.append(entry("Militia C1 ({cv})", cv=f["militia"]))
        else:
            bid = s.tok[t]
            d = blocks()[bid]
            out.append(entry("{block} {letter}{fire} ({cv})", block=bid, letter=d.letter, fire=d.fire,
                             cv=s.units[bid].cv))
    return out


def reveal(s: State, f: Frame) -> None:
    """6.1: every block in the battle is tipped forward: the enemy now knows it and its CV."""
    for key in ("att", "dfn"):
        for t in alive(s, f, key):
            if t != MILITIA:
                u = s.units[s.tok[t]]
                u.known, u.seen = True, u.cv


def can_retreat(f: Frame, key: str) -> bool:
    """6.2: a side may Retreat instead of firing its first block of a round (besieged defenders cannot)."""
    return not (f["assault"] and key == "dfn")


class BattleRetreat(Decision):
    """6.2: at a side's first firing of each round: fight on, or Retreat with every block (6.4)."""

    kind = "battle_retreat"

    def prompt(self, s: State, f: Frame) -> str:
        battle_f = s.stack[-2]
        p = odds_for_frame(s, battle_f, f["key"])
        what = entry("call off the Assault") if battle_f["assault"] else entry("Retreat")
        # percentages and losses as the English words rounded them (the same figures in every language)
        return said("{side.name}: round {round} in {area}: fight on or {what}? (fighting on: win {win}%, lose "
                    "{lose}%; expected losses {mine} vs {theirs} CV)", side=f["seat"], round=battle_f["round"],
                    area=battle_f["area"], what=what, win=int(f"{p.win * 100:.0f}"), lose=int(f"{p.lose * 100:.0f}"),
                    mine=f"{p.my_loss:.1f}", theirs=f"{p.enemy_loss:.1f}")

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [Action("fight"), Action("retreat")]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == "retreat":
            s.stack[-1]["leave"] = f["seat"]

    def label(self, s: State, f: Frame, a: Action) -> str:
        return said("fight on") if a.verb == "fight" else said("retreat from the battle")


def fighters_of(s: State, f: Frame, key: str) -> list[Fighter]:
    """The Fighters of one side of a live battle frame, in token order."""
    return [(*stats(s, f, t), t in f["routed"]) for t in sorted(alive(s, f, key))]


def odds_for_frame(s: State, f: Frame, key: str) -> SideOdds:
    """The odds of fighting on in a live battle, for the side ``key`` (``att`` or ``dfn``)."""
    att, dfn = fighters_of(s, f, "att"), fighters_of(s, f, "dfn")
    start = None
    if f["slot"] < len(f["order"]):
        k, token = f["order"][f["slot"]]
        tokens = sorted(t for t in f["att" if k == "att" else "dfn"] if t in [x for x in alive(s, f, k)])
        if token in tokens:
            start = (0 if k == "att" else 1, tokens.index(token))
    r = battle_odds(att, dfn, f["assault"], f["double"], start=start, carry=f["carry"])
    if key == "att":
        return SideOdds(r.att_win, r.def_win, r.draw, r.att_loss, r.def_loss)
    return SideOdds(r.def_win, r.att_win, r.draw, r.def_loss, r.att_loss)
