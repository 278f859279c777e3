"""The Hellenes heuristic bot: a sensible player's judgement, read from its own view only.

At each decision it rebuilds a full state from its view with ``determinize`` (enemy blocks it has not
seen drawn to fit what is public) and scores the choices with a Hellenes evaluation: Prestige first
(battles, captures, Pillage, the Oracle), then the battle odds of every engagement (the exact calculator of
:mod:`muster.games.hellenes.odds`), the value of besieging and taking enemy Cities, closeness to them,
and safety in Winter (blocks outside friendly Cities disband unless supplied). It fights on while its odds
are good, retreats when they are not, fortifies when the field is hopeless, and assaults a Siege it can win.
"""

from __future__ import annotations

import math
import random
from collections import deque
from functools import cache, lru_cache

from muster.core import JSON, Action, Rules
from muster.core.bots import BotSpecError
from muster.games.hellenes.datafiles import blocks, cards, design, game_map
from muster.games.hellenes.learned import LearnedValue, WeightsMismatchError, shipped
from muster.games.hellenes.odds import Fighter, battle_odds
from muster.games.hellenes.rules.common import (
    defenders_inside,
    enemy_field,
    field,
    in_friendly_place,
    inside,
    other,
)
from muster.games.hellenes.rules.events import event_playable, targets
from muster.games.hellenes.rules.movement import destinations
from muster.games.hellenes.state import State

PRESTIGE = 12.0
"""What one point of Prestige is worth in the evaluation's units (about one CV of a good block is 1)."""


@lru_cache(maxsize=20000)
def _odds(att: tuple[Fighter, ...], dfn: tuple[Fighter, ...], assault: bool) -> tuple[float, float, float, float]:
    r = battle_odds(list(att), list(dfn), assault, assault)
    return r.att_win, r.def_win, r.att_loss, r.def_loss


def fighter(s: State, bid: str, area: str) -> Fighter:
    """A block as the calculator sees it in an area (fleets are C1 on land)."""
    d = blocks()[bid]
    if d.kind == "fleet" and not game_map().is_sea(area):
        return ("C", 1, s.units[bid].cv, False)
    return (d.letter, d.fire, s.units[bid].cv, False)


AGILITY = {"A": 1.4, "B": 1.2, "C": 1.0, "E": 1.1, "F": 1.0}


def quick_odds(att: list[Fighter], dfn: list[Fighter], assault: bool) -> tuple[float, float, float, float]:
    """A fast estimate of (win, lose, attacker's loss, defender's loss) for planning many moves: a square law on
    firepower × steps (agility and the defender's first shot weigh in). The exact calculator is used for small
    battles and for the decisions taken inside a battle."""
    if len(att) + len(dfn) <= 3 and sum(f[2] for f in att + dfn) <= 8:
        return _odds(tuple(sorted(att)), tuple(sorted(dfn)), assault)
    def force(side: list[Fighter], toughness: float) -> tuple[float, float]:
        power = sum(f[2] * f[1] * AGILITY[f[0]] for f in side if not f[3])
        steps = sum(f[2] for f in side) * toughness
        return power, steps
    pa, ta = force(att, 1.0)
    pd, td = force(dfn, 2.0 if assault else 1.0)
    sa, sd = pa * ta, pd * td * 1.15
    win = sa * sa / (sa * sa + sd * sd) if sa + sd > 0 else 0.0
    return win, 1 - win, ta * (0.2 + 0.5 * (1 - win)), td * (0.2 + 0.5 * win) / (2.0 if assault else 1.0)


def battle_value(att: list[Fighter], dfn: list[Fighter], assault: bool = False) -> tuple[float, float]:
    """(attacker's win chance, the attacker's expected gain in evaluation units)."""
    if not att or not dfn:
        return (1.0 if att else 0.0), 0.0
    win, lose, a_loss, d_loss = quick_odds(att, dfn, assault)
    return win, PRESTIGE * (win - lose) + 0.8 * (d_loss - a_loss)


@cache
def _land_distances() -> dict[str, dict[str, int]]:
    g = game_map()
    out: dict[str, dict[str, int]] = {}
    for start in g.land:
        dist = {start: 0}
        todo = deque([start])
        while todo:
            a = todo.popleft()
            for n in g.land_adj[a]:
                if n not in dist and n not in g.neutral:
                    dist[n] = dist[a] + 1
                    todo.append(n)
        out[start] = dist
    return out


