"""Hellenes in the reader's language: names (areas, Cities, blocks, cards, sides), the log, choices and prompts.

The rules log language-neutral entries (``s.say(msgid, **args)``); :class:`HellenesNames` renders their
arguments by name (``side``/``winner``/``foe``: a side, ``area``/``dest``/``other_area``: an area id, ``city``: the
City of an area, ``card``: a card number, ``block``: a block id, ``season``: a Season's index, ``prestige``: the
signed track). The engine words its choices and prompts in English; :func:`label_in` and :func:`prompt_in`
rebuild them in another language from the action and the seat's view, so the rules code stays as it is (a
decision they do not know keeps its English words). Polish names and card faces live in ``data/names_pl.json``
and ``data/cards_pl.json``, both checked against the English data when loaded.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from muster.core import Action
from muster.games.hellenes.datafiles import DataError, blocks, cards, design, game_map, scenario
from muster.i18n import N_, Names, Translator, render, render_all, translator

# A side's forms: the people as a subject (Polish verbs agree with "Ateńczycy"/"Spartanie", both plural), their
# genitive, and the state's name (in English all three are "Athens"/"Sparta").
SIDE_FORMS = {
    "athens": (N_("side:athens:people"), N_("side:athens:gen"), N_("side:athens")),
    "sparta": (N_("side:sparta:people"), N_("side:sparta:gen"), N_("side:sparta")),
    "neutral": (N_("side:neutral"), N_("side:neutral"), N_("side:neutral")),
}


class SideName(str):
    """A side as the subject of a sentence, with ``{side.gen}`` (of the people) and ``{side.name}`` (the state)."""

    gen: str
    name: str

    def __new__(cls, people: str, gen: str, name: str) -> SideName:
        """Build the name with its forms."""
        obj = super().__new__(cls, people)
        obj.gen = gen
        obj.name = name
        return obj


def _read(name: str) -> Any:
    try:
        return json.loads(resources.files("muster.games.hellenes").joinpath("data", name).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read data file {name}: {exc}") from exc


@cache
def polish_names() -> dict[str, dict[str, str]]:
    """``data/names_pl.json``, checked: every area, City, region, block name, Season and Leader has a name."""
    raw = _read("names_pl.json")
    g = game_map()
    wanted = {
        "areas": set(g.names), "cities": set(g.cities),
        "regions": {str(r) for r in getattr(g, "regions", {}).values()} if hasattr(g, "regions") else set(),
        "blocks": {b.name for b in blocks().values()}, "seasons": set(design()["seasons"]),
        "leaders": set(design()["leaders"]), "scenarios": {scenario().title},
    }
    out: dict[str, dict[str, str]] = {}
    for key, need in wanted.items():
        table = raw.get(key)
        if not isinstance(table, dict):
            raise DataError(f"names_pl.json: no {key!r} table")
        missing = sorted(need - set(table))
        empty = sorted(k for k, v in table.items() if not isinstance(v, str) or not v.strip())
        if missing or empty:
            raise DataError(f"names_pl.json {key}: missing {missing}, empty {empty}")
        out[key] = {str(k): str(v) for k, v in table.items()}
    return out


@cache
def polish_cards() -> dict[int, dict[str, str]]:
    """``data/cards_pl.json``: every card of ``cards.json`` has a Polish name and text, and no other card is there."""
    raw = _read("cards_pl.json")
    faces = {int(k): v for k, v in raw["cards"].items()}
    numbers = set(cards())
    if set(faces) != numbers:
        missing, unknown = sorted(numbers - set(faces)), sorted(set(faces) - numbers)
        raise DataError(f"cards_pl.json: missing {missing}, unknown {unknown}")
    for n, face in faces.items():
        if not all(isinstance(face.get(k), str) and face[k].strip() for k in ("name", "text")):
            raise DataError(f"cards_pl.json: card {n} needs a non-empty name and text")
    return faces


def _polish(lang: str) -> bool:
    return lang == "pl"


def area_name(area: str, lang: str = "en") -> str:
    """An area (land or sea) by id."""
    return polish_names()["areas"][area] if _polish(lang) else game_map().names[area]


def city_name(area: str, lang: str = "en") -> str:
    """The City of an area."""
    return polish_names()["cities"][area] if _polish(lang) else game_map().cities[area].name


def region_name(region: str, lang: str = "en") -> str:
    """A region of the map."""
    return polish_names()["regions"].get(region, region) if _polish(lang) else region


def block_name(bid: str, lang: str = "en") -> str:
    """A block's name ("Athenian hoplites")."""
    name = blocks()[bid].name
    return polish_names()["blocks"][name] if _polish(lang) else name


