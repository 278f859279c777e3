"""The web adapter of Hellenes: map geometry, the block roster, card faces, hints and battle odds.

The battle odds before an engagement are the terminal's (:func:`muster.games.hellenes.estimate.engage_estimate`),
computed from the seat's own view only, so the browser and the terminal offer the same numbers and
neither can leak a hidden block.
"""

from __future__ import annotations

import json
import logging
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from muster.core import Action
from muster.games.hellenes.datafiles import blocks, cards, design, game_map
from muster.games.hellenes.game import HellenesRules
from muster.games.hellenes.odds import SideOdds, _fighter, battle_odds, monte_carlo
from muster.games.hellenes.rules.common import defenders_inside, field, other
from muster.games.hellenes.texts import (
    area_name,
    block_name,
    card_face,
    city_name,
    region_name,
    said_in,
    season_word,
    side_forms,
)
from muster.i18n import N_, check_lang, translator

log = logging.getLogger("muster.server")

SEATS = {"athens": {"name": "Athens", "colour": "blue", "people": N_("the Delian League")},
         "sparta": {"name": "Sparta", "colour": "red", "people": N_("the Peloponnesian League")}}

# How the bot levels play Hellenes (the module's levels; the beginner's sentence is shared), for the lobby's t();
# a test checks they match
LEVEL_WORDS = (
    N_("Weighs the map, the battle odds and Prestige; answers at once."),
    N_("Tries its best few choices against the blocks you might have and the dice, and keeps the one that works "
       "out."),
)

# One line per verb, in our words (the engine's label already names the block or area).
VERB_HINT = {
    "card": N_("Commit this card face down; the side with fewer Actions goes first (an Event counts 0)."),
    "move": N_("Group Move: every block of this area may go, each to its own destination."),
    "muster": N_("Muster: blocks from several areas march to this one."),
    "build": N_("Build: +1 CV to this block (it must be in a friendly City or at home)."),
    "recruit": N_("Recruit: draw 3 blocks from your pool, place 1 of them."),
    "garrison": N_("Leave a garrison in the City here."),
    "pillage": N_("Pillage: the enemy area loses Prestige value for its owner."),
    "assault": N_("Storm the walls: the defenders fire with Double Defense."),
    "skip": N_("Keep the Siege going without assaulting."),
    "end": N_("End your Action phase; unused Actions are lost."),
    "stay": N_("This block stays where it is."),
    "done": N_("Done choosing blocks."),
    "fortify": N_("Withdraw into the City: a Siege begins and no battle is fought now."),
    "fight": N_("Fight another round of the battle."),
    "retreat": N_("Leave the battle; retreating blocks may suffer attrition."),
    "supply": N_("Winter supply: this block escapes winter attrition."),
    "board": N_("Board a fleet to cross the sea."),
    "board_reduce": N_("Board a fleet to cross the sea, first reducing this block below the fleet's CV (the steps "
                       "lost are not regained)."),
    "place": N_("Place the recruited block here."),
    "forced": N_("Forced march: one area further, but a roll decides and a failure costs CV."),
    "battle": N_("Fight the battle in this area before the other battles of the same size."),
    "force": N_("This Force fights first; if it loses, another Force fights the survivors."),
    "sortie": N_("Sortie: every block inside attacks the besiegers; a win ends the Siege, a failure goes back "
                 "inside."),
}

# Lands drawn on the map that no area covers (data/coast.json names them in English), for the catalog
OFF_MAP_NAMES = (N_("Epirus"), N_("Illyria"), N_("Paeonia"), N_("Persian Empire"))

# Verbs whose words depend on the decision they answer (the top frame's kind).
KIND_VERB_HINT = {
    ("sortie", "stay"): N_("No Sortie this Season: the besieged stay inside."),
    ("sortie", "hold"): N_("No Sortie until something you can see in this Siege changes: you are not asked again "
                           "until then."),
    ("fortify", "hold"): N_("Withdraw into the City, and make no Sortie until something you can see in the Siege "
                            "changes."),
}

