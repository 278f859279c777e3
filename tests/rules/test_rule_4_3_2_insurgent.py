"""Rule 4.3.2, Insurgent Player's Actions, with the rulebook's worked examples."""

from __future__ import annotations

import pytest
from rulekit import (
    act,
    acts,
    ap_left,
    ap_turn_ended,
    args,
    board_with,
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

from muster.games.freedom.constants import IMPERIAL, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.rules.common import area_index
from muster.games.freedom.rules.insurgent_actions import raid_targets

# --- Regroup and Attack ---------------------------------------------------------------------------


def test_yusuf_pasha_regroup_and_attack_example() -> None:
    # rule 4.3.2 Regroup Example: Yusuf Pasha (3 AP); the first AP regroups a unit from the western end of the
    # Wall into the empty fort; Attack Example: the 2nd and 3rd AP attack the Imperial units next to the Wall,
    # rolls 3 (no effect) and 6 (one Imperial unit eliminated) - the same unit attacks twice
    s = board_with(("w1", {"ins": 2}), ("r4c2", {"exp": 2}))
    play_ap(s, INSURGENT, 32)
    acts(s, ("regroup",), ("from", "w1"), ("to", "w2"))
    assert units(s, "w2") == (0, 0, 1) and units(s, "w1") == (0, 0, 1)
    assert ap_left(s) == 2
    force_dice(s, *d8(3))
    acts(s, ("attack",), ("from", "w2"), ("to", "r4c2"))
    assert units(s, "r4c2") == (2, 0, 0)
    force_dice(s, *d8(6))
    acts(s, ("attack",), ("from", "w2"), ("to", "r4c2"))
    assert units(s, "r4c2") == (1, 0, 0)
    assert track(s, IMPERIAL, "morale") == 15  # not the last unit: no Morale change
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


def test_regroup_destinations() -> None:
    # rule 4.3.2 Regroup: any City space (Rows 2-3) or island with room; never the mainland, the Lagoon's
    # water, Row 1 or a space with Imperial units; an island the Imperial player left may be retaken
    s = board_with(("w5", {"ins": 1}), ("w3", {"exp": 1, "damage": 2}), ("klisova", {"exp": 1}), ("b2", {"ins": 2}))
    play_ap(s, INSURGENT, 32)
    acts(s, ("regroup",), ("from", "w5"))
    expected = {f"w{k}" for k in range(1, 10)} - {"w3", "w5"} | {"b1", "b3", "b4", "marmarou", "vasiladi"}
    assert args(s, "to") == expected


@pytest.mark.parametrize(
    ("target", "roll", "hit"),
    [("r4c5", 5, False), ("r4c5", 6, True), ("w6", 4, False), ("w6", 5, True), ("b1", 5, True)],
)
def test_insurgent_attack_rolls(target: str, roll: int, hit: bool) -> None:
    # rule 4.3.2 Attack: 1d8, 6+ succeeds; 5+ against Imperial units on the Wall (Row 3) or in Row 2
    src = {"r4c5": "w5", "w6": "w5", "b1": "w1"}[target]
    s = board_with((src, {"ins": 1}), (target, {"exp": 2, "damage": 2 if target.startswith("w") else 0}))
    play_ap(s, INSURGENT, 32)
    force_dice(s, *d8(roll))
    acts(s, ("attack",), ("from", src), ("to", target))
    assert units(s, target)[0] == (1 if hit else 2)


def test_insurgent_attack_last_unit_morale_choice() -> None:
    # rule 4.3.2 Attack: the last unit in its space removed -> Insurgent Morale +1 or Imperial Morale -1
    s = board_with(("w5", {"ins": 1}), ("r4c5", {"exp": 1}))
    play_ap(s, INSURGENT, 32)
    force_dice(s, *d8(8))
    acts(s, ("attack",), ("from", "w5"), ("to", "r4c5"), ("morale", "own"))
    assert track(s, INSURGENT, "morale") == 11 and track(s, IMPERIAL, "morale") == 15


# --- Preparation ---------------------------------------------------------------------------------


def test_night_works_preparation_example() -> None:
    # rule 4.3.2 Preparation Example: Night Works' 2 AP shift the Preparation marker 2 spaces right
    s = new_state()
    play_ap(s, INSURGENT, 34)
    acts(s, ("prepare",), ("prepare",))
    assert track(s, INSURGENT, "preparation") == 2


def test_stored_ap_only_beyond_the_card() -> None:
    # rule 4.3.2 IMPORTANT: Preparation AP only for actions the card alone cannot pay (e.g. Pressure on a 2-AP card)
    s = new_state()
    s.tracks[INSURGENT]["preparation"] = 1
    play_ap(s, INSURGENT, 34)  # 2 AP
    act(s, "pressure")
    assert track(s, INSURGENT, "pressure") == 1 and track(s, INSURGENT, "preparation") == 0
    s2 = new_state()
    s2.tracks[INSURGENT]["preparation"] = 3
    play_ap(s2, INSURGENT, 32)  # 3 AP
    act(s2, "prepare")
    assert "pressure" not in verbs(s2)  # 3 AP is not more than the card prints


# --- Support Area ---------------------------------------------------------------------------------


def test_raise_morale_support_example() -> None:
    # rule 4.3.2 Support Area Example: Raise Morale for 3 AP; 2 AP for Support at Sea; the tile turns blue
    s = new_state()
    set_area(s, "sea", IMPERIAL, 0)
    play_ap(s, INSURGENT, 48)
    acts(s, ("support",), ("to", "sea"))
    sea = area_index("sea")
    assert (s.area_side[sea], s.area_markers[sea]) == (INSURGENT, 0)
    assert ap_left(s) == 1


def test_insurgent_support_removes_imperial_marker_and_adds_own() -> None:
    # rule 4.3.2 Support Area: Imperial area with markers -> remove one; own area -> add one
    s = new_state()
    play_ap(s, INSURGENT, 30)
    acts(s, ("support",), ("to", "patra"), ("support",), ("to", "gouria"))
    assert (s.area_side[area_index("patra")], s.area_markers[area_index("patra")]) == (IMPERIAL, 2)
    assert (s.area_side[area_index("gouria")], s.area_markers[area_index("gouria")]) == (INSURGENT, 2)


# --- Raid -----------------------------------------------------------------------------------------


def test_aqueduct_destroyed_raid_example() -> None:
    # rule 4.3.2 Raid Example: Aqueduct Destroyed for 3 AP; a Raid on a lonely unit in Row 6 (3 away: one Raid);
    # roll 7 eliminates it; it was the last in its space and the Insurgent lowers the Imperial Morale by 1
    s = board_with(("w5", {"ins": 1}), ("r6c5", {"exp": 1}))
    play_ap(s, INSURGENT, 38)
    act(s, "raid")
    assert args(s, "from") == {"w5"}
    act(s, "from", "w5")
    assert args(s, "to") == {"r6c5"}
    force_dice(s, *d8(7))
    act(s, "to", "r6c5")
    assert units(s, "r6c5") == (0, 0, 0)
    act(s, "morale", "enemy")
    assert track(s, IMPERIAL, "morale") == 14
    assert ap_turn_ended(s)  # every AP spent: the turn ends by itself


@pytest.mark.parametrize(("roll", "hit"), [(4, False), (5, True)])
def test_raid_roll(roll: int, hit: bool) -> None:
    # rule 4.3.2 Raid: 1d8, 5 or higher succeeds; AP cost = distance from the Wall (Row 5: 2 AP)
    s = board_with(("w5", {"ins": 1}), ("r5c5", {"exp": 2}))
    play_ap(s, INSURGENT, 38)
    force_dice(s, *d8(roll))
    acts(s, ("raid",), ("from", "w5"), ("to", "r5c5"))
    assert units(s, "r5c5")[0] == (1 if hit else 2)
    assert ap_left(s) == 1


def test_no_raid_next_to_the_wall_or_through_units() -> None:
    # rule 4.3.2 IMPORTANT: no Raid on spaces adjacent to the Wall (Row 4); the path must hold no Imperial unit
    s = board_with(("w5", {"ins": 1}), ("r4c5", {"exp": 1}), ("r6c5", {"exp": 1}), ("w7", {"ins": 1}))
    place(s, "r5c7", exp=1)
    place(s, "r7c7", exp=1)
    play_ap(s, INSURGENT, 38)
    act(s, "raid")
    assert args(s, "from") == {"w7"}
    act(s, "from", "w7")
    assert args(s, "to") == {"r5c7"}  # r7c7 lies behind r5c7


def test_raid_cost_needs_preparation_beyond_the_card() -> None:
    # rule 4.3.2 Raid: a Row 7 target is 4 away: a 3-AP card needs 1 stored AP
    s = board_with(("w5", {"ins": 1}), ("r7c5", {"exp": 1}))
    play_ap(s, INSURGENT, 38)
    assert "raid" not in verbs(s)
    s2 = board_with(("w5", {"ins": 1}), ("r7c5", {"exp": 1}))
    s2.tracks[INSURGENT]["preparation"] = 1
    play_ap(s2, INSURGENT, 38)
    force_dice(s2, *d8(1))
    acts(s2, ("raid",), ("from", "w5"), ("to", "r7c5"))
    assert track(s2, INSURGENT, "preparation") == 0


def test_raid_off_the_column_costs_the_shortest_clear_path() -> None:
    # rule 4.3.2 Raid (2nd edition): "the AP cost is the distance from the raiding unit's space to the target
    # space"; a Row 5 space one column aside is 3 steps from the section (Row 4, Row 5, then aside)
    s = board_with(("w5", {"ins": 1}), ("r5c6", {"exp": 1}))
    play_ap(s, INSURGENT, 38)
    acts(s, ("raid",), ("from", "w5"))
    assert args(s, "to") == {"r5c6"}
    force_dice(s, *d8(2))
    act(s, "to", "r5c6")
    assert ap_turn_ended(s) and units(s, "r5c6") == (1, 0, 0)  # 3 AP spent: the turn ends by itself


def test_raid_path_goes_around_imperial_units() -> None:
    # rule 4.3.2 Raid: "the path between the raider's space and the target space can have no Imperial units":
    # a space behind an occupied one is reached around it, at the cost of the longer path
    s = board_with(("w5", {"ins": 1}), ("r5c5", {"exp": 1}), ("r6c5", {"ally": 1}))
    assert dict(raid_targets(s, idx("w5"))) == {idx("r5c5"): 2, idx("r6c5"): 5}
    s.tracks[INSURGENT]["preparation"] = 2
    play_ap(s, INSURGENT, 38)
    force_dice(s, *d8(8))
    acts(s, ("raid",), ("from", "w5"), ("to", "r6c5"))
    assert units(s, "r6c5") == (0, 0, 0)
    assert track(s, INSURGENT, "preparation") == 0  # 3 AP from the card, 2 stored


def test_raid_path_leaves_through_the_sections_own_row_4_space() -> None:
    # rule 4.3.2 Raid: the raider strikes "further away in the mainland"; the path runs through mainland spaces
    # only (not along the Wall), so an Imperial unit right in front of the section closes every path; and a
    # space adjacent to the Wall is never a target
    s = board_with(("w5", {"ins": 1}), ("r4c5", {"exp": 1}), ("r5c6", {"exp": 1}), ("w6", {"ins": 1}))
    assert raid_targets(s, idx("w5")) == []
    assert dict(raid_targets(s, idx("w6"))) == {idx("r5c6"): 2}


def test_klisova_raid() -> None:
    # rule 4.3.2 Raid: around Klisova (held by the Insurgent) on the outer ring, if the inner ring is free; 2 AP
    s = board_with(("klisova", {"ins": 1}), ("kli2", {"exp": 1}))
    play_ap(s, INSURGENT, 38)
    acts(s, ("raid",), ("from", "klisova"))
    assert args(s, "to") == {"kli2"}
    force_dice(s, *d8(5))
    act(s, "to", "kli2")
    assert units(s, "kli2") == (0, 0, 0)
    act(s, "morale", "own")
    assert ap_left(s) == 1
    s2 = board_with(("klisova", {"ins": 1}), ("kli2", {"exp": 1}), ("kli4", {"exp": 1}))
    play_ap(s2, INSURGENT, 38)
    assert "raid" not in verbs(s2)


# --- Repair, Train, Build, Pressure ----------------------------------------------------------------


def test_chieftains_defect_repair_example() -> None:
    # rule 4.3.2 Repair Wall Example: Chieftains Defect for 3 AP plus 1 from Preparation (to 0) repairs a
    # destroyed fort: its marker turns to the Damaged side
    s = board_with(("w4", {"ins": 1, "damage": 2}))
    s.tracks[INSURGENT]["preparation"] = 1
    play_ap(s, INSURGENT, 31)
    acts(s, ("repair",), ("to", "w4"))
    assert s.damage[idx("w4")] == 1
    assert track(s, INSURGENT, "preparation") == 0
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


def test_repair_damaged_to_normal_needs_a_unit() -> None:
    # rule 4.3.2 Repair Wall: damaged -> normal; requirement: at least 1 unit in the space
    s = board_with(("w4", {"ins": 1, "damage": 1}), ("w6", {"damage": 2}), ("w1", {"ins": 1}))
    markers = s.pools["damage_markers"]
    play_ap(s, INSURGENT, 30)
    act(s, "repair")
    assert args(s, "to") == {"w4"}
    act(s, "to", "w4")
    assert s.damage[idx("w4")] == 0
    assert s.pools["damage_markers"] == markers + 1


def test_abandoned_cause_train_example() -> None:
    # rule 4.3.2 Train Civilians Example: Abandoned Cause for 4 AP: a Civilian becomes a unit in the
    # unoccupied damaged Wall section
    s = board_with(("w3", {"damage": 1}), ("w2", {"ins": 1}), ("r4c5", {"exp": 1}), ("w5", {"exp": 1, "damage": 2}))
    civilians = s.civilians
    play_ap(s, INSURGENT, 33)
    act(s, "train")
    assert "w5" not in args(s, "to")  # never a space with Imperial units
    assert {"w3", "b1", "marmarou"} <= args(s, "to")
    act(s, "to", "w3")
    assert units(s, "w3") == (0, 0, 1)
    assert s.civilians == civilians - 1


def test_kutahi_build_cannon_example() -> None:
    # rule 4.3.2 Build Cannon Example: Kütahi Reşid Mehmed Pasha for its AP: a cannon in the middle of the
    # Wall, paying 1 Supply
    s = board_with(("w5", {"ins": 1}), ("w4", {"ins": 1}))
    play_ap(s, INSURGENT, 39)
    acts(s, ("build",), ("to", "w5"))
    assert s.cannon[idx("w5")] == INSURGENT_CANNON
    assert track(s, INSURGENT, "supplies") == 7


def test_insurgent_builds_more_than_once_a_round() -> None:
    # rule 4.3.2 Build Cannon - Cost: 4 AP + 1 Supply (2nd edition): no once-a-round limit (the 1st edition's
    # "IMPORTANT: ... only once each round" is gone from the text and the player aid)
    s = board_with(("w5", {"ins": 1}), ("w4", {"ins": 1}))
    play_ap(s, INSURGENT, 39)
    acts(s, ("build",), ("to", "w5"))
    play_ap(s, INSURGENT, 30)
    acts(s, ("build",), ("to", "w4"))
    assert s.cannon[idx("w4")] == INSURGENT_CANNON and s.cannon[idx("w5")] == INSURGENT_CANNON
    assert track(s, INSURGENT, "supplies") == 6


def test_insurgent_build_needs_supply_and_unit() -> None:
    # rule 4.3.2 Build Cannon: 4 AP + 1 Supply; an Insurgent unit in the space and no cannon there
    s = board_with(("w5", {"ins": 1}))
    s.tracks[INSURGENT]["supplies"] = 0
    play_ap(s, INSURGENT, 39)
    assert "build" not in verbs(s)


def test_pressure_the_government() -> None:
    # rule 4.3.2 Pressure the Government for Help: 3 AP move the Pressure marker 1 space forward
    s = new_state()
    play_ap(s, INSURGENT, 32)
    act(s, "pressure")
    assert track(s, INSURGENT, "pressure") == 1
    assert ap_turn_ended(s)  # no AP left: the turn ends by itself


def test_regroup_from_an_island_into_the_city() -> None:
    # rule 4.3.2 Regroup: any unit of the Insurgent player, an island's too, may go to the City
    s = board_with(("klisova", {"ins": 1}), ("w5", {"ins": 2}))
    play_ap(s, INSURGENT, 32)
    acts(s, ("regroup",), ("from", "klisova"), ("to", "b4"))
    assert units(s, "b4") == (0, 0, 1) and units(s, "klisova") == (0, 0, 0)


def test_raids_start_on_the_wall_only() -> None:
    # rule 4.3.2 Raid: "one of their units on the Wall" (Klisova's raid aside): not from Row 2 or another island
    s = board_with(("b1", {"ins": 1}), ("marmarou", {"ins": 1}), ("mar1", {"exp": 1}), ("r6c1", {"exp": 1}))
    play_ap(s, INSURGENT, 30)
    assert "raid" not in verbs(s)


def test_several_raids_when_the_ap_allow() -> None:
    # rule 4.3.2 Raid: each Raid is one unit against one space for its distance in AP; the Aqueduct example allows
    # "only one Raid attempt" because 3 AP pay one Raid at distance 3; 4 AP pay two at distance 2
    s = board_with(("w5", {"ins": 1}), ("r5c5", {"exp": 2}))
    play_ap(s, INSURGENT, 30)
    force_dice(s, *d8(1))
    acts(s, ("raid",), ("from", "w5"), ("to", "r5c5"))
    assert ap_left(s) == 2 and "raid" in verbs(s)
    force_dice(s, *d8(8))
    acts(s, ("raid",), ("from", "w5"), ("to", "r5c5"))
    assert units(s, "r5c5") == (1, 0, 0)
    assert ap_turn_ended(s)  # every AP spent: the turn ends by itself


def test_train_needs_a_civilian() -> None:
    # rule 4.3.2 Train Civilians: a Civilian cube must be there to convert
    s = board_with(("w5", {"ins": 1}))
    s.pools["civilians"] += s.civilians
    s.civilians = 0
    play_ap(s, INSURGENT, 30)
    assert "train" not in verbs(s)
