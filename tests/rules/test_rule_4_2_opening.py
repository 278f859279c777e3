"""Rule 4.2 Opening, and the unit limits stated with it."""

from __future__ import annotations

from rulekit import act, acts, args, clear_board, idx, legal, new_state, place, play_ap, run, track, units

from muster.games.freedom import RULES
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.engine import select
from muster.games.freedom.state import State


def _opening(s: State) -> State:
    return run(
        s, select("advance", IMPERIAL, left=5, arrived={}, row=None), select("opening_regroup", INSURGENT, paid=False)
    )


def test_example_five_units_of_row_6_step_forward() -> None:
    # rule 4.2 Example: the Imperial player moves 5 units of Row 6 one space forward; no sideways, no backwards
    s = new_state()
    assert RULES.active_seat(s) == IMPERIAL
    act(s, "from", "r6c5")
    assert args(s, "to") == {"r5c5"}  # not r6c4/r6c6 (sideways) nor r7c5 (backwards)
    act(s, "to", "r5c5")
    for col in (1, 2, 3, 4):
        acts(s, ("from", f"r6c{col}"), ("to", f"r5c{col}"))
    for col in (1, 2, 3, 4, 5):
        assert units(s, f"r5c{col}") == (1, 0, 0)
        assert units(s, f"r6c{col}") == (1, 0, 0)
    # the fifth unit ends the advance: the Insurgent Regroup follows
    assert RULES.active_seat(s) == INSURGENT
    assert s.stack[-1]["op"] == "opening_regroup"


def test_a_unit_advances_only_once() -> None:
    # rule 4.2: each chosen unit moves one space (a unit that arrived cannot be advanced again)
    s = new_state()
    acts(s, ("from", "r6c1"), ("to", "r5c1"))
    assert "r5c1" not in args(s, "from")
    assert "r6c1" in args(s, "from")  # its companion may still go


def test_advance_may_stop_early() -> None:
    # rule 4.2: "up to 5 units"
    s = new_state()
    assert ("done", None) in [tuple(a) for a in legal(s)]
    before = list(s.exp)
    act(s, "done")
    assert s.exp == before
    assert RULES.active_seat(s) == INSURGENT


def test_leaving_the_camp_may_go_sideways() -> None:
    # rule 4.2: no sideways move, except when leaving the Camp (any adjacent space)
    s = new_state()
    act(s, "from", "camp")
    assert args(s, "to") == {"r8c6", "r8c7", "r8c8", "r8c9", "r7c9"}


def test_no_slow_movement_in_the_opening() -> None:
    # rule 4.2: no Slow movement (no climbing a destroyed Wall section, no Lagoon)
    s = clear_board(new_state())
    place(s, "r4c5", exp=1)
    place(s, "w5", damage=2)
    place(s, "r8c1", exp=1)
    place(s, "r4c9", exp=1)
    _opening(s)
    assert "r4c5" not in args(s, "from")
    assert "r4c9" not in args(s, "from")
    assert args(s, "from") == {"r8c1"}
    act(s, "from", "r8c1")
    assert args(s, "to") == {"r7c1"}  # not the Marmarou channel


def test_opening_respects_limits() -> None:
    # rule 4.2 unit limits: no unit may end its move in a full space (3 on the mainland)
    s = clear_board(new_state())
    place(s, "r5c2", exp=3)
    place(s, "r6c2", exp=1)
    _opening(s)
    assert "r6c2" not in args(s, "from")


def test_insurgent_free_regroup_example() -> None:
    # rule 4.2 Example: the Insurgent regroups 1 unit from the right flank to the second fort, for free
    s = new_state()
    act(s, "done")
    assert RULES.active_seat(s) == INSURGENT
    act(s, "from", "w9")
    b = board()
    # any City space (Row 3 or Row 2) or island with room; never the mainland, water or the City Center
    expected = {b.ids[i] for i in b.insurgent_spaces if b.ids[i] != "w9" and b.kind[i] != "island"}
    assert args(s, "to") == expected  # islands hold 1 unit each and are full at the start
    prep = track(s, INSURGENT, "preparation")
    act(s, "to", "w4")
    assert units(s, "w4") == (0, 0, 2)
    assert units(s, "w9") == (0, 0, 0)
    assert track(s, INSURGENT, "preparation") == prep
    assert s.stack[-1]["kind"] == "card_turn"  # the Action phase begins


def test_regroup_is_optional() -> None:
    # rule 4.2: the Insurgent player "may" Regroup
    s = new_state()
    act(s, "done")
    before = list(s.ins)
    act(s, "done")
    assert s.ins == before


# --- unit limits (rule 4.2) ---------------------------------------------------------------


def test_limits_in_the_board_data() -> None:
    # rule 4.2 unit limits: mainland 3, Wall and Row 2 two, islands one, City Center civilians only
    b = board()
    assert {b.limit[i] for i in b.mainland} == {3}
    assert {b.limit[i] for i in b.walls} == {2}
    assert {b.limit[i] for i in b.beaches} == {2}
    assert {b.limit[i] for i in b.islands} == {1}
    assert b.kind[b.city] == "city" and b.adj[b.city] == ()


def test_moving_through_a_full_space() -> None:
    # rule 4.2: a unit may pass through a full space without stopping
    s = clear_board(new_state())
    place(s, "r6c5", exp=1)
    place(s, "r5c5", exp=3)
    place(s, "w1", ins=1)
    play_ap(s, IMPERIAL, 42)
    acts(s, ("move",), ("from", "r6c5"))
    assert "r5c5" not in args(s, "to")
    assert "r4c5" in args(s, "to")
    act(s, "to", "r4c5")
    assert units(s, "r4c5") == (1, 0, 0)


def test_wall_row2_island_limits_for_insurgents() -> None:
    # rule 4.2: Wall and Row 2 hold 2 units, islands 1
    s = clear_board(new_state())
    place(s, "w5", ins=2)
    place(s, "b2", ins=2)
    place(s, "klisova", ins=1)
    place(s, "w1", ins=1)
    _opening(s)
    act(s, "done")
    act(s, "from", "w1")
    targets = args(s, "to")
    assert not {"w5", "b2", "klisova"} & targets
    assert {"w2", "b1", "marmarou", "vasiladi"} <= targets
    assert "city" not in targets


def test_one_cannon_per_space() -> None:
    # rule 4.2: a space may contain only a single Cannon / Bombard
    s = clear_board(new_state())
    place(s, "w4", ins=1, cannon=2)
    place(s, "w5", ins=1)
    s.tracks[INSURGENT]["supplies"] = 5
    play_ap(s, INSURGENT, 39)  # 4 AP
    act(s, "build")
    assert args(s, "to") == {"w5"}
    act(s, "to", "w5")
    assert s.cannon[idx("w4")] == 2 and s.cannon[idx("w5")] == 2
