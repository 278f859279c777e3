"""Seed 5.0 Movement, 5.1 Land movement, 5.2 Sea movement (Diolkos, besieged Ports), 5.2.1 Sea transport."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes.rules.movement import boardable, boardable_reduced, can_move, destinations

from .kit import act, empty, legal, put, turn


def test_each_block_moves_once_per_player_turn() -> None:
    # rule 5.0: a block moves at most once per Player Turn
    s = empty()
    put(s, "spa_sp4", "laconia", 4)
    turn(s, "sparta", actions=2)
    act(s, ("move", "laconia"), ("block", "spa_sp4"), ("to", "arcadia"), "done")
    assert Action("move", "arcadia") not in legal(s)


def test_entering_an_enemy_area_stops_the_block() -> None:
    # rule 5.0/5.4: blocks stop on entering an area holding enemy blocks
    s = empty()
    put(s, "spa_sp4", "laconia", 4)
    put(s, "ath_hop4", "arcadia", 4)
    d = destinations(s, "spa_sp4")
    assert d["arcadia"][1] is False
    assert d["achaea"][1] is True  # only the long way round (Messenia, Elis), beyond the allowance of 2


def test_muster_gathers_blocks_into_one_friendly_city_and_never_engages() -> None:
    # rule 5.0: Muster moves blocks from different areas into one friendly City-State; no Engaging, no forced march
    s = empty()
    put(s, "spa_sp4", "arcadia", 4)
    put(s, "spa_per3", "messenia", 3)
    turn(s, "sparta", actions=1)
    act(s, ("muster", "laconia"), ("block", "spa_sp4"), ("block", "spa_per3"), "done")
    assert s.units["spa_sp4"].area == s.units["spa_per3"].area == "laconia"
    put(s, "ath_hop3a", "corinthia", 3)
    assert "corinthia" not in destinations(s, "spa_sp4", muster=True)


def test_no_entry_into_neutral_areas() -> None:
    # rule 5.1: Neutral areas (Argolis in 431) cannot be entered
    s = empty()
    put(s, "spa_sp4", "laconia", 4)
    put(s, "spa_fl2", "laconia", 2)
    assert "argolis" not in destinations(s, "spa_sp4")
    assert "argolis" not in destinations(s, "spa_fl2")


def test_besieged_blocks_cannot_move_by_land() -> None:
    # rule 5.1 (7.4): besieged blocks cannot move by land
    s = empty()
    put(s, "meg_hop2", "megaris", 2, inside=True)
    put(s, "ath_hop4", "megaris", 4)
    s.sieges["megaris"] = {"since": 0, "by": "athens"}
    assert destinations(s, "meg_hop2") == {}


def test_fleets_on_land_move_one_coastal_area_at_most() -> None:
    # rule 5.1 Fleets on land: along the coast only, one land area, and they stop there
    s = empty()
    put(s, "spa_fl2", "laconia", 2)
    d = destinations(s, "spa_fl2")
    overland = sorted(a for a, r in d.items() if r[0] in ("laconia", "messenia") and a not in ("myrtoan", "ionian"))
    assert overland == ["messenia"]  # the coastal neighbour sharing a sea; never inland Arcadia, never further
    assert "arcadia" not in d


def test_a_besieged_port_is_left_only_through_its_offshore_sea() -> None:
    # rule 5.2: a besieged Port can be left only through its offshore sea
    s = empty()
    put(s, "cor_fl3", "corinthia", 3, inside=True)
    put(s, "ath_hop4", "corinthia", 4)
    s.sieges["corinthia"] = {"since": 0, "by": "athens"}
    first_steps = {a for a, r in destinations(s, "cor_fl3").items() if r[0] == "corinthia"}
    assert first_steps == {"corinthian"}


def test_diolkos_corinth_uses_both_coasts() -> None:
    # rule 5.2 Diolkos: fleets enter or leave Corinth by either coast
    s = empty()
    put(s, "cor_fl3", "corinthia", 3)
    d = destinations(s, "cor_fl3")
    assert d["corinthian"][0] == "corinthia" and d["saronic"][0] == "corinthia"


def test_sea_transport_one_greek_block_below_the_fleets_cv() -> None:
    # rule 5.2.1: one Greek land block, CV lower than the fleet's, starting and ending with it; no Barbarians
    s = empty()
    put(s, "ath_fl3a", "attica", 3)
    put(s, "ath_hop4", "attica", 3)
    put(s, "ath_hop2a", "attica", 2)
    assert boardable(s, "ath_hop4") == []  # CV 3 is not below the fleet's 3
    assert boardable(s, "ath_hop2a") == ["ath_fl3a"]
    put(s, "ody_cav", "attica", 1)
    assert boardable(s, "ody_cav") == []
    turn(s, "athens", actions=1)
    act(s, ("move", "attica"), ("block", "ath_hop2a"), ("board", "ath_fl3a"), ("block", "ath_fl3a"), ("to", "megaris"))
    assert s.units["ath_hop2a"].area == "megaris" and s.units["ath_hop2a"].carrier is None
    assert boardable(s, "ath_hop4") == []  # the fleet has moved


def test_a_besieged_port_is_entered_only_through_its_offshore_sea() -> None:
    # rule 5.2: "a besieged Port may be entered or left only through its offshore sea" (1.3); Corinth's offshore
    # sea is the Corinthian Gulf (Diolkos sidebar), so while Athens besieges Corinth a Spartan fleet in the
    # Saronic Gulf is not offered a landing in Corinthia, while one in the Corinthian Gulf is
    s = empty()
    put(s, "cor_hop3", "corinthia", 3, inside=True)
    put(s, "ath_hop4", "corinthia", 4)
    s.sieges["corinthia"] = {"since": 0, "by": "athens"}
    put(s, "spa_fl2", "saronic", 2)
    put(s, "cor_fl3", "corinthian", 3)
    from_saronic = destinations(s, "spa_fl2").get("corinthia")
    assert from_saronic is None or from_saronic[0] == "corinthian"  # never straight from the Saronic Gulf
    assert destinations(s, "cor_fl3")["corinthia"][0] == "corinthian"
    # Megaris (a land neighbour on the Saronic coast) is no way in for a fleet either
    put(s, "ach_fl2", "megaris", 2)
    assert destinations(s, "ach_fl2").get("corinthia", ("corinthian",))[0] == "corinthian"
    # the besiegers' fleets come and go by any coast (5.2: sea access "including besiegers")
    put(s, "ath_fl2a", "saronic", 2)
    assert destinations(s, "ath_fl2a")["corinthia"][0] == "saronic"
    # once the Siege is over, the Diolkos opens both coasts again
    del s.sieges["corinthia"]
    assert destinations(s, "spa_fl2")["corinthia"][0] == "saronic"


def test_a_passenger_may_be_reduced_below_the_fleets_cv_to_board() -> None:
    # rule 5.2.1: the carried block's CV must be below the fleet's "and may be reduced at the player's wish":
    # hoplites at CV 3 board a CV 3 fleet by dropping to CV 2; a CV 1 fleet can carry nothing (CV 0 is no block)
    s = empty()
    put(s, "ath_fl3a", "attica", 3)
    put(s, "ath_fl2a", "attica", 1)
    put(s, "ath_hop4", "attica", 3)
    turn(s, "athens", actions=1)
    act(s, ("move", "attica"))
    assert Action("block", "ath_hop4") in legal(s)
    act(s, ("block", "ath_hop4"))
    choices = legal(s)
    assert Action("board", "ath_fl3a") not in choices
    assert Action("board_reduce", "ath_fl3a") in choices
    assert Action("board_reduce", "ath_fl2a") not in choices and Action("board", "ath_fl2a") not in choices
    act(s, ("board_reduce", "ath_fl3a"))
    assert s.units["ath_hop4"].cv == 2 and s.units["ath_hop4"].carrier == "ath_fl3a"
    act(s, ("block", "ath_fl3a"), ("to", "megaris"))
    assert s.units["ath_hop4"].area == "megaris" and s.units["ath_hop4"].cv == 2


def test_reduce_to_board_is_offered_only_when_needed_and_for_a_block_that_could_move_no_other_way() -> None:
    # rule 5.2.1: a block already below the fleet's CV boards as it is (no reduction offered); a besieged block,
    # which cannot move by land (5.1/7.4), may still leave by reducing to board a fleet inside its Port
    s = empty()
    put(s, "ath_fl3a", "attica", 3)
    put(s, "ath_hop2a", "attica", 2)
    assert boardable(s, "ath_hop2a") == ["ath_fl3a"] and boardable_reduced(s, "ath_hop2a") == []
    s = empty()
    put(s, "cor_fl2", "corinthia", 2, inside=True)
    put(s, "cor_hop3", "corinthia", 3, inside=True)
    put(s, "ath_hop4", "corinthia", 4)
    s.sieges["corinthia"] = {"since": 0, "by": "athens"}
    assert destinations(s, "cor_hop3") == {} and boardable(s, "cor_hop3") == []
    assert can_move(s, "cor_hop3") and boardable_reduced(s, "cor_hop3") == ["cor_fl2"]


def test_the_reduce_to_board_choice_reads_in_english_and_polish_on_the_terminal_and_the_web() -> None:
    # rule 5.2.1: the new choice is named with the CV the block is reduced to, in both languages, with a web hint
    from muster.games.hellenes import RULES, texts
    from muster.games.hellenes.web import HellenesAdapter

    s = empty()
    put(s, "ath_fl3a", "attica", 3)
    put(s, "ath_hop4", "attica", 3)
    turn(s, "athens", actions=1)
    act(s, ("move", "attica"), ("block", "ath_hop4"))
    choice = Action("board_reduce", "ath_fl3a")
    english = RULES.label(s, choice)
    assert english.startswith("reduce to CV 2 to board ") and english.endswith("(sea transport)")
    view = RULES.view(s, "athens")
    polish = texts.said_in(english, "pl")
    assert polish.startswith("zmniejsz do siły 2, by wejść na pokład: ") and "(transport morski)" in polish
    adapter = HellenesAdapter()
    assert "below the fleet's CV" in adapter.hint(view, choice, "athens", "en")
    assert "poniżej siły floty" in adapter.hint(view, choice, "athens", "pl")
