"""Rule 4.4 Cannons: 4.4.1 Imperial shots and 4.4.2 Insurgent shots, with the rulebook's examples."""

from __future__ import annotations

import pytest
from rulekit import act, acts, args, board_with, d6, force_dice, idx, run, track, units, verbs

from muster.games.freedom import RULES
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.engine import frame
from muster.games.freedom.state import State

IMP, INS = IMPERIAL_CANNON, INSURGENT_CANNON


def _phase(s: State) -> State:
    return run(s, frame("cannons_phase"))


def _fire(s: State, src: str, dst: str, *dice: int) -> None:
    force_dice(s, *d6(*dice))
    acts(s, ("cannon", src), ("target", dst))


def test_imperial_cannons_first_then_insurgent() -> None:
    # rule 4.4: the Imperial cannons go first, then the Insurgent cannons; each cannon in any order
    s = board_with(
        ("r4c5", {"exp": 1, "cannon": IMP}),
        ("r4c7", {"exp": 1, "cannon": IMP}),
        ("w6", {"ins": 1, "cannon": INS}),
    )
    _phase(s)
    assert RULES.active_seat(s) == IMPERIAL
    assert args(s, "cannon") == {"r4c5", "r4c7"}
    _fire(s, "r4c7", "w6", 1, 1)
    assert args(s, "cannon") == {"r4c5"}  # each cannon fires once
    _fire(s, "r4c5", "w6", 1, 1)
    assert RULES.active_seat(s) == INSURGENT
    assert args(s, "cannon") == {"w6"}


def test_a_cannon_needs_a_friendly_unit() -> None:
    # rule 4.4: a Cannon must have a friendly unit in its space, otherwise it does not fire
    s = board_with(
        ("r4c5", {"cannon": IMP}), ("r4c6", {"exp": 1, "cannon": IMP}), ("w5", {"ins": 1}), ("w6", {"cannon": INS})
    )
    _phase(s)
    assert args(s, "cannon") == {"r4c6"}
    _fire(s, "r4c6", "w5", 1, 1)
    assert s.stack == []  # the Insurgent cannon in w6 has no unit: nothing fires


@pytest.mark.parametrize(
    ("src", "dice", "damage"), [("r4c5", (4, 3), 1), ("r5c5", (4, 5), 1), ("r6c5", (5, 6), 1), ("r6c5", (6, 6), 2)]
)
def test_distance_sets_the_roll(src: str, dice: tuple[int, int], damage: int) -> None:
    # rule 4.4: 2d6, each die a hit: adjacent 4+, 2 spaces away 5+, 3 spaces away 6+; two dice = 2 hits
    s = board_with((src, {"exp": 1, "cannon": IMP}), ("w5", {"ins": 1}))
    _phase(s)
    _fire(s, src, "w5", *dice)
    assert s.damage[idx("w5")] == damage


def test_allied_unit_gives_plus_one() -> None:
    # rule 4.4: a Cannon fired with an Allied unit in its space has +1 on its rolls
    s = board_with(("r6c5", {"ally": 1, "cannon": IMP}), ("w5", {"ins": 1}))
    s.round = 4
    _phase(s)
    _fire(s, "r6c5", "w5", 5, 5)
    assert s.damage[idx("w5")] == 2


def test_bombard_plus_one_and_row_7() -> None:
    # rule 4.4: the Bombard has +1 to each roll and also reaches Row 7
    s = board_with(("w6", {"ins": 1, "cannon": BOMBARD}), ("w5", {"ins": 1, "cannon": INS}), ("r7c6", {"exp": 2}))
    _phase(s)
    assert args(s, "cannon") == {"w6"}  # the ordinary cannon in w5 does not reach Row 7
    act(s, "cannon", "w6")
    assert args(s, "target") == {"r7c6"}
    force_dice(s, *d6(6, 5))
    act(s, "target", "r7c6")  # 7 needed at Row 7: 6+1 hits, 5+1 misses
    assert units(s, "r7c6") == (1, 0, 0)


