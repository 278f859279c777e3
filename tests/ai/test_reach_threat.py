"""The evaluation's reach term: the fewest AP any Imperial unit needs to take a fort or a Beach space."""

from __future__ import annotations

from dataclasses import replace

import pytest

from muster.core import get_rules
from muster.games.freedom.board import board
from muster.games.freedom.bots import evaluation
from muster.games.freedom.bots.evaluation import DEFAULT, evaluate
from muster.games.freedom.state import State

RULES = get_rules("freedom")
REACH = replace(DEFAULT, reach_threat=10.0)
BY_AP = REACH.threat_by_ap


def _space(name: str) -> int:
    return board().ids.index(name)


def _lone_unit(at: str) -> State:
    """The opening set-up with every unit taken off the board but one Imperial unit at ``at``."""
    s: State = RULES.setup(1, {"quiet": "1"})
    for units in (s.exp, s.ally, s.ins):
        units[:] = [0] * len(units)
    s.exp[_space(at)] = 1
    return s


def _reach(s: State) -> float:
    return evaluate(s, REACH) - evaluate(s, replace(REACH, reach_threat=0.0))


def test_reach_is_off_in_the_plain_weights() -> None:
    # The default bots (and their golden games) do not read it.
    s = _lone_unit("r4c8")
    assert evaluate(s) == evaluate(s, replace(DEFAULT, reach_threat=0.0))
    assert DEFAULT.reach_threat == 0.0


def test_a_fort_one_slow_step_away() -> None:
    # rule 3.1: an Imperial unit in a fort at the end of the Action phase wins; rule 4.3.2: a Slow Movement
    # step onto the Wall costs 1 AP.
    assert _reach(_lone_unit("r4c8")) == pytest.approx(10.0 * BY_AP[1])


def test_defenders_on_the_way_cost_attacks() -> None:
    # Each Insurgent unit in a space on the way counts as two AP of attacks.
    s = _lone_unit("r4c8")
    open_wall = _reach(s)
    for name in ("w2", "w4", "w6", "w8", "w9", "b1", "b2", "b3", "b4"):
        s.ins[_space(name)] = 1
    held = _reach(s)
    assert 0.0 < held < open_wall
    for name in ("w2", "w4", "w6", "w8", "w9", "b1", "b2", "b3", "b4"):
        s.ins[_space(name)] = 3
    assert _reach(s) == 0.0  # no goal within the six AP the term looks at


def test_the_corner_of_the_wall_leads_to_the_beach() -> None:
    # W9 touches Beach 4: a unit in front of it, with the forts held, lands in two slow steps.
    s = _lone_unit("r4c9")
    for name in ("w2", "w4", "w6", "w8"):
        s.ins[_space(name)] = 3
    assert _reach(s) == pytest.approx(10.0 * BY_AP[2])


def test_a_unit_already_in_a_fort_is_left_to_the_capture_term() -> None:
    assert _reach(_lone_unit("w8")) == 0.0


def test_the_cache_gives_what_the_search_gives() -> None:
    s = _lone_unit("r5c5")
    first = _reach(s)
    evaluation._REACH.clear()
    assert _reach(s) == first


ISLANDS = replace(REACH, reach_islands=True)


def _reach_with(s: State, weights: evaluation.Weights) -> float:
    return evaluate(s, weights) - evaluate(s, replace(weights, reach_threat=0.0))


def test_units_around_vasiladi_reach_the_beach_through_the_island() -> None:
    # rule 4.3.2: Slow Movement steps into the Lagoon's spaces one at a time, islands included (an island only
    # while no Insurgent unit is on it). Vasiladi's roadstead touches nothing but the island, so without island
    # steps the three units the Sea lands there would count as out of reach.
    s = _lone_unit("vas1")
    assert _reach(s) == 0.0
    assert _reach_with(s, ISLANDS) == pytest.approx(10.0 * BY_AP[3])  # roadstead, island, Coast, Beach
    s.ins[_space("vasiladi")] = 1
    assert _reach_with(s, ISLANDS) == pytest.approx(10.0 * BY_AP[5])  # the island's defender: two AP of attacks


def test_the_spread_counts_each_route_the_defence_has_yet_to_block() -> None:
    # From Vasiladi, Beach 1, 2 and 3 are each two slow steps away (through Coast 2 or 3). The nearest goal alone
    # does not move until all three are blocked; with the spread, each blocked Beach space counts.
    spread = replace(ISLANDS, reach_spread=0.5)
    s = _lone_unit("vasiladi")
    nearest = _reach_with(s, ISLANDS)
    assert nearest == pytest.approx(10.0 * BY_AP[2])
    values = [_reach_with(s, spread)]
    for name in ("b1", "b2", "b3"):
        s.ins[_space(name)] = 1
        values.append(_reach_with(s, spread))
    assert values[0] > nearest
    assert values == sorted(values, reverse=True) and len(set(values)) == 4  # every block lowers it
    assert _reach_with(s, ISLANDS) < nearest  # only the third block moves the nearest goal


def test_the_spread_and_islands_are_off_in_the_plain_weights() -> None:
    assert DEFAULT.reach_spread == 0.0 and not DEFAULT.reach_islands
