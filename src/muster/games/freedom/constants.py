"""Names shared by every module of Freedom!: the two seats and the cannon codes."""

from __future__ import annotations

from typing import Final

IMPERIAL: Final = "imperial"
INSURGENT: Final = "insurgent"
SEATS: Final = (IMPERIAL, INSURGENT)

# What stands in a space's cannon slot (one cannon per space; the Camp keeps a count instead).
NO_CANNON: Final = 0
IMPERIAL_CANNON: Final = 1
INSURGENT_CANNON: Final = 2
BOMBARD: Final = 3

RED, BLUE, GREY = "red", "blue", "grey"
"""Card colours: red favours the Imperial player, blue the Insurgent, grey either."""

COLOUR_OF_SEAT: Final = {IMPERIAL: RED, INSURGENT: BLUE}


def other(seat: str) -> str:
    """The opponent of a seat."""
    return INSURGENT if seat == IMPERIAL else IMPERIAL


def cannon_owner(code: int) -> str | None:
    """Which side a cannon code belongs to."""
    if code == IMPERIAL_CANNON:
        return IMPERIAL
    if code in (INSURGENT_CANNON, BOMBARD):
        return INSURGENT
    return None
