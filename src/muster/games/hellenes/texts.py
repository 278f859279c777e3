"""Hellenes in the reader's language: names (areas, Cities, blocks, cards, sides), the log, choices and prompts.

The rules log language-neutral entries (``s.say(msgid, **args)``); :class:`HellenesNames` renders their
arguments by name (``side``/``winner``/``foe``: a side, ``area``/``dest``/``other_area``: an area id, ``city``: the
City of an area, ``card``: a card number, ``block``: a block id, ``season``: a Season's index, ``prestige``: the
signed track, ``unit``: a block with its CV). The rules word their prompts and choices the same way (a message
kept with its English words, :func:`said_in` renders it in any language). Polish names and card faces live in
``data/names_pl.json`` and ``data/cards_pl.json``, both checked against the English data when loaded.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from muster.games.hellenes.datafiles import DataError, blocks, cards, design, game_map, scenario
from muster.i18n import N_, Names, Translator, render, render_all, translator, words_in

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

    def arg_unit(self, value: Any) -> str:
        """``{unit}``: a block with its CV, ``[block id, CV]`` ('Athenian hoplites C2 (3/4)')."""
        bid, cv = value
        d = blocks()[bid]
        return f"{block_name(bid, self.tr.lang)} {d.letter}{d.fire} ({cv}/{d.max_cv})"

    def arg_title(self, value: Any) -> str:
        """``{title}``: a card's name alone, by number."""
        return card_face(int(value), self.tr.lang)["name"]

    def arg_mine(self, value: Any) -> str:
        """``{mine}``/``{theirs}``: expected losses in CV, one decimal as the rules rounded them ('1.5', '1,5')."""
        return str(value).replace(".", ",") if _polish(self.tr.lang) else str(value)

    arg_theirs = arg_mine

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


# --- choices and prompts ---------------------------------------------------------------------------------------

def said_in(text: Any, lang: str) -> str:
    """A prompt or a choice's label the rules worded (:func:`muster.games.hellenes.engine.said`) in ``lang``,
    rendered from its message; words with no message (a decision that words no label of its own) as they are."""
    return words_in(text, names(lang))
