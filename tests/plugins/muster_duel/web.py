"""Duel's web adapter: what the play shell needs that only Duel knows (it satisfies muster's ``WebAdapter``
by its shape; nothing here imports the server)."""

from __future__ import annotations

from typing import Any

from muster.core import Action
from muster_duel.rules import MOST_CARDS, NAMES, SEATS


class DuelWeb:
    """The static data, phase and (no) hints of Duel for the browser; its board module is ``static/board.js``."""

    def static_data(self) -> dict[str, Any]:
        """The cards (a number each) and the seats; Duel has no map."""
        return {"game": "duel", "title": "Duel", "spaces": [],
                "cards": [{"number": n, "name": str(n), "ap": n, "side": "any", "deck": "", "text": ""}
                          for n in range(1, MOST_CARDS + 1)],
                "seats": {s: {"name": NAMES[s], "colour": c} for s, c in zip(SEATS, ("blue", "red"), strict=True)}}

    def phase(self, view: dict[str, Any]) -> str:
        """``Trick 2 of 5``."""
        done = sum(view["tricks"].values())
        return f"Trick {min(done + 1, view['hand_size'])} of {view['hand_size']}"

    def hint(self, view: dict[str, Any], action: Action, seat: str | None) -> str:
        """Duel's choices need no hint."""
        return ""

    def decision_help(self, view: dict[str, Any]) -> str:
        """One line on the decision."""
        return "The higher card wins the trick; its winner leads the next."

    def warning(self, view: dict[str, Any], action: Action, seat: str | None, legal: list[Action]) -> str:
        """Nothing costs more than it says."""
        return ""

    def board_facts(self, view: dict[str, Any]) -> dict[str, dict[str, int]]:
        """Duel has no board spaces."""
        return {}

    def card_played(self, action: Action) -> int | None:
        """Picking keeps the card hidden and playing names none: no card is shown by an action itself."""
        return None

    def public_action(self, action: Action) -> list[Any]:
        """A pick hides which card; a play is public (the card shows on the table)."""
        return [action.verb, None]


ADAPTER = DuelWeb()
"""The adapter the game module names."""