def test_marmarou_cannon_reaches_the_mainland_on_six() -> None:
    # rule 4.4: Marmarou's cannon fires at five mainland spaces, hitting only on 6
    s = board_with(("marmarou", {"ins": 1, "cannon": INS}), ("r6c1", {"exp": 2}), ("r6c2", {"exp": 1}))
    _phase(s)
    act(s, "cannon", "marmarou")
    assert args(s, "target") == {"r6c1"}
    force_dice(s, *d6(5, 6))
    act(s, "target", "r6c1")
    assert units(s, "r6c1") == (1, 0, 0)


def test_imperial_cannon_fires_at_marmarou_on_six() -> None:
    # rule 4.4: an Imperial Cannon in one of those five spaces may fire at Marmarou's unit, hitting only on 6
    s = board_with(("r5c1", {"exp": 1, "cannon": IMP}), ("marmarou", {"ins": 1}))
    _phase(s)
    act(s, "cannon", "r5c1")
    assert "marmarou" in args(s, "target")
    force_dice(s, *d6(5, 5))
    act(s, "target", "marmarou")
    assert units(s, "marmarou") == (0, 0, 1)


def test_island_cannon_fires_at_its_water() -> None:
    # rule 4.4: a Cannon on an island fires only at the spaces around it (Marmarou: also the five mainland spaces)
    s = board_with(("klisova", {"ins": 1, "cannon": INS}), ("kli2", {"exp": 1}), ("r4c9", {"exp": 1}))
    _phase(s)
    act(s, "cannon", "klisova")
    assert args(s, "target") == {"kli2"}
    force_dice(s, *d6(4, 1))
    act(s, "target", "kli2")
    assert units(s, "kli2") == (0, 0, 0)
    assert verbs(s) == {"morale"}


def test_wall_cannon_fires_at_adjacent_wall() -> None:
    # rule 4.4: a Cannon on a Wall space may fire at an adjacent Wall space; each die of 4+ hits
    s = board_with(("w5", {"ins": 1, "cannon": INS}), ("w6", {"exp": 2, "damage": 2}))
    _phase(s)
    act(s, "cannon", "w5")
    assert args(s, "target") == {"w6"}
    force_dice(s, *d6(4, 4))
    act(s, "target", "w6")
    assert units(s, "w6") == (0, 0, 0)


def test_insurgent_cannon_with_imperial_units_does_not_fire() -> None:
    # rule 4.4: Imperial units on the Wall in a space with an Insurgent Cannon: that Cannon may NOT fire
    s = board_with(("w4", {"exp": 1, "damage": 2, "cannon": INS}), ("r4c4", {"exp": 1}), ("w3", {"ins": 1}))
    _phase(s)
    assert s.stack == []


# --- 4.4.1 Imperial shots ---------------------------------------------------------------------------


def test_three_cannons_destroy_two_damaged_sections_example() -> None:
    # rule 4.4.1 Example: 3 Imperial cannons fire; two hits on the two damaged sections destroy both
    # (units may now climb them); each destruction costs the Insurgent player 1 Morale
    s = board_with(
        ("r5c3", {"exp": 1, "cannon": IMP}),
        ("r5c5", {"exp": 1, "cannon": IMP}),
        ("r5c7", {"exp": 1, "cannon": IMP}),
        ("w4", {"ins": 1, "damage": 1}),
        ("w6", {"ins": 1, "damage": 1}),
        ("w7", {"ins": 1}),
    )
    _phase(s)
    _fire(s, "r5c3", "w4", 5, 1)
    assert s.damage[idx("w4")] == 2
    act(s, "morale", "enemy")
    _fire(s, "r5c5", "w6", 2, 6)
    assert s.damage[idx("w6")] == 2
    act(s, "morale", "enemy")
    _fire(s, "r5c7", "w7", 1, 2)
    assert s.damage[idx("w7")] == 0
    assert track(s, INSURGENT, "morale") == 8
    assert units(s, "w4") == units(s, "w6") == (0, 0, 1)


