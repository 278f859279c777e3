"""Rule 4.3 Actions: turn order, 4.3.1 Events, 4.3.2 Action Points and triggers, End of Action Phase."""

from __future__ import annotations

import pytest
from rulekit import (
    act,
    acts,
    ap_left,
    args,
    card_turn,
    clear_board,
    give_card,
    idx,
    new_state,
    place,
    play_ap,
    run,
    track,
    units,
    verbs,
)

from muster.games.freedom import RULES
from muster.games.freedom.constants import IMPERIAL, INSURGENT, SEATS
from muster.games.freedom.engine import frame
from muster.games.freedom.rules.common import area_index


@pytest.mark.parametrize(("imp", "ins", "first"), [(15, 10, IMPERIAL), (10, 10, IMPERIAL), (9, 10, INSURGENT)])
def test_highest_morale_goes_first(imp: int, ins: int, first: str) -> None:
    # rule 4.3: the player with the highest Morale goes first; a tie: the Imperial player
    s = new_state()
    s.tracks[IMPERIAL]["morale"], s.tracks[INSURGENT]["morale"] = imp, ins
    run(s, frame("action_phase"))
    assert RULES.active_seat(s) == first
    assert s.first == first


def test_players_alternate_seven_cards_each() -> None:
    # rule 4.3 / End of Action Phase: players alternate; after 7 cards each the phase is over, 1 card stays in hand
    s = new_state()
    run(s, frame("action_phase"), frame("action_phase_end"))
    order = []
    while s.stack and s.stack[-1]["kind"] in ("card_turn", "ap", "final_trigger"):
        seat = RULES.active_seat(s)
        kind = s.stack[-1]["kind"]
        if kind == "card_turn":
            order.append(seat)
            act(s, "ap", s.hands[seat][0])
        elif kind == "ap":
            act(s, "end")
        else:
            act(s, "pass")
    assert order == [IMPERIAL, INSURGENT] * 7
    assert s.played == {IMPERIAL: 7, INSURGENT: 7}
    assert len(s.hands[IMPERIAL]) == len(s.hands[INSURGENT]) == 1


# --- 4.3.1 Playing a card as an Event -----------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "card", "event_allowed"),
    [
        (IMPERIAL, 30, True),  # red: Imperial
        (IMPERIAL, 4, False),  # blue: Insurgent only
        (INSURGENT, 4, True),
        (INSURGENT, 30, False),
        (IMPERIAL, 48, True),  # grey: either side
        (INSURGENT, 48, True),
    ],
)
def test_event_only_for_the_favoured_side(seat: str, card: int, event_allowed: bool) -> None:
    # rule 4.3.1: an Event may be played only if beneficial to the player's side or neutral; AP always
    s = card_turn(new_state(), seat, card)
    offered = {a.verb for a in RULES.legal_actions(s) if a.arg == card}
    assert offered == ({"event", "ap"} if event_allowed else {"ap"})


def test_fleets_departure_example() -> None:
    # rule 4.3.1 Example: Fleet's Departure: +1 Imperial Support at Sea, Kryoneri and Petalas.
    # Petalas (3 Insurgent markers) loses one; the Sea (2 Insurgent markers) loses one; Kryoneri gains one.
    s = new_state()
    sea, petalas, kryoneri = area_index("sea"), area_index("petalas"), area_index("kryoneri")
    assert (s.area_side[petalas], s.area_markers[petalas]) == (INSURGENT, 3)
    assert (s.area_side[sea], s.area_markers[sea]) == (INSURGENT, 2)
    assert (s.area_side[kryoneri], s.area_markers[kryoneri]) == (IMPERIAL, 2)
    card_turn(s, IMPERIAL, 30)
    act(s, "event", 30)
    assert (s.area_side[petalas], s.area_markers[petalas]) == (INSURGENT, 2)
    assert (s.area_side[sea], s.area_markers[sea]) == (INSURGENT, 1)
    assert (s.area_side[kryoneri], s.area_markers[kryoneri]) == (IMPERIAL, 3)
    assert 30 not in s.hands[IMPERIAL] and 30 in s.discards["A"]
    assert RULES.active_seat(s) == INSURGENT  # the event was the whole turn