def season_word(index: int, lang: str = "en") -> str:
    """A Season by index (-1: the New Year)."""
    if index < 0:
        return translator(lang).gettext("New Year")
    name = str(design()["seasons"][index])
    return polish_names()["seasons"][name] if _polish(lang) else name


def leader_name(key: str, lang: str = "en") -> str:
    """A Leader by key ("pericles")."""
    return polish_names()["leaders"].get(key, key.title()) if _polish(lang) else key.title()


def card_face(number: int, lang: str = "en") -> dict[str, str]:
    """A card's name and Event text in ``lang``."""
    c = cards()[number]
    return dict(polish_cards()[number]) if _polish(lang) else {"name": c.name, "text": c.text}


def card_label(number: int, lang: str = "en") -> str:
    """'#3 Levy (2 Actions)', '#10 Revolt of the Allies (1 Action, Sparta only)' in ``lang``."""
    tr = translator(lang)
    c = cards()[number]
    actions = tr.nfmt("{n} Action", "{n} Actions", c.actions)
    if c.side != "any":
        actions = tr.fmt("{actions}, {side} only", actions=actions, side=side_forms(tr, c.side).name)
    return f"#{number} {card_face(number, lang)['name']} ({actions})"


def side_forms(tr: Translator, side: str) -> SideName:
    """A side's name with its forms."""
    forms = SIDE_FORMS.get(side)
    if forms is None:
        return SideName(side, side, side)
    return SideName(*(tr.gettext(f) for f in forms))


def prestige_words(value: int, lang: str = "en") -> str:
    """The signed track in words: 'level', 'Sparta +3', 'Athens +2'."""
    tr = translator(lang)
    if value == 0:
        return tr.gettext("level")
    leader = "sparta" if value > 0 else "athens"
    return f"{side_forms(tr, leader).name} +{abs(value)}"


class HellenesNames(Names):
    """Hellenes' names for the log in the translator's language."""

    def side(self, seat: str) -> Any:
        """A side with its forms."""
        return side_forms(self.tr, seat)

    def arg_side(self, value: Any) -> Any:
        """``{side}``: a side."""
        return side_forms(self.tr, str(value))

    arg_winner = arg_foe = arg_side

    def arg_area(self, value: Any) -> str:
        """``{area}``: an area by id."""
        return area_name(str(value), self.tr.lang) if value in game_map().names else str(value)

    arg_dest = arg_other_area = arg_area

    def arg_city(self, value: Any) -> str:
        """``{city}``: the City of an area."""
        return city_name(str(value), self.tr.lang) if value in game_map().cities else str(value)

    def arg_card(self, value: Any) -> str:
        """``{card}``: a card by number."""
        return card_label(int(value), self.tr.lang) if value in cards() else str(value)

    def arg_block(self, value: Any) -> str:
        """``{block}``: a block by id."""
        return block_name(str(value), self.tr.lang) if value in blocks() else str(value)

    def arg_season(self, value: Any) -> str:
        """``{season}``: a Season by index."""
        return season_word(int(value), self.tr.lang)

    def arg_prestige(self, value: Any) -> str:
        """``{prestige}``: the signed Prestige track."""
        return prestige_words(int(value), self.tr.lang)

    def arg_scenario(self, value: Any) -> str:
        """``{scenario}``: a scenario's title."""
        return polish_names()["scenarios"].get(str(value), str(value)) if _polish(self.tr.lang) else str(value)