def test_hits_on_a_destroyed_section_remove_units_then_the_cannon() -> None:
    # rule 4.4.1: on a destroyed section each hit removes an Insurgent unit; with no unit, the Cannon; then nothing.
    # The last unit removed gives the Morale choice.
    s = board_with(
        ("r4c5", {"exp": 1, "cannon": IMP}),
        ("r4c4", {"exp": 1, "cannon": IMP}),
        ("w5", {"ins": 1, "damage": 2, "cannon": INS}),
    )
    _phase(s)
    _fire(s, "r4c5", "w5", 4, 5)
    assert units(s, "w5") == (0, 0, 0)
    assert s.cannon[idx("w5")] == 0
    act(s, "morale", "own")
    assert track(s, IMPERIAL, "morale") == 16
    act(s, "cannon", "r4c4")
    assert args(s, "target") == {"w3", "w4"}  # nothing left to hit in the destroyed, empty w5


def test_first_hit_damages_before_units() -> None:
    # rule 4.4.1: the first hit damages the section, the second destroys it; units are untouched meanwhile
    s = board_with(("r4c5", {"exp": 1, "cannon": IMP}), ("w5", {"ins": 2}))
    _phase(s)
    _fire(s, "r4c5", "w5", 6, 6)
    assert s.damage[idx("w5")] == 2
    assert units(s, "w5") == (0, 0, 2)
    assert verbs(s) == {"morale"}  # 2nd edition: destroying a section gives the Morale choice


# --- 4.4.2 Insurgent shots ---------------------------------------------------------------------------


def test_insurgent_cannons_example_five_units_three_spaces() -> None:
    # rule 4.4.2 Example: 5 Imperial units removed, three spaces emptied; the Insurgent lowers the
    # Imperial Morale by 3 instead of raising his own
    s = board_with(
        ("w2", {"ins": 1, "cannon": INS}),
        ("w4", {"ins": 1, "cannon": INS}),
        ("w8", {"ins": 1, "cannon": INS}),
        ("r4c2", {"exp": 2}),
        ("r4c4", {"exp": 2}),
        ("r4c8", {"exp": 1}),
    )
    _phase(s)
    assert RULES.active_seat(s) == INSURGENT
    _fire(s, "w2", "r4c2", 4, 6)
    act(s, "morale", "enemy")
    _fire(s, "w4", "r4c4", 5, 5)
    act(s, "morale", "enemy")
    _fire(s, "w8", "r4c8", 4, 1)
    act(s, "morale", "enemy")
    assert units(s, "r4c2") == units(s, "r4c4") == units(s, "r4c8") == (0, 0, 0)
    assert s.pools["expeditionary"] == 40
    assert track(s, IMPERIAL, "morale") == 12
    assert track(s, INSURGENT, "morale") == 10


def test_insurgent_hit_removes_unit_then_cannon() -> None:
    # rule 4.4.2: each hit removes an Imperial unit; with no unit there, the Cannon
    s = board_with(("w5", {"ins": 1, "cannon": INS}), ("r4c5", {"exp": 1, "cannon": IMP}))
    _phase(s)
    assert RULES.active_seat(s) == IMPERIAL
    act(s, "cannon", "r4c5")
    force_dice(s, *d6(1, 1))
    act(s, "target", "w5")
    _fire(s, "w5", "r4c5", 6, 6)
    assert units(s, "r4c5") == (0, 0, 0)
    assert s.cannon[idx("r4c5")] == 0
    assert verbs(s) == {"morale"}


