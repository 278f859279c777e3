"""Rule 1, Components: the piece counts are the game's hard limits; the two decks; the 8 area tiles."""

from __future__ import annotations

from muster.games.freedom.datafiles import areas_file, cards_file, design


def test_piece_counts() -> None:
    # rule 1: 40 Expeditionary, 20 Allied, 20 Insurgent units, 23 Civilians, 20 Cannons + 1 Bombard,
    # 30 Support markers, 10 Destruction markers
    assert design()["pools"] == {
        "expeditionary": 40,
        "allied": 20,
        "insurgent": 20,
        "civilians": 23,
        "cannons": 20,
        "bombard": 1,
        "support_markers": 30,
        "damage_markers": 10,
    }


def test_two_decks_of_fifty() -> None:
    # rule 1: 50 Dawn of Freedom cards (Period A) and 50 Twilight of Freedom cards (Period B); AP 2-4
    cards = cards_file().cards
    assert sorted(c.number for c in cards if c.deck == "A") == list(range(1, 51))
    assert sorted(c.number for c in cards if c.deck == "B") == list(range(51, 101))
    assert {c.ap for c in cards} <= {2, 3, 4}


def test_rulebook_cards_as_printed() -> None:
    # rule 1 / the card texts in the rulebook: number, name, AP and the colour the examples imply
    expected = {
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
    by_number = {c.number: c for c in cards_file().cards}
    for number, (name, ap, side) in expected.items():
        c = by_number[number]
        assert (c.name, c.ap, c.side, c.source) == (name, ap, side, "rulebook"), number
    assert by_number[35].name == "Capture of Petrohori" and by_number[35].ap == 2


def test_eight_area_tiles() -> None:
    # rule 1 / rule 2: 8 area tiles for the Surrounding Areas map, at most 5 Support markers each
    areas = areas_file().areas
    assert [a.id for a in areas] == [
        "sea",
        "petalas",
        "anatolikon",
        "gouria",
        "zygos",
        "kryoneri",
        "petrochori",
        "patra",
    ]
    assert areas_file().support_limit == 5
