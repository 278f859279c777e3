"""Rule 4.3.2, Imperial Player's Actions, with the rulebook's worked examples."""

from __future__ import annotations

import pytest
from rulekit import (
    act,
    acts,
    ap_left,
    ap_turn_ended,
    args,
    board_with,
    card_turn,
    d6,
    d8,
    force_dice,
    idx,
    new_state,
    place,
    play_ap,
    set_area,
    track,
    units,
    verbs,
)

from muster.core.interface import IllegalActionError
from muster.games.freedom import RULES
from muster.games.freedom.constants import IMPERIAL, IMPERIAL_CANNON, INSURGENT
from muster.games.freedom.rules.common import area_index
from muster.games.freedom.state import State

# --- Normal Movement ---------------------------------------------------------------------------


def test_capture_of_petrohori_movement_example() -> None:
    # rule 4.3.2 Normal Movement Example: "Capture of Petrohori" for 2 AP: 2 units 1 space, then 1 unit 2 spaces
    s = board_with(("r6c2", {"exp": 2}), ("r6c6", {"exp": 1}), ("w1", {"ins": 1}))
    play_ap(s, IMPERIAL, 35)
    assert ap_left(s) == 2
    acts(s, ("move",), ("from", "r6c2"), ("to", "r5c2"))
    assert s.stack[-1]["op"] == "move_second"  # the second unit of the same AP
    assert "r5c2" not in args(s, "from")  # the unit that just moved may not move again
    acts(s, ("from", "r6c2"), ("to", "r6c3"))
    assert ap_left(s) == 1
    acts(s, ("move",), ("from", "r6c6"), ("to", "r4c6"))
    assert units(s, "r5c2") == units(s, "r6c3") == units(s, "r4c6") == (1, 0, 0)
    assert units(s, "r6c2") == units(s, "r6c6") == (0, 0, 0)
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


def test_normal_movement_never_backwards() -> None:
    # rule 4.3.2: any adjacent space except those behind (towards the Camp); sideways is allowed
    s = board_with(("r5c5", {"exp": 1}), ("w1", {"ins": 1}))
    play_ap(s, IMPERIAL, 35)
    acts(s, ("move",), ("from", "r5c5"))
    assert args(s, "to") == {"r4c5", "r5c4", "r5c6", "r4c4", "r4c6", "r5c3", "r5c7"}


def test_normal_movement_out_of_the_camp() -> None:
    # rule 4.3.2: a unit may move from the Camp to any adjacent space (and on, with 2 spaces)
    s = board_with(("camp", {"exp": 1}), ("w1", {"ins": 1}))
    play_ap(s, IMPERIAL, 35)
    acts(s, ("move",), ("from", "camp"))
    one_step = {"r8c6", "r8c7", "r8c8", "r8c9", "r7c9"}
    assert one_step <= args(s, "to")
    assert "r6c9" in args(s, "to") and "r8c5" in args(s, "to")


def test_cannons_do_not_move_with_units() -> None:
    # rule 4.3.2: cannons are not units and may not be moved
    s = board_with(("r6c4", {"exp": 1, "cannon": IMPERIAL_CANNON}), ("w1", {"ins": 1}))
    play_ap(s, IMPERIAL, 35)
    acts(s, ("move",), ("from", "r6c4"), ("to", "r4c4"))
    assert s.cannon[idx("r6c4")] == IMPERIAL_CANNON and s.cannon[idx("r4c4")] == 0


# --- Slow Movement ---------------------------------------------------------------------------------


def test_wall_entry_example_two_ap_two_units() -> None:
    # rule 4.3.2 Slow Movement Example: two Wall sections are destroyed, one of them unoccupied;
    # the Imperial player spends 2 AP and two units enter the Wall
    s = board_with(
        ("r4c4", {"exp": 1}),
        ("r4c5", {"exp": 2}),
        ("w3", {"ins": 1, "damage": 2}),
        ("w5", {"damage": 2, "cannon": 2}),  # a cannon on the section does not stop the move
        ("w4", {"ins": 1, "damage": 1}),
    )
    play_ap(s, IMPERIAL, 42)
    act(s, "slow")
    assert args(s, "from") == {"r4c5"}  # damaged w4 and occupied w3 cannot be entered
    acts(s, ("from", "r4c5"), ("to", "w5"), ("slow",), ("from", "r4c5"), ("to", "w5"))
    assert units(s, "w5") == (2, 0, 0)
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


