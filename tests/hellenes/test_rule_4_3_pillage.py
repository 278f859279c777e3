"""Seed 4.3 and 5.5 Pillage."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes.rules.common import set_control

from .kit import act, empty, legal, put, turn


def besiege(s, area: str, since: int = -1) -> None:  # type: ignore[no-untyped-def]
    """An Athenian Group besieging an area's City (established unless ``since`` is now)."""
    put(s, "ath_hop4", area, 4)
    put(s, "ath_hop3a", area, 3)
    s.sieges[area] = {"since": since, "by": "athens"}


def test_pillage_scores_one_and_withdraws_to_an_enemy_free_area() -> None:
    # rule 5.5: 1 Action, an established Siege of an opposing City-State; the whole Group withdraws; +1 Prestige
    s = empty()
    besiege(s, "megaris")
    put(s, "cor_hop3", "corinthia", 3)
    turn(s, "athens", actions=2)
    assert Action("pillage", "megaris") in legal(s)
    act(s, ("pillage", "megaris"))
    assert sorted(a.arg for a in legal(s)) == ["attica", "plataea"]  # Corinthia holds enemy blocks
    act(s, ("to", "attica"))
    assert s.units["ath_hop4"].area == "attica" and s.units["ath_hop3a"].area == "attica"
    assert s.prestige == -1  # Athens +1
    assert "megaris" in s.pillaged


def test_pillaging_athens_or_sparta_scores_two() -> None:
    # rule 5.5: +2 if the City is Athens or Sparta
    s = empty()
    besiege(s, "laconia")
    turn(s, "athens", actions=1)
    act(s, ("pillage", "laconia"), ("to", "messenia"))
    assert s.prestige == -2


def test_pillage_needs_an_established_siege() -> None:
    # rule 5.5: the Siege must date from an earlier Season
    s = empty()
    besiege(s, "megaris", since=1)
    turn(s, "athens", actions=1, season=1)
    assert Action("pillage", "megaris") not in legal(s)


def test_pillage_once_per_year_and_no_return_that_turn() -> None:
    # rule 5.5: a City-State can be pillaged once per Year; the pillagers may not re-enter it this Player Turn
    s = empty()
    besiege(s, "megaris")
    put(s, "ath_hop2b", "plataea", 2)
    turn(s, "athens", actions=2)
    act(s, ("pillage", "megaris"), ("to", "attica"), ("move", "plataea"), ("block", "ath_hop2b"))
    assert Action("to", "megaris") not in legal(s) and Action("to", "attica") in legal(s)
    s.pillaged = ["megaris"]
    s.sieges["megaris"] = {"since": -1, "by": "athens"}
    put(s, "ath_hop2a", "megaris", 2)
    turn(s, "athens", actions=1)
    assert Action("pillage", "megaris") not in legal(s)


def test_no_pillage_of_a_loyal_city() -> None:
    # rule 4.3 (UNCLEAR, read as "not a City loyal to you"): only opposing City-States
    s = empty()
    set_control(s, "plataea", "sparta")
    put(s, "ath_hop4", "plataea", 4)
    s.sieges["plataea"] = {"since": -1, "by": "athens"}
    turn(s, "athens", actions=1)
    assert Action("pillage", "plataea") not in legal(s)
