"""The card data file: all 100 cards load, every event has an implementation, the decks are balanced."""

from __future__ import annotations

import json
from statistics import mean

import pytest

from muster.games.freedom.cards.effects import EFFECTS
from muster.games.freedom.datafiles import DataError, cards_file, read_json

CARDS = cards_file().cards
"""The printed cards' numbers, names, AP and colours are rule 1's test (tests/rules/test_rule_1_components.py)."""


def test_all_100_cards_load_with_an_event() -> None:
    assert sorted(c.number for c in CARDS) == list(range(1, 101))
    for card in CARDS:
        assert card.effect in EFFECTS, f"card {card.number} names no implemented effect"
        assert card.side in ("red", "blue", "grey")
        assert card.text and card.note, f"card {card.number} lacks its text or note"
        assert card.source in ("rulebook", "design")


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
