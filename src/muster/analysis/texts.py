"""Every word the analysis shows players, in one place so it can be translated."""

from __future__ import annotations

TERM_GAINS: dict[str, dict[str, str]] = {
    "forces": {"imperial": "brings more Imperial strength to bear on the Wall",
               "insurgent": "keeps the garrison strong against the assault"},
    "wall": {"imperial": "batters the Wall or gains a foothold on it",
             "insurgent": "keeps the Wall and the forts manned"},
    "economy": {"imperial": "keeps Money and Supplies above the upkeep",
                "insurgent": "keeps Supplies above the Population's needs"},
    "morale": {"imperial": "wears down Insurgent Morale", "insurgent": "wears down Imperial Morale"},
    "areas": {"imperial": "wins control of the areas", "insurgent": "holds the areas"},
    "lagoon": {"imperial": "threatens a landing on the Beach", "insurgent": "keeps the Beach blocked"},
}
"""Per evaluation term, what gaining on it means for each side (the hint's reason)."""

LOW_MORALE = "{side} Morale {morale} is one blow from collapse"
"""Added to a hint when the opponent's Morale is this low after the move."""

SIDE = {"imperial": "Imperial", "insurgent": "Insurgent"}
STRONGEST_PICK = "the strongest bot's choice"
NO_CHANGE = "changes little on the board"
HINT_HEADER = "Hints (estimated win chance for {side} after this choice):"
HINTS_OFF = "Hints are off in this game."
PLOT_TITLE = "Imperial win chance, card by card"
PLOT_X = "card"
PLOT_Y = "Imperial win chance"
