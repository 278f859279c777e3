"""Seed 4.4 Winter upkeep (and the DESIGN 9.2.3 disbanding it prevents)."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes.rules.winter import disband

from .kit import act, empty, legal, put, turn


def test_supply_costs_one_action_per_block_outside_friendly_cities() -> None:
    # rule 4.4: in Winter every block outside friendly Cities needs 1 Action of supply
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    put(s, "ath_hop3a", "attica", 3)
    turn(s, "athens", actions=2, season=4)
    supply = [a for a in legal(s) if a.verb == "supply"]
    assert supply == [Action("supply", "ath_hop4")]
    act(s, ("supply", "ath_hop4"))
    assert s.actions_left == 1


def test_no_supply_outside_winter() -> None:
    # rule 4.4: supply is a Winter Action
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    turn(s, "athens", actions=2, season=3)
    assert not [a for a in legal(s) if a.verb == "supply"]


def test_unsupplied_blocks_disband_supplied_ones_stay() -> None:
    # rule 4.4: supplied blocks are not disbanded (9.2.3 DESIGN: every unsupplied block outside a friendly City is)
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    put(s, "ath_hop3a", "megaris", 3)
    put(s, "ath_hop2a", "attica", 2)
    put(s, "mac_perd", "macedonia", 3)  # a Barbarian at home counts as in a friendly City (DESIGN)
    turn(s, "athens", actions=1, season=4)
    act(s, ("supply", "ath_hop4"))
    disband(s)
    assert s.units["ath_hop4"].area == "boeotia"
    assert s.units["ath_hop3a"].area is None
    assert s.units["ath_hop2a"].area == "attica"
    assert s.units["mac_perd"].area == "macedonia"
