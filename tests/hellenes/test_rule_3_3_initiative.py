"""Seed 3.3 Initiative."""

from __future__ import annotations

from muster.games.hellenes import RULES
from muster.games.hellenes.rules.initiative import first_player

from .kit import act, fresh


def test_fewer_actions_go_first() -> None:
    # rule 3.3: the card giving fewer Actions takes the first Player Turn
    assert first_player({"athens": [1, "actions"], "sparta": [4, "actions"]}) == "athens"
    assert first_player({"athens": [4, "actions"], "sparta": [1, "actions"]}) == "sparta"


def test_an_event_counts_zero() -> None:
    # rule 3.3: a card played as an Event counts 0 Actions, so it goes before any Action card
    assert first_player({"athens": [1, "actions"], "sparta": [5, "event"]}) == "sparta"


def test_a_tie_goes_to_sparta() -> None:
    # rule 3.3: on a tie Sparta goes first (2 against 2; both Events)
    assert first_player({"athens": [2, "actions"], "sparta": [3, "actions"]}) == "sparta"
    assert first_player({"athens": [2, "event"], "sparta": [3, "event"]}) == "sparta"


def test_leaders_do_not_count_toward_initiative() -> None:
    # rule 3.3: Pericles' +1 does not count: Athens' 2-Action card beats Sparta's 3 although it gives 3 Actions
    s = fresh(0)
    s.hands = {"sparta": [4, 10, 11, 12, 13, 14], "athens": [2, 20, 21, 22, 23, 24]}
    s._legal = None
    act(s, ("card", 10), ("as", "sacrifice"), ("card", 20), ("as", "sacrifice"))
    act(s, ("card", 4), ("as", "actions"), ("card", 2), ("as", "actions"))
    assert s.first == "athens"
    assert RULES.active_seat(s) == "athens"
    assert s.actions_left == 3  # 2 + Pericles 1 (rule 4.0)


def test_commits_are_hidden_until_both_are_made() -> None:
    # rule 3.3 (cards played face down): Athens' view shows only that Sparta has committed
    s = fresh(0)
    s.hands = {"sparta": [4, 10, 11, 12, 13, 14], "athens": [2, 20, 21, 22, 23, 24]}
    s._legal = None
    act(s, ("card", 10), ("as", "sacrifice"), ("card", 20), ("as", "sacrifice"), ("card", 4), ("as", "actions"))
    v = RULES.view(s, "athens")
    assert v["committed"]["sparta"] is True
    assert 4 not in v["hands"]["athens"] and v["hands"]["sparta"] == {"count": 4}