# One line on each kind of decision (the stack's top frame), in our words.
DECISION_HELP = {
    "ny_card": N_("New Year: play a card for its Event, or sacrifice it."),
    "commit": N_("Both sides commit a card face down; fewer Actions act first (an Event counts 0, Sparta wins "
                 "ties)."),
    "actions": N_("Spend an Action: move a Group, Muster, Build, Recruit, garrison, Pillage or (in Winter) "
                  "supply."),
    "group": N_("Each block of the Group goes to its own destination; entering enemy blocks Engages them "
             "(the battle odds show on each such choice)."),
    "free_move": N_("Move this block; entering enemy blocks Engages them."),
    "muster": N_("Choose the blocks that march to the mustering City."),
    "recruit": N_("Place the block drawn from your pool."),
    "fortify": N_("Withdraw into the City (a Siege begins) or fight in the open."),
    "battle_retreat": N_("Fight another round (A, B, C fire in turn, defender first) or retreat."),
    "siege_choice": N_("Assault the besieged City (defenders count double) or keep the Siege."),
    "ev_city": N_("Choose the City the Event takes."),
    "allocate": N_("Your equally strong (hit) or equally weak (rout) blocks: choose which one takes it."),
    "retreat_to": N_("Choose where this retreating block goes."),
    "fortify_pick": N_("More blocks than the City holds: choose the ones that go inside; the rest retreat."),
    "attrition_loss": N_("Siege Attrition: choose which block inside loses 1 CV (your opponent does not see "
                         "which)."),
    "forced_take": N_("The forced march succeeded: make the extra move, or stay to keep the Group together."),
    "battle_pick": N_("Smaller battles are fought first; among battles of equal size you choose the order."),
    "force_pick": N_("Your Forces came by different routes and fight separate battles: choose which goes first; "
                     "if it wins, the others join it."),
    "sortie": N_("Your besieged blocks may come out and attack the besiegers in a field battle; if they fail "
                 "they go back inside."),
}


