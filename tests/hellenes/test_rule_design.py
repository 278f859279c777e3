"""The DESIGN parts (digest section 2): Sieges and Militia (7-8), battle end and retreat (6.3.4-6.4.1),
Winter and New Year (9-10), Prestige and victory (14)."""

from __future__ import annotations

from muster.games.hellenes import RULES
from muster.games.hellenes.engine import advance, frame
from muster.games.hellenes.rules.common import set_control
from muster.games.hellenes.rules.new_year import deal
from muster.games.hellenes.rules.siege import attrition, lay_sieges
from muster.games.hellenes.rules.victory import tribute

from .kit import act, combat_only, dice, empty, fresh, put


def test_a_loyal_city_defends_itself_with_its_militia() -> None:
    # DESIGN 7.2: Greek blocks alone in an enemy City-State besiege its Militia (CV = the City's number)
    s = empty()
    s.season = 1
    put(s, "ath_hop4", "megaris", 4)
    lay_sieges(s, "athens")
    assert s.sieges["megaris"] == {"since": s.season_index(), "by": "athens"}
    assert s.control["megaris"] == "sparta"


def test_an_undefended_city_falls_and_the_enemy_capital_wins() -> None:
    # DESIGN 7.2/14: a City with no defenders and no Militia is captured (+1); taking the enemy capital wins
    s = empty()
    s.militia["laconia"] = 0
    put(s, "ath_hop4", "laconia", 4)
    lay_sieges(s, "athens")
    assert s.control["laconia"] == "athens"
    assert s.result is not None and s.result["winner"] == "athens" and s.result["reason"] == "capital"


def test_winter_attrition_is_three_times_as_deadly() -> None:
    # rule 4.4 sidebar / DESIGN 8.2: Siege Attrition hits on 1 (1-3 in Winter), Militia first
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    s.season = 1
    dice(s, 2)
    attrition(s, "boeotia", "athens")
    assert s.militia["boeotia"] == 3
    s.season = 4
    dice(s, 3)
    attrition(s, "boeotia", "athens")
    assert s.militia["boeotia"] == 2


def test_attrition_starves_a_city_into_surrender() -> None:
    # DESIGN 8.2: when nothing is left inside, the City is captured
    s = empty()
    put(s, "ath_hop4", "plataea", 4)
    s.loyal["plataea"], s.militia["plataea"] = "sparta", 1
    set_control(s, "plataea", "sparta")
    s.sieges["plataea"] = {"since": -1, "by": "athens"}
    s.season = 4
    dice(s, 1)
    attrition(s, "plataea", "athens")
    assert s.control["plataea"] == "athens"


def test_panic_pursuit_and_retreat_attrition() -> None:
    # DESIGN 6.3.4/6.4.1: a side with only routed blocks Panics; the winner pursues (hits only); the routed
    # retreat and lose 1 CV on 1-2
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "phocis", 1)
    combat_only(s, "athens")
    # Thebes fires 1 die (no result); Athens fires 4 dice: a rout; then Pursuit 4 dice (one hit: eliminated)
    dice(s, 4)
    act(s, "fight")
    dice(s, 6, 3, 4, 4, 1, 3, 4, 4)
    act(s, "fight")
    assert s.units["boe_hop4"].area is None
    assert s.prestige == -1


def test_retreating_attackers_go_back_the_way_they_came() -> None:
    # DESIGN 6.4: an Attacker may go back to the area its Force entered from
    s = empty()
    put(s, "ath_hop4", "attica", 4)
    put(s, "boe_hop4", "boeotia", 4)
    s.militia["boeotia"] = 0
    from .kit import turn

    turn(s, "athens", actions=1)
    act(s, ("move", "attica"), ("block", "ath_hop4"), ("to", "boeotia"), "done")
    act(s, "fight")  # Thebes fights in the field
    act(s, "fight")  # Thebes fires (random dice)
    if s.stack and s.stack[-1]["kind"] == "battle_retreat" and s.stack[-1]["seat"] == "athens":
        act(s, "retreat")
        assert s.units["ath_hop4"].area in ("attica", None)


def test_tribute_and_the_end_of_the_scenario() -> None:
    # DESIGN 14: +1 Prestige per enemy City held at each New Year; at the end the sign wins, a tie goes to Athens
    s = empty()
    set_control(s, "plataea", "sparta")
    tribute(s)
    assert s.prestige == 1
    s.prestige = 0
    s.stack = [frame("game_end")]
    set_control(s, "plataea", "athens")
    advance(s)
    assert s.result == {"winner": "athens", "reason": "tie",
                        "detail": "the Prestige track is level at the end (a tie goes to Athens)"}


def test_a_lead_of_ten_wins_at_the_victory_check() -> None:
    # DESIGN 14: a lead of 10 at a New-Year Victory Check wins
    s = fresh(0)
    s.year, s.prestige = 430, 10
    s.stack = [frame("new_year")]
    advance(s)
    assert s.result is not None and s.result["reason"] == "prestige_lead" and s.result["winner"] == "sparta"


def test_six_cards_a_year_from_one_shared_deck() -> None:
    # PUBLIC 2.1/2.4: one shared deck; 6 cards to each side each Year
    s = fresh(0)
    deal(s)
    assert len(s.hands["athens"]) == len(s.hands["sparta"]) == 6 and len(s.deck) == 18


def test_a_random_game_ends() -> None:
    # the scenario: 3 Years of a New Year and five Seasons; new_game("hellenes") plays to its end
    import random

    from muster.core import new_game

    g = new_game("hellenes", seed=3)
    r = random.Random(3)
    while g.active_seat is not None:
        g.apply(r.choice(g.legal_actions()))
    assert g.outcome is not None and g.outcome.winner in RULES.info.seats
