"""2.1 (PUBLIC) the end of a Season; the fifth Season is Winter (9.2.3 disbanding); after the last Winter
the scenario ends."""

from __future__ import annotations

from muster.games.hellenes.engine import auto, frame, push
from muster.games.hellenes.rules.siege import upkeep
from muster.games.hellenes.rules.winter import disband
from muster.games.hellenes.state import Frame, State


@auto("season_end")
def season_end(s: State, f: Frame) -> None:
    """Close the Season; after Winter, the next Year (or the end)."""
    s.revealed = {"athens": None, "sparta": None}
    if s.season == 4:
        disband(s)
        upkeep(s)
        if s.year - 1 <= 431 - s.years:
            push(s, frame("game_end"))
        else:
            s.year -= 1  # years BC count down
            push(s, frame("new_year"))
    else:
        push(s, frame("season"))