@cache
def names(lang: str = "en") -> HellenesNames:
    """The names of Hellenes in ``lang``."""
    return HellenesNames(translator(lang))


def english(e: Any) -> str:
    """One log entry in English words (the game's result keeps its detail so)."""
    return render(e, names("en"))


def log_lines(entries: list[Any], lang: str = "en") -> list[str]:
    """The log in ``lang`` (an older game's English lines stay as they are)."""
    return render_all(entries, names(lang))


# --- choices and prompts in another language ------------------------------------------------------------------

def _top(view: dict[str, Any] | None) -> dict[str, Any]:
    stack = (view or {}).get("stack") or []
    return stack[-1] if stack else {}


def own_block(view: dict[str, Any] | None, bid: str, lang: str) -> str:
    """'Athenian hoplites C2 (3/4)': an own block with its letter, firepower and CV."""
    d = blocks()[bid]
    unit = ((view or {}).get("units") or {}).get(bid)
    cv = f" ({unit['cv']}/{d.max_cv})" if unit else ""
    return f"{block_name(bid, lang)} {d.letter}{d.fire}{cv}"


def _block_by_token(view: dict[str, Any] | None, token: Any) -> str | None:
    return next((b for b, u in ((view or {}).get("units") or {}).items() if u.get("token") == token), None)


EVENT_NAMES = {"civil_war": N_("Civil War"), "revolt": N_("Revolt of the Allies"), "treachery": N_("Treachery")}


