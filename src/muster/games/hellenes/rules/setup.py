"""15 (DESIGN scenario "431: the Archidamian War opens"): the starting position from data/scenario_431.json."""

from __future__ import annotations

from functools import cache

from muster.core import rng
from muster.games.hellenes.datafiles import blocks, game_map, scenario
from muster.games.hellenes.engine import advance, frame, push
from muster.games.hellenes.rules.common import cities_changed, occupancy, place
from muster.games.hellenes.state import Block, State


def setup(seed: int, years: int = 3, quiet: bool = False) -> State:
    """A new game of the 431 scenario lasting ``years`` Years (1–3)."""
    s = _opening().clone()  # every game starts from the same position: built once, copied
    s.seed, s.rng, s.quiet = seed, rng.seed_state(seed), quiet
    s.years = years
    s.say("{scenario}: {n} Year from {year} BC.", "{scenario}: {n} Years from {year} BC.", scenario=scenario().title,
          n=years, year=s.year)
    push(s, frame("new_year"))
    advance(s)
    return s


@cache
def _opening() -> State:
    """The scenario's starting position before the first New Year (no seed, no log): read-only, copied by
    :func:`setup`."""
    sc, g = scenario(), game_map()
    s = State()
    s.year = sc.first_year
    s.units = {bid: Block() for bid in blocks()}
    for area, city in g.cities.items():
        s.loyal[area] = sc.loyal.get(area, city.loyal)
        if city.loyal != "neutral":
            s.control[area] = sc.control.get(area, city.loyal)
    for bid, (area, cv) in sc.blocks.items():
        place(s, bid, area, cv, "setup")
    for bid, (area, cv) in sc.inside.items():
        place(s, bid, area, cv, "setup", inside_city=True)
    held_inside = {u.area for u in s.units.values() if u.inside}
    for area, city in g.cities.items():
        # DESIGN 7.2: a loyal City with none of its side's blocks inside defends itself with its Militia
        holder = s.control.get(area)
        occupied = area in held_inside
        s.militia[area] = city.value if holder is not None and holder == s.loyal[area] and not occupied else 0
    for area, siege in sc.sieges.items():
        s.sieges[area] = {"since": -1 if siege.established else 0, "by": siege.besieger}
    s.prestige = sc.prestige
    s.leaders = {str(k): v for k, v in sc.leaders.items()}
    s.deck = [c for c in range(1, 31)]
    cities_changed(s)  # control and loyalty written directly above
    occupancy(s)  # counted once: the copies share it until a block moves
    return s
