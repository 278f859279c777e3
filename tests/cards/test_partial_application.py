"""The partial-application rule of events (docs/cards-design.md): each part applies as far as it
can, a part that cannot apply is skipped, conditions are read when the card is played."""

from __future__ import annotations

from cardkit import changes, event_done, idx, play_event, position, put, snapshot

from muster.core.interface import Action
from muster.games.freedom import RULES


def test_placement_stops_at_the_pool() -> None:
    # 7A Albanian Levies: "2 units to the Camp" with 1 in the pool puts 1; the Morale still rises
    s = position("A")
    assert s.pools["expeditionary"] == 1
    before = snapshot(s)
    play_event(s, "imperial", 7, [])
    assert changes(before, snapshot(s)) == {"exp.camp": 1, "pool.expeditionary": -1, "imperial.morale": 1}


def test_a_decision_with_no_choice_lapses_and_the_rest_applies() -> None:
    # 10A Sortie Against the Guns with no Imperial cannon in Rows 4–6: only the Morale loss
    s = position("A")
    for space in ("r6c4", "r6c6"):
        s.cannon[idx(space)] = 0
        s.pools["cannons"] += 1
    before = snapshot(s)
    play_event(s, "insurgent", 10, [])
    assert event_done(s, "insurgent")
    assert changes(before, snapshot(s)) == {"imperial.morale": -1}


def test_morale_zero_ends_the_game_and_the_rest_of_the_event() -> None:
    # rule 3: Morale 0 ends the game at once; 52B's removal is never offered
    s = position("B")
    s.tracks["imperial"]["morale"] = 2
    play_event(s, "insurgent", 52, [])
    assert s.result is not None and s.result["winner"] == "insurgent"
    assert RULES.legal_actions(s) == []
    assert s.exp[idx("kli1")] == 1


def test_a_condition_is_read_when_the_card_is_played() -> None:
    # 2A Notis Botsaris: an attack is possible when played, so no Morale instead, even if the
    # player then declines every attack
    s = position("A")
    before = snapshot(s)
    play_event(s, "insurgent", 2, [])
    assert Action("done") in RULES.legal_actions(s)
    RULES.apply(s, Action("done"))
    assert event_done(s, "insurgent")
    assert changes(before, snapshot(s)) == {}


def test_event_damage_gives_no_morale_choice() -> None:
    # 23A Mine Under the Bastion destroys damaged section 3: no shot, so no Morale choice
    s = position("A")
    before = snapshot(s)
    play_event(s, "imperial", 23, [("pick", "w3"), ("pick", "w5")])
    assert event_done(s, "imperial")
    assert changes(before, snapshot(s)) == {"damage.w3": 1, "damage.w5": 1, "pool.damage_markers": -1}


def test_placement_respects_space_limits() -> None:
    # 75B Süleyman Bey: Allied units never join Expeditionary units (rule 5), nor a full space
    s = position("B")
    put(s, "r7c1", ally=3)
    play_event(s, "imperial", 75, [])
    targets = {a.arg for a in RULES.legal_actions(s) if a.verb == "pick"}
    assert "r7c1" not in targets and "r7c2" not in targets
    assert "r8c1" in targets


def test_a_unit_moves_forward_only_once_per_event() -> None:
    # 15A Siege Trenches: "up to 4 units one space forward each"; the one unit of Row 5 column 5
    # that stepped into Row 4 may not step again
    s = position("A")
    play_event(s, "imperial", 15, [("from", "r5c5"), ("to", "r4c5")])
    assert Action("from", "r4c5") not in RULES.legal_actions(s)
    assert Action("from", "r6c5") in RULES.legal_actions(s)