# --- 4.3.2 Playing a card for its Action Points ----------------------------------------------------


def test_ap_equal_the_printed_number_and_event_is_ignored() -> None:
    # rule 4.3.2: the event text is ignored; the number in the corner gives the AP
    s = new_state()
    sea = area_index("sea")
    play_ap(s, IMPERIAL, 30)
    assert s.stack[-1]["kind"] == "ap" and ap_left(s) == 4
    assert s.area_markers[sea] == 2  # Fleet's Departure did not happen


def test_unspent_ap_are_lost() -> None:
    # rule 4.3.2: the AP serve this turn only (store them with Preparation); ending the turn loses the rest
    s = new_state()
    play_ap(s, IMPERIAL, 30)
    act(s, "end")
    assert RULES.active_seat(s) == INSURGENT
    assert track(s, IMPERIAL, "preparation") == 0


def test_marsh_diseases_and_grenades_example() -> None:
    # rule 4.3.2 Example: the Imperial player plays Marsh Diseases (blue) for AP; on the next turn the
    # Insurgent discards Grenades to apply Marsh Diseases; the Imperial player cannot use Grenades' event.
    s = new_state()
    give_card(s, INSURGENT, 89)
    play_ap(s, IMPERIAL, 4)
    assert ap_left(s) == 2
    act(s, "end")
    assert RULES.active_seat(s) == INSURGENT
    assert {a.arg for a in RULES.legal_actions(s) if a.verb == "trigger"} == set(s.hands[INSURGENT])
    hand = len(s.hands[INSURGENT])
    act(s, "trigger", 89)
    assert len(s.hands[INSURGENT]) == hand - 1 and 89 in s.discards["B"]
    # Marsh Diseases: 2 Imperial units not in Row 4 return to the Camp
    camp = s.exp[idx("camp")]
    acts(s, ("unit", "r6c1"), ("unit", "r6c2"))
    assert s.exp[idx("camp")] == camp + 2
    assert units(s, "r6c1") == (1, 0, 0) and units(s, "r6c2") == (1, 0, 0)
    # the Imperial turn: Grenades was discarded, not played for AP, so no trigger
    assert RULES.active_seat(s) == IMPERIAL
    assert "trigger" not in verbs(s)
    assert s.trigger is None


def test_trigger_lapses_if_not_used_at_once() -> None:
    # rule 4.3.2: the option exists only during the opponent's immediately following turn
    s = new_state()
    play_ap(s, IMPERIAL, 4)
    act(s, "end")
    assert "trigger" in verbs(s)
    give_card(s, INSURGENT, 5)  # blue: played for AP it offers nothing to the Imperial player
    act(s, "ap", 5)
    act(s, "end")
    give_card(s, IMPERIAL, 30)  # red: nothing for the Insurgent either
    act(s, "ap", 30)
    act(s, "end")
    assert RULES.active_seat(s) == INSURGENT
    assert "trigger" not in verbs(s)


@pytest.mark.parametrize("card", [30, 48])
def test_own_colour_or_grey_card_for_ap_gives_no_trigger(card: int) -> None:
    # rule 4.3.2: only an Event beneficial to the opponent may be taken by the opponent (grey is neutral)
    s = new_state()
    play_ap(s, IMPERIAL, card)
    act(s, "end")
    assert RULES.active_seat(s) == INSURGENT
    assert "trigger" not in verbs(s)


