"""Seed 5.4 Engage, 5.4.1 Uncoordinated attack, 5.4.2 Siege coordination."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes import RULES
from muster.games.hellenes.rules.common import set_control
from muster.games.hellenes.rules.engage import forces
from muster.games.hellenes.rules.movement import destinations

from .kit import act, empty, kinds, legal, put, turn


def test_blocks_pass_through_areas_whose_enemies_are_besieged() -> None:
    # rule 5.4: an area whose only enemies are besieged in the City does not stop movement
    s = empty()
    put(s, "ath_hop4", "attica", 4)
    put(s, "ath_hop3a", "megaris", 3)
    put(s, "meg_hop2", "megaris", 2, inside=True)
    s.sieges["megaris"] = {"since": 0, "by": "athens"}
    assert destinations(s, "ath_hop4")["corinthia"][0] == "megaris"


def test_separate_forces_fight_separate_battles() -> None:
    # rule 5.4.1: Forces entering by different routes are separate; the attacker chooses which fights first
    s = empty()
    put(s, "ath_hop4", "attica", 4)
    put(s, "ath_hop3a", "attica", 3)
    put(s, "pla_hop", "plataea", 2)
    put(s, "meg_hop2", "megaris", 2)
    set_control(s, "megaris", "sparta")
    turn(s, "athens", actions=2)
    act(s, ("move", "attica"), ("block", "ath_hop4"), ("to", "megaris"), ("block", "ath_hop3a"), ("to", "megaris"),
        "done", ("move", "plataea"), ("block", "pla_hop"), ("to", "megaris"), "done")
    groups = forces(s, "megaris", "athens")
    assert sorted((k, sorted(v)) for k, v in groups.items()) == [("attica", ["ath_hop3a", "ath_hop4"]),
                                                               ("plataea", ["pla_hop"])]
    assert kinds(s) == "fortify"
    act(s, "fight")
    assert kinds(s) == "force_pick" and RULES.active_seat(s) == "athens"
    assert legal(s) == [Action("force", "attica"), Action("force", "plataea")]
    act(s, ("force", "attica"))
    battle = s.stack[-2]
    assert sorted(s.tok[t] for t in battle["att"]) == ["ath_hop3a", "ath_hop4"]  # that Force only


def test_a_moving_force_joins_an_established_siege_assault() -> None:
    # rule 5.4.2: the besiegers wait for a Force arriving this turn, which joins the Assault
    s = empty()
    put(s, "ath_hop4", "megaris", 4)
    put(s, "ath_hop3a", "attica", 3)
    put(s, "meg_hop2", "megaris", 2, inside=True)
    s.sieges["megaris"] = {"since": -1, "by": "athens"}
    turn(s, "athens", actions=1)
    act(s, ("move", "attica"), ("block", "ath_hop3a"), ("to", "megaris"), "done")
    assert kinds(s) == "siege_choice"
    act(s, ("assault", "megaris"))
    battle = s.stack[-2] if kinds(s) in ("battle_retreat", "allocate") else None
    assert battle is not None and sorted(s.tok[t] for t in battle["att"]) == ["ath_hop3a", "ath_hop4"]


def test_winter_and_muster_never_engage() -> None:
    # rule 5.4: Mustering blocks cannot Engage
    s = empty()
    put(s, "ath_hop4", "plataea", 4)
    put(s, "meg_hop2", "megaris", 2)
    assert "megaris" not in destinations(s, "ath_hop4", muster=True)
