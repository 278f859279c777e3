"""Freedom!'s words in every language: space, area, side and card names for the log, and the terms its log uses.

The Polish card names and texts live in ``data/cards_pl.json`` (validated on load against ``cards.json``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from muster.core import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.datafiles import Reward, areas_file, cards_file
from muster.games.freedom.guide import OPPONENT_COLOUR, VERB_HELP
from muster.i18n import N_, Names, Translator, entry, render, translator, words_in

# Words the rules put into log arguments (a move's kind, a result, a reason): translated when shown.
TERMS = (
    N_("hit"), N_("miss"), N_("granted"), N_("refused"), N_("intact"), N_("damaged"),
    N_("moves"), N_("moves slowly"), N_("unit"), N_("cannon"), N_("event"), N_("unpaid troops leave"),
    N_("deserters"), N_("a fort"), N_("the Beach (Row 2)"), N_("2nd"), N_("1st"), N_("nothing"), N_(" and "),
    N_("Morale"), N_("Money"), N_("Supplies"), N_("Plea track"), N_("Preparation"), N_("Pressure track"),
    N_("Population"),
)
END_REASONS = {"survival": N_("survival"), "fort": N_("fort"), "beach": N_("beach"),
               "imperial_morale": N_("imperial_morale"), "insurgent_morale": N_("insurgent_morale")}
"""Why a game ended (the result's reason codes), in words."""
AREA_NAMES = (N_("Sea"), N_("Petalas"), N_("Anatolikon"), N_("Gouria"), N_("Zygos"), N_("Kryoneri"),
              N_("Petrochori"), N_("Patra"))
SPACE_NAMES = (
    N_("Kütahi's Camp"), N_("City Center"), N_("Marmarou"), N_("Marmarou north channel"),
    N_("Marmarou west channel"), N_("Marmarou south channel"), N_("Marmarou shallows"), N_("Vasiladi"),
    N_("Vasiladi roadstead"), N_("Klisova"), N_("Klisova north reach"), N_("Klisova east reach"),
    N_("Klisova south reach"), N_("Klisova inner east"), N_("Klisova inner west"),
)
SPACE_PATTERNS = (
    (re.compile(r"^Row (\d+), column (\d+)$"), N_("Row {row}, column {col}")),
    (re.compile(r"^Wall (\d+) \(fort\)$"), N_("Wall {n} (fort)")),
    (re.compile(r"^Wall (\d+)$"), N_("Wall {n}")),
    (re.compile(r"^Beach (\d+)$"), N_("Beach {n}")),
    (re.compile(r"^Coast (\d+)$"), N_("Coast {n}")),
)
# Side names: the plain name, the genitive ("the Morale *of the Greeks*") and the player as a subject.
SIDE_FORMS = {
    IMPERIAL: (N_("side:imperial"), N_("side:imperial:gen"), N_("side:imperial:player")),
    INSURGENT: (N_("side:insurgent"), N_("side:insurgent:gen"), N_("side:insurgent:player")),
}


class SideName(str):
    """A side's name that also carries its grammatical forms: ``{side.gen}``, ``{side.player}``."""

    gen: str
    player: str

    def __new__(cls, plain: str, gen: str, player: str) -> SideName:
        """Build the name with its forms."""
        obj = super().__new__(cls, plain)
        obj.gen = gen
        obj.player = player
        return obj


@cache
def polish_cards() -> dict[int, dict[str, str]]:
    """The Polish faces, by card number; every card of ``cards.json`` must have a name, a text and a historical
    note."""
    raw = json.loads(resources.files("muster.games.freedom").joinpath("data/cards_pl.json").read_text("utf-8"))
    faces = {int(k): v for k, v in raw["cards"].items()}
    numbers = {c.number for c in cards_file().cards}
    if set(faces) != numbers:
        missing, unknown = sorted(numbers - set(faces)), sorted(set(faces) - numbers)
        raise ValueError(f"cards_pl.json: missing {missing}, unknown {unknown}")
    for n, face in faces.items():
        if not isinstance(face.get("name"), str) or not isinstance(face.get("text"), str) or not face["name"]:
            raise ValueError(f"cards_pl.json: card {n} needs a non-empty name and text")
        if not isinstance(face.get("note"), str) or not face["note"].strip():
            raise ValueError(f"cards_pl.json: card {n} needs a non-empty historical note")
    return faces


def explain(action: Action, seat: str | None = None, lang: str = "en") -> str:
    """A short explanation of one legal action for ``seat`` (the card's text for an event), in ``lang``: the
    words the terminal prints beside a choice and the web shows as its hint."""
    tr = translator(lang)
    if action.verb == "event" and isinstance(action.arg, int):
        return str(card_face(action.arg, lang)["text"])
    if action.verb == "ap" and isinstance(action.arg, int) and seat in OPPONENT_COLOUR:
        data = next(c for c in cards_file().cards if c.number == action.arg)
        if data.effect is not None and data.side == OPPONENT_COLOUR[seat]:
            # rule 4.3.1: playing the opponent's colour for AP lets the opponent use the event next
            return tr.gettext("spend its AP on actions; your opponent may then discard a card to use this event")
    text = VERB_HELP.get(f"{seat}:{action.verb}", VERB_HELP.get(action.verb, ""))
    return tr.gettext(text) if text else ""


def card_face(number: int, lang: str) -> dict[str, Any]:
    """A card's name, event text and historical note in ``lang``."""
    c = next(c for c in cards_file().cards if c.number == number)
    face = {"name": c.name, "text": c.text, "note": c.note}
    if lang == "pl":
        face.update({k: v for k, v in polish_cards().get(number, {}).items() if k in ("name", "text", "note") and v})
    return face


class FreedomNames(Names):
    """Freedom!'s names in the translator's language."""

    def space(self, i: int) -> str:
        """A board space: patterned names (rows, wall, beach) or a proper name."""
        english = board().names[i]
        for pattern, template in SPACE_PATTERNS:
            m = pattern.match(english)
            if m:
                keys = ("row", "col") if "{row}" in template else ("n",)
                return self.tr.gettext(template).format(**dict(zip(keys, m.groups(), strict=True)))
        return self.tr.gettext(english)

    def area(self, i: int) -> str:
        """An area of the surroundings map."""
        return self.tr.gettext(areas_file().areas[i].name)

    def card(self, number: int) -> str:
        """'30A Fleet's Departure' in the reader's language."""
        c = next(c for c in cards_file().cards if c.number == number)
        return f"{c.number}{c.deck} „{card_face(number, 'pl')['name']}”" if self.tr.lang == "pl" else \
            f"{c.number}{c.deck} {c.name}"

    def arg_src(self, value: Any) -> str:
        """Where from: a space (by index) in the log, a place in words ("the pool") in a prompt."""
        return self.space(value) if isinstance(value, int) else self.tr.gettext(str(value))

    def arg_where(self, value: Any) -> str:
        """Where, in words ("Row 4 or Row 5")."""
        return self.tr.gettext(str(value))

    def arg_whose(self, value: Any) -> str:
        """Whose unit, in words ("your", "an enemy")."""
        return self.tr.gettext(str(value))

    def arg_bonus(self, value: Any) -> str:
        """A modifier to a roll, with its sign ("+1")."""
        return f"{int(value):+d}"

    def side(self, seat: str) -> Any:
        """A side with its forms."""
        forms = SIDE_FORMS.get(seat.lower())
        if forms is None:
            return seat
        return SideName(*(self.tr.gettext(f) for f in forms))


def names(lang: str | None) -> FreedomNames:
    """The names of Freedom! in ``lang``."""
    return FreedomNames(translator(lang))


def names_for(tr: Translator) -> FreedomNames:
    """The names of Freedom! for a translator."""
    return FreedomNames(tr)


# --- choices and prompts in another language ------------------------------------------------------------------
# The rules word every label and prompt from a message (``said``): a front end renders it again from its id and
# arguments in its reader's language; nothing is read back out of the English words.
PROMPT_WORDS = (
    N_("any space"), N_("any space or the Camp"), N_("Row 4 or Row 5"), N_("Rows 4–6"), N_("Row 5 or Row 6"),
    N_("Row 7 or Row 8"), N_("the mainland"), N_("an island"), N_("the Lagoon waters"), N_("Klisova and its waters"),
    N_("the Wall"), N_("the Camp"), N_("the pool"), N_("the City"), N_("the City or an island"), N_("your"),
    N_("an enemy"), N_("unpaid troops leave"), N_("deserters"), N_("event"), N_("unit"), N_("cannon"),
)
"""Words the rules put into their prompts (where-filters, whose unit, why): translated when shown."""


def label_in(action: Any, seat: str | None, english: str, lang: str) -> str:
    """The label of a choice in ``lang``, rendered from the message the rules keep with it (``action`` and
    ``seat``: the terminal part's signature; the message alone says it all)."""
    return words_in(english, names(lang))


def prompt_in(view: dict[str, Any], seat: str | None, english: str, lang: str) -> str:
    """The prompt of the decision in ``lang``, rendered from the message the rules keep with it."""
    return words_in(english, names(lang))


def outcome_detail_in(log: list[Any], lang: str) -> str | None:
    """Why the game ended (the detail of the log's game-over entry) in ``lang``; None for an old, English log."""
    for e in reversed(log):
        if isinstance(e, dict) and e.get("m") == "Game over: {winner.gen} victory. {detail}":
            detail = (e.get("a") or {}).get("detail")
            return render(detail, names(lang)) if detail is not None else None
    return None


def reward_words(side: str, reward: Reward) -> list[dict[str, Any]]:
    """What an area tile gives ``side`` in Replenishment (rule 4.5), in the words of the log's reward lines, as
    printed on the tile (the log says what was actually placed)."""
    words = []
    if reward.supplies:
        words.append(entry("{n} Supply", "{n} Supplies", n=reward.supplies))
    if reward.morale:
        words.append(entry("{n} Morale", n=reward.morale))
    if reward.units:
        words.append(entry("{n} unit to the Camp", "{n} units to the Camp", n=reward.units) if side == IMPERIAL
                     else entry("{n} unit", "{n} units", n=reward.units))
    if reward.cannons:
        words.append(entry("a cannon to the Camp") if side == IMPERIAL
                     else entry("{n} cannon", "{n} cannons", n=reward.cannons))
    if reward.vasiladi:
        words.append(entry("{n} unit lands at {space}", "{n} units land at {space}", n=reward.vasiladi,
                           space=board().index["vas1"]))
    return words


def reward_text(side: str, reward: Reward, lang: str) -> str:
    """:func:`reward_words` as one line in ``lang``."""
    tile_names = names(lang)
    return ", ".join(render(e, tile_names) for e in reward_words(side, reward)) or tile_names.tr.gettext("nothing")