END_VALUE = 0.2
"""An Action worth no more than this is not spent: the heuristic ends its Action phase instead."""

SORTIE_MIN_WIN = 0.6
"""The heuristic Sorties (8.3) only with a better win chance than this (a bot's judgement, not a rule)."""


class HellenesHeuristicBot:
    """A rule-based player for Hellenes. Options: ``aggression`` (how much a siege or a threat to an enemy
    City is worth, default 1.0)."""

    def __init__(self, rules: Rules, seed: int = 0, options: dict[str, str] | None = None) -> None:
        opts = dict(options or {})
        try:
            self.aggression = float(opts.pop("aggression", "1.0"))
        except ValueError as exc:
            raise BotSpecError(f"bad aggression: {exc}") from exc
        if opts or not 0 <= self.aggression <= 5:
            raise BotSpecError(f"unknown or bad options for the Hellenes heuristic: {sorted(opts) or 'aggression'}")
        self.rules = rules
        self.name = "heuristic"
        self._rng = random.Random(seed)

    # --- the entry point ----------------------------------------------------------------------
    def choose(self, view: dict[str, JSON], legal: list[Action], seat: str) -> Action:
        """The best legal action by the Hellenes evaluation."""
        if len(legal) == 1:
            return legal[0]
        s: State = self.rules.determinize(view, seat, self._rng.getrandbits(32))
        return self.choose_in(s, legal, seat)

    def choose_in(self, s: State, legal: list[Action], seat: str) -> Action:
        """The same choice in a full state (a determinization: the search's playouts call this)."""
        kind = s.stack[-1]["kind"] if s.stack else ""
        handler = getattr(self, f"_{kind}", None)
        choice = handler(s, seat, legal) if handler else None
        return choice if choice in legal else self._rng.choice(legal)

    # --- cards --------------------------------------------------------------------------------
    def _event_value(self, s: State, card: int, seat: str) -> float:
        c = cards()[card]
        enemy = other(seat)
        e = c.event
        if e == "oracle":
            return PRESTIGE
        if e in ("revolt", "civil_war", "treachery"):
            options = targets(s, e, seat)
            return (PRESTIGE + 6 if e == "revolt" else 9) if options else -1
        if e == "levy":
            return 8
        if e == "brasidas":
            return 3 + max(0, 4 - s.season) * 1.5
        if e == "odrysian":
            return 6
        if e == "plague":
            return 2.0 * sum(1 for b, u in s.units.items() if u.area == "attica" and blocks()[b].side == enemy)
        if e == "helot":
            return 1.2 * sum(1 for b, u in s.units.items()
                             if u.area in ("laconia", "messenia") and blocks()[b].side == enemy)
        if e == "storm":
            return 3.0 * sum(1 for b, u in s.units.items() if u.area in game_map().seas
                             and blocks()[b].side == enemy and blocks()[b].kind == "fleet")
        return 0.0

    def _season_value(self, s: State, card: int, seat: str) -> float:
        """A card's worth in a Season: its Actions, or its Event when that is better."""
        act = cards()[card].actions * 4.5
        if event_playable(s, card, seat):
            return max(act, self._event_value(s, card, seat))
        return act

    def _card_choice(self, s: State, seat: str, legal: list[Action], new_year: bool) -> Action:
        f = s.stack[-1]
        if f["card"] is None:
            def worth(a: Action) -> float:
                n = int(a.arg)  # type: ignore[arg-type]
                if not new_year:
                    return self._season_value(s, n, seat)
                # the New-Year card is lost for the Seasons: play a good Event, or give up the weakest card
                ev = self._event_value(s, n, seat) if event_playable(s, n, seat) else 0.0
                return max(ev, 0.0) - self._season_value(s, n, seat)
            return max(legal, key=worth)
        n = int(f["card"])
        ev = Action("as", "event")
        if ev in legal:
            value = self._event_value(s, n, seat)
            if new_year:
                return ev if value > 0 else Action("as", "sacrifice")
            return ev if value > cards()[n].actions * 4.5 else Action("as", "actions")
        return legal[0]

    def _ny_card(self, s: State, seat: str, legal: list[Action]) -> Action:
        return self._card_choice(s, seat, legal, True)

    def _commit(self, s: State, seat: str, legal: list[Action]) -> Action:
        return self._card_choice(s, seat, legal, False)

    # --- positions ----------------------------------------------------------------------------
    def place_value(self, s: State, seat: str, bid: str, area: str, moving: bool) -> float:
        """How good it is for a block to stand (or, ``moving``, to arrive) in an area."""
        g, d = game_map(), blocks()[bid]
        enemy = other(seat)
        u = s.units[bid]
        cv = u.cv
        value = 0.0
        winterish = s.season >= 3
        if moving and (enemy_field(s, area, seat) if not g.is_sea(area) else any(
                blocks()[b].kind == "fleet" for b in field(s, area, enemy))):
            mine = [fighter(s, b, area) for b in field(s, area, seat) if b != bid] + [fighter(s, bid, area)]
            theirs = [fighter(s, b, area) for b in field(s, area, enemy)]
            win, gain = battle_value(mine, theirs)
            value += gain
            if s.control.get(area) == enemy:
                value += 4 * win * self.aggression
            return value - (cv if winterish and not self._friendly_after(s, seat, area) else 0)
        holder = s.control.get(area)
        if holder == enemy and d.greek:
            besiegers = [b for b in field(s, area, seat) if b != bid]
            inside_blocks, militia = defenders_inside(s, area)
            undefended = not inside_blocks and militia <= 0
            worth = 4.0 + (6.0 if area in design()["capitals"].values() else 0.0)
            if undefended:
                value += 10 * self.aggression
            elif len(besiegers) < 2:
                value += worth * self.aggression
            else:
                value += 0.5
        if holder == seat and area == design()["capitals"][seat]:
            threat = sum(1 for n in g.land_adj[area] for b in field(s, n, enemy))
            value += min(6.0, 1.5 * threat)
        if winterish:
            value += cv * (1.0 if self._friendly_after(s, seat, area) or (not d.greek and area == d.home) else -1.5)
        if not g.is_sea(area) and d.kind != "fleet":
            near = _land_distances()[area]
            goals = [a for a, h in s.control.items() if h == enemy and a in near]
            if goals:
                value -= 0.4 * min(near[a] for a in goals) * self.aggression
        if d.kind == "fleet" and g.is_sea(area):
            # blockading an enemy Port we besiege, or guarding our own
            for a, siege in s.sieges.items():
                if g.cities[a].offshore == area:
                    value += 2.0 if siege["by"] == seat else 1.0
            if winterish:
                value -= 2.0
        return value

    def _friendly_after(self, s: State, seat: str, area: str) -> bool:
        return s.control.get(area) == seat

    def move_options(self, s: State, seat: str, bid: str) -> list[tuple[float, Action]]:
        """Every move of a block with its gain over staying."""
        here = str(s.units[bid].area)
        stay = self.place_value(s, seat, bid, here, moving=False)
        out = [(0.0, Action("stay"))]
        for dest, route in destinations(s, bid).items():
            gain = self.place_value(s, seat, bid, dest, moving=True) - stay
            if route[1]:
                gain = gain * (0.66 if blocks()[bid].elite else 0.33) - 0.5
            if route[2]:
                gain -= 1.5 * len(route[2]) * (0.5 if s.season in (0, 4) else 0.3)
            out.append((gain, Action("forced" if route[1] else "to", dest)))
        return out

    # --- the Action phase ---------------------------------------------------------------------
    def _actions(self, s: State, seat: str, legal: list[Action]) -> Action:
        scored: list[tuple[float, Action]] = []
        for a in legal:
            scored.append((self.action_value(s, seat, a), a))
        best = max(scored, key=lambda x: x[0])
        return best[1] if best[0] > END_VALUE else Action("end")

    def action_value(self, s: State, seat: str, a: Action) -> float:
        """What one Action spent this way is worth."""
        if a.verb == "pillage":
            return PRESTIGE * 1.5
        if a.verb == "move":
            gains = []
            for b, u in s.units.items():
                if (u.area == a.arg and blocks()[b].side == seat and u.carrier is None
                        and u.token not in s.moved):
                    gains.append(max(g for g, _ in self.move_options(s, seat, b)))
            return sum(x for x in gains if x > 0)
        if a.verb == "build":
            u = s.units[str(a.arg)]
            return 3.5 - 0.3 * u.cv + (1.0 if u.area == design()["capitals"][seat] else 0.0)
        if a.verb == "recruit":
            return 3.0
        if a.verb == "garrison":
            return 2.5
        if a.verb == "supply":
            return 1.5 * s.units[str(a.arg)].cv
        if a.verb == "muster":
            if s.season < 3:
                return 0.0
            return 0.8 * sum(s.units[b].cv for b in self._muster_blocks(s, seat, str(a.arg)))
        return 0.0

    def _muster_blocks(self, s: State, seat: str, city: str) -> list[str]:
        from muster.games.hellenes.rules.movement import muster_candidates

        return [b for b in muster_candidates(s, seat, city) if not in_friendly_place(s, b)]

    def _group(self, s: State, seat: str, legal: list[Action]) -> Action:
        f = s.stack[-1]
        if f["cur"] is None:
            best, pick = 0.3, Action("done")
            for a in legal:
                if a.verb == "block":
                    gain = max(g for g, _ in self.move_options(s, seat, str(a.arg)))
                    if gain > best:
                        best, pick = gain, a
            return pick
        bid = s.tok[f["cur"]]
        options = self.move_options(s, seat, bid)
        gain, pick = max(options, key=lambda x: x[0])
        return pick

    def _muster(self, s: State, seat: str, legal: list[Action]) -> Action:
        wanted = set(self._muster_blocks(s, seat, s.stack[-1]["city"]))
        for a in legal:
            if a.verb == "block" and a.arg in wanted:
                return a
        return Action("done")

    def _free_move(self, s: State, seat: str, legal: list[Action]) -> Action:
        bid = s.tok[s.stack[-1]["token"]]
        options = [(g, a) for g, a in self.move_options(s, seat, bid) if a in legal]
        return max(options, key=lambda x: x[0])[1] if options else legal[-1]

    def _recruit(self, s: State, seat: str, legal: list[Action]) -> Action:
        def worth(a: Action) -> float:
            if a.verb != "place":
                return -1
            d = blocks()[str(a.arg).split("@")[0]]
            return d.max_cv * d.fire + (3 if not d.greek or d.rebel else 0)
        return max(legal, key=worth)

    def _pillage_to(self, s: State, seat: str, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: (s.control.get(str(a.arg)) == seat, len(field(s, str(a.arg), seat))))

    def _ev_city(self, s: State, seat: str, legal: list[Action]) -> Action:
        g = game_map()
        if s.stack[-1]["event"] == "treachery":
            def assault_chance(a: Action) -> float:
                area = str(a.arg)
                inside_blocks, militia = defenders_inside(s, area)
                dfn = [fighter(s, b, area) for b in inside_blocks] + ([("C", 1, militia, False)] if militia else [])
                return battle_value([fighter(s, b, area) for b in field(s, area, seat)], dfn)[0]
            return max(legal, key=assault_chance)
        return max(legal, key=lambda a: (g.cities[str(a.arg)].value, str(a.arg)))

    # --- battles and sieges -------------------------------------------------------------------
    def _battle_retreat(self, s: State, seat: str, legal: list[Action]) -> Action:
        from muster.games.hellenes.rules.combat import fighters_of

        battle, key = s.stack[-2], s.stack[-1]["key"]
        mine, theirs = fighters_of(s, battle, key), fighters_of(s, battle, "dfn" if key == "att" else "att")
        if key == "att":
            win, lose, my_loss, enemy_loss = quick_odds(mine, theirs, battle["assault"])
        else:
            lose, win, enemy_loss, my_loss = quick_odds(theirs, mine, battle["assault"])
        if win >= lose or (win > 0.3 and my_loss < enemy_loss):
            return Action("fight")
        return Action("retreat")

    def _fortify(self, s: State, seat: str, legal: list[Action]) -> Action:
        area = s.stack[-1]["area"]
        mine = [fighter(s, b, area) for b in field(s, area, seat)]
        theirs = [fighter(s, b, area) for b in field(s, area, other(seat))]
        win, _ = battle_value(theirs, mine)
        if win <= 0.55:
            return Action("fight")
        # a Sortie against the Force it will not meet in the field is no better: none until the Siege changes
        return Action("hold", area) if Action("hold", area) in legal else Action("fortify")

    def _siege_choice(self, s: State, seat: str, legal: list[Action]) -> Action:
        area = s.stack[-1]["area"]
        inside_blocks, militia = defenders_inside(s, area)
        dfn = [fighter(s, b, area) for b in inside_blocks] + ([("C", 1, militia, False)] if militia > 0 else [])
        att = [fighter(s, b, area) for b in field(s, area, seat)]
        if Action("assault", area) in legal and att and dfn:
            win = quick_odds(att, dfn, True)[0]
            if win > 0.55:
                return Action("assault", area)
        if Action("attrition", area) in legal:
            return Action("attrition", area)
        return Action("skip", area)


    # --- rules revision 3: the order of battles and Forces, Sorties ---------------------------------
    def _battle_pick(self, s: State, seat: str, legal: list[Action]) -> Action:
        """Equal battles: the one it is likeliest to win first (a win is Prestige whatever follows)."""
        def chance(a: Action) -> float:
            area = str(a.arg)
            mine = [fighter(s, b, area) for b in field(s, area, seat)]
            theirs = [fighter(s, b, area) for b in field(s, area, other(seat))]
            return battle_value(mine, theirs)[0]

        return max(legal, key=lambda a: (chance(a), str(a.arg)))

    def _force_pick(self, s: State, seat: str, legal: list[Action]) -> Action:
        """Uncoordinated Forces: the one with the best odds fights first; if it wins, the others join it."""
        from muster.games.hellenes.rules.engage import untried_forces

        area_f = s.stack[-2]
        area = area_f["area"]
        theirs = [fighter(s, b, area) for b in field(s, area, other(seat))]
        groups = untried_forces(s, area_f)

        def chance(a: Action) -> tuple[float, int]:
            key = "" if a.arg == area else str(a.arg)
            mine = [fighter(s, b, area) for b in groups.get(key, [])]
            return battle_value(mine, theirs)[0], len(mine)

        return max(legal, key=chance)

    def _sortie(self, s: State, seat: str, legal: list[Action]) -> Action:
        """A Sortie where the blocks inside are likely to beat the besiegers (a failed one only goes back
        inside, with Attrition on its routed blocks); otherwise none until the Siege changes."""
        # declining, it puts each hopeless City off until its Siege changes (the question comes back then)
        holds = [a for a in legal if a.verb == "hold"]
        best, best_win = (holds[0] if holds else Action("stay")), SORTIE_MIN_WIN
        for a in legal:
            if a.verb != "sortie":
                continue
            area = str(a.arg)
            mine = [fighter(s, b, area) for b in inside(s, area, seat)]
            theirs = [fighter(s, b, area) for b in field(s, area, other(seat))]
            win = battle_value(mine, theirs)[0]
            if win > best_win:
                best, best_win = a, win
        return best

    # --- the owner's choices in battles, retreats and Sieges -----------------------------------
    def _allocate(self, s: State, seat: str, legal: list[Action]) -> Action:
        """A hit or a rout among equal blocks: it goes to the least valuable one (the lowest firepower, then
        the lowest maximum CV); a hit spares the Militia while a block can take it."""

        def worth(a: Action) -> tuple[float, int]:
            if a.arg == "militia":
                return (1.5, 0)
            d = blocks()[str(a.arg)]
            return (d.fire + (0.5 if d.elite else 0.0), d.max_cv)

        return min(legal, key=worth)

    def _retreat_to(self, s: State, seat: str, legal: list[Action]) -> Action:
        """The safest destination: a friendly City, friends standing there, few enemies next to it."""
        g = game_map()
        enemy = other(seat)

        def safety(a: Action) -> float:
            area = str(a.arg)
            friends = sum(s.units[b].cv for b in field(s, area, seat))
            adj = g.sea_adj.get(area, ()) if g.is_sea(area) else g.land_adj.get(area, ())
            threat = sum(s.units[b].cv for n in adj for b in field(s, n, enemy))
            city = 4.0 if s.control.get(area) == seat else 0.0
            return city + 0.5 * friends - 0.3 * threat

        return max(legal, key=safety)

    def _fortify_pick(self, s: State, seat: str, legal: list[Action]) -> Action:
        """The strongest blocks go inside (they hold the City longest); the rest retreat."""
        return max(legal, key=lambda a: (s.units[str(a.arg)].cv, blocks()[str(a.arg)].fire))

    def _attrition_loss(self, s: State, seat: str, legal: list[Action]) -> Action:
        """A step from the strongest block, so that no block is eliminated while another can pay."""
        return max(legal, key=lambda a: (s.units[str(a.arg)].cv, -blocks()[str(a.arg)].fire))

    def _forced_take(self, s: State, seat: str, legal: list[Action]) -> Action:
        """The march was planned: make it."""
        return next((a for a in legal if a.verb == "to"), legal[0])


