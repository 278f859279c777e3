"""Seed 4.2 Build: 4.2.1 Reinforce, 4.2.2 Recruit (with the Ineligible-recruit and Rebel sidebars), 4.2.3
Detached garrison."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes.datafiles import blocks
from muster.games.hellenes.rules.build import pool
from muster.games.hellenes.rules.common import set_control
from muster.games.hellenes.rules.siege import upkeep

from .kit import act, empty, kinds, legal, put, turn

SPARTANS = ("spa_sp4", "spa_sp3", "spa_per3", "spa_per2", "spa_ski", "spa_fl2", "arc_hop3", "arc_hop2a", "arc_hop2b",
            "boe_hop4", "boe_hop3", "boe_cav", "cor_hop3", "cor_fl3", "cor_fl2", "ach_fl2", "meg_hop2", "pot_hop",
            "mac_perd", "aeo_rebel")


def only_in_pool(s, keep: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """Put every Spartan block except ``keep`` on the map (in Laconia), so the Pool is exactly ``keep``."""
    for bid in SPARTANS:
        if bid not in keep and s.units[bid].area is None:
            put(s, bid, "laconia", 1)


def test_reinforce_adds_one_cv_per_action_up_to_the_maximum() -> None:
    # rule 4.2.1: +1 CV per Action to a block in its home City, several times a Season, up to its maximum
    s = empty()
    put(s, "cor_hop3", "corinthia", 1)
    turn(s, "sparta", actions=3)
    act(s, ("build", "cor_hop3"), ("build", "cor_hop3"))
    assert s.units["cor_hop3"].cv == 3
    assert Action("build", "cor_hop3") not in legal(s)


def test_no_reinforce_outside_the_home_city() -> None:
    # rule 4.2.1: only in its own home City
    s = empty()
    put(s, "cor_hop3", "megaris", 1)
    turn(s, "sparta", actions=1)
    assert Action("build", "cor_hop3") not in legal(s)


def test_no_build_in_a_besieged_city() -> None:
    # rule 4.2: no Build in a besieged City (Thebes is not a Port)
    s = empty()
    put(s, "boe_hop4", "boeotia", 2, inside=True)
    put(s, "ath_hop4", "boeotia", 4)
    s.sieges["boeotia"] = {"since": 0, "by": "athens"}
    turn(s, "sparta", actions=1)
    assert Action("build", "boe_hop4") not in legal(s)


def test_a_besieged_port_builds_unless_blockaded() -> None:
    # rule 4.2 (UNCLEAR, read as in the digest): a besieged Port may Build while it is not blockaded
    s = empty()
    put(s, "cor_hop3", "corinthia", 1, inside=True)
    put(s, "ath_hop4", "corinthia", 4)
    s.sieges["corinthia"] = {"since": 0, "by": "athens"}
    turn(s, "sparta", actions=1)
    assert Action("build", "cor_hop3") in legal(s)
    put(s, "ath_fl4a", "corinthian", 4)  # an Athenian fleet in the offshore sea: blockaded (8.2.1)
    turn(s, "sparta", actions=1)
    assert Action("build", "cor_hop3") not in legal(s)


def test_recruit_draws_three_and_places_one_greek_at_cv_1() -> None:
    # rule 4.2.2: draw 3 from the Pool, place one in its home City (Greek: CV 1), the other two go back
    s = empty()
    only_in_pool(s, ("boe_hop3", "meg_hop2", "cor_fl2"))
    turn(s, "sparta", actions=1)
    act(s, "recruit")
    assert sorted(s.draw["ids"]) == ["boe_hop3", "cor_fl2", "meg_hop2"]
    assert sorted(a.arg for a in legal(s)) == ["boe_hop3@boeotia", "cor_fl2@corinthia", "meg_hop2@megaris"]
    act(s, ("place", "meg_hop2@megaris"))
    assert s.units["meg_hop2"].area == "megaris" and s.units["meg_hop2"].cv == 1
    assert sorted(pool(s, "sparta")) == ["boe_hop3", "cor_fl2"]


def test_barbarian_recruit_enters_at_full_cv_and_moves_free() -> None:
    # rule 4.2.2: a Barbarian enters its home settlement at full CV and may move at once, free of Actions
    s = empty()
    only_in_pool(s, ("mac_perd",))
    turn(s, "sparta", actions=1)
    act(s, "recruit", ("place", "mac_perd@macedonia"))
    assert s.units["mac_perd"].cv == 3
    assert kinds(s) == "free_move"
    act(s, ("to", "thessaly"))
    assert s.units["mac_perd"].area == "thessaly"


def test_no_legal_placement_wastes_the_action() -> None:
    # rule 4.2.2: if none of the drawn blocks can be placed, all go back and the Action is wasted
    s = empty()
    only_in_pool(s, ("boe_hop3",))
    put(s, "ath_hop4", "boeotia", 4)
    s.sieges["boeotia"] = {"since": 0, "by": "athens"}
    turn(s, "sparta", actions=1)
    act(s, "recruit")
    assert legal(s) == [Action("wasted")]
    act(s, "wasted")
    assert pool(s, "sparta") == ["boe_hop3"]


def test_aeolian_rebel_fleet_takes_its_city_unless_athenians_are_there() -> None:
    # rule 4.2.2 Rebel units: the Aeolian rebel fleet arrives on Lesbos or Chios if no enemy is there, and seizes it
    s = empty()
    only_in_pool(s, ("aeo_rebel",))
    put(s, "les_fl", "lesbos", 2)
    turn(s, "sparta", actions=1)
    act(s, "recruit")
    assert legal(s) == [Action("place", "aeo_rebel@chios")]
    act(s, ("place", "aeo_rebel@chios"))
    assert s.control["chios"] == "sparta" and s.units["aeo_rebel"].cv == 1


def test_a_recruited_aeolian_rebel_fleet_enters_at_cv_1_and_is_reinforced_in_its_city() -> None:
    # rule 4.2.2 and its "Rebel units" sidebar: Greek recruits enter at CV 1, and the Aeolian fleets are Greek and
    # arrive as ordinary recruits, so the rebel fleet enters at CV 1 (not its maximum, 2) and a later Reinforce
    # (4.2.1) in the City it took can raise it (only the Revolt Event's own text brings it at full CV)
    s = empty()
    only_in_pool(s, ("aeo_rebel",))
    turn(s, "sparta", actions=2)
    act(s, "recruit")
    act(s, ("place", "aeo_rebel@lesbos"))
    assert s.units["aeo_rebel"].cv == 1 and blocks()["aeo_rebel"].max_cv == 2
    assert Action("build", "aeo_rebel") in legal(s)
    act(s, ("build", "aeo_rebel"))
    assert s.units["aeo_rebel"].cv == 2


def test_macedonian_rebel_never_enters_pella() -> None:
    # rule 4.2.2 Rebel units: Macedonian rebels enter any Macedonian settlement except Pella
    s = empty()
    for bid in ("ath_hop4", "ath_hop3a", "ath_hop3b", "ath_hop2a", "ath_hop2b", "ath_hop2c", "ath_inf4", "ath_inf3",
                "ath_inf2a", "ath_inf2b", "ath_inf2c", "ath_arch", "ath_cav", "ath_fl4a", "ath_fl4b", "ath_fl3a",
                "ath_fl3b", "ath_fl2a", "ath_fl2b", "ath_fl2c", "ath_fl2d", "ath_lev4", "ath_lev3", "ath_lev2a",
                "ath_lev2b", "pla_hop", "mes_inf", "aca_inf", "ker_fl", "les_fl", "chi_fl"):
        put(s, bid, "attica", 1)
    turn(s, "athens", actions=1)
    act(s, "recruit")
    assert legal(s) == [Action("place", "mac_philip@lyncus")]


def test_ineligible_blocks_are_not_drawn() -> None:
    # rule 4.2.2 Ineligible recruits: the Odrysians only after their Event
    s = empty()
    assert "ody_cav" not in pool(s, "athens")
    s.odrysian = True
    assert "ody_cav" in pool(s, "athens")


def test_detached_garrison_keeps_a_city_after_the_blocks_leave() -> None:
    # rule 4.2.3: 1 Action in an enemy City held by a friendly Greek block leaves a garrison that keeps it
    s = empty()
    set_control(s, "plataea", "sparta")
    s.militia["plataea"] = 0
    put(s, "spa_per2", "plataea", 2)
    turn(s, "sparta", actions=2)
    act(s, ("garrison", "plataea"), ("move", "plataea"), ("block", "spa_per2"), ("to", "megaris"), "done")
    upkeep(s)
    assert s.control["plataea"] == "sparta"
    s.garrison = []
    upkeep(s)
    assert s.control["plataea"] == "athens"  # without a garrison the City reverts
