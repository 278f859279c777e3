"""The owner's choices the seed gives a player: which of several equally strong blocks takes a hit (6.3.2),
which of several equally weak blocks is routed (6.3.3), where a retreating block goes (6.4), which blocks
go inside a fortified City (7.1) and which block takes a Siege Attrition loss (8.2). A successful forced
march may be declined (5.3): see ``test_rule_5_2_2_storms_forced.py``."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes import RULES

from .kit import act, combat_only, dice, empty, kinds, legal, put, said


def test_the_owner_chooses_which_equally_strong_block_takes_a_hit() -> None:
    # rule 6.3.2: each hit reduces the currently strongest block; "if there are several, the owner chooses"
    s = empty()
    put(s, "ath_hop4", "phocis", 3)
    put(s, "ath_hop3a", "phocis", 3)
    put(s, "boe_hop4", "phocis", 2)
    combat_only(s, "athens")
    assert kinds(s) == "battle_retreat" and s.stack[-1]["seat"] == "sparta"
    dice(s, 1, 3)  # Thebes fires: one hit, nothing else
    act(s, "fight")
    assert kinds(s) == "allocate" and RULES.active_seat(s) == "athens"
    assert sorted(a.arg for a in legal(s)) == ["ath_hop3a", "ath_hop4"]
    assert all(a.verb == "hit" for a in legal(s))
    act(s, ("hit", "ath_hop3a"))
    assert (s.units["ath_hop4"].cv, s.units["ath_hop3a"].cv) == (3, 2)
    assert kinds(s) == "battle_retreat" and s.stack[-1]["seat"] == "athens"


def test_a_single_strongest_block_takes_the_hit_without_a_question() -> None:
    # rule 6.3.2: no tie, no choice
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "ath_hop3a", "phocis", 3)
    put(s, "boe_hop4", "phocis", 2)
    combat_only(s, "athens")
    dice(s, 1, 3)
    act(s, "fight")
    assert kinds(s) == "battle_retreat" and s.units["ath_hop4"].cv == 3


def test_the_owner_chooses_which_equally_weak_block_is_routed() -> None:
    # rule 6.3.3: each rout goes to the weakest block; "in case of a tie the owner chooses"
    s = empty()
    put(s, "ath_hop4", "phocis", 2)
    put(s, "ath_hop3a", "phocis", 2)
    put(s, "boe_hop4", "phocis", 2)
    combat_only(s, "athens")
    dice(s, 3, 6)  # Thebes fires: nothing, then a rout
    act(s, "fight")
    assert kinds(s) == "allocate" and RULES.active_seat(s) == "athens"
    assert legal(s) == [Action("rout", "ath_hop4"), Action("rout", "ath_hop3a")]
    act(s, ("rout", "ath_hop4"))
    battle = s.stack[-2]
    assert battle["routed"] == [s.units["ath_hop4"].token]


def test_the_owner_chooses_where_each_retreating_block_goes() -> None:
    # rule 6.4 (digest 2.6): "the owner chooses a destination for each block"; a defender may not go where
    # the attackers came from
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "phocis", 4)
    s.via[str(s.units["ath_hop4"].token)] = "boeotia"
    combat_only(s, "athens")
    act(s, "retreat")
    assert kinds(s) == "retreat_to" and RULES.active_seat(s) == "sparta"
    options = [a.arg for a in legal(s)]
    assert len(options) > 1 and "boeotia" not in options and all(a.verb == "to" for a in legal(s))
    act(s, ("to", options[-1]))
    assert s.units["boe_hop4"].area == options[-1]
    assert any("Sparta retreats from Phocis" in line for line in said(s))


def test_the_besieged_owner_chooses_which_block_takes_an_attrition_loss() -> None:
    # rule 8.2 (digest 2.5): "the besieged player secretly chooses which block takes each loss"
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    put(s, "boe_hop4", "boeotia", 3, inside=True)
    put(s, "spa_sp4", "boeotia", 3, inside=True)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    combat_only(s, "athens", mode="event")
    dice(s, 1, 1)
    act(s, ("attrition", "boeotia"))
    assert kinds(s) == "attrition_loss" and RULES.active_seat(s) == "sparta"
    assert sorted(a.arg for a in legal(s)) == ["boe_hop4", "spa_sp4"]
    act(s, ("lose", "spa_sp4"), ("lose", "spa_sp4"))
    assert (s.units["boe_hop4"].cv, s.units["spa_sp4"].cv) == (3, 1)
    assert any("2 steps lost, 0 blocks eliminated" in line for line in said(s))
    athens_view = RULES.view(s, "athens")
    assert all("known_as" not in e for e in athens_view["enemy"])  # the loss stays secret


def test_the_owner_picks_the_blocks_that_fortify_when_they_do_not_all_fit() -> None:
    # rule 7.1 (digest 2.5): "the defender may move up to Capacity blocks into the City"; all go in if they fit
    s = empty()
    put(s, "meg_hop2", "megaris", 2)
    put(s, "cor_hop3", "megaris", 3)
    put(s, "ath_hop4", "megaris", 4)
    combat_only(s, "athens")
    act(s, "fortify")
    assert kinds(s) != "fortify_pick"  # two blocks, room for two: no question
    assert s.units["meg_hop2"].inside and s.units["cor_hop3"].inside