# --- the evaluation and the search's knowledge -------------------------------------------------------
STEP = 0.8
"""What one CV of a block is worth in the evaluation (as the heuristic's battle gains count a step)."""
WIN = 100.0
"""What the game is worth: the evaluation's stake when a capital may fall."""
HELD_CITY = 0.5 * PRESTIGE
"""Holding a City loyal to the enemy: Tribute at each New Year, and a lead toward the Victory Check."""


def evaluate(s: State, seat: str) -> float:
    """How good a (full) state is for ``seat``, in the heuristic's units (a Prestige point is ``PRESTIGE``):
    Prestige; blocks on the map by CV (firepower and agility weigh in) and, in Winter, less for blocks that will
    disband outside a friendly City; enemy-loyal Cities held; each engagement in the field by its odds; and each
    capital's danger, a besieged one by the besiegers' chance to take it by Assault."""
    enemy = other(seat)
    sign = 1 if seat == "sparta" else -1
    v = PRESTIGE * s.prestige * sign
    for side, worth in _worths(s):
        v += worth if side == seat else -worth
    for area, holder in s.control.items():
        if holder in (seat, enemy) and s.loyal.get(area) == other(holder):
            v += HELD_CITY if holder == seat else -HELD_CITY
    v += engagements(s, seat)
    capitals = design()["capitals"]
    for side in (seat, enemy):
        danger = capital_danger(s, side, capitals[side])
        v += -danger * WIN if side == seat else danger * WIN
    return v


