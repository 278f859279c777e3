"""Rule 3, Goal of the Game: 3.1 Imperial and 3.2 Insurgent win conditions."""

from __future__ import annotations

import pytest
from rulekit import act, acts, clear_board, d8, force_dice, idx, new_state, place, play_ap, run, track

from muster.games.freedom import RULES
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.engine import frame


def _end_of_actions(space: str) -> str | None:
    s = clear_board(new_state())
    place(s, space, exp=1)
    place(s, "w5", ins=1)
    run(s, frame("action_phase_end"))
    return s.result["reason"] if s.result else None


@pytest.mark.parametrize("fort", ["w2", "w4", "w6", "w8"])
def test_imperial_unit_in_a_fort_at_end_of_action_phase_wins(fort: str) -> None:
    # rule 3.1: Imperial units in any of the 4 forts at the end of the Action phase
    assert _end_of_actions(fort) == "fort"


@pytest.mark.parametrize("beach", ["b1", "b2", "b3", "b4"])
def test_imperial_unit_in_row_2_at_end_of_action_phase_wins(beach: str) -> None:
    # rule 3.1: Imperial units in any space of the southern beach part of the City (Row 2)
    assert _end_of_actions(beach) == "beach"


@pytest.mark.parametrize("space", ["w1", "w3", "w5", "w9", "r4c5", "c3", "vasiladi"])
def test_other_spaces_do_not_win(space: str) -> None:
    # rule 3.1: an ordinary Wall section, the mainland, Row 1 or an island is not a capture
    assert _end_of_actions(space) is None


def test_fort_entered_during_the_action_phase_does_not_win_at_once() -> None:
    # rule 3.1: the check is made at the end of the Action phase, not when the fort is entered
    s = clear_board(new_state())
    place(s, "r4c4", exp=1)
    place(s, "w4", damage=2)
    place(s, "w1", ins=1)
    play_ap(s, IMPERIAL, 42)  # Stone Cannon Balls, 2 AP
    acts(s, ("slow",), ("from", "r4c4"), ("to", "w4"))
    assert s.exp[idx("w4")] == 1
    assert s.result is None
    assert RULES.active_seat(s) == IMPERIAL


def test_insurgent_morale_zero_imperial_wins_immediately() -> None:
    # rule 3.1: the Insurgent Morale drops to zero -> Imperial victory, at once
    s = new_state()
    s.tracks[INSURGENT]["morale"] = 1
    run(s, frame("morale_choice", seat=IMPERIAL), frame("cannons_phase"))
    act(s, "morale", "enemy")
    assert track(s, INSURGENT, "morale") == 0
    assert RULES.outcome(s) is not None
    assert RULES.outcome(s).winner == IMPERIAL  # type: ignore[union-attr]
    assert s.result == {"winner": IMPERIAL, "reason": "insurgent_morale", "detail": "Insurgent Morale fell to 0."}
    assert RULES.active_seat(s) is None and RULES.legal_actions(s) == []


def test_imperial_morale_zero_insurgent_wins_immediately() -> None:
    # rule 3.2: the Imperial Morale drops to zero -> Insurgent victory, at once
    s = clear_board(new_state())
    s.tracks[IMPERIAL]["morale"] = 1
    place(s, "w5", ins=1)
    place(s, "r4c5", exp=1)
    play_ap(s, INSURGENT, 38)  # Aqueduct Destroyed, 3 AP
    force_dice(s, *d8(6))
    acts(s, ("attack",), ("from", "w5"), ("to", "r4c5"), ("morale", "enemy"))
    assert s.result is not None and s.result["winner"] == INSURGENT
    assert s.result["reason"] == "imperial_morale"
    assert RULES.active_seat(s) is None


def test_insurgent_wins_after_round_six() -> None:
    # rule 3.2: the Imperial player has not won by the end of the sixth round
    s = new_state()
    s.round = 6
    run(s, frame("round_end"))
    assert s.result is not None
    assert s.result["winner"] == INSURGENT and s.result["reason"] == "survival"


def test_game_goes_on_after_round_five() -> None:
    # rule 3.2: before the end of round 6 the game continues into the next round
    s = new_state()
    s.round = 5
    run(s, frame("round_end"))
    assert s.result is None
    assert s.round == 6


def test_morale_track_top() -> None:
    # rules 3.1/3.2 Morale track; DESIGN (digest §1): the track ends at 20, a gain beyond it is lost
    s = new_state()
    s.tracks[IMPERIAL]["morale"] = 20
    run(s, frame("morale_choice", seat=IMPERIAL))
    act(s, "morale", "own")
    assert track(s, IMPERIAL, "morale") == 20
