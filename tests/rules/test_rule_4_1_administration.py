"""Rule 4 (round overview) and rule 4.1 Administration."""

from __future__ import annotations

import pytest
from rulekit import act, args, new_state, run, track

from muster.games.freedom.constants import IMPERIAL, INSURGENT, SEATS
from muster.games.freedom.engine import frame
from muster.games.freedom.state import State


def _end_of_round(round_: int, keep: int = 1) -> State:
    """Both players hold ``keep`` cards, as after an Action phase."""
    s = new_state()
    s.round = round_
    for seat in SEATS:
        s.discards["A"].extend(s.hands[seat][keep:])
        s.hands[seat] = s.hands[seat][:keep]
    return s


def test_round_has_five_phases_in_order() -> None:
    # rule 4: Administration, Opening, Actions, Cannons, Replenishment
    s = _end_of_round(1)
    run(s, frame("round"))
    assert s.round == 2  # Administration ran
    kinds = [f["kind"] for f in reversed(s.stack)]
    assert kinds[0] == "select" and s.stack[-1]["op"] == "advance"  # Opening: the Imperial advance
    assert kinds[1] == "select" and s.stack[-2]["op"] == "opening_regroup"  # then the Insurgent Regroup
    assert kinds[2:] == ["action_phase", "action_phase_end", "cannons_phase", "replenishment", "round_end"]


def test_round_marker_advances_and_hands_refill_from_period_a() -> None:
    # rule 4.1: move the Round marker; each player refills the hand to 8 from the current pile (A in rounds 2-3)
    s = _end_of_round(1)
    deck_before = len(s.decks["A"])
    kept = {seat: list(s.hands[seat]) for seat in SEATS}
    run(s, frame("administration"))
    assert s.round == 2
    for seat in SEATS:
        assert len(s.hands[seat]) == 8
        assert set(kept[seat]) <= set(s.hands[seat])
        assert all(n <= 50 for n in s.hands[seat])
    assert len(s.decks["A"]) == deck_before - 14
    assert track(s, IMPERIAL, "morale") == 15


def test_empty_hand_draws_eight() -> None:
    # rule 4.3 End of Action Phase / 4.1: a player who discarded the last card draws 8 instead of 7
    s = _end_of_round(2)
    s.discards["A"].extend(s.hands[IMPERIAL])
    s.hands[IMPERIAL] = []
    deck_before = len(s.decks["A"])
    run(s, frame("administration"))
    assert len(s.hands[IMPERIAL]) == len(s.hands[INSURGENT]) == 8
    assert len(s.decks["A"]) == deck_before - 15


@pytest.mark.parametrize(("round_", "loss"), [(1, 0), (2, 0), (4, 1), (5, 1)])
def test_imperial_morale_lost_in_rounds_five_and_six(round_: int, loss: int) -> None:
    # rule 4.1: in the 5th and 6th round, after moving the Round marker, Imperial Morale -1
    s = _end_of_round(round_)
    run(s, frame("administration"))
    assert s.round == round_ + 1
    assert track(s, IMPERIAL, "morale") == 15 - loss
    assert track(s, INSURGENT, "morale") == 10


def test_round_three_to_four_costs_no_morale_and_switches_to_period_b() -> None:
    # rule 4.1 IMPORTANT: in round 4 both discard the Period A cards left in hand and draw 8 from Period B
    s = _end_of_round(3)
    old = {seat: list(s.hands[seat]) for seat in SEATS}
    run(s, frame("administration"))
    assert s.round == 4
    while s.stack and s.stack[-1]["kind"] == "place_allied":
        act(s, "to", sorted(args(s, "to"))[0])  # rule 5: the Allied units arrive first
    assert track(s, IMPERIAL, "morale") == 15
    for seat in SEATS:
        assert len(s.hands[seat]) == 8
        assert all(n > 50 for n in s.hands[seat])
        assert set(old[seat]) <= set(s.discards["A"])
    assert len(s.decks["B"]) == 50 - 16


def test_round_five_morale_loss_can_end_the_game() -> None:
    # rule 4.1 with rule 3.2: the round-5 Morale loss taking the Imperial Morale to 0 ends the game at once
    s = _end_of_round(4)
    s.tracks[IMPERIAL]["morale"] = 1
    run(s, frame("administration"))
    assert s.result is not None and s.result["winner"] == INSURGENT
    assert len(s.hands[IMPERIAL]) == 1  # no cards drawn after the end