def _worths(s: State) -> list[tuple[str, float]]:
    """Each block on the map's side and worth: its CV (firepower and agility weigh in) and, in Winter, less when
    it will disband outside a friendly City."""
    roster = blocks()
    winter = s.season == 4
    supplied = set(s.supplied)
    out: list[tuple[str, float]] = []
    for bid, u in s.units.items():
        if u.area is None:
            continue
        d = roster[bid]
        worth = STEP * u.cv * (0.75 + 0.125 * d.fire * AGILITY[d.letter])
        if winter and u.token not in supplied and not in_friendly_place(s, bid) and u.carrier is None:
            worth *= 0.3
        out.append((d.side, worth))
    return out


def block_worth(s: State) -> dict[str, float]:
    """Side → the worth of its blocks on the map, as :func:`evaluate` counts them."""
    total = {"athens": 0.0, "sparta": 0.0}
    for side, worth in _worths(s):
        total[side] += worth
    return total


def held_cities(s: State, seat: str) -> int:
    """Enemy-loyal Cities ``seat`` holds, less those the enemy holds loyal to ``seat``."""
    held = 0
    for area, holder in s.control.items():
        if holder in ("athens", "sparta") and s.loyal.get(area) == other(holder):
            held += 1 if holder == seat else -1
    return held