@cache
def geometry() -> dict[str, Any]:
    """The drawn map (``data/coast.json``, written by ``scripts/hellenes_map.py`` from Natural Earth's public-domain
    coastlines): land, each area's region, the seas' waters, off-map lands, label and City points, in pixels."""
    text = resources.files("muster.games.hellenes").joinpath("data/coast.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _static(lang: str = "en") -> dict[str, Any]:
    tr = translator(lang)
    g = game_map()
    lons = [xy[0] for xy in g.xy.values()]
    lats = [xy[1] for xy in g.xy.values()]
    spaces = []
    geo = geometry()
    for area in (*g.land, *g.seas):
        city = g.cities.get(area)
        lon, lat = g.xy[area]
        spaces.append({
            "d": geo["seas" if g.is_sea(area) else "areas"][area],
            "label": (geo["sea_labels"] if g.is_sea(area) else geo["labels"])[area],
            "city_xy": geo["cities"].get(area), "settlement_xy": geo["settlements"].get(area),
            "id": area, "name": area_name(area, lang), "kind": "sea" if g.is_sea(area) else "land",
            "xy": [round(lon, 3), round(lat, 3)],
            "region": region_name(g.regions[area], lang) if area in getattr(g, "regions", {}) else None,
            "city": {"name": city_name(area, lang), "value": city.value, "port": city.port} if city else None,
            "land_adj": sorted(g.land_adj.get(area, ())), "coasts": sorted(g.coasts.get(area, ())),
            "sea_adj": sorted(g.sea_adj.get(area, ())),
            "hazardous": sorted(n for n in g.sea_adj.get(area, ()) if (area, n) in g.hazardous),
        })
    roster = {bid: {"name": block_name(bid, lang), "side": d.side, "letter": d.letter, "fire": d.fire,
                    "max_cv": d.max_cv,
                    "kind": d.kind} for bid, d in blocks().items()}
    deck = [{"number": c.number, "deck": "", "name": card_face(c.number, lang)["name"], "ap": c.actions,
             "side": c.side, "text": card_face(c.number, lang)["text"], "event": bool(c.event)}
            for c in sorted(cards().values(), key=lambda c: c.number)]
    seats = {seat: {**info, "name": side_forms(tr, seat).name, "people": tr.gettext(info["people"])}
             for seat, info in SEATS.items()}
    return {
        "game": "hellenes", "title": tr.gettext("Hellenes: Campaigns of the Peloponnesian War"), "lang": lang,
        "seats": seats,
        "spaces": spaces, "areas": [], "cards": deck, "blocks": roster,
        "geometry": {"size": geo["size"], "land": geo["land"],
                     "off_map": [{"name": tr.gettext(o["name"]), "d": o["d"], "label": o["label"]}
                                 for o in geo["off_map"].values()]},
        "bounds": {"lon": [min(lons), max(lons)], "lat": [min(lats), max(lats)]},
        "seasons": [season_word(i, lang) for i in range(len(design()["seasons"]))],
        "prestige_limit": design()["prestige"]["limit"],
        "prestige_to_win": design()["prestige"]["lead_to_win"],
    }


def _mover(view: dict[str, Any], seat: str) -> str | None:
    """The own block a group move or free move is moving now (its id), if any."""
    stack = view.get("stack") or []
    top = stack[-1] if stack else {}
    if top.get("kind") not in ("group", "free_move") or top.get("seat", seat) != seat:
        return None
    token = top.get("cur") if top.get("kind") == "group" else top.get("token")
    return next((b for b, u in view.get("units", {}).items() if u["token"] == token), None)


def _enemy_in(view: dict[str, Any], area: str) -> int:
    return sum(1 for e in view.get("enemy", []) if e["area"] == area)


EXACT_BLOCKS, EXACT_STEPS, TRIALS, SAMPLES = 3, 7, 40, 8
"""The web answers every state message at once, on the server's event loop, so its odds stay cheap and bounded:
exact for small battles (at most this many blocks and steps, and remembered across messages), else Monte Carlo
with this many trials, over this many drawings of the hidden blocks (8 × 40 battles: the hidden blocks vary more
than the dice matter). About 4 ms of CPU per engagement; ``benchmarks/hellenes_odds.py`` measures a whole
decision. The terminal's :func:`~muster.games.hellenes.estimate.engage_estimate` is exact up to larger battles."""


@lru_cache(maxsize=4096)
def _exact(att: tuple[Any, ...], dfn: tuple[Any, ...]) -> tuple[float, float, float, float, float]:
    r = battle_odds(list(att), list(dfn))
    return r.att_win, r.def_win, r.draw, r.att_loss, r.def_loss


def drawings(view: dict[str, Any], seat: str) -> list[Any]:
    """``SAMPLES`` full states drawn from the seat's view (``determinize``: public facts only), the same for
    every engagement asked about in one view."""
    rules = HellenesRules()
    return [rules.determinize(view, seat, 7919 * k + 1) for k in range(SAMPLES)]


def _movers(view: dict[str, Any], seat: str, area: str) -> list[str]:
    """The own blocks that would fight in ``area`` if the choice is taken: the block moving now, or, at a Sortie
    question (8.3), every block of the seat inside the City there."""
    stack = view.get("stack") or []
    top = stack[-1] if stack else {}
    if top.get("kind") == "sortie" and top.get("seat", seat) == seat:
        return sorted(b for b, u in view.get("units", {}).items() if u.get("area") == area and u.get("inside"))
    mover = _mover(view, seat)
    return [mover] if mover is not None else []


def _quick_estimate(view: dict[str, Any], seat: str, movers: list[str], area: str,
                    drawn: list[Any] | None = None) -> Any:
    """The odds of ``movers`` (and the seat's blocks already in the field of ``area``) engaging there, from the
    view only:
    the hidden blocks drawn by ``determinize`` (public facts only; ``drawn``: drawings already made from this
    view), the battle computed per drawing."""
    total = [0.0] * 5
    for k, s in enumerate(drawn if drawn is not None else drawings(view, seat)):
        f = {"area": area, "militia": 0}
        mine = sorted({*movers, *field(s, area, seat)})
        att = tuple(_fighter(s, f, b) for b in mine if s.units[b].area is not None)
        dfn = tuple(_fighter(s, f, b) for b in field(s, area, other(seat)))
        if len(att) + len(dfn) <= EXACT_BLOCKS and sum(x[2] for x in att + dfn) <= EXACT_STEPS:
            r = _exact(att, dfn)
        else:
            mc = monte_carlo(list(att), list(dfn), trials=TRIALS, seed=k)
            r = (mc.att_win, mc.def_win, mc.draw, mc.att_loss, mc.def_loss)
        for i, x in enumerate(r):
            total[i] += x / SAMPLES
    return SideOdds(*total)


def _assault_estimate(view: dict[str, Any], seat: str, area: str, drawn: list[Any]) -> Any:
    """The odds of Assaulting the City of ``area`` (8.1: Double Defense, the defenders cannot be routed), with the
    blocks inside drawn from the seat's view as for an engagement."""
    total = [0.0] * 5
    for k, s in enumerate(drawn):
        f = {"area": area, "militia": 0}
        att = [_fighter(s, f, b) for b in field(s, area, seat)]
        inside, militia = defenders_inside(s, area)
        dfn = [_fighter(s, f, b) for b in inside]
        if militia > 0:
            m = design()["militia"]
            dfn.append((str(m["letter"]), int(m["fire"]), int(militia), False))
        if not att or not dfn:
            continue
        mc = monte_carlo(att, dfn, True, True, trials=TRIALS, seed=k)
        for i, x in enumerate((mc.att_win, mc.def_win, mc.draw, mc.att_loss, mc.def_loss)):
            total[i] += x / len(drawn)
    return SideOdds(*total)


def _odds_words(p: Any, lang: str) -> dict[str, str]:
    """Battle odds as the language writes percentages and decimals."""
    pct = (lambda x: f"{x:.0%}".replace("%", " %")) if lang == "pl" else (lambda x: f"{x:.0%}")
    dec = (lambda x: f"{x:.1f}".replace(".", ",")) if lang == "pl" else (lambda x: f"{x:.1f}")
    return {"win": pct(p.win), "lose": pct(p.lose), "mine": dec(p.my_loss), "theirs": dec(p.enemy_loss)}


class HellenesAdapter:
    """Hellenes' answers to :class:`muster.server.games.WebAdapter`."""

    def __init__(self) -> None:
        self._odds: dict[tuple[int, str, str, str], Any] = {}
        self._drawn: dict[tuple[int, str], list[Any]] = {}

    def static_data(self) -> dict[str, Any]:
        """Areas (land and sea, with Cities and neighbours), the block roster, card faces, the tracks."""
        return _static()

    def static_data_for(self, lang: str) -> dict[str, Any]:
        """The static data with names and card faces in ``lang``."""
        return _static(check_lang(lang))

    def phase(self, view: dict[str, Any], lang: str = "en") -> str:
        """Season and year ("Early Summer 430 BC"), in ``lang`` ("Game over" stays an id the browser translates)."""
        if view.get("result"):
            return "Game over"
        return translator(lang).fmt("{season} {year} BC", season=season_word(int(view.get("season", -1)), lang),
                                    year=view.get("year"))

    def label_for(self, view: dict[str, Any], action: Action, seat: str | None, label: str, lang: str) -> str:
        """A choice's label in ``lang``, rendered from the message the rules keep with it."""
        return said_in(label, lang)

    def prompt_for(self, view: dict[str, Any], seat: str | None, prompt: str, lang: str) -> str:
        """The decision's prompt in ``lang``, rendered from the message the rules keep with it."""
        return said_in(prompt, lang)

    def odds(self, view: dict[str, Any], seat: str, area: str) -> Any:
        """The battle odds if the moving block engages in ``area``, or the besieged there make a Sortie (from the
        seat's view only), or None."""
        movers = _movers(view, seat, area)
        if not movers or not _enemy_in(view, area):
            return None
        key = (int(view.get("step", 0)), seat, ",".join(movers), area)
        if key not in self._odds:
            if len(self._odds) > 256:
                self._odds.clear()
            if len(self._drawn) > 16:
                self._drawn.clear()
            # the server takes the log out of a view before asking for hints; determinize needs the key
            full = view if "log" in view else {**view, "log": []}
            try:
                if key[:2] not in self._drawn:
                    self._drawn[key[:2]] = drawings(full, seat)
                self._odds[key] = _quick_estimate(full, seat, movers, area, self._drawn[key[:2]])
            except Exception:  # odds are advice: a failure must never block the game
                log.exception("battle odds failed for %s engaging in %s", seat, area)
                self._odds[key] = None
        return self._odds[key]

    def assault_odds(self, view: dict[str, Any], seat: str, area: str) -> Any:
        """The odds of an Assault on the besieged City of ``area`` (from the seat's view only), or None."""
        key = (int(view.get("step", 0)), seat, "assault", area)
        if key not in self._odds:
            if len(self._odds) > 256:
                self._odds.clear()
            full = view if "log" in view else {**view, "log": []}
            try:
                self._odds[key] = _assault_estimate(full, seat, area, drawings(full, seat))
            except Exception:  # odds are advice: a failure must never block the game
                log.exception("assault odds failed for %s at %s", seat, area)
                self._odds[key] = None
        return self._odds[key]

    def hint(self, view: dict[str, Any], action: Action, seat: str | None, lang: str = "en") -> str:
        """What the choice does; before an engagement or an Assault, the battle odds estimated from what the seat
        knows (in words; :meth:`chance` gives the board the chance of winning as a number)."""
        tr = translator(lang)
        if seat and action.verb in ("to", "forced", "sortie") and isinstance(action.arg, str):
            p = self.odds(view, seat, action.arg)
            if p is not None:
                return tr.fmt("Engage: win {win}, lose {lose}; expected losses {mine} CV to {theirs} (estimated from "
                              "what you can see)", **_odds_words(p, lang))
        if seat and action.verb == "assault" and isinstance(action.arg, str):
            p = self.assault_odds(view, seat, action.arg)
            if p is not None:
                return tr.fmt("Assault: win {win}, lose {lose}; expected losses {mine} CV to {theirs} (estimated "
                              "from what you can see; the defenders count double)", **_odds_words(p, lang))
        stack = view.get("stack") or []
        kind = str(stack[-1].get("kind", "")) if stack else ""
        text = KIND_VERB_HINT.get((kind, action.verb)) or VERB_HINT.get(action.verb, "")
        return tr.gettext(text) if text else ""

    def chance(self, view: dict[str, Any], action: Action, seat: str | None) -> float | None:
        """The chance of winning the battle or the Assault this choice starts, estimated from what the seat knows
        (the same estimate its hint words; the board draws it on the map), or None for any other choice."""
        if not seat or not isinstance(action.arg, str):
            return None
        if action.verb in ("to", "forced", "sortie"):
            p = self.odds(view, seat, action.arg)
        elif action.verb == "assault":
            p = self.assault_odds(view, seat, action.arg)
        else:
            return None
        return None if p is None else float(p.win)

    def decision_help(self, view: dict[str, Any], lang: str = "en") -> str:
        """One line on the decision on top of the stack (in ``lang``)."""
        stack = view.get("stack") or []
        text = DECISION_HELP.get(stack[-1].get("kind", "") if stack else "", "")
        return translator(lang).gettext(text) if text else ""

    def warning(self, view: dict[str, Any], action: Action, seat: str | None, legal: list[Action],
                lang: str = "en") -> str:
        """Ask twice before engaging (the battle odds in words). Ending the Action phase is one click: its hint and
        the Actions count say what is lost."""
        tr = translator(lang)
        if seat and action.verb in ("to", "forced", "sortie") and isinstance(action.arg, str) and len(legal) > 1:
            p = self.odds(view, seat, action.arg)
            if p is not None:  # every engagement shows its odds before the click is final
                ask = tr.gettext("Engage anyway?") if p.win < 0.5 else tr.gettext("Engage?")
                return tr.fmt("Battle odds from what you can see: win {win}, lose {lose}, expected losses {mine} CV to "
                              "{theirs}. {ask}", ask=ask, **_odds_words(p, lang))
        return ""

    def board_facts(self, view: dict[str, Any]) -> dict[str, dict[str, int]]:
        """Blocks of each side per area, Sieges and control (all public)."""
        facts: dict[str, dict[str, int]] = {}
        for bid, u in view.get("units", {}).items():
            if u.get("area"):
                side = str(blocks()[bid].side)
                facts.setdefault(u["area"], {})[side] = facts.get(u["area"], {}).get(side, 0) + 1
        for e in view.get("enemy", []):
            facts.setdefault(e["area"], {})[e["side"]] = facts.get(e["area"], {}).get(e["side"], 0) + 1
        for area in view.get("sieges", {}):
            facts.setdefault(area, {})["siege"] = 1
        for area, holder in view.get("control", {}).items():
            facts.setdefault(area, {})["athens_city" if holder == "athens" else "sparta_city"] = 1
        return facts

    def card_played(self, action: Action) -> int | None:
        """None: cards are committed face down, and the log says when they are revealed."""
        return None

    def public_action(self, action: Action) -> list[Any]:
        """The action as the other seat may see it: a committed card, a block's identity (moved, built,
        recruited, supplied) stay hidden; areas and plain choices are public."""
        arg = action.arg
        if action.verb == "card" or (isinstance(arg, str) and (arg in blocks() or "@" in arg)):
            return [action.verb, None]
        return [action.verb, arg]


ADAPTER = HellenesAdapter()
