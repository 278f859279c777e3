"""The evaluation's Beach-threat term: how close the Imperial is to a Beach space nobody blocks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from muster.core import get_rules
from muster.games.freedom.board import board
from muster.games.freedom.bots.evaluation import DEFAULT, evaluate
from muster.games.freedom.state import State

RULES = get_rules("freedom")
THREAT = replace(DEFAULT, beach_threat=12.0)
STEPS = THREAT.threat_by_steps


def _space(name: str) -> int:
    return board().ids.index(name)


def _lagoon_position() -> State:
    """The opening set-up with Vasiladi emptied and an Expeditionary unit in the water beside it."""
    s: State = RULES.setup(1, {"quiet": "1"})
    s.ins[_space("vasiladi")] = 0
    s.exp[_space("vas1")] += 1
    return s


def _threat(s: State) -> float:
    return evaluate(s, THREAT) - evaluate(s, replace(THREAT, beach_threat=0.0))


def test_threat_grows_as_the_imperial_nears_an_open_beach() -> None:
    # rule 3.1: one Imperial unit on the Beach at the end of the Action phase wins; rule 4.3.2: Slow
    # Movement crosses the Lagoon a space per AP (vas1 → Vasiladi → c2 → b1: three steps).
    s = _lagoon_position()
    three = _threat(s)
    s.exp[_space("vas1")] -= 1
    s.exp[_space("c2")] += 1
    one = _threat(s)
    assert three == pytest.approx(12.0 * STEPS[3]) and one == pytest.approx(12.0 * STEPS[1])


def test_insurgent_units_block_the_route_and_the_beach() -> None:
    s = _lagoon_position()
    s.ins[_space("vasiladi")] = 1  # the island held: the only way out of vas1 is shut
    assert _threat(s) == pytest.approx(0.0)
    s = _lagoon_position()
    s.exp[_space("vas1")] -= 1
    s.exp[_space("c2")] += 1
    s.ins[_space("b1")] = s.ins[_space("b2")] = 1  # c2's two Beach spaces held: b3 is two steps away
    assert _threat(s) == pytest.approx(12.0 * STEPS[2])
    s.ins[_space("b3")] = s.ins[_space("b4")] = 1
    assert _threat(s) == pytest.approx(0.0)


def test_threat_is_off_by_default_for_the_heuristic() -> None:
    s = _lagoon_position()
    assert evaluate(s) == evaluate(s, replace(DEFAULT, beach_threat=0.0))

