"""Seed 6.0 Combat, 6.1 Battle sequence (Fortify, reveal), 6.2 Combat Rounds, 6.3.1 Fire, 6.3.2 Hits,
6.3.3 Routs."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes import RULES, texts
from muster.games.hellenes.rules.combat import battle_frame, firing_order
from muster.games.hellenes.rules.engage import battle_areas

from .kit import act, combat_only, dice, empty, kinds, legal, put, said


def test_smaller_battles_are_fought_first() -> None:
    # rule 6.0: resolve smaller battles first (size = the active player's blocks)
    s = empty()
    put(s, "ath_hop4", "megaris", 4)
    put(s, "ath_hop3a", "megaris", 3)
    put(s, "meg_hop2", "megaris", 2)
    put(s, "ath_hop2a", "boeotia", 2)
    put(s, "boe_hop4", "boeotia", 4)
    assert battle_areas(s, "athens") == ["boeotia", "megaris"]


def test_no_assault_in_an_event_turn() -> None:
    # rule 6.0: after an Event, only Siege Attrition
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    put(s, "boe_hop4", "boeotia", 2, inside=True)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    combat_only(s, "athens", mode="event")
    assert legal(s) == [Action("attrition", "boeotia"), Action("skip", "boeotia")]
    combat_only(s, "athens", mode="actions")
    assert Action("assault", "boeotia") in legal(s)


def test_fortify_refuses_battle_and_starts_a_siege() -> None:
    # rule 6.1/7.1: before a new battle in its City-State the defender may Fortify up to Capacity; no battle
    s = empty()
    put(s, "meg_hop2", "megaris", 2)
    put(s, "cor_hop3", "megaris", 3)
    put(s, "boe_hop4", "megaris", 1)
    put(s, "ath_hop4", "megaris", 4)
    combat_only(s, "athens")
    assert kinds(s) == "fortify"
    act(s, "fortify")
    # Megara's Capacity is 2 and three blocks stand there: the owner picks the two that go in (7.1)
    assert kinds(s) == "fortify_pick" and s.stack[-1]["seat"] == "sparta"
    assert sorted(a.arg for a in legal(s)) == ["boe_hop4", "cor_hop3", "meg_hop2"]
    act(s, ("inside", "meg_hop2"), ("inside", "boe_hop4"))
    while kinds(s) == "retreat_to":  # 6.4: the block left outside retreats where its owner chooses
        act(s, legal(s)[0])
    inside = sorted(b for b in ("meg_hop2", "cor_hop3", "boe_hop4") if s.units[b].inside)
    assert inside == ["boe_hop4", "meg_hop2"]
    assert s.units["cor_hop3"].area != "megaris"
    assert "megaris" in s.sieges and not any("Battle in" in line for line in said(s))


def test_battle_reveals_every_block() -> None:
    # rule 6.1: blocks are revealed when the battle begins
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "boe_hop4", "phocis", 3)
    combat_only(s, "athens")
    v = RULES.view(s, "athens")
    assert [e.get("known_as") for e in v["enemy"]] == ["boe_hop4"]


def test_firing_order_letters_then_defender_first() -> None:
    # rule 6.2: A before B before C; the defender first on the same letter; fleets E then F at sea (DESIGN)
    s = empty()
    put(s, "ath_arch", "phocis", 2)
    put(s, "ath_hop4", "phocis", 4)
    put(s, "spa_ski", "phocis", 2)
    put(s, "spa_sp4", "phocis", 4)
    f = battle_frame(s, "phocis", "athens", ["ath_arch", "ath_hop4"], ["spa_ski", "spa_sp4"])
    order = [s.tok[t] for _, t in firing_order(s, f)]
    assert order == ["ath_arch", "spa_ski", "spa_sp4", "ath_hop4"]
    put(s, "ath_fl2a", "aegean", 2)
    put(s, "cor_fl3", "aegean", 3)
    f = battle_frame(s, "aegean", "sparta", ["cor_fl3"], ["ath_fl2a"])
    assert [s.tok[t] for _, t in firing_order(s, f)] == ["ath_fl2a", "cor_fl3"]


def test_fleets_fight_as_c1_on_land() -> None:
    # rule 6.2 (PUBLIC/DESIGN): fleets fight as C1 on land
    s = empty()
    put(s, "ath_fl4a", "phocis", 4)
    put(s, "boe_hop4", "phocis", 3)
    f = battle_frame(s, "phocis", "athens", ["ath_fl4a"], ["boe_hop4"])
    from muster.games.hellenes.rules.combat import stats

    assert stats(s, f, s.units["ath_fl4a"].token) == ("C", 1, 4)


def test_fire_hits_strongest_then_routs_weakest() -> None:
    # rules 6.3.1-6.3.3: CV dice; hits (<= firepower) first to the strongest, then routs (>= 7 - firepower)
    # to the weakest; a routed block neither fires nor takes hits
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "ath_hop2a", "phocis", 2)
    put(s, "boe_hop4", "phocis", 2)
    combat_only(s, "athens")
    assert kinds(s) == "battle_retreat" and s.stack[-1]["seat"] == "sparta"  # the defender fires first (C = C)
    dice(s, 1, 6)
    act(s, "fight")
    battle = s.stack[-2]
    assert s.units["ath_hop4"].cv == 3
    assert battle["routed"] == [s.units["ath_hop2a"].token]
    assert kinds(s) == "battle_retreat" and s.stack[-1]["seat"] == "athens"


def test_retreat_is_offered_once_per_round_per_side() -> None:
    # rule 6.2: a side may Retreat instead of firing its first block of the round
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "ath_hop2a", "phocis", 2)
    put(s, "boe_hop4", "phocis", 4)
    combat_only(s, "athens")
    dice(s, 3, 3, 3, 3)
    act(s, "fight")
    dice(s, 3, 3, 3, 3, 3, 3)
    act(s, "fight")  # Athens' two blocks both fire without a second question
    assert kinds(s) == "battle_retreat" and s.stack[-2]["round"] == 2 and s.stack[-1]["seat"] == "sparta"
    act(s, "retreat")
    assert kinds(s) == "retreat_to"  # 6.4: Thebes chooses where its block goes
    act(s, legal(s)[0])
    assert s.units["boe_hop4"].area != "phocis"
    assert s.prestige == -1  # rule 6.2: the winner gains Prestige (DESIGN +1)


def test_assault_defenders_cannot_be_routed_and_double_defense() -> None:
    # rules 6.3.3 and 8.1.1 (DESIGN): no routs against defenders inside a City; two hits remove one CV
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    put(s, "boe_hop4", "boeotia", 3, inside=True)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    combat_only(s, "athens")
    dice(s, 1, 3, 4)  # besieged defenders cannot retreat, so Thebes fires at once: one hit
    act(s, ("assault", "boeotia"))
    assert s.units["ath_hop4"].cv == 3
    dice(s, 1, 1, 6, 3, 4)  # Athens: two hits and a six; then Thebes' second round does nothing
    act(s, "fight")
    battle = s.stack[-2] if kinds(s) == "battle_retreat" else None
    assert s.units["boe_hop4"].cv == 2  # two hits: one CV
    assert battle is not None and battle["routed"] == []  # the sixes routed nobody


def test_combat_rounds_follow_one_another_until_a_side_is_gone_with_no_round_limit() -> None:
    # rule 6.1/6.2: "rounds follow one another until one side is eliminated, panics or retreats by choice": a
    # battle still undecided after 8 rounds goes on (there used to be a DESIGN limit of 8 rounds, after which
    # the attacker withdrew), and the 9th round decides it
    s = empty()
    put(s, "ath_hop4", "phocis", 1)
    put(s, "boe_hop4", "phocis", 1)
    combat_only(s, "athens")
    asked = 0
    while kinds(s) == "battle_retreat":  # the defender fires first (both C), each block one die
        asked += 1
        if asked == 17:  # round 9 is asked like any other, with odds that leave nothing undecided
            prompt = RULES.prompt(s)
            assert prompt.startswith("Sparta: round 9 in Phocis and Locris: fight on or Retreat?")
            assert "undecided" not in prompt
            polish = texts.said_in(prompt, "pl")
            assert polish.startswith("Sparta: runda 9 w obszarze Fokida i Lokryda: walczyć dalej")
            assert "bez rozstrzygnięcia" not in polish
        dice(s, 3 if asked <= 16 else 1)  # C2 blocks of CV 1: a 3 neither hits nor routs; then the defender hits
        act(s, "fight")
    assert asked == 17  # 8 rounds of misses (16 questions), then round 9: the defender hits at once
    assert s.units["ath_hop4"].area is None and s.units["boe_hop4"].area == "phocis"
    log = said(s)
    assert not any("undecided" in line for line in log)
    assert any("Sparta wins the battle in Phocis" in line for line in log)


def test_each_firing_is_logged_with_its_dice_faces() -> None:
    # rule 6.3.1: a block rolls its CV in dice; the log keeps every face rolled (typed arguments a front end
    # draws as dice), the firepower a hit needs and the face a rout needs, besides the hits and routs counted
    s = empty()
    put(s, "ath_hop4", "phocis", 4)
    put(s, "ath_hop2a", "phocis", 2)
    put(s, "boe_hop4", "phocis", 2)
    combat_only(s, "athens")
    s.log = []
    dice(s, 1, 6)
    act(s, "fight")
    fired = [e for e in s.log if e["m"].startswith("{block} fires")]
    assert len(fired) == 1
    args = fired[0]["a"]
    assert args["block"] == "boe_hop4" and args["rolled"] == [1, 6]
    assert (args["hit"], args["rout"]) == (2, 5)  # C2: a hit on 1-2, a rout on 5-6
    assert any(line.endswith("fires: rolls [1, 6]: 1 hit, 1 rout.") for line in said(s))


def test_an_assault_logs_the_sixes_that_rout_nobody() -> None:
    # rule 6.3.3: defenders inside a City are not routed, so the firing at them names no routs and no rout face
    s = empty()
    put(s, "ath_hop4", "boeotia", 4)
    put(s, "boe_hop4", "boeotia", 3, inside=True)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    combat_only(s, "athens")
    dice(s, 1, 3, 4)
    act(s, ("assault", "boeotia"))
    dice(s, 1, 1, 6, 3, 4)
    s.log = []
    act(s, "fight")
    athens = [e for e in s.log if e["m"].startswith("{block} fires") and e["a"]["block"] == "ath_hop4"]
    assert athens[0]["a"]["rolled"] == [1, 1, 6] and athens[0]["a"]["rout"] == 0
    assert athens[0]["m"] == "{block} fires: rolls {rolled}: {hits}."


def test_the_dice_log_leaves_the_game_unchanged() -> None:
    # the firing lines only describe: a game played with its log and the same game played quietly (no log, as
    # simulations run) reach the same state, dice and all
    from muster.core import Game

    loud = Game(RULES, 11, {})
    quiet = RULES.setup(11)
    quiet.quiet = True
    for _ in range(600):
        if loud.outcome is not None:
            break
        action = loud.legal_actions()[0] if len(loud.legal_actions()) < 3 else loud.legal_actions()[2]
        loud.apply(action)
        RULES.apply(quiet, action)
    assert any(e.get("m", "").endswith("fires: rolls {rolled}: {hits}, {routs}.") for e in loud.state.log)
    assert quiet.rng == loud.state.rng and quiet.units == loud.state.units
