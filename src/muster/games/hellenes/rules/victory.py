"""14.0 Prestige and Victory (DESIGN, digest 2.8): one signed track; Tribute at New Year; sudden death by
taking the enemy capital or a lead of 10 at a Victory Check; otherwise the sign of the track at the end."""

from __future__ import annotations

from muster.games.hellenes.datafiles import design, scenario
from muster.games.hellenes.engine import auto
from muster.games.hellenes.rules.common import SEATS, gain_prestige, other, prestige_words
from muster.games.hellenes.state import Frame, State


def end_game(s: State, winner: str, reason: str, detail: str) -> None:
    """Record the result; the engine clears the stack."""
    s.result = {"winner": winner, "reason": reason, "detail": detail}
    s.say(f"{winner.title()} wins: {detail}")


def tribute(s: State) -> None:
    """Tribute: +1 Prestige per City a side holds that is loyal to the enemy."""
    per = design()["prestige"]["tribute_per_city"]
    for side in SEATS:
        held = sum(1 for area, holder in s.control.items() if holder == side and s.loyal.get(area) == other(side))
        if held:
            gain_prestige(s, side, held * per, f"Tribute from {held} enemy Cit{'y' if held == 1 else 'ies'}")


def victory_check(s: State) -> bool:
    """The New-Year Victory Check: a lead of ``lead_to_win`` ends the game. True if it did."""
    lead = design()["prestige"]["lead_to_win"]
    if abs(s.prestige) >= lead:
        winner = "sparta" if s.prestige > 0 else "athens"
        end_game(s, winner, "prestige_lead", f"a Prestige lead of {abs(s.prestige)} at the Victory Check")
        return True
    return False


def capital_taken(s: State, area: str, side: str) -> bool:
    """Sudden death: taking the enemy capital wins at once. True if it did."""
    if design()["capitals"][other(side)] == area:
        end_game(s, side, "capital", f"{side.title()} takes the enemy capital")
        return True
    return False


@auto("game_end")
def game_end(s: State, f: Frame) -> None:
    """After the last Winter: Tribute once more, then the sign of the track decides (a tie: ``tie_winner``)."""
    tribute(s)
    if s.prestige == 0:
        end_game(s, scenario().tie_winner, "tie", "the Prestige track is level at the end (a tie goes to Athens)")
    else:
        winner = "sparta" if s.prestige > 0 else "athens"
        end_game(s, winner, "prestige_end", f"Prestige {prestige_words(s.prestige)} at the end of the scenario")
