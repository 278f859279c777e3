"""Rules revision 3: the owner's choices left after revision 2 — the order of equal battles (6.0), of
uncoordinated Forces (5.4.1) and of equally strong routed blocks hit in a Pursuit (6.3.4) — and the parts the
digest proposes that were missing: Sorties (8.3), Winter moves home through enemy areas (9.2.1) and the
amphibious landing (6.6)."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes import RULES, texts
from muster.games.hellenes.rules.actions import muster_cities
from muster.games.hellenes.rules.combat import stats
from muster.games.hellenes.rules.common import set_control
from muster.games.hellenes.rules.engage import forces
from muster.games.hellenes.rules.movement import destinations, muster_candidates
from muster.games.hellenes.state import State

from .kit import act, combat_only, dice, empty, kinds, legal, put, said, turn


def test_the_active_player_orders_battles_of_equal_size() -> None:
    # rule 6.0: smaller battles first; "among battles of equal size, the active player picks the order"
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "phocis", 4)
    put(s, "ath_hop3a", "plataea", 3)
    put(s, "boe_hop3", "plataea", 3)
    combat_only(s, "athens")
    assert kinds(s) == "battle_pick" and RULES.active_seat(s) == "athens"
    assert sorted(legal(s)) == [Action("battle", "phocis"), Action("battle", "plataea")]
    act(s, ("battle", "plataea"))
    assert kinds(s) == "battle_retreat" and s.stack[-2]["area"] == "plataea"


def test_a_smaller_battle_goes_first_without_a_question() -> None:
    # rule 6.0: sizes differ (the active player's blocks): no choice to make
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "ath_hop2a", "phocis", 2)
    put(s, "boe_hop4", "phocis", 4)
    put(s, "ath_hop3a", "plataea", 3)
    put(s, "boe_hop3", "plataea", 3)
    combat_only(s, "athens")
    assert kinds(s) == "battle_retreat" and s.stack[-2]["area"] == "plataea"


def test_the_attacker_orders_uncoordinated_forces_and_the_next_fights_the_survivors() -> None:
    # rule 5.4.1: "the attacker chooses which Force fights first. If it loses, the next Force starts a new
    # battle against the surviving defenders"
    s = empty()
    put(s, "ath_hop2a", "attica", 1)
    put(s, "pla_hop", "plataea", 2)
    put(s, "boe_hop4", "boeotia", 2, inside=False)
    s.militia["boeotia"] = 0
    set_control(s, "boeotia", "athens")  # no Fortify question: Sparta holds no City there
    turn(s, "athens", actions=2)
    act(s, ("move", "attica"), ("block", "ath_hop2a"), ("to", "boeotia"), "done",
        ("move", "plataea"), ("block", "pla_hop"), ("to", "boeotia"), "done")
    assert kinds(s) == "force_pick" and RULES.active_seat(s) == "athens"
    assert legal(s) == [Action("force", "attica"), Action("force", "plataea")]
    assert [RULES.label(s, a) for a in legal(s)] == ["the Force from Attica (1 block)",
                                                    "the Force from Plataea (1 block)"]
    assert texts.said_in(RULES.prompt(s), "pl") == ("Ateny: nieskoordynowane oddziały w obszarze "
                                                                      "Beocja – który walczy pierwszy?")
    assert texts.said_in(RULES.label(s, legal(s)[1]), "pl") == \
        "oddział z obszaru Plateje (1 blok)"
    act(s, ("force", "attica"))
    first = s.stack[-2]
    assert [s.tok[t] for t in first["att"]] == ["ath_hop2a"]
    dice(s, 3, 4)  # Thebes (the defender) fires first: nothing
    act(s, "fight", "retreat")  # the first Force retreats at its turn to fire
    if kinds(s) == "retreat_to":
        act(s, ("to", "attica"))
    # the first Force has left; the second Force fights a new battle against the same defenders
    assert kinds(s) == "battle_retreat" and s.units["ath_hop2a"].area == "attica"
    second = s.stack[-2]
    assert second is not first and [s.tok[t] for t in second["att"]] == ["pla_hop"]
    assert second["routed"] == [] and second["round"] == 1


def test_the_loser_chooses_among_equally_strong_routed_blocks_hit_in_a_pursuit() -> None:
    # rule 6.3.4 (digest 2.6): Pursuit hits go to the strongest routed block, the owner choosing among equals
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop3", "phocis", 2)
    put(s, "cor_hop3", "phocis", 2)
    combat_only(s, "athens")
    dice(s, 3, 4, 3, 4)  # Thebes and Corinth fire: nothing
    act(s, "fight")
    dice(s, 5, 6, 3, 3)  # Athens: two routs (the first between two equally weak blocks)
    act(s, "fight")
    assert kinds(s) == "allocate" and s.stack[-1]["verb"] == "rout"
    act(s, ("rout", "boe_hop3"))
    # both Spartan blocks are routed: a Panic; Athens pursues with 4 dice, one hit
    assert kinds(s) == "allocate" and RULES.active_seat(s) == "sparta"
    assert s.stack[-2]["chase"] is not None and s.stack[-1]["verb"] == "hit"
    assert sorted(a.arg for a in legal(s)) == ["boe_hop3", "cor_hop3"]
    assert s.units["boe_hop3"].cv == s.units["cor_hop3"].cv == 2


def test_a_pursuit_hit_on_a_single_strongest_routed_block_asks_nothing() -> None:
    # rule 6.3.4: no tie, no question (the fixed dice of revision 2's Pursuit test)
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "phocis", 1)
    combat_only(s, "athens")
    dice(s, 4)
    act(s, "fight")
    dice(s, 6, 3, 4, 4, 1, 3, 4, 4)
    act(s, "fight")
    assert s.units["boe_hop4"].area is None and s.prestige == -1


def _besieged_thebes(cv: int, besieger: str = "ath_hop2a", besieger_cv: int = 2) -> State:
    s = empty()
    put(s, "spa_sp4", "boeotia", cv, inside=True)
    put(s, besieger, "boeotia", besieger_cv)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    return s


def test_a_winning_sortie_ends_the_siege() -> None:
    # rule 8.3: the besieged attack the besiegers in a field battle; the Siege ends if the Sortie wins
    s = _besieged_thebes(4)
    combat_only(s, "sparta")
    assert kinds(s) == "sortie" and RULES.active_seat(s) == "sparta"
    assert legal(s) == [Action("sortie", "boeotia"), Action("hold", "boeotia"), Action("stay")]
    assert RULES.label(s, Action("stay")) == "no Sortie this Season"
    act(s, ("sortie", "boeotia"))
    battle = s.stack[-2]
    assert battle["sortie"] and not battle["assault"] and s.tok[battle["att"][0]] == "spa_sp4"
    dice(s, 3, 4)  # the besiegers fire first (the defender): nothing
    act(s, "fight")
    dice(s, 1, 1, 4, 4)  # the Spartiates: two hits eliminate the besieger
    act(s, "fight")
    assert "boeotia" not in s.sieges and s.units["spa_sp4"].inside is False
    assert s.units["ath_hop2a"].area is None
    assert any("The Sortie breaks the Siege of Thebes" in line for line in said(s))


def test_a_failed_sortie_goes_back_inside_and_the_siege_goes_on() -> None:
    # rule 8.3: "if the Sortie Retreats or Panics, the survivors go back inside and the Siege goes on"
    s = _besieged_thebes(1, "ath_hop2a", 1)
    combat_only(s, "sparta")
    act(s, ("sortie", "boeotia"))
    dice(s, 5, 3, 6)  # Athens routs the sortie (a Panic); its Pursuit misses; Retreat Attrition 6: no loss
    act(s, "fight")
    assert s.sieges["boeotia"]["by"] == "athens"
    assert s.units["spa_sp4"].inside is True and s.units["spa_sp4"].area == "boeotia"
    assert s.units["spa_sp4"].cv == 1
    assert any("Sparta falls back into Thebes" in line for line in said(s))


def test_no_sortie_in_an_event_turn_and_declining_answers_for_the_phase() -> None:
    # rule 8.3 with 6.0: a Sortie is an attack, so not after an Event; "no Sortie" is asked once a phase
    s = _besieged_thebes(4)
    combat_only(s, "sparta", mode="event")
    assert kinds(s) != "sortie"
    s = _besieged_thebes(4)
    combat_only(s, "sparta")
    act(s, "stay")
    assert kinds(s) != "sortie" and s.sieges["boeotia"]["by"] == "athens"


def test_winter_moves_home_pass_through_enemy_areas() -> None:
    # rule 9.2.1 (digest 2.7): in Winter a block going to a friendly City passes enemy areas without stopping
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "boeotia", 4)
    turn(s, "athens", actions=1, season=3)
    assert "attica" not in destinations(s, "ath_hop4")  # Fall: Boeotia's enemies stop the block
    s.season = 4
    assert destinations(s, "ath_hop4")["attica"] == ("boeotia", False, ())
    assert "thessaly" in destinations(s, "ath_hop4")  # ordinary destinations stay
    s.season = 3
    assert "attica" not in destinations(s, "ath_hop4")  # the cached searches are never mixed up
    s.season = 4
    act(s, ("move", "phocis"), ("block", "ath_hop4"), ("to", "attica"), "done")
    assert s.units["ath_hop4"].area == "attica" and s.units["boe_hop4"].cv == 4


def test_winter_muster_passes_through_enemy_areas_but_never_engages() -> None:
    # rule 9.2.1: a Muster home in Winter passes through enemy areas; 5.0: it still may not Engage
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "boeotia", 4)
    turn(s, "athens", actions=1, season=3)
    assert "attica" not in muster_cities(s, "athens")
    s.season = 4
    s._legal = None
    assert "attica" in muster_cities(s, "athens")
    assert muster_candidates(s, "athens", "attica") == ["ath_hop4"]
    assert "boeotia" not in destinations(s, "ath_hop4", muster=True)
    act(s, ("muster", "attica"), ("block", "ath_hop4"), "done")
    assert s.units["ath_hop4"].area == "attica"


def test_an_amphibious_landing_fights_with_its_fleets_force() -> None:
    # rule 6.6 (digest 2.6): passengers landed in an enemy area belong to their fleet's Force and fight from
    # round 1; the fleet fights as C1 on land
    s = empty()
    put(s, "ath_fl4a", "attica", 4)
    put(s, "ath_hop2a", "attica", 2)
    put(s, "meg_hop2", "megaris", 2)
    turn(s, "athens", actions=1)
    act(s, ("move", "attica"), ("block", "ath_hop2a"), ("board", "ath_fl4a"), ("block", "ath_fl4a"),
        ("to", "saronic"), "done")
    assert s.units["ath_hop2a"].area == "saronic"
    s.moved = []
    turn(s, "athens", actions=1)
    act(s, ("move", "saronic"), ("block", "ath_fl4a"), ("to", "megaris"), "done")
    assert {k: sorted(v) for k, v in forces(s, "megaris", "athens").items()} == {"saronic": ["ath_fl4a", "ath_hop2a"]}
    act(s, "fight")  # Megara does not fortify
    battle = s.stack[-2]
    assert sorted(s.tok[t] for t in battle["att"]) == ["ath_fl4a", "ath_hop2a"]
    fleet = s.units["ath_fl4a"].token
    assert stats(s, battle, fleet)[:2] == ("C", 1)