def test_along_the_wall_regardless_of_damage() -> None:
    # rule 4.3.2: on the Wall, units move to adjacent Wall sections (even intact) without Insurgent units
    s = board_with(("w5", {"exp": 1, "damage": 2}), ("w4", {"ins": 1}), ("w1", {"ins": 1}))
    play_ap(s, IMPERIAL, 42)
    acts(s, ("slow",), ("from", "w5"))
    assert args(s, "to") == {"w6"}  # w4 holds an Insurgent unit; the mainland is not slow
    act(s, "to", "w6")
    assert units(s, "w6") == (1, 0, 0)


def test_slow_movement_into_row_2_and_row_1() -> None:
    # rule 4.3.2: the southern part of the City (Rows 1 and 2) is entered by Slow Movement, 1 space per AP
    s = board_with(("w1", {"exp": 1, "damage": 2}), ("w5", {"ins": 1}))
    play_ap(s, IMPERIAL, 42)
    acts(s, ("slow",), ("from", "w1"))
    assert args(s, "to") == {"w2", "b1"}
    acts(s, ("to", "b1"), ("slow",), ("from", "b1"))
    assert {"c1", "c2", "b2"} <= args(s, "to")


def test_lagoon_entries_and_thick_spaces() -> None:
    # rule 4.3.2 Lagoon: Marmarou only from the north-west corner, Klisova from 2 eastern spaces;
    # thick spaces need the island; an island only without Insurgent units ("Allowed (3AP)": corner → island)
    s = board_with(
        ("r8c1", {"exp": 2}), ("r4c9", {"exp": 1}), ("r5c9", {"exp": 1}), ("r7c1", {"exp": 1}), ("w5", {"ins": 1})
    )
    play_ap(s, IMPERIAL, 36)  # 4 AP
    act(s, "slow")
    assert args(s, "from") == {"r8c1", "r4c9", "r5c9"}
    act(s, "from", "r4c9")
    assert args(s, "to") == {"kli1", "kli2"}
    act(s, "to", "kli2")
    acts(s, ("slow",), ("from", "r8c1"), ("to", "mar1"), ("slow",), ("from", "mar1"))
    assert args(s, "to") == {"mar2", "marmarou"}
    acts(s, ("to", "mar2"), ("slow",), ("from", "mar2"))
    assert args(s, "to") == {"marmarou"}  # mar3 is thick: needs Marmarou held
    act(s, "to", "marmarou")
    assert units(s, "marmarou") == (1, 0, 0)


def test_thick_space_open_once_the_island_is_held() -> None:
    # rule 4.3.2: thick-bordered spaces may be entered only while the Imperial player holds their island
    s = board_with(("kli3", {"exp": 1}), ("klisova", {"ins": 1}), ("w5", {"ins": 1}))
    play_ap(s, IMPERIAL, 42)
    acts(s, ("slow",), ("from", "kli3"))
    assert args(s, "to") == {"kli2"}  # kli4 is thick and Klisova is Insurgent
    s2 = board_with(("kli3", {"exp": 1}), ("klisova", {"exp": 1}), ("w5", {"ins": 1}))
    play_ap(s2, IMPERIAL, 42)
    acts(s2, ("slow",), ("from", "kli3"))
    assert args(s2, "to") == {"kli2", "kli4"}


# --- Attack ---------------------------------------------------------------------------------------


def _attack(s: State, src: str, dst: str, *dice: int) -> None:
    force_dice(s, *d8(*dice))
    acts(s, ("attack",), ("from", src), ("to", dst))


@pytest.mark.parametrize(
    ("target", "damage", "dice", "hit"),
    [
        ("w5", 0, (7, 7), False),  # 8+ needed
        ("w5", 0, (1, 8), True),  # either die
        ("w5", 1, (7, 2), True),  # damaged: +1 from Row 4
        ("w5", 1, (6, 6), False),
        ("w5", 2, (6, 1), True),  # destroyed: +2
        ("w5", 2, (5, 5), False),
        ("w4", 0, (8, 8), False),  # intact fort: -1, fails automatically
        ("w4", 1, (8, 1), True),  # damaged fort: -1 +1
        ("w4", 2, (7, 1), True),
    ],
)
def test_imperial_attack_rolls(target: str, damage: int, dice: tuple[int, int], hit: bool) -> None:
    # rule 4.3.2 Attack: 2d8, success if a die reaches 8; +1 per damage attacking the Wall from Row 4; forts -1
    col = target[1]
    s = board_with((f"r4c{col}", {"exp": 1}), (target, {"ins": 2, "damage": damage}))
    play_ap(s, IMPERIAL, 42)
    _attack(s, f"r4c{col}", target, *dice)
    assert units(s, target)[2] == (1 if hit else 2)