def engagements(s: State, seat: str) -> float:
    """Blocks of both sides in the field of one area fight soon: each such area by its expected gain, the side
    whose turn it is counting as the attacker."""
    g = game_map()
    mover = s.active or seat
    total = 0.0
    for area in (*g.land, *g.seas):
        att_ids = field(s, area, mover)
        if not att_ids:
            continue
        dfn_ids = field(s, area, other(mover))
        if not dfn_ids:
            continue
        _, gain = battle_value([fighter(s, b, area) for b in att_ids], [fighter(s, b, area) for b in dfn_ids])
        total += gain if mover == seat else -gain
    return total


def capital_danger(s: State, side: str, capital: str) -> float:
    """The chance (roughly) that ``side`` loses its capital soon: by Assault when it is besieged, a little when
    it stands empty with enemy blocks next door."""
    if s.control.get(capital) != side:
        return 0.0
    enemy = other(side)
    inside_blocks, militia = defenders_inside(s, capital)
    dfn = [fighter(s, b, capital) for b in inside_blocks] + ([("C", 1, militia, False)] if militia > 0 else [])
    besiegers = [fighter(s, b, capital) for b in field(s, capital, enemy)]
    if besiegers:
        return quick_odds(besiegers, dfn, True)[0] if dfn else 1.0
    if inside_blocks:
        return 0.0
    near = [fighter(s, b, n) for n in game_map().land_adj[capital] for b in field(s, n, enemy)]
    if not near:
        return 0.0
    return 0.25 * (quick_odds(near, dfn, True)[0] if dfn else 1.0)


