"""Rule 2, Game Setup (2nd edition; the 1st-edition difference is in test_rule_10_first_edition)."""

from __future__ import annotations

from rulekit import idx, new_state, track

from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.rules.common import area_index


def test_imperial_pieces() -> None:
    # rule 2: 30 Expeditionary units and 2 cannons on the City map, 5 units and 1 cannon in the Camp
    s = new_state()
    b = board()
    camp = b.camp
    on_mainland = sum(s.exp[i] for i in b.mainland)
    assert on_mainland == 30
    assert s.exp[camp] == 5
    assert sum(1 for i in b.mainland if s.cannon[i] == IMPERIAL_CANNON) == 2
    assert s.camp_cannons == 1
    # the rest (5 Expeditionary and all 20 Allied units) are set aside
    assert s.pools["expeditionary"] == 5
    assert s.pools["allied"] == 20
    assert sum(s.ally) == 0
    # DESIGN: the mainland start positions lie in rows 6-8 only
    assert all(b.row[i] in (6, 7, 8) for i in b.mainland if s.exp[i])


def test_insurgent_pieces() -> None:
    # rule 2: 9 units on the Wall, 1 on each island; cannons on Marmarou and three forts,
    # the Bombard in the 3rd fort; 8 Civilians in the City Center
    s = new_state()
    b = board()
    assert [s.ins[w] for w in b.walls] == [1] * 9
    assert [s.ins[i] for i in b.islands] == [1, 1, 1]
    assert s.pools["insurgent"] == 20 - 12
    assert s.cannon[idx("marmarou")] == INSURGENT_CANNON
    forts = list(b.forts)
    assert len(forts) == 4
    assert [s.cannon[f] for f in forts] == [INSURGENT_CANNON, INSURGENT_CANNON, BOMBARD, INSURGENT_CANNON]
    assert s.civilians == 8
    assert s.pools["civilians"] == 23 - 8
    assert sum(s.damage) == 0


def test_tracks() -> None:
    # rule 2: Imperial 10 Money, 12 Supplies, Morale 15, Plea 0, Preparation 0;
    # Insurgent 8 Supplies, Morale 10, Pressure 0, Preparation 0, Population 16-20
    s = new_state()
    assert s.tracks[IMPERIAL] == {"morale": 15, "money": 10, "supplies": 12, "plea": 0, "preparation": 0}
    assert track(s, INSURGENT, "supplies") == 8
    assert track(s, INSURGENT, "morale") == 10
    assert track(s, INSURGENT, "pressure") == 0
    assert track(s, INSURGENT, "preparation") == 0
    assert 16 <= track(s, INSURGENT, "population") <= 20
    assert track(s, INSURGENT, "population") == sum(s.ins) + s.civilians == 20


def test_area_tiles() -> None:
    # rule 2: 8 area tiles on their numbered side with their Support markers (DESIGN values, digest §9)
    s = new_state()
    expected = {
        "sea": (INSURGENT, 2),
        "petalas": (INSURGENT, 3),
        "anatolikon": (INSURGENT, 2),
        "gouria": (INSURGENT, 1),
        "zygos": (IMPERIAL, 1),
        "kryoneri": (IMPERIAL, 2),
        "petrochori": (IMPERIAL, 1),
        "patra": (IMPERIAL, 3),
    }
    for area, (side, markers) in expected.items():
        i = area_index(area)
        assert (s.area_side[i], s.area_markers[i]) == (side, markers), area
    assert s.pools["support_markers"] == 30 - 15


def test_decks_and_hands() -> None:
    # rule 2: two shuffled 50-card piles; 8 cards from Period A dealt to each player
    s = new_state()
    assert len(s.hands[IMPERIAL]) == len(s.hands[INSURGENT]) == 8
    assert all(n <= 50 for n in s.hands[IMPERIAL] + s.hands[INSURGENT])
    assert len(s.decks["A"]) == 50 - 16
    assert len(s.decks["B"]) == 50
    assert all(n > 50 for n in s.decks["B"])
    dealt = set(s.hands[IMPERIAL]) | set(s.hands[INSURGENT]) | set(s.decks["A"])
    assert dealt == set(range(1, 51))
    # shuffled: two seeds give different orders
    assert new_state(seed=2).decks["A"] != s.decks["A"]


def test_first_round_starts_with_opening() -> None:
    # rule 2 / 4.1: the game starts in round 1 with the Opening (no Administration in round 1)
    s = new_state()
    assert s.round == 1
    assert s.stack[-1]["kind"] == "select" and s.stack[-1]["op"] == "advance"
    assert [f["kind"] for f in s.stack if f["kind"] != "select"] == [
        "round_end",
        "replenishment",
        "cannons_phase",
        "action_phase_end",
        "action_phase",
    ]