def label_in(action: Action, seat: str | None, english_label: str, lang: str,
             view: dict[str, Any] | None = None) -> str:
    """A choice's label in ``lang``, rebuilt from the action and the view (English: the engine's own)."""
    if lang == "en":
        return english_label
    tr = translator(lang)
    f = _top(view)
    kind, verb, arg = f.get("kind"), action.verb, action.arg
    area = str(arg) if isinstance(arg, str) and arg in game_map().names else None
    bid = str(arg) if isinstance(arg, str) and arg in blocks() else None
    engage = "(Engage)" in english_label
    if verb == "card" and isinstance(arg, int) and arg in cards():
        return card_label(arg, lang)
    if verb == "as" and kind == "ny_card":
        return tr.gettext("play it as its Event") if arg == "event" else tr.gettext("sacrifice it (discard)")
    if verb == "as" and kind == "commit" and isinstance(f.get("card"), int):
        if arg == "event":
            return tr.fmt("its Event: {card} (Initiative 0)", card=card_face(f["card"], lang)["name"])
        m = re.search(r"\(\+(\d+) Leader\)", english_label)
        n = cards()[f["card"]].actions
        return tr.fmt("{actions} (+{bonus} Leader)", actions=tr.nfmt("{n} Action", "{n} Actions", n),
                      bonus=m.group(1) if m else "0")
    if kind == "actions":
        simple = {"move": N_("Group Move from {area}"), "muster": N_("Muster at {area}"),
                  "garrison": N_("detach a garrison in {area}"), "pillage": N_("Pillage {area}")}
        if verb in simple and area:
            return tr.fmt(simple[verb], area=area_name(area, lang))
        if verb == "build" and bid:
            return tr.fmt("Build: {block}", block=own_block(view, bid, lang))
        if verb == "supply" and bid:
            return tr.fmt("Winter supply: {block}", block=own_block(view, bid, lang))
        if verb == "recruit":
            return tr.gettext("Recruit (draw 3 blocks, place 1)")
        if verb == "end":
            return tr.gettext("end the Action phase")
    if kind == "retreat_to" and verb == "to" and area:
        notes = [tr.gettext("friendly City")] if "(friendly City" in english_label else []
        mates = re.search(r"(\d+) friendly blocks?\)", english_label)
        if mates:
            notes.append(tr.nfmt("{n} friendly block", "{n} friendly blocks", int(mates.group(1))))
        where = area_name(area, lang) + (f" ({', '.join(notes)})" if notes else "")
        return tr.fmt("retreat to {area}", area=where)
    if kind == "forced_take" and verb == "to" and area:
        return tr.fmt("march on to {area}", area=area_name(area, lang))
    revision_3 = _revision_3_label(kind, verb, area, english_label, tr, lang)
    if revision_3 is not None:
        return revision_3
    owner_choice = {("allocate", "hit"): N_("{block} loses 1 CV"), ("allocate", "rout"): N_("{block} is routed"),
                    ("fortify_pick", "inside"): N_("{block} goes inside"),
                    ("attrition_loss", "lose"): N_("{block} loses 1 CV")}
    if (str(kind), verb) in owner_choice and bid:
        return tr.fmt(owner_choice[(str(kind), verb)], block=own_block(view, bid, lang))
    if verb in ("to", "forced") and area:
        tail = tr.gettext(" (Engage)") if engage else ""
        if verb == "forced":
            return tr.fmt("forced march to {area}{engage} (needs the roll)", area=area_name(area, lang), engage=tail)
        return tr.fmt("to {area}{engage}", area=area_name(area, lang), engage=tail)
    if verb == "block" and bid:
        return tr.fmt("block {block}", block=own_block(view, bid, lang))
    if verb == "board" and bid:
        return tr.fmt("board {block} (sea transport)", block=own_block(view, bid, lang))
    if verb == "board_reduce" and bid:
        reduced = REDUCED.search(english_label)
        return tr.fmt("reduce to CV {cv} to board {block} (sea transport)", cv=reduced.group(1) if reduced else "?",
                      block=own_block(view, bid, lang))
    if verb == "place" and isinstance(arg, str) and "@" in arg:
        placed, where = arg.split("@", 1)
        if placed in blocks() and where in game_map().names:
            d = blocks()[placed]
            return tr.fmt("place {block} {letter}{fire} (max {max}) in {area}", block=block_name(placed, lang),
                          letter=d.letter, fire=d.fire, max=d.max_cv, area=area_name(where, lang))
    if kind == "siege_choice" and f.get("area") in game_map().cities:
        city = city_name(f["area"], lang)
        words = {"assault": N_("Assault {city} (Double Defense)"), "attrition": N_("Siege Attrition at {city}"),
                 "skip": N_("leave {city} besieged")}
        if verb in words:
            return tr.fmt(words[verb], city=city)
    if verb == "city" and area and area in game_map().cities:
        return tr.fmt("the City of {city} ({area})", city=city_name(area, lang), area=area_name(area, lang))
    plain = {
        ("battle_retreat", "fight"): N_("fight on"), ("battle_retreat", "retreat"): N_("retreat from the battle"),
        ("fortify", "fight"): N_("fight in the field"),
        ("fortify", "fortify"): N_("fortify the City (a Siege begins, no battle)"),
        ("fortify", "hold"): N_("fortify the City, and no Sortie until its Siege changes"),
        ("recruit", "wasted"): N_("none can be placed: the Action is wasted"),
    }
    if (str(kind), verb) in plain:
        return tr.gettext(plain[(str(kind), verb)])
    if verb in ("done", "stay"):
        return tr.gettext({"done": N_("done"), "stay": N_("stay")}[verb])
    return english_label


REDUCED = re.compile(r"reduce to CV (\d+)")
COUNT = re.compile(r"\((?:your )?(\d+) blocks?")
AGAINST = re.compile(r"against (\d+) besieging")