def value_terms(s: State) -> list[float]:
    """The evaluation's terms in ``s`` from Sparta's side, in the order of
    :data:`muster.games.hellenes.learned.BASE_TERMS`: Prestige, Sparta's blocks' worth less Athens', the
    enemy-loyal Cities Sparta holds less those Athens holds, the engagements, and each capital's danger."""
    worth = block_worth(s)
    capitals = design()["capitals"]
    return [float(s.prestige), worth["sparta"] - worth["athens"], float(held_cities(s, "sparta")),
            engagements(s, "sparta"), capital_danger(s, "sparta", capitals["sparta"]),
            capital_danger(s, "athens", capitals["athens"])]


def progress(s: State) -> float:
    """How far the game has gone: 0 at its first Season, 1 after its last."""
    return min(1.0, max(0.0, s.season_index() / (5.0 * s.years)))


def value_inputs(s: State) -> list[float]:
    """The learned value's input vector for ``s`` (:data:`muster.games.hellenes.learned.INPUTS`): a constant, the
    terms, the terms scaled by progress, progress, 1 when Sparta's Season turn it is, and the Prestige track
    squashed alone and by progress."""
    base = value_terms(s)
    p = progress(s)
    squashed = math.tanh(s.prestige / 3.0)
    return [1.0, *base, *(t * p for t in base), p, 1.0 if s.active == "sparta" else 0.0, squashed, squashed * p]


