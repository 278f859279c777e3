"""Rule 4.5 Replenishment: 4.5.1 Imperial player and 4.5.2 Insurgent player, with the Round-4 example."""

from __future__ import annotations

import pytest
from rulekit import (
    act,
    all_areas,
    args,
    clear_board,
    d6,
    force_dice,
    idx,
    imperial_total,
    new_state,
    place,
    run,
    set_area,
    track,
    units,
    verbs,
)

from muster.games.freedom import RULES
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.engine import frame
from muster.games.freedom.state import State

IMPERIAL_STEPS = ("imperial_rewards", "imperial_money", "imperial_supplies", "imperial_desertion")
INSURGENT_STEPS = ("insurgent_population", "insurgent_rewards", "insurgent_upkeep", "government")


def _imperial(s: State) -> State:
    return run(s, *(frame(k) for k in IMPERIAL_STEPS))


def _insurgent(s: State) -> State:
    return run(s, *(frame(k) for k in INSURGENT_STEPS))


def _plain(ins_areas: tuple[str, ...] = ()) -> State:
    """A board with a few units; every area Imperial except ``ins_areas`` (no markers)."""
    s = clear_board(new_state())
    all_areas(s, IMPERIAL)
    for a in ins_areas:
        set_area(s, a, INSURGENT, 0)
    place(s, "r6c1", exp=3)
    place(s, "r6c2", exp=3)
    place(s, "w5", ins=1)
    return s


def test_round_4_replenishment_example() -> None:
    # rule 4.5 Example (end of Round 4). Imperial: Supplies from his areas, 2 more units and a cannon; the 3 units
    # for Vasiladi (the symbol of the Sea and Patra) cannot land because an Allied unit is there; 6 Money due with
    # only 4: 2 units lost and 2 Morale; 12 Supplies paid, leaving 2. Insurgent: Population 24 (16 Civilians + 8
    # units); 5 Supplies to feed it; the Government roll of 4 fails. DESIGN (areas.json version 4): with our area
    # tiles these Imperial areas give 10 Supplies (the book's 5) and the Insurgent areas 3 (the book's 2); the start
    # values are chosen so that the book's results follow.
    s = clear_board(new_state())
    s.round = 4
    for a in ("sea", "gouria", "zygos", "patra"):
        set_area(s, a, IMPERIAL, 1)
    for a in ("petalas", "anatolikon", "kryoneri", "petrochori"):
        set_area(s, a, INSURGENT, 1)
    place(s, "vas1", ally=1)
    place(s, "r6c1", exp=3)
    place(s, "r6c3", exp=3)
    for w in ("w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"):
        place(s, w, ins=1)
    s.civilians, s.pools["civilians"] = 16, 23 - 16
    s.tracks[IMPERIAL].update(money=4, supplies=4, morale=10)
    s.tracks[INSURGENT].update(supplies=4, pressure=0, morale=10)
    camp_units = s.exp[board().camp]
    run(s, frame("replenishment"))
    # the Camp got the 2 units and the cannon; nobody landed at Vasiladi
    assert s.exp[board().camp] == camp_units + 2
    assert s.camp_cannons == 1
    assert units(s, "vas1") == (0, 1, 0)
    # unpaid Money: the Imperial player removes 2 units; Morale -2 (once, whatever the amount)
    assert s.stack[-1]["kind"] == "remove_units" and s.stack[-1]["left"] == 2
    assert RULES.active_seat(s) == IMPERIAL
    assert track(s, IMPERIAL, "money") == 0
    act(s, "remove", "r6c1")
    act(s, "remove", "r6c1")
    assert units(s, "r6c1") == (1, 0, 0)
    assert track(s, IMPERIAL, "morale") == 8
    assert track(s, IMPERIAL, "supplies") == 2  # 4 + 10 - 12
    # Insurgent: Population 24 before the rewards' new units
    assert track(s, INSURGENT, "population") == 24
    assert s.stack[-1]["kind"] == "place_insurgent"
    force_dice(s, *d6(2, 2))  # the Government roll comes after the placements
    while s.stack and s.stack[-1]["kind"] == "place_insurgent":
        act(s, "to", sorted(args(s, "to"))[0])
    assert track(s, INSURGENT, "supplies") == 2  # 4 + 3 - 5
    assert track(s, INSURGENT, "morale") == 11  # Petalas' Morale reward
    assert track(s, INSURGENT, "pressure") == 1  # the roll of 4 failed: the marker moves 1 forward
    assert sum(s.ins) == 10


def test_the_sea_and_patra_land_units_at_vasiladi() -> None:
    # DESIGN (areas.json version 4, docs/design-values.md): the "3 Vasiladi" symbol of rule 4.5 is on the Imperial
    # side of the Sea, as the Round-4 example has it (the Imperial who took the Sea would land 3 units there), and
    # of Patra, the Imperial fleet's harbour
    landing = {a.id: a.rewards["imperial"].vasiladi for a in areas_file().areas if a.rewards["imperial"].vasiladi}
    assert landing == {"sea": 3, "patra": 3}


