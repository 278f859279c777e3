"""Bad answers inside an event are refused with a clear error and change nothing."""

from __future__ import annotations

import pytest
from cardkit import play_event, position

from muster.core.interface import Action, IllegalActionError
from muster.games.freedom import RULES


@pytest.mark.parametrize(
    ("number", "seat", "bad"),
    [
        (9, "insurgent", Action("pick", "r6c1")),  # 9A: Row 6 is not Row 4 or 5
        (19, "imperial", Action("pick", "r4c3")),  # 19A: only Wall sections can be damaged
        (2, "insurgent", Action("from", "w1")),  # 2A: no Imperial unit next to Wall section 1
        (14, "insurgent", Action("area", "atlantis")),  # 14A: no such area
        (41, "imperial", Action("pick", "vasiladi")),  # 41A: an island is not Lagoon water
        (20, "insurgent", Action("to", "r4c1")),  # 20A: new units stand in the City or on islands
    ],
)
def test_an_illegal_answer_changes_nothing(number: int, seat: str, bad: Action) -> None:
    # rule 4.3.1: an event's choices are made among its legal options only
    s = position("A")
    play_event(s, seat, number, [])
    before = RULES.to_json(s)
    with pytest.raises(IllegalActionError, match="illegal action"):
        RULES.apply(s, bad)
    assert RULES.to_json(s) == before