@pytest.mark.parametrize(("src", "dst", "damage"), [("w3", "w4", 0), ("w5", "w4", 2), ("b2", "b3", 0)])
def test_close_quarters_five_plus_unmodified(src: str, dst: str, damage: int) -> None:
    # rule 4.3.2 Attack: from the Wall on an adjacent Wall section, or Row 2 on Row 2: 5+; no fort or damage modifier
    s = board_with((src, {"exp": 1, "damage": 2 if src.startswith("w") else 0}), (dst, {"ins": 2, "damage": damage}))
    play_ap(s, IMPERIAL, 42)
    _attack(s, src, dst, 4, 4)
    assert units(s, dst)[2] == 2
    s2 = board_with((src, {"exp": 2, "damage": 2 if src.startswith("w") else 0}), (dst, {"ins": 2, "damage": damage}))
    play_ap(s2, IMPERIAL, 42)
    _attack(s2, src, dst, 5, 1)
    assert units(s2, dst)[2] == 1


def test_each_unit_attacks_once_per_card() -> None:
    # rule 4.3.2 IMPORTANT: each Imperial unit may only attack once per card played
    s = board_with(("r4c5", {"exp": 1}), ("w5", {"ins": 2}))
    play_ap(s, IMPERIAL, 30)
    _attack(s, "r4c5", "w5", 1, 1)
    assert ap_left(s) == 3
    assert "attack" not in verbs(s)


def test_unequal_share_of_money_attack_example() -> None:
    # rule 4.3.2 Attack Example: 3 units in front of the Wall, Unequal Share of Money (3 AP) for 3 attacks on
    # the damaged fort: one hit kills an Insurgent unit; another remains
    s = board_with(("r4c4", {"exp": 3}), ("w4", {"ins": 2, "damage": 1}))
    play_ap(s, IMPERIAL, 3)
    _attack(s, "r4c4", "w4", 2, 7)  # fort -1, damaged +1: 8 needed
    _attack(s, "r4c4", "w4", 8, 1)
    assert units(s, "w4") == (0, 0, 1)
    _attack(s, "r4c4", "w4", 4, 6)
    assert units(s, "w4") == (0, 0, 1)
    assert track(s, INSURGENT, "morale") == 10
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


def test_reward_attacks_example() -> None:
    # rule 4.3.2 Reward Attacks Example: 1 AP + 1 Money for +2, then 2 attacks: 2 hits eliminate both units;
    # the Morale change: the Imperial player lowers the Insurgent Morale by 1
    s = board_with(("r4c4", {"exp": 3}), ("w4", {"ins": 2, "damage": 1}))
    play_ap(s, IMPERIAL, 3)
    act(s, "reward")
    assert track(s, IMPERIAL, "money") == 9
    assert "reward" not in verbs(s)  # once per turn
    _attack(s, "r4c4", "w4", 6, 1)  # 6 - 1 + 1 + 2 = 8
    _attack(s, "r4c4", "w4", 2, 6)
    assert units(s, "w4") == (0, 0, 0)
    assert s.stack[-1]["kind"] == "morale_choice" and RULES.active_seat(s) == IMPERIAL
    act(s, "morale", "enemy")
    assert track(s, INSURGENT, "morale") == 9
    assert track(s, IMPERIAL, "morale") == 15


def test_reward_needs_money() -> None:
    # rule 4.3.2 Reward Attacks: costs 1 Money besides the AP
    s = board_with(("r4c4", {"exp": 1}), ("w4", {"ins": 1}))
    s.tracks[IMPERIAL]["money"] = 0
    play_ap(s, IMPERIAL, 3)
    assert "reward" not in verbs(s)


def test_last_unit_morale_choice_own() -> None:
    # rule 4.3.2 Attack: last unit removed -> own Morale +1 or the opponent's -1
    s = board_with(("r4c5", {"exp": 1}), ("w5", {"ins": 1}))
    play_ap(s, IMPERIAL, 42)
    _attack(s, "r4c5", "w5", 8, 8)
    assert {tuple(a) for a in RULES.legal_actions(s)} == {("morale", "own"), ("morale", "enemy")}
    act(s, "morale", "own")
    assert track(s, IMPERIAL, "morale") == 16 and track(s, INSURGENT, "morale") == 10


# --- Preparation ---------------------------------------------------------------------------------