@pytest.mark.parametrize(
    ("src", "target", "need"),
    [
        ("r4c4", "w5", 4),
        ("r4c3", "w5", None),
        ("r5c3", "w5", 5),
        ("r5c2", "w5", None),
        ("r6c2", "w5", 6),
        ("r7c5", "w5", None),
    ],
)
def test_imperial_reach_spreads_radially(src: str, target: str, need: int | None) -> None:
    # rule 4.4 (pictures of the ranges; DESIGN digest §9): from Row r a cannon reaches Wall sections within r - 3
    # columns, needing the row's number (4, 5, 6); an ordinary cannon does not reach from Row 7
    s = board_with((src, {"exp": 1, "cannon": IMP}), (target, {"ins": 1}))
    _phase(s)
    if need is None:
        if s.stack:  # it may still fire at the intact sections it does reach
            act(s, "cannon", src)
            assert target not in args(s, "target")
        return
    act(s, "cannon", src)
    assert RULES.label(s, RULES.legal_actions(s)[0]).endswith(f"(hits on {need}+)")
    force_dice(s, *d6(need, need - 1))
    act(s, "target", target)
    assert s.damage[idx(target)] == 1


def test_bombard_adjacent_hits_on_three() -> None:
    # rule 4.4: the Bombard's +1 makes its numbers 3+, 4+, 5+ and 6+ (Rows 4 to 7)
    s = board_with(("w6", {"ins": 1, "cannon": BOMBARD}), ("r4c6", {"exp": 2}))
    _phase(s)
    _fire(s, "w6", "r4c6", 3, 2)
    assert units(s, "r4c6") == (1, 0, 0)


@pytest.mark.parametrize(("src", "targets"), [("b1", {"c1", "c2"}), ("vasiladi", {"c2", "c3", "vas1"})])
def test_beach_and_island_cannons_fire_at_the_water_next_to_them(src: str, targets: set[str]) -> None:
    # rule 4.4: a Cannon on an island fires only at the spaces surrounding it; Row 2 cannons at the Row 1 water
    # next to them (DESIGN reach, digest §9), 4+
    s = board_with(
        (src, {"ins": 1, "cannon": INS}),
        ("c1", {"exp": 1}),
        ("c2", {"exp": 1}),
        ("c3", {"exp": 1}),
        ("vas1", {"exp": 1}),
    )
    _phase(s)
    act(s, "cannon", src)
    assert args(s, "target") == targets
    force_dice(s, *d6(4, 3))
    act(s, "target", "c2")
    assert units(s, "c2") == (0, 0, 0)


def test_hits_apply_one_at_a_time_on_the_wall() -> None:
    # rule 4.4.1 (hits one at a time, digest §6): two hits on a damaged section: destroyed, then a unit falls
    s = board_with(("r4c5", {"exp": 1, "cannon": IMP}), ("w5", {"ins": 2, "damage": 1}))
    _phase(s)
    _fire(s, "r4c5", "w5", 6, 6)
    assert s.damage[idx("w5")] == 2
    assert units(s, "w5") == (0, 0, 1)
    act(s, "morale", "enemy")  # the destruction's Morale choice
    assert s.stack == []
    assert track(s, INSURGENT, "morale") == 9


def test_insurgent_two_hits_unit_then_cannon() -> None:
    # rule 4.4.2: two hits on a space with one unit and a cannon: the unit (Morale choice), then the cannon
    s = board_with(("w5", {"ins": 1, "cannon": INS}), ("r4c5", {"exp": 1, "cannon": IMP}))
    run(s, frame("cannons", seat=INSURGENT, fired=[], src=None))
    _fire(s, "w5", "r4c5", 5, 4)
    assert units(s, "r4c5") == (0, 0, 0)
    assert s.cannon[idx("r4c5")] == 0
    act(s, "morale", "own")
    assert track(s, INSURGENT, "morale") == 11


def test_bombard_destroyed_goes_back_to_its_pool() -> None:
    # rule 4.4.1: on a destroyed section without units, a hit removes the cannon there (the Bombard too)
    s = board_with(("r4c6", {"exp": 1, "cannon": IMP}), ("w6", {"damage": 2, "cannon": BOMBARD}))
    _phase(s)
    _fire(s, "r4c6", "w6", 4, 1)
    assert s.cannon[idx("w6")] == 0
    assert s.pools["bombard"] == 1
