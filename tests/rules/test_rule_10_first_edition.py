"""The 1st-edition rules (ruleset="1st"; digest §10): each difference from the 2nd edition."""

from __future__ import annotations

import pytest
from rulekit import (
    act,
    acts,
    args,
    clear_board,
    d6,
    force_dice,
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
from muster.games.freedom.constants import IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.engine import frame


@pytest.mark.parametrize(("ruleset", "supplies"), [("2nd", 8), ("1st", 10)])
def test_insurgent_starting_supplies(ruleset: str, supplies: int) -> None:
    # 1st edition rule 2: the Insurgent starts with 10 Supplies (2nd: 8)
    assert track(new_state(ruleset=ruleset), INSURGENT, "supplies") == supplies


@pytest.mark.parametrize(("ruleset", "after_actions", "after_round"), [("2nd", True, False), ("1st", False, True)])
def test_victory_check_time(ruleset: str, after_actions: bool, after_round: bool) -> None:
    # 1st edition rule 3.1: the capture is checked at the end of the round (2nd: end of the Action phase)
    s = clear_board(new_state(ruleset=ruleset))
    place(s, "w4", exp=1, damage=2)
    place(s, "w1", ins=1)
    run(s, frame("action_phase_end"))
    assert (s.result is not None) == after_actions
    s.result = None
    s.round = 2
    run(s, frame("round_end"))
    assert (s.result is not None and s.result["reason"] == "fort") == after_round


def test_first_edition_fort_lost_before_the_end_of_the_round() -> None:
    # 1st edition rule 3.1: a unit in a fort after the Action phase but gone by the end of the round: no win
    # (here the unpaid troops of Replenishment: the fort holds the only Imperial unit on the map)
    s = clear_board(new_state(ruleset="1st"))
    place(s, "w4", exp=1, damage=2)
    place(s, "w5", ins=1)
    s.tracks[IMPERIAL]["money"] = 3
    run(s, frame("action_phase_end"), frame("imperial_money"), frame("victory_check", when="round"))
    assert s.result is None
    assert args(s, "remove") == {"w4"}
    act(s, "remove", "w4")
    assert units(s, "w4") == (0, 0, 0)
    assert s.result is None


@pytest.mark.parametrize(
    ("ruleset", "damage", "enters"), [("2nd", 1, False), ("2nd", 2, True), ("1st", 1, True), ("1st", 0, False)]
)
def test_wall_entry(ruleset: str, damage: int, enters: bool) -> None:
    # 1st edition rule 4.3.2 Slow Movement: a damaged or destroyed section may be entered (2nd: destroyed only)
    s = clear_board(new_state(ruleset=ruleset))
    place(s, "r4c5", exp=1)
    place(s, "w5", damage=damage)
    place(s, "w1", ins=1)
    play_ap(s, IMPERIAL, 42)
    assert ("slow" in verbs(s)) == enters


@pytest.mark.parametrize(("ruleset", "money"), [("2nd", 18), ("1st", 16)])
def test_period_change_money(ruleset: str, money: int) -> None:
    # 1st edition rule 5: the Period change gives +6 Money (2nd: +8)
    s = new_state(ruleset=ruleset)
    s.round = 4
    run(s, frame("period_change"))
    while s.stack and s.stack[-1]["kind"] == "place_allied":
        act(s, "to", sorted(args(s, "to"))[0])
    assert track(s, IMPERIAL, "money") == money


@pytest.mark.parametrize(("ruleset", "round_", "morale"), [("2nd", 4, 15), ("1st", 4, 14), ("1st", 3, 15)])
def test_period_b_replenishment_morale_loss(ruleset: str, round_: int, morale: int) -> None:
    # 1st edition rule 4.5.1: in Period B the Imperial Morale also falls by 1 at the start of each Replenishment
    s = new_state(ruleset=ruleset)
    for a in range(len(s.area_side)):
        s.area_side[a] = INSURGENT
    s.round = round_
    s.tracks[IMPERIAL].update(money=20, supplies=20, morale=15)
    run(s, frame("imperial_rewards"))
    assert track(s, IMPERIAL, "morale") == morale


@pytest.mark.parametrize(("ruleset", "rows"), [("2nd", {"camp", "r6c1", "r7c2"}), ("1st", {"r6c2"})])
def test_opening_from_one_row(ruleset: str, rows: set[str]) -> None:
    # 1st edition rule 4.2: the (up to 5) advancing units come from a single row or the Camp
    s = new_state(ruleset=ruleset)
    acts(s, ("from", "r6c1"), ("to", "r5c1"))
    sources = args(s, "from")
    assert rows <= sources
    if ruleset == "1st":
        assert sources == {f"r6c{c}" for c in range(1, 10)}


@pytest.mark.parametrize(("ruleset", "choice"), [("2nd", True), ("1st", False)])
def test_destroying_a_section_gives_a_morale_choice(ruleset: str, choice: bool) -> None:
    # 1st edition rule 4.4.1: destroying a Wall section by a shot gives no Morale choice
    s = clear_board(new_state(ruleset=ruleset))
    place(s, "r4c5", exp=1, cannon=IMPERIAL_CANNON)
    place(s, "w5", ins=1, damage=1)
    run(s, frame("cannons_phase"))
    force_dice(s, *d6(4, 1))
    acts(s, ("cannon", "r4c5"), ("target", "w5"))
    assert s.damage[idx("w5")] == 2
    assert (RULES.active_seat(s) == IMPERIAL and verbs(s) == {"morale"}) == choice


@pytest.mark.parametrize(("ruleset", "twice"), [("2nd", False), ("1st", True)])
def test_reward_attacks_limit(ruleset: str, twice: bool) -> None:
    # 1st edition rule 4.3.2 Reward Attacks: no once-per-turn limit (2nd edition: once per turn)
    s = clear_board(new_state(ruleset=ruleset))
    place(s, "r4c5", exp=1)
    place(s, "w5", ins=1)
    play_ap(s, IMPERIAL, 30)
    act(s, "reward")
    assert ("reward" in verbs(s)) == twice
    if twice:
        act(s, "reward")
        assert track(s, IMPERIAL, "money") == 8
        assert s.stack[-1]["reward"] == 4


@pytest.mark.parametrize(("ruleset", "fires"), [("2nd", True), ("1st", False)])
def test_wall_cannons_at_the_wall(ruleset: str, fires: bool) -> None:
    # 1st edition rule 4.4: Wall cannons do not fire at adjacent Wall sections
    s = clear_board(new_state(ruleset=ruleset))
    place(s, "w5", ins=1, cannon=INSURGENT_CANNON)
    place(s, "w6", exp=1, damage=2)
    run(s, frame("cannons_phase"))
    assert (RULES.active_seat(s) == INSURGENT and args(s, "cannon") == {"w5"}) == fires


def test_first_edition_replenishment_morale_loss_can_end_the_game() -> None:
    # 1st edition rule 4.5.1 with rule 3.2: that Period-B Morale loss at 0 ends the game before any reward
    s = new_state(ruleset="1st")
    s.round = 5
    s.tracks[IMPERIAL]["morale"] = 1
    supplies = track(s, IMPERIAL, "supplies")
    run(s, frame("replenishment"))
    assert s.result is not None and s.result["winner"] == INSURGENT
    assert track(s, IMPERIAL, "supplies") == supplies


@pytest.mark.parametrize(("ruleset", "second_build"), [("2nd", True), ("1st", False)])
def test_insurgent_build_cannon_once_a_round_only_in_the_first_edition(ruleset: str, second_build: bool) -> None:
    # 1st edition rule 4.3.2 Build Cannon: "IMPORTANT: This action may only be performed once each round";
    # the 2nd edition's Build Cannon carries no such limit
    s = clear_board(new_state(ruleset=ruleset))
    place(s, "w5", ins=1)
    place(s, "w4", ins=1)
    play_ap(s, INSURGENT, 39)
    acts(s, ("build",), ("to", "w5"))
    play_ap(s, INSURGENT, 30)
    assert ("build" in verbs(s)) == second_build
    s.round += 1
    run(s, frame("round_end"))  # a new round lifts the 1st edition's limit
    play_ap(s, INSURGENT, 36)
    assert "build" in verbs(s)


@pytest.mark.parametrize(("ruleset", "targets"), [("2nd", {"r5c5", "r5c6", "r6c4"}), ("1st", {"r5c5"})])
def test_raid_off_the_column_only_in_the_second_edition(ruleset: str, targets: set[str]) -> None:
    # 1st edition rule 4.3.2 Raid: "a space in the 3rd row from the Wall, the cost is 3 AP": straight out along
    # the section's column; the 2nd edition's "at least 3 AP" takes spaces off the column too
    s = clear_board(new_state(ruleset=ruleset))
    place(s, "w5", ins=1)
    place(s, "r5c5", exp=1)
    place(s, "r5c6", exp=1)
    place(s, "r6c4", exp=1)
    play_ap(s, INSURGENT, 30)
    acts(s, ("raid",), ("from", "w5"))
    assert args(s, "to") == targets