def test_stone_cannon_balls_preparation_example() -> None:
    # rule 4.3.2 Preparation Example: Stone Cannon Balls' 2 AP go to Preparation
    s = new_state()
    play_ap(s, IMPERIAL, 42)
    acts(s, ("prepare",), ("prepare",))
    assert track(s, IMPERIAL, "preparation") == 2
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


def test_preparation_only_for_actions_the_card_cannot_pay() -> None:
    # rule 4.3.2 IMPORTANT: stored AP only for an action costing more than the card gives (Plea, Build)
    s = new_state()
    s.tracks[IMPERIAL]["preparation"] = 5
    play_ap(s, IMPERIAL, 3)  # 3 AP
    act(s, "prepare")
    assert ap_left(s) == 2
    assert "plea" not in verbs(s)  # 3 AP is within what the card prints
    s2 = new_state()
    s2.tracks[IMPERIAL]["preparation"] = 1
    play_ap(s2, IMPERIAL, 42)  # 2 AP
    assert "plea" in verbs(s2)
    force_dice(s2, *d6(1, 1))
    act(s2, "plea")
    assert track(s2, IMPERIAL, "preparation") == 0
    assert track(s2, IMPERIAL, "money") == 13


# --- Support Area ---------------------------------------------------------------------------------


def test_georgios_karaiskakis_support_example() -> None:
    # rule 4.3.2 Support Area Example: 4 AP at Sea: remove the last blue marker, then turn the tile red
    s = new_state()
    set_area(s, "sea", INSURGENT, 1)
    sea = area_index("sea")
    play_ap(s, IMPERIAL, 5)
    acts(s, ("support",), ("to", "sea"))
    assert (s.area_side[sea], s.area_markers[sea]) == (INSURGENT, 0)
    acts(s, ("support",), ("to", "sea"))
    assert (s.area_side[sea], s.area_markers[sea]) == (IMPERIAL, 0)


def test_support_adds_to_own_area_up_to_five() -> None:
    # rule 4.3.2 Support Area: add a marker to an own area; at most 5 markers per area
    s = new_state()
    set_area(s, "patra", IMPERIAL, 4)
    set_area(s, "zygos", IMPERIAL, 5)
    play_ap(s, IMPERIAL, 30)
    act(s, "support")
    assert "zygos" not in args(s, "to")
    act(s, "to", "patra")
    assert s.area_markers[area_index("patra")] == 5
    act(s, "support")
    assert "patra" not in args(s, "to")


# --- Plea for Funds -------------------------------------------------------------------------------


def test_reinforcements_plea_example() -> None:
    # rule 4.3.2 Plea Example: Reinforcements for 3 AP; 2d6 = 8 < 12: +3 Money, Plea marker to space 2
    s = new_state()
    play_ap(s, IMPERIAL, 43)
    force_dice(s, *d6(3, 5))
    act(s, "plea")
    assert track(s, IMPERIAL, "money") == 13
    assert track(s, IMPERIAL, "plea") == 2


@pytest.mark.parametrize(
    ("plea", "dice", "ok"), [(2, (4, 5), True), (2, (5, 5), False), (4, (6, 1), True), (4, (6, 2), False)]
)
def test_plea_track_makes_it_harder(plea: int, dice: tuple[int, int], ok: bool) -> None:
    # rule 4.3.2 Plea: the track value is added; 12 or more fails and the marker stays
    s = new_state()
    s.tracks[IMPERIAL]["plea"] = plea
    play_ap(s, IMPERIAL, 43)
    force_dice(s, *d6(*dice))
    act(s, "plea")
    assert track(s, IMPERIAL, "money") == (13 if ok else 10)
    assert track(s, IMPERIAL, "plea") == (plea + 2 if ok else plea)


# --- Build (Place) Cannon -------------------------------------------------------------------------


def test_captain_mahmud_build_example() -> None:
    # rule 4.3.2 Place Cannon Example: Captain Mahmud for 4 AP plus 1 from Preparation builds in Row 5 (5 AP)
    s = board_with(("r5c3", {"exp": 1}), ("r6c3", {"exp": 1}), ("w1", {"ins": 1}))
    s.camp_cannons, s.pools["cannons"] = 1, s.pools["cannons"] - 1
    s.tracks[IMPERIAL]["preparation"] = 1
    play_ap(s, IMPERIAL, 36)
    act(s, "build")
    assert args(s, "to") == {"r5c3", "r6c3"}
    act(s, "to", "r5c3")
    assert s.cannon[idx("r5c3")] == IMPERIAL_CANNON
    assert s.camp_cannons == 0
    assert track(s, IMPERIAL, "preparation") == 0
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


