"""Every word the analysis shows players, in one place so it can be translated.

The texts are English message ids (marked with ``N_``); :func:`reason_in` and :func:`side_in` give them in
another language when shown.
"""

from __future__ import annotations

import re
from typing import Any

from muster.games.freedom.texts import names
from muster.i18n import N_, stored_label, translator

TERM_GAINS: dict[str, dict[str, str]] = {
    "forces": {"imperial": N_("brings more Imperial strength to bear on the Wall"),
               "insurgent": N_("keeps the garrison strong against the assault")},
    "wall": {"imperial": N_("batters the Wall or gains a foothold on it"),
             "insurgent": N_("keeps the Wall and the forts manned")},
    "economy": {"imperial": N_("keeps Money and Supplies above the upkeep"),
                "insurgent": N_("keeps Supplies above the Population's needs")},
    "morale": {"imperial": N_("wears down Insurgent Morale"), "insurgent": N_("wears down Imperial Morale")},
    "areas": {"imperial": N_("wins control of the areas"), "insurgent": N_("holds the areas")},
    "lagoon": {"imperial": N_("threatens a landing on the Beach"), "insurgent": N_("keeps the Beach blocked")},
}
"""Per evaluation term, what gaining on it means for each side (the hint's reason)."""

LOW_MORALE = N_("{side} Morale {morale} is one blow from collapse")
"""Added to a hint when the opponent's Morale is this low after the move."""

SIDE = {"imperial": N_("Imperial"), "insurgent": N_("Insurgent")}
STRONGEST_PICK = N_("the strongest bot's choice")
NO_CHANGE = N_("changes little on the board")
WINS = N_("wins the game")
HINT_HEADER = N_("Hints (estimated win chance for {side} after this choice):")
HINTS_OFF = N_("Hints are off in this game.")
NOT_BETTER = N_("By the estimate, the strongest bot's choice was no better here than the move played.")
BETTER = N_("By the estimate, the strongest bot's choice was better for this side.")
LUCK = N_("The swing was mostly luck: the dice and the cards that followed moved the chance more than the "
          "choice itself did.")
PLOT_TITLE = N_("Imperial win chance, card by card")
PLOT_X = N_("card")
PLOT_Y = N_("Imperial win chance")



def turning_note(better: bool, luck: bool, lang: str = "en") -> str:
    """A turning point's verdict in words of ``lang``: was there a better choice, and was the swing the
    choice's doing or luck's."""
    tr = translator(lang)
    return " ".join(tr.gettext(m) for m in [BETTER if better else NOT_BETTER, *([LUCK] if luck else [])])


_LOW = re.compile(r"^(Imperial|Insurgent) Morale (\d+) is one blow from collapse$")


def side_in(seat: str, lang: str) -> str:
    """A side's name (Imperial / Insurgent) in ``lang``."""
    return translator(lang).gettext(SIDE.get(seat, seat))


def reason_in(reason: str, lang: str) -> str:
    """A hint's reason (English, parts joined by "; ") in ``lang``."""
    if lang == "en":
        return reason
    tr = translator(lang)
    parts = []
    for part in reason.split("; "):
        low = _LOW.match(part)
        if low:
            parts.append(tr.fmt(LOW_MORALE, side=tr.gettext(low.group(1)), morale=low.group(2)))
        else:
            parts.append(tr.gettext(part))
    return "; ".join(parts)


def label_in(item: dict[str, Any], lang: str) -> str:
    """The label of a choice stored as JSON in ``lang`` (see :func:`muster.i18n.stored_label`)."""
    return stored_label(item, names, lang)