def _revision_3_label(kind: Any, verb: str, area: str | None, english_label: str, tr: Translator,
                      lang: str) -> str | None:
    """The choices of rules revision 3 (equal battles, uncoordinated Forces, Sorties), or None."""
    count = COUNT.search(english_label)
    n = int(count.group(1)) if count else 0
    if kind == "battle_pick" and verb == "battle" and area:
        return tr.nfmt("the battle in {area} first (your {n} block)", "the battle in {area} first (your {n} blocks)",
                       n, area=area_name(area, lang))
    if kind == "force_pick" and verb == "force" and area:
        if english_label.startswith("the Force already in"):
            return tr.nfmt("the Force already in {area} ({n} block)", "the Force already in {area} ({n} blocks)", n,
                           area=area_name(area, lang))
        return tr.nfmt("the Force from {area} ({n} block)", "the Force from {area} ({n} blocks)", n,
                       area=area_name(area, lang))
    if kind == "sortie" and verb == "stay":
        return tr.gettext("no Sortie this Season")
    if kind == "sortie" and verb == "hold" and area and area in game_map().cities:
        return tr.fmt("no Sortie from {city} until its Siege changes", city=city_name(area, lang))
    if kind == "sortie" and verb == "sortie" and area and area in game_map().cities:
        against = AGAINST.search(english_label)
        return tr.nfmt("Sortie from {city} ({n} block against {m} besieging)",
                       "Sortie from {city} ({n} blocks against {m} besieging)", n, city=city_name(area, lang),
                       m=against.group(1) if against else "?")
    return None


ODDS = re.compile(r"win (\d+)%, lose (\d+)%; expected losses ([\d.]+) vs ([\d.]+) CV")
ROOM = re.compile(r"\(room for (-?\d+)\)")


def prompt_in(view: dict[str, Any], seat: str | None, english_prompt: str, lang: str) -> str:
    """The decision's prompt in ``lang``, rebuilt from the view (English: the engine's own)."""
    if lang == "en":
        return english_prompt
    tr = translator(lang)
    if view.get("result"):
        return tr.gettext("The game is over.")
    f = _top(view)
    kind = f.get("kind")
    side = side_forms(tr, str(f.get("seat") or seat or "")).name
    season, year = season_word(int(view.get("season", -1)), lang), view.get("year")
    if kind == "actions":
        n = int(view.get("actions_left", 0))
        return tr.nfmt("{side}: {season} {year}: {n} Action left", "{side}: {season} {year}: {n} Actions left", n,
                       side=side, season=season, year=year)
    if kind == "ny_card":
        if f.get("card") is None:
            return tr.fmt("{side}: New Year {year}: choose the New-Year card (face down)", side=side, year=year)
        return tr.fmt("{side}: play {card} as an Event or Sacrifice it", side=side, card=card_label(f["card"], lang))
    if kind == "commit":
        if f.get("card") is None:
            return tr.fmt("{side}: {season} {year}: choose a card (face down)", side=side, season=season, year=year)
        return tr.fmt("{side}: play {card} for its Event or its Actions", side=side, card=card_label(f["card"], lang))
    if kind == "group" and f.get("area") in game_map().names:
        where = area_name(f["area"], lang)
        if f.get("cur") is None:
            return tr.fmt("{side}: Group Move from {area}: choose a block, or done", side=side, area=where)
        bid = _block_by_token(view, f["cur"])
        if bid:
            return tr.fmt("{side}: move {block} from {area}", side=side, block=block_name(bid, lang), area=where)
    if kind == "muster" and f.get("city") in game_map().names:
        return tr.fmt("{side}: Muster to {area}: choose a block, or done", side=side,
                      area=area_name(f["city"], lang))
    if kind == "free_move":
        bid = _block_by_token(view, f.get("token"))
        if bid:
            return tr.fmt("{side}: free move of {block}", side=side, block=block_name(bid, lang))
    if kind == "recruit":
        return tr.fmt("{side}: Recruit: place one of the blocks drawn", side=side)
    if kind == "siege_choice" and f.get("area") in game_map().cities:
        return tr.fmt("{side}: the Siege of {city}", side=side, city=city_name(f["area"], lang))
    if kind == "pillage" and f.get("area") in game_map().cities:
        return tr.fmt("{side}: Pillage {city}: withdraw to", side=side, city=city_name(f["area"], lang))
    if kind == "ev_city" and f.get("event") in EVENT_NAMES:
        return tr.fmt("{side}: {event}: choose a City", side=side, event=tr.gettext(EVENT_NAMES[f["event"]]))
    owner = _owner_choice_prompt(view, f, side, tr, lang)
    if owner is not None:
        return owner
    room = ROOM.search(english_prompt)
    if kind == "fortify" and room and f.get("area") in game_map().cities:
        return tr.fmt("{side}: enemy blocks enter {area}: fortify {city} (room for {n}) or fight in the field?",
                      side=side, area=area_name(f["area"], lang), city=city_name(f["area"], lang),
                      n=room.group(1))
    odds = ODDS.search(english_prompt)
    stack = view.get("stack") or []
    if kind == "battle_retreat" and odds and len(stack) >= 2 and stack[-2].get("area") in game_map().names:
        battle = stack[-2]
        what = tr.gettext("call off the Assault") if battle.get("assault") else tr.gettext("Retreat")
        win, lose, mine, theirs = odds.groups()
        return tr.fmt("{side}: round {round} in {area}: fight on or {what}? (fighting on: win {win}%, lose {lose}%; "
                      "expected losses {mine} vs {theirs} CV)", side=side,
                      round=battle.get("round"), area=area_name(battle["area"], lang), what=what, win=win, lose=lose,
                      mine=_decimal(mine, lang), theirs=_decimal(theirs, lang))
    return english_prompt