@pytest.mark.parametrize(
    ("row", "prep", "ok"), [(6, 0, True), (5, 0, False), (5, 1, True), (4, 2, False), (4, 3, True)]
)
def test_build_costs_by_row(row: int, prep: int, ok: bool) -> None:
    # rule 4.3.2 Place Cannon: Row 6 costs 3 AP, Row 5 5 AP, Row 4 7 AP (a 4-AP card plus Preparation)
    s = board_with((f"r{row}c5", {"exp": 1}), ("w1", {"ins": 1}))
    s.camp_cannons, s.pools["cannons"] = 1, s.pools["cannons"] - 1
    s.tracks[IMPERIAL]["preparation"] = prep
    play_ap(s, IMPERIAL, 30)
    assert ("build" in verbs(s)) == ok


@pytest.mark.parametrize("missing", ["camp_cannon", "unit", "free_slot", "row7"])
def test_build_requirements(missing: str) -> None:
    # rule 4.3.2 Place Cannon: a) a cannon in the Camp, b) an Imperial unit in the space, c) no cannon there;
    # only in the 3 rows closest to the Wall
    s = board_with(("w1", {"ins": 1}))
    s.camp_cannons, s.pools["cannons"] = 1, s.pools["cannons"] - 1
    place(s, "r7c5" if missing == "row7" else "r6c5", exp=0 if missing == "unit" else 1)
    if missing == "camp_cannon":
        s.camp_cannons, s.pools["cannons"] = 0, s.pools["cannons"] + 1
    if missing == "free_slot":
        place(s, "r6c5", cannon=IMPERIAL_CANNON)
    play_ap(s, IMPERIAL, 30)
    assert "build" not in verbs(s)


def test_attack_count_follows_the_unit() -> None:
    # rule 4.3.2 IMPORTANT: once per card for each unit, even after it moved to another space
    s = board_with(("r4c5", {"exp": 1}), ("w5", {"ins": 2}), ("w6", {"ins": 2}))
    play_ap(s, IMPERIAL, 30)
    _attack(s, "r4c5", "w5", 1, 1)
    acts(s, ("move",), ("from", "r4c5"), ("to", "r4c6"), ("done",))
    assert "attack" not in verbs(s)  # w6 is next to it, but this unit has attacked with this card


def test_preparation_track_limit() -> None:
    # rule 4.3.2 Preparation; DESIGN (digest §1): the track runs 0..6, so a full track takes no more AP
    s = new_state()
    s.tracks[IMPERIAL]["preparation"] = 6
    play_ap(s, IMPERIAL, 42)
    assert "prepare" not in verbs(s)


def test_captain_mahmud_event_lagoon_budget() -> None:
    # rule 4.3.1 (card 36A Captain Mahmud as its Event): Lagoon movements and attacks worth up to 6 AP;
    # each Imperial unit may attack up to 2 times; nothing outside the Lagoon
    s = board_with(
        ("mar1", {"exp": 1}), ("marmarou", {"ins": 1}), ("r4c5", {"exp": 1}), ("w5", {"ins": 1}), ("r8c1", {"exp": 1})
    )
    card_turn(s, IMPERIAL, 36)
    act(s, "event", 36)
    assert ap_left(s) == 6
    assert verbs(s) == {"slow", "attack", "end"}  # no Normal Movement, Support, Plea, Build, Reward
    act(s, "attack")
    assert args(s, "from") == {"mar1"}  # r4c5 is not in the Lagoon
    act(s, "from", "mar1")
    force_dice(s, *d8(1, 1))
    act(s, "to", "marmarou")
    _attack(s, "mar1", "marmarou", 2, 2)
    assert "attack" not in verbs(s)  # two attacks made
    assert ap_left(s) == 4
    act(s, "slow")
    assert args(s, "from") == {"r8c1", "mar1"}


