"""4.4 Winter upkeep (1 Action per block outside friendly Cities) and 9.2.3 disbanding at the end of Winter."""

from __future__ import annotations

from muster.games.hellenes.datafiles import blocks
from muster.games.hellenes.rules.common import eliminate, in_friendly_place, is_winter, on_map, side_blocks
from muster.games.hellenes.state import State
from muster.i18n import entry


def needs_supply(s: State, side: str) -> list[str]:
    """Blocks that would disband at the end of Winter unless supplied now."""
    out: list[str] = []
    if not is_winter(s):
        return out
    units, supplied = s.units, s.supplied
    for b, _, _ in side_blocks(s, side)[0]:
        u = units[b]
        if u.carrier is None and u.token not in supplied and not in_friendly_place(s, b):
            out.append(b)
    return out


def supply(s: State, bid: str) -> None:
    """4.4: 1 Action supplies one block for the Winter (its passenger with it)."""
    s.supplied.append(s.units[bid].token)
    for u in s.units.values():
        if u.carrier == bid:
            s.supplied.append(u.token)
    s.say("{side} supplies a block for the Winter.", side=blocks()[bid].side)


def disband(s: State) -> None:
    """9.2.3: every unsupplied block outside a friendly City returns to the Pool."""
    gone = {"athens": 0, "sparta": 0}
    for b in on_map(s):
        if s.units[b].area is not None and not in_friendly_place(s, b) and s.units[b].token not in s.supplied:
            gone[blocks()[b].side] += 1
            eliminate(s, b)
    s.supplied = []
    s.say("Winter: Athens disbands {athens}, Sparta {sparta}.",
          athens=entry("{n} block", "{n} blocks", n=gone["athens"]),
          sparta=entry("{n} block", "{n} blocks", n=gone["sparta"]))