def test_units_of_both_sides_never_share_a_space() -> None:
    # rule 4.3.2: there may never be units of both players in the same space
    s = clear_board(new_state())
    place(s, "r5c5", exp=1)
    place(s, "w5", ins=1)
    place(s, "w6", ins=1)
    place(s, "w4", ins=1)
    place(s, "r4c4", exp=1)
    play_ap(s, IMPERIAL, 30)
    acts(s, ("move",), ("from", "r5c5"))
    assert args(s, "to").isdisjoint({"w4", "w5", "w6"})
    s2 = clear_board(new_state())
    place(s2, "w3", exp=1, damage=2)
    place(s2, "w5", ins=1)
    play_ap(s2, INSURGENT, 30)
    acts(s2, ("regroup",), ("from", "w5"))
    assert "w3" not in args(s2, "to")


# --- End of Action Phase ----------------------------------------------------------------------


def test_first_player_may_discard_the_last_card_for_the_final_event() -> None:
    # rule 4.3 End of Action Phase: the second player's last card, played for AP, shows an Event of the
    # first player: the first player (7 cards played) may discard the last card to apply it
    s = new_state()
    s.first = IMPERIAL
    s.played = {IMPERIAL: 7, INSURGENT: 6}
    give_card(s, INSURGENT, 30)
    s.hands[IMPERIAL] = s.hands[IMPERIAL][:1]
    last = s.hands[IMPERIAL][0]
    sea = area_index("sea")
    s.stack = []
    run(s, frame("card_turn", seat=INSURGENT), frame("action_phase_end"))
    act(s, "ap", 30)
    act(s, "end")
    assert s.stack[-1]["kind"] == "final_trigger" and RULES.active_seat(s) == IMPERIAL
    assert verbs(s) == {"trigger", "pass"}
    act(s, "trigger", last)
    assert s.hands[IMPERIAL] == []
    assert s.area_markers[sea] == 1  # Fleet's Departure applied for the Imperial player


def test_no_final_trigger_without_such_a_card() -> None:
    # rule 4.3 End of Action Phase: the option exists only after an opponent-favouring card played for AP
    s = new_state()
    s.first = IMPERIAL
    s.played = {IMPERIAL: 7, INSURGENT: 6}
    give_card(s, INSURGENT, 4)
    s.hands[IMPERIAL] = s.hands[IMPERIAL][:1]
    run(s, frame("card_turn", seat=INSURGENT), frame("action_phase_end"))
    act(s, "ap", 4)
    act(s, "end")
    assert not s.stack
    assert len(s.hands[IMPERIAL]) == 1
    assert all(p == 7 for p in (s.played[seat] for seat in SEATS))


def test_event_support_at_the_limit_has_no_effect() -> None:
    # rule 4.3.2 Support Area: an area with 5 markers takes no more (the event's other parts still apply)
    s = new_state()
    kryoneri = area_index("kryoneri")
    s.pools["support_markers"] -= 5 - s.area_markers[kryoneri]
    s.area_markers[kryoneri] = 5
    card_turn(s, IMPERIAL, 30)
    act(s, "event", 30)
    assert s.area_markers[kryoneri] == 5
    assert s.area_markers[area_index("sea")] == 1


def test_event_removal_gives_no_morale_choice() -> None:
    # rule 4.3.1 (Abandoned Cause, 33A): the Imperial player removes an Insurgent unit of his choice; removals by
    # events are not attacks, so the last unit of a space gives no Morale choice (rule 4.3.2 Attack)
    s = clear_board(new_state())
    place(s, "w5", ins=1)
    place(s, "klisova", ins=1)
    card_turn(s, IMPERIAL, 33)
    act(s, "event", 33)
    assert args(s, "remove") == {"w5", "klisova"}
    act(s, "remove", "klisova")
    assert units(s, "klisova") == (0, 0, 0)
    assert RULES.active_seat(s) == INSURGENT and s.stack[-1]["kind"] == "card_turn"
    assert track(s, IMPERIAL, "morale") == 15 and track(s, INSURGENT, "morale") == 10