SEARCHED = ("actions", "battle_retreat", "fortify", "siege_choice")
"""The decisions ISMCTS searches by default; the heuristic answers the rest (which block goes where inside a
Group Move, cards, Recruits…)."""
MILESTONES = frozenset({"actions", "commit"})


class HellenesKnowledge:
    """What the game-agnostic search (``ismcts``: the module names this class as its ``search``) knows of
    Hellenes: it searches ``search`` decisions (a ``+``-joined list of decision kinds, default
    ``actions+battle_retreat+fortify+siege_choice``); the heuristic ranks the candidates, plays the playouts for
    both sides, and :func:`evaluate` scores where they stop. A milestone is an Action menu or a card to
    commit."""

    def __init__(self, rules: Rules, seed: int, options: dict[str, str]) -> None:
        kinds = tuple(options.pop("search", "+".join(SEARCHED)).split("+"))
        if not set(kinds) <= set(SEARCHED) | {"commit", "group", "ny_card"}:
            raise BotSpecError(f"ismcts search: decision kinds among {(*SEARCHED, 'commit', 'group', 'ny_card')}")
        self.kinds = frozenset(kinds)
        self.heuristic = HellenesHeuristicBot(rules, seed + 1, {"aggression": options.pop("aggression", "1.0")})
        kind = options.pop("value", "points")
        if kind not in ("points", "learned"):
            raise BotSpecError("ismcts value: points (the hand-written evaluation) or learned")
        self.learned: LearnedValue | None = None
        if kind == "learned":
            try:
                self.learned = shipped()
            except WeightsMismatchError as err:
                raise BotSpecError(str(err)) from err

    def searched(self, state: State) -> bool:
        """True at the decision kinds the search looks ahead at."""
        return bool(state.stack) and state.stack[-1]["kind"] in self.kinds

    def candidates(self, state: State, legal: list[Action], seat: str) -> list[Action]:
        """The heuristic's choice first, then (for the Action menu) the others by the Action's value."""
        first = self.heuristic.choose_in(state, legal, seat)
        rest = [a for a in legal if a != first]
        if state.stack[-1]["kind"] == "actions":
            h = self.heuristic
            values = {a: (END_VALUE if a.verb == "end" else h.action_value(state, seat, a)) for a in rest}
            rest.sort(key=lambda a: -values[a])
        return [first, *rest]

    def policy(self, state: State, legal: list[Action], seat: str) -> Action:
        """The heuristic's choice."""
        return self.heuristic.choose_in(state, legal, seat)

    def milestone(self, state: State) -> bool:
        """An Action menu or a card to commit is on top."""
        return bool(state.stack) and state.stack[-1]["kind"] in MILESTONES

    def value(self, state: State, seat: str) -> float:
        """:func:`evaluate`, or with ``value=learned`` the learned chance that ``seat`` wins (as points the
        search's default ``scale`` reads back as that chance)."""
        if self.learned is not None:
            return self.learned.points(value_inputs(state), seat)
        return evaluate(state, seat)