def test_imperial_rewards_period_a() -> None:
    # rule 4.5.1: rewards of the Imperial areas (DESIGN tiles): Supplies, units and a cannon into the Camp;
    # then Money 4 and Supplies 8 in Period A
    s = new_state()
    camp = s.exp[board().camp]
    _imperial(s)
    # Zygos 2+unit, Kryoneri 3, Petrochori 2+unit, Patra 3+cannon and 3 units beside Vasiladi
    assert s.exp[board().camp] == camp + 2
    assert s.camp_cannons == 2
    assert units(s, "vas1") == (3, 0, 0)
    assert track(s, IMPERIAL, "supplies") == 12 + 10 - 8
    assert track(s, IMPERIAL, "money") == 10 - 4
    assert track(s, IMPERIAL, "morale") == 15


def test_vasiladi_landing() -> None:
    # rule 4.5 symbol table: 3 Expeditionary units from outside the game on the space around Vasiladi; with both
    # tiles that carry the symbol (the Sea and Patra) the space's limit of 3 lets 3 land, not 6, and no unit
    # leaves the pool for nothing
    s = _plain()
    s.tracks[IMPERIAL].update(money=10, supplies=20)
    pool = s.pools["expeditionary"]
    _imperial(s)
    assert units(s, "vas1") == (3, 0, 0)
    assert s.pools["expeditionary"] == pool - 3 - 3  # 3 landed, 3 more to the Camp (Gouria, Zygos, Petrochori)


@pytest.mark.parametrize(("money", "missing"), [(3, 1), (0, 4)])
def test_unpaid_money_removes_units_and_two_morale(money: int, missing: int) -> None:
    # rule 4.5.1: each unpaid Money removes an Imperial unit from the map; Morale -2 however much was missing
    s = _plain()
    s.tracks[IMPERIAL].update(money=money, supplies=30)
    _imperial(s)
    assert s.stack[-1]["left"] == missing
    assert track(s, IMPERIAL, "morale") == 15 + 1 - 2  # Anatolikon's reward, then the unpaid troops
    before = imperial_total(s)
    for k in range(missing):
        act(s, "remove", ("r6c1", "r6c2")[k % 2])
    assert imperial_total(s) == before - missing
    assert track(s, IMPERIAL, "money") == 0


def test_period_b_upkeep_is_six_money_twelve_supplies() -> None:
    # rule 4.5.1 / rule 5: Period B upkeep 6 Money and 12 Supplies
    s = _plain(ins_areas=("sea", "petalas", "anatolikon", "gouria", "zygos", "kryoneri", "petrochori", "patra"))
    s.round = 5
    s.tracks[IMPERIAL].update(money=6, supplies=12, morale=15)
    _imperial(s)
    assert (track(s, IMPERIAL, "money"), track(s, IMPERIAL, "supplies"), track(s, IMPERIAL, "morale")) == (0, 0, 15)


def test_unpaid_supplies_cost_morale() -> None:
    # rule 4.5.1: not enough Supplies: Morale falls by the difference
    s = _plain(ins_areas=("sea", "petalas", "anatolikon", "gouria", "zygos", "kryoneri", "petrochori", "patra"))
    s.tracks[IMPERIAL].update(money=10, supplies=5, morale=15)
    _imperial(s)
    assert track(s, IMPERIAL, "supplies") == 0
    assert track(s, IMPERIAL, "morale") == 12


@pytest.mark.parametrize(("morale", "deserters"), [(7, 0), (6, 1), (5, 1), (4, 2), (3, 2), (2, 3), (1, 3)])
def test_desertion_by_morale(morale: int, deserters: int) -> None:
    # rule 4.5.1: low Morale: remove the number of units shown on the Morale track (DESIGN table)
    s = _plain(ins_areas=("sea", "petalas", "anatolikon", "gouria", "zygos", "kryoneri", "petrochori", "patra"))
    s.tracks[IMPERIAL].update(money=10, supplies=10, morale=morale)
    _imperial(s)
    if deserters:
        assert s.stack[-1]["kind"] == "remove_units" and s.stack[-1]["left"] == deserters
    else:
        assert s.stack == []


def test_imperial_morale_zero_in_upkeep_ends_the_game() -> None:
    # rule 4.5.1 IMPORTANT: Imperial Morale at 0 ends the game at once: the Insurgent player wins
    s = _plain(ins_areas=("sea", "petalas", "anatolikon", "gouria", "zygos", "kryoneri", "petrochori", "patra"))
    s.tracks[IMPERIAL].update(money=10, supplies=0, morale=5)
    supplies = track(s, INSURGENT, "supplies")
    run(s, frame("replenishment"))
    assert s.result is not None and s.result["winner"] == INSURGENT
    assert track(s, INSURGENT, "supplies") == supplies  # the Insurgent steps never ran
    assert s.stack == []


# --- 4.5.2 Insurgent player ---------------------------------------------------------------------------


