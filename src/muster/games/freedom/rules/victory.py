"""Rule 3, Goal of the Game: the Imperial capture check and the end of round 6."""

from __future__ import annotations

from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.datafiles import design
from muster.games.freedom.engine import auto, frame, push
from muster.games.freedom.rules.common import end_game, imperial_units, log, name, ruleset
from muster.games.freedom.state import Frame, State
from muster.i18n import entry


def capture(s: State) -> tuple[str, int] | None:
    """("fort" | "beach", space) if an Imperial unit stands in a fort or in Row 2 (rule 3.1)."""
    b = board()
    for i in b.forts:
        if imperial_units(s, i):
            return "fort", i
    for i in b.beaches:
        if imperial_units(s, i):
            return "beach", i
    return None


@auto("victory_check")
def victory_check(s: State, f: Frame) -> None:
    """2nd edition: checked at the end of the Action phase; 1st edition: at the end of the round."""
    if ruleset(s)["victory_check"] != f["when"]:
        return
    found = capture(s)
    if found:
        reason, i = found
        where = "a fort" if reason == "fort" else "the Beach (Row 2)"
        end_game(
            s,
            IMPERIAL,
            reason,
            f"Imperial units hold {where}: {name(i)}.",
            entry("Imperial units hold {what}: {space}.", what=where, space=i),
        )


@auto("round_end")
def round_end(s: State, f: Frame) -> None:
    """The end of a round: (1st edition) the capture check, then the next round or the end."""
    push(s, frame("round_over"))
    push(s, frame("victory_check", when="round"))


@auto("round_over")
def round_over(s: State, f: Frame) -> None:
    """After round 6 the Insurgents have held out (rule 3.2)."""
    if s.round >= design()["rounds"]:
        end_game(
            s,
            INSURGENT,
            "survival",
            f"Messolonghi holds out to the end of round {s.round}.",
            entry("Messolonghi holds out to the end of round {n}.", n=s.round),
        )
        return
    log(s, "Round {n} ends.", n=s.round)
    push(s, frame("round"))