def _owner_choice_prompt(view: dict[str, Any], f: dict[str, Any], side: str, tr: Translator,
                         lang: str) -> str | None:
    """The prompts of the owner's choices of rules revision 2 (hit and rout ties, retreat destinations,
    fortifying, Siege Attrition, a successful forced march), or None when the view lacks what they name."""
    kind = f.get("kind")
    stack = view.get("stack") or []
    below = stack[-2] if len(stack) >= 2 else {}
    names = game_map().names
    if kind == "allocate" and below.get("area") in names:
        pending = below.get("pending") or {}
        where = area_name(below["area"], lang)
        if f.get("verb") == "hit":
            return tr.fmt("{side}: a hit in {area} ({n} to take): which of your equally strong blocks loses 1 CV?",
                          side=side, area=where, n=pending.get("hits", 1))
        return tr.fmt("{side}: a rout in {area} ({n} to take): which of your equally weak blocks is routed?",
                      side=side, area=where, n=pending.get("routs", 1))
    if kind == "retreat_to" and below.get("area") in names and below.get("movers"):
        bid = _block_by_token(view, below["movers"][0])
        if bid:
            return tr.fmt("{side}: {block} retreats from {area}: where to?", side=side,
                          block=block_name(bid, lang), area=area_name(below["area"], lang))
    if kind == "fortify_pick" and f.get("area") in game_map().cities:
        return tr.nfmt("{side}: fortify {city}: choose a block to go inside ({n} place left)",
                       "{side}: fortify {city}: choose a block to go inside ({n} places left)",
                       int(f.get("left", 1)), side=side, city=city_name(f["area"], lang))
    if kind == "attrition_loss" and f.get("area") in game_map().cities:
        return tr.fmt("{side}: Siege Attrition at {city}: which block loses 1 CV ({n} to take)?", side=side,
                      city=city_name(f["area"], lang), n=f.get("left", 1))
    if kind == "battle_pick":
        return tr.fmt("{side}: battles of equal size: which is fought first?", side=side)
    if kind == "force_pick" and below.get("area") in names:
        return tr.fmt("{side}: uncoordinated Forces in {area}: which Force fights first?", side=side,
                      area=area_name(below["area"], lang))
    if kind == "sortie":
        return tr.fmt("{side}: Sortie from a besieged City?", side=side)
    if kind == "forced_take" and f.get("dest") in names:
        bid = _block_by_token(view, f.get("token"))
        if bid:
            return tr.fmt("{side}: {block}'s forced march to {area} succeeded: make the extra move?", side=side,
                          block=block_name(bid, lang), area=area_name(f["dest"], lang))
    return None


def _decimal(text: str, lang: str) -> str:
    """'1.5' written as the language writes decimals ('1,5' in Polish)."""
    return text.replace(".", ",") if lang == "pl" else text
