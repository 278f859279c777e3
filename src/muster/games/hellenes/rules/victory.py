"""14.0 Prestige and Victory (DESIGN, digest 2.8): one signed track; Tribute at New Year; sudden death by
taking the enemy capital or a lead of 10 at a Victory Check; otherwise the sign of the track at the end."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from muster.games.hellenes.datafiles import design, scenario
from muster.games.hellenes.engine import auto
from muster.games.hellenes.rules.common import SEATS, city_lists, gain_prestige, other, set_control
from muster.games.hellenes.state import Frame, State
from muster.games.hellenes.texts import english
from muster.i18n import entry


def end_game(s: State, winner: str, reason: str, detail: dict[str, Any]) -> None:
    """Record the result (its detail in English words; the log's line in each reader's language); the engine
    clears the stack."""
    s.result = {"winner": winner, "reason": reason, "detail": _english(detail)}
    s.say("{winner} wins: {detail}", winner=winner, detail=detail)


def _english(detail: dict[str, Any]) -> str:
    """A result's detail in English words: the few there are, rendered once each (a game's end in a playout
    need not render the message again)."""
    try:
        return _english_of(detail["m"], detail.get("p"), tuple(sorted(detail["a"].items())))
    except TypeError:  # an argument that cannot be a key
        return english(detail)


@lru_cache(maxsize=512)
def _english_of(msgid: str, plural: str | None, args: tuple[tuple[str, Any], ...]) -> str:
    return english(entry(msgid, plural, **dict(args)))


def tribute(s: State) -> None:
    """Tribute: +1 Prestige per City a side holds that is loyal to the enemy."""
    per = design()["prestige"]["tribute_per_city"]
    captured = city_lists(s)[2]  # the Cities held against their loyalty to the other side, in control order
    for side in SEATS:
        held = 0
        for area in captured:
            if s.control[area] == side:
                held += 1
        if held:
            gain_prestige(s, side, held * per,
                          entry("Tribute from {n} enemy City", "Tribute from {n} enemy Cities", n=held))


def victory_check(s: State) -> bool:
    """The New-Year Victory Check: a lead of ``lead_to_win`` ends the game. True if it did."""
    lead = design()["prestige"]["lead_to_win"]
    if abs(s.prestige) >= lead:
        winner = "sparta" if s.prestige > 0 else "athens"
        end_game(s, winner, "prestige_lead", entry("a Prestige lead of {n} at the Victory Check", n=abs(s.prestige)))
        return True
    return False


def capital_taken(s: State, area: str, side: str) -> bool:
    """Sudden death: taking the enemy capital wins at once. True if it did."""
    if design()["capitals"][other(side)] == area:
        end_game(s, side, "capital", entry("{side} takes the enemy capital", side=side))
        return True
    return False


@auto("game_end")
def game_end(s: State, f: Frame) -> None:
    """After the last Winter: Tribute once more, then the sign of the track decides (a tie: ``tie_winner``)."""
    tribute(s)
    if s.prestige == 0:
        end_game(s, scenario().tie_winner, "tie",
                 entry("the Prestige track is level at the end (a tie goes to Athens)"))
    else:
        winner = "sparta" if s.prestige > 0 else "athens"
        end_game(s, winner, "prestige_end",
                 entry("Prestige {prestige} at the end of the scenario", prestige=s.prestige))


def capture(s: State, area: str, side: str) -> None:
    """A City falls: control changes, the Siege and any garrison go, +1 Prestige; the enemy capital wins."""
    set_control(s, area, side)
    s.sieges.pop(area, None)
    if area in s.garrison:
        s.garrison.remove(area)
    s.militia[area] = 0
    s.say("{side} takes {city}.", side=side, city=area)
    gain_prestige(s, side, design()["prestige"]["capture"], entry("taking {city}", city=area))
    capital_taken(s, area, side)
