"""Seed 4.0 Actions, 4.1 Group activity, and the seed's worked example of Actions (Sparta's 3-Action card)."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes import RULES

from .kit import act, empty, kinds, legal, put, turn


def test_actions_are_card_plus_leader_and_are_not_saved() -> None:
    # rule 4.0: Actions = coins on the card + the Leader; unused Actions are lost
    s = empty()
    put(s, "ath_hop4", "attica", 2)
    turn(s, "athens", actions=3)
    assert "3 Actions left" in RULES.prompt(s)
    act(s, ("build", "ath_hop4"))
    assert s.actions_left == 2
    act(s, "end")
    assert s.actions_left == 0
    assert kinds(s) != "actions"  # the Action phase is over


def test_a_group_is_every_block_in_one_area_and_one_action_moves_it() -> None:
    # rule 4.1: all friendly blocks in one area form a Group; 1 Action moves the whole Group
    s = empty()
    put(s, "spa_sp4", "laconia", 4)
    put(s, "spa_per3", "laconia", 3)
    put(s, "arc_hop3", "arcadia", 3)
    turn(s, "sparta", actions=1)
    assert Action("move", "laconia") in legal(s) and Action("move", "arcadia") in legal(s)
    act(s, ("move", "laconia"), ("block", "spa_sp4"), ("to", "arcadia"), ("block", "spa_per3"), ("to", "messenia"))
    assert s.units["spa_sp4"].area == "arcadia" and s.units["spa_per3"].area == "messenia"
    assert s.actions_left == 0


def test_worked_example_spartas_three_action_card() -> None:
    # rule 4.0 Example: Sparta plays a 3-Action card: (1) builds the Corinthian fleet from 2 to 3 CV;
    # (2) recruits: draws 3 blocks, places the Theban block in Thebes, returns the other 2; (3) activates the
    # 6-block Group in Sparta: 2 blocks to Corinth, 2 to sea, 1 to Messenia, the sixth stays.
    s = empty()
    put(s, "cor_fl3", "corinthia", 2)
    for bid, cv in (("spa_sp4", 4), ("spa_sp3", 3), ("spa_per3", 3), ("spa_per2", 2), ("spa_ski", 1), ("spa_fl2", 2)):
        put(s, bid, "laconia", cv)
    # everything else Spartan stands on the map, so the Pool holds exactly the three blocks drawn
    for bid in ("arc_hop3", "arc_hop2b", "boe_hop4", "boe_cav", "cor_hop3", "cor_fl2", "ach_fl2",
                "pot_hop", "mac_perd", "aeo_rebel"):
        put(s, bid, "arcadia" if bid not in ("cor_fl2", "ach_fl2", "aeo_rebel") else "achaea", 1)
    turn(s, "sparta", actions=3)
    act(s, ("build", "cor_fl3"))
    assert s.units["cor_fl3"].cv == 3
    act(s, "recruit")
    drawn = list(s.draw["ids"])
    assert sorted(drawn) == ["arc_hop2a", "boe_hop3", "meg_hop2"]
    act(s, ("place", "boe_hop3@boeotia"))
    assert s.units["boe_hop3"].area == "boeotia" and s.units["boe_hop3"].cv == 1  # rule 4.2.2: CV 1
    assert all(s.units[b].area is None for b in drawn if b != "boe_hop3")  # the other two go back
    act(s, ("move", "laconia"),
        ("block", "spa_sp4"), ("to", "corinthia"),
        ("block", "spa_sp3"), ("to", "corinthia"),
        ("block", "spa_ski"), ("board", "spa_fl2"),
        ("block", "spa_fl2"), ("to", "myrtoan"),
        ("block", "spa_per3"), ("to", "messenia"),
        "done")
    where = {b: (s.units[b].area, s.units[b].carrier) for b in
             ("spa_sp4", "spa_sp3", "spa_ski", "spa_fl2", "spa_per3", "spa_per2")}
    assert where == {"spa_sp4": ("corinthia", None), "spa_sp3": ("corinthia", None),
                     "spa_ski": ("myrtoan", "spa_fl2"), "spa_fl2": ("myrtoan", None),
                     "spa_per3": ("messenia", None), "spa_per2": ("laconia", None)}
    assert s.actions_left == 0