def test_population_counts_units_and_civilians() -> None:
    # rule 4.5.2: the Population track is set to units + Civilians on the map
    s = _plain()
    place(s, "klisova", ins=1)
    s.civilians = 13
    _insurgent(s)
    assert track(s, INSURGENT, "population") == 2 + 13


@pytest.mark.parametrize(("population", "cost"), [(15, 3), (16, 4), (20, 4), (21, 5), (24, 5), (25, 5), (26, 6)])
def test_population_cost_bands(population: int, cost: int) -> None:
    # rule 4.5.2: Supplies = the Population cost (DESIGN: ceil(Population / 5); the example: 24 -> 5)
    s = _plain()
    s.civilians = population - 1
    s.tracks[INSURGENT].update(supplies=10, pressure=-1)
    _insurgent(s)
    assert track(s, INSURGENT, "supplies") == 10 - cost


def test_insurgent_shortfall_costs_morale() -> None:
    # rule 4.5.2: not enough Supplies: the Insurgent Morale falls by the difference
    s = _plain()
    s.civilians = 19  # Population 20: 4 Supplies
    s.tracks[INSURGENT].update(supplies=1, pressure=-1, morale=10)
    _insurgent(s)
    assert track(s, INSURGENT, "supplies") == 0
    assert track(s, INSURGENT, "morale") == 7


def test_insurgent_morale_zero_in_upkeep_ends_the_game() -> None:
    # rule 4.5.2 IMPORTANT: Insurgent Morale 0 ends the game: the Imperial player wins
    s = _plain()
    s.civilians = 19
    s.tracks[INSURGENT].update(supplies=0, pressure=0, morale=3)
    _insurgent(s)
    assert s.result is not None and s.result["winner"] == IMPERIAL
    assert track(s, INSURGENT, "pressure") == 0  # no Government roll after the end


def test_insurgent_rewards_and_placement() -> None:
    # rule 4.5.2: rewards of Insurgent areas; new units anywhere on the Wall, the Beach or islands
    # (not in spaces with Imperial units); new cannons likewise
    s = _plain(ins_areas=("anatolikon", "patra"))
    place(s, "w3", exp=1, damage=2)
    s.tracks[INSURGENT].update(supplies=10, pressure=-1)
    s.civilians = 0
    _insurgent(s)
    assert s.stack[-1]["kind"] == "place_insurgent" and s.stack[-1]["what"] == "unit"
    spaces = args(s, "to")
    assert "w3" not in spaces and "r6c1" not in spaces and "c1" not in spaces
    assert {"w1", "b2", "klisova"} <= spaces
    act(s, "to", "klisova")
    assert s.stack[-1]["what"] == "cannon"
    act(s, "to", "w5")
    assert units(s, "klisova") == (0, 0, 1)
    assert s.cannon[idx("w5")] == 2
    assert track(s, INSURGENT, "supplies") == 10 + 1 + 1 - 1  # Population 2: 1 Supply


def test_government_answers_on_twelve() -> None:
    # rule 4.5.2: 2d6 + Pressure >= 12: 6 Supplies, 2 units in the City, +2 Morale; the marker is removed for good
    s = _plain()
    s.civilians = 0
    s.tracks[INSURGENT].update(supplies=10, pressure=3, morale=10)
    force_dice(s, *d6(4, 5))
    _insurgent(s)
    assert track(s, INSURGENT, "supplies") == 10 - 1 + 6
    assert track(s, INSURGENT, "morale") == 12
    assert track(s, INSURGENT, "pressure") < 0
    assert s.stack[-1]["kind"] == "place_insurgent" and s.stack[-1]["left"] == 2
    assert "marmarou" not in args(s, "to")  # inside the City only
    act(s, "to", "b1")
    act(s, "to", "b1")
    assert units(s, "b1") == (0, 0, 2)
    # never again: no roll next round, and the Pressure action is gone
    rng_before = s.rng
    _insurgent(s)
    assert s.rng == rng_before
    assert track(s, INSURGENT, "pressure") < 0


def test_government_refuses_below_twelve() -> None:
    # rule 4.5.2: below 12 nothing is gained and the Pressure marker moves 1 space forward
    s = _plain()
    s.civilians = 0
    s.tracks[INSURGENT].update(supplies=10, pressure=3, morale=10)
    force_dice(s, *d6(4, 4))
    _insurgent(s)
    assert track(s, INSURGENT, "pressure") == 4
    assert track(s, INSURGENT, "supplies") == 9
    assert verbs(s) == set()


def test_desertion_from_a_mixed_camp_names_the_kind() -> None:
    # rule 4.5.1 desertion / rule 5: where both kinds stand (the Camp), the player says which kind leaves
    s = clear_board(new_state())
    all_areas(s, INSURGENT)
    s.round = 5
    place(s, "camp", exp=1, ally=2)
    place(s, "w5", ins=1)
    s.tracks[IMPERIAL].update(money=10, supplies=20, morale=6)
    _imperial(s)
    assert args(s, "remove") == {"camp:E", "camp:A"}
    act(s, "remove", "camp:A")
    assert units(s, "camp") == (1, 1, 0)
