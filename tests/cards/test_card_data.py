"""The card data file: all 100 cards load, every event has an implementation, the decks are balanced."""

from __future__ import annotations

import json
from statistics import mean

import pytest

from muster.games.freedom.cards.effects import EFFECTS
from muster.games.freedom.datafiles import DataError, cards_file, read_json

CARDS = cards_file().cards

RULEBOOK_EVENTS = {
    1: ("Sacred City", 2, "blue"),
    3: ("Unequal Share of Money", 3, "blue"),
    4: ("Marsh Diseases", 2, "blue"),
    5: ("Georgios Karaiskakis", 4, "blue"),
    30: ("Fleet's Departure", 4, "red"),
    31: ("Chieftains Defect", 3, "red"),
    32: ("Yusuf Pasha", 3, "red"),
    33: ("Abandoned Cause", 4, "red"),
    34: ("Night Works", 2, "red"),
    36: ("Captain Mahmud", 4, "red"),
    38: ("Aqueduct Destroyed", 3, "red"),
    39: ("Kütahi Reşid Mehmed Pasha", 4, "red"),
    42: ("Stone Cannon Balls", 2, "red"),
    43: ("Reinforcements", 3, "grey"),
    48: ("Raise Morale", 3, "grey"),
    89: ("Grenades", 2, "red"),
}
"""Digest §5: the events printed in the 2nd-edition rulebook, at their numbers."""


def test_all_100_cards_load_with_an_event() -> None:
    assert sorted(c.number for c in CARDS) == list(range(1, 101))
    for card in CARDS:
        assert card.effect in EFFECTS, f"card {card.number} names no implemented effect"
        assert card.side in ("red", "blue", "grey")
        assert card.text and card.note, f"card {card.number} lacks its text or note"
        assert card.source in ("rulebook", "design")


def test_rulebook_cards_keep_their_printed_number_name_ap_and_colour() -> None:
    # rule 5 (digest §5): the 16 printed events, and Capture of Petrohori at 2 AP
    by_number = {c.number: c for c in CARDS}
    for number, (name, ap, side) in RULEBOOK_EVENTS.items():
        card = by_number[number]
        assert (card.name, card.ap, card.side, card.source) == (name, ap, side, "rulebook")
    assert (by_number[35].name, by_number[35].ap) == ("Capture of Petrohori", 2)


def test_card_names_are_unique() -> None:
    names = [c.name for c in CARDS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("deck", ["A", "B"])
def test_each_deck_balances_red_and_blue(deck: str) -> None:
    cards = [c for c in CARDS if c.deck == deck]
    red = [c.ap for c in cards if c.side == "red"]
    blue = [c.ap for c in cards if c.side == "blue"]
    grey = [c.ap for c in cards if c.side == "grey"]
    assert len(cards) == 50
    assert abs(len(red) - len(blue)) <= 2
    assert 3 <= len(grey) <= 8
    assert mean(red) == mean(blue)


def test_an_event_without_a_colour_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    data = read_json("cards.json")
    data["cards"][1]["side"] = None
    monkeypatch.setattr("muster.games.freedom.datafiles.read_json", lambda name: json.loads(json.dumps(data)))
    cards_file.cache_clear()
    try:
        with pytest.raises(DataError, match="no colour"):
            cards_file()
    finally:
        cards_file.cache_clear()
        monkeypatch.undo()
        cards_file()
