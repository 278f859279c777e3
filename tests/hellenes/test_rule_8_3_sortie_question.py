"""8.3 Sortie: the question is asked only where the besieged side has not put it off. A Sortie is always a real
choice (every Sortie can win), so the engine never drops it on its own; the side may answer "no Sortie until the
Siege changes" on Fortifying or at the question, and it is asked again as soon as something it can see changes
there (docs/hellenes-design.md, "The Sortie question")."""

from __future__ import annotations

from muster.core import Action
from muster.games.hellenes import RULES
from muster.games.hellenes.rules.build import buildable, reinforce
from muster.games.hellenes.rules.siege import sortie_questions
from muster.games.hellenes.state import State

from .kit import act, combat_only, empty, kinds, legal, put


def _besieged_thebes() -> State:
    s = empty()
    put(s, "spa_sp4", "boeotia", 2, inside=True)
    put(s, "ath_hop4", "boeotia", 4)
    s.sieges["boeotia"] = {"since": -1, "by": "athens"}
    return s


def test_the_sortie_question_offers_to_wait_until_the_siege_changes() -> None:
    # rule 8.3: the besieged may Sortie in their own Combat phase; they may also put the question off
    s = _besieged_thebes()
    combat_only(s, "sparta")
    assert kinds(s) == "sortie"
    assert legal(s) == [Action("sortie", "boeotia"), Action("hold", "boeotia"), Action("stay")]
    assert RULES.label(s, Action("hold", "boeotia")) == "no Sortie from Thebes until its Siege changes"
    act(s, ("hold", "boeotia"))
    assert kinds(s) != "sortie" and s.sieges["boeotia"]["by"] == "athens"
    # the next Combat phases, Winter included (the calendar was known when the side chose to wait): not asked
    for season in (2, 4):
        s.season = season
        combat_only(s, "sparta")
        assert kinds(s) != "sortie"


def test_declining_for_one_season_asks_again_next_turn() -> None:
    # rule 8.3: "no Sortie this Season" keeps the question for the next Combat phase
    s = _besieged_thebes()
    combat_only(s, "sparta")
    act(s, "stay")
    combat_only(s, "sparta")
    assert kinds(s) == "sortie"


def test_a_held_sortie_is_asked_again_when_the_besiegers_change() -> None:
    # rule 8.3: a new besieging block (or one leaving) changes the fight a Sortie would be
    s = _besieged_thebes()
    combat_only(s, "sparta")
    act(s, ("hold", "boeotia"))
    put(s, "ath_hop2a", "boeotia", 2)
    combat_only(s, "sparta")
    assert kinds(s) == "sortie" and Action("sortie", "boeotia") in legal(s)


def test_a_held_sortie_is_asked_again_when_a_besieger_is_seen() -> None:
    # rule 6.1: a battle reveals blocks; what the besieged have seen of the besiegers is news to them
    s = _besieged_thebes()
    combat_only(s, "sparta")
    act(s, ("hold", "boeotia"))
    s.units["ath_hop4"].known, s.units["ath_hop4"].seen = True, 4
    assert sortie_questions(s, "sparta") == ["boeotia"]


def test_fortifying_may_answer_the_sortie_question_at_once() -> None:
    # rules 7.1 and 8.3: the defender who Fortifies may also choose no Sortie until the Siege changes
    s = empty()
    put(s, "cor_hop3", "corinthia", 2)
    put(s, "ath_hop4", "corinthia", 4)
    combat_only(s, "athens")
    assert kinds(s) == "fortify" and RULES.active_seat(s) == "sparta"
    assert legal(s) == [Action("fight"), Action("fortify"), Action("hold", "corinthia")]
    assert RULES.label(s, Action("hold", "corinthia")) == "fortify the City, and no Sortie until its Siege changes"
    act(s, ("hold", "corinthia"))
    assert s.units["cor_hop3"].inside and s.sieges["corinthia"]["by"] == "athens"
    combat_only(s, "sparta")
    assert kinds(s) != "sortie"
    # 4.2/8.2.1: Corinth is a Port and not blockaded, so it may Build; a Build changes the blocks inside
    assert "cor_hop3" in buildable(s, "sparta")
    reinforce(s, "cor_hop3")
    assert sortie_questions(s, "sparta") == ["corinthia"]


def test_a_blockade_brings_a_held_sortie_back() -> None:
    # rule 8.2.1: a blockaded Port can be starved (Attrition): the Siege has changed for the besieged
    s = empty()
    put(s, "cor_hop3", "corinthia", 2, inside=True)
    put(s, "ath_hop4", "corinthia", 4)
    s.sieges["corinthia"] = {"since": -1, "by": "athens"}
    combat_only(s, "sparta")
    act(s, ("hold", "corinthia"))
    assert sortie_questions(s, "sparta") == []
    put(s, "ath_fl4a", "corinthian", 2)
    assert sortie_questions(s, "sparta") == ["corinthia"]


def test_a_hold_survives_a_saved_game() -> None:
    # the hold is part of the Siege record, so a stored game keeps it
    s = _besieged_thebes()
    combat_only(s, "sparta")
    act(s, ("hold", "boeotia"))
    again = State.from_json(s.to_json())
    assert again.sieges["boeotia"] == s.sieges["boeotia"] and sortie_questions(again, "sparta") == []