def test_lagoon_movement_examples() -> None:
    # rule 4.3.2 "Examples of movement on the islands of the Lagoon" (pictures not in our sources; our reading):
    # Allowed (3AP): from the north-west corner into Marmarou's water and onto the empty island, 1 AP a space;
    # Allowed (1AP): from an eastern entry space into Klisova's outer ring;
    # Not allowed: a thick space while the island is not held, and the Lagoon from any other mainland space
    s = board_with(
        ("r8c1", {"exp": 1}), ("r4c9", {"exp": 1}), ("r4c1", {"exp": 1}), ("klisova", {"ins": 1}), ("w5", {"ins": 1})
    )
    play_ap(s, IMPERIAL, 30)
    acts(s, ("slow",), ("from", "r8c1"), ("to", "mar1"), ("slow",), ("from", "mar1"), ("to", "mar2"))
    acts(s, ("slow",), ("from", "mar2"), ("to", "marmarou"))
    assert units(s, "marmarou") == (1, 0, 0) and ap_left(s) == 1  # 3 AP
    acts(s, ("slow",), ("from", "r4c9"))
    assert args(s, "to") == {"kli1", "kli2"}
    act(s, "to", "kli2")
    assert units(s, "kli2") == (1, 0, 0)  # 1 AP
    s2 = board_with(("kli3", {"exp": 1}), ("r4c1", {"exp": 1}), ("klisova", {"ins": 1}), ("w5", {"ins": 1}))
    play_ap(s2, IMPERIAL, 30)
    act(s2, "slow")
    assert "r4c1" not in args(s2, "from")  # no Lagoon entry there (its Wall section is intact)
    act(s2, "from", "kli3")
    assert "kli4" not in args(s2, "to")  # thick, Klisova not held


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    # rule 4.3.2 Normal Movement: a move backwards is not offered; asking for it is an error and changes nothing
    s = board_with(("r5c5", {"exp": 1}), ("w1", {"ins": 1}))
    play_ap(s, IMPERIAL, 35)
    acts(s, ("move",), ("from", "r5c5"))
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        act(s, "to", "r6c5")
    assert s.to_json() == before


def test_units_in_the_camp_cannot_attack() -> None:
    # rule 4.3.2 Attack: only units adjacent to a space with Insurgent units may attack
    s = board_with(("camp", {"exp": 5}), ("r5c5", {"exp": 1}), ("w5", {"ins": 1}))
    play_ap(s, IMPERIAL, 30)
    assert "attack" not in verbs(s)


def test_cannons_alone_cannot_be_attacked() -> None:
    # rule 4.3.2 Attack: units attack spaces with the opponent's units; a cannon alone is no target (digest §4)
    s = board_with(("r4c5", {"exp": 1}), ("w5", {"cannon": 2}), ("w1", {"ins": 1}))
    play_ap(s, IMPERIAL, 30)
    assert "attack" not in verbs(s)
    s2 = board_with(("w5", {"ins": 1}), ("r4c5", {"cannon": IMPERIAL_CANNON}))
    play_ap(s2, INSURGENT, 30)
    assert "attack" not in verbs(s2)


def test_player_picks_which_unit_moves_after_an_attack() -> None:
    # rule 4.3.2 IMPORTANT (once per card): in a space with a unit that attacked and a fresh one, the player
    # chooses which one moves; the one left behind keeps its own right to attack
    s = board_with(("r4c5", {"exp": 2}), ("w5", {"ins": 2}), ("w6", {"ins": 2}))
    play_ap(s, IMPERIAL, 30)
    _attack(s, "r4c5", "w5", 1, 1)
    acts(s, ("move",), ("from", "r4c5"))
    assert args(s, "unit") == {"0", "1"}
    acts(s, ("unit", "1"), ("to", "r4c6"), ("done",))
    assert units(s, "r4c5") == units(s, "r4c6") == (1, 0, 0)
    act(s, "attack")
    assert args(s, "from") == {"r4c5"}  # the fresh unit stayed; the mover has attacked


def test_preparation_pays_only_the_difference_once_per_card() -> None:
    # rule 4.3.2 Preparation: the marker moves left "as many spaces as the difference"; stored AP complete one
    # action of the card (rules-decisions 4.3.2)
    s = board_with(("r5c5", {"exp": 1}), ("w1", {"ins": 1}))
    s.camp_cannons, s.pools["cannons"] = 1, s.pools["cannons"] - 1
    s.tracks[IMPERIAL]["preparation"] = 6
    play_ap(s, IMPERIAL, 30)  # 4 AP
    acts(s, ("build",), ("to", "r5c5"))
    assert track(s, IMPERIAL, "preparation") == 5  # 5 AP = the card's 4 + 1 stored
    s2 = new_state()
    s2.tracks[IMPERIAL]["preparation"] = 6
    play_ap(s2, IMPERIAL, 42)  # 2 AP
    force_dice(s2, *d6(1, 1))
    act(s2, "plea")
    assert track(s2, IMPERIAL, "preparation") == 5
    assert ap_turn_ended(s2)  # no second action on stored AP with the same card
