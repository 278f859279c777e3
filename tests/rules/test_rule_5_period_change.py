"""Rule 5, Period Change (start of round 4): Ibrahim's arrival."""

from __future__ import annotations

from rulekit import act, acts, args, clear_board, new_state, place, play_ap, run, track, units

from muster.games.freedom import RULES
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.engine import frame
from muster.games.freedom.rules.common import area_index


def test_period_change_example() -> None:
    # rule 5 Example: the Empire gets +8 Money, +6 Supplies, +4 Support at Sea, +4 on the Plea track, 10 Allied
    # units in the two rows closest to the Camp and 5 more in the Camp; the Insurgent gets 10 Civilians and +1 on
    # the Pressure track (moving it to 3)
    s = new_state()
    s.round = 4
    s.tracks[INSURGENT]["pressure"] = 2
    civilians = s.civilians
    b = board()
    run(s, frame("period_change"))
    assert RULES.active_seat(s) == IMPERIAL and s.stack[-1]["kind"] == "place_allied"
    rows = {b.row[b.index[x]] for x in args(s, "to")}
    assert rows == {7, 8}
    assert "r7c2" not in args(s, "to")  # Expeditionary units there
    for sid in ("r8c1", "r8c1", "r8c1", "r8c2", "r8c2", "r8c2", "r8c3", "r8c3", "r8c3", "r8c4"):
        act(s, "to", sid)
    assert s.stack == []
    assert [units(s, f"r8c{c}")[1] for c in (1, 2, 3, 4)] == [3, 3, 3, 1]
    assert s.ally[b.camp] == 5
    assert s.pools["allied"] == 5
    assert track(s, IMPERIAL, "money") == 18
    assert track(s, IMPERIAL, "supplies") == 18
    assert track(s, IMPERIAL, "plea") == 4
    sea = area_index("sea")
    # 4 Support actions at Sea (2 blue markers): remove, remove, flip, add
    assert (s.area_side[sea], s.area_markers[sea]) == (IMPERIAL, 1)
    assert s.civilians == civilians + 10
    assert track(s, INSURGENT, "pressure") == 3


def test_full_mainland_rows_send_allied_units_to_the_camp() -> None:
    # rule 5: no more than 3 a space, never with Expeditionary units; the rest go to the Camp
    s = clear_board(new_state())
    s.round = 4
    b = board()
    for i in b.mainland:
        if b.row[i] in (7, 8) and b.ids[i] != "r8c5":
            place(s, b.ids[i], exp=1)
    run(s, frame("period_change"))
    assert args(s, "to") == {"r8c5"}
    acts(s, ("to", "r8c5"), ("to", "r8c5"), ("to", "r8c5"))
    assert {a.verb for a in RULES.legal_actions(s)} == {"camp"}
    act(s, "camp")
    assert units(s, "r8c5") == (0, 3, 0)
    assert s.ally[b.camp] == 7 + 5


def test_expeditionary_and_allied_never_share_a_space() -> None:
    # rule 5: in Period B Expeditionary and Allied units cannot coexist in the same space
    s = clear_board(new_state())
    s.round = 4
    place(s, "r6c5", exp=1)
    place(s, "r5c5", ally=1)
    place(s, "w1", ins=1)
    play_ap(s, IMPERIAL, 30)
    acts(s, ("move",), ("from", "r6c5"))
    assert "r5c5" not in args(s, "to")
    # ... but a 2-space move may pass through the other kind's space
    assert "r4c5" in args(s, "to")
    act(s, "to", "r4c5")
    assert units(s, "r4c5") == (1, 0, 0)


def test_both_kinds_in_the_camp() -> None:
    # rule 5: the Camp holds both kinds (the Allied units arrive there); the player chooses which one moves
    s = clear_board(new_state())
    s.round = 4
    place(s, "camp", exp=1, ally=1)
    place(s, "w1", ins=1)
    play_ap(s, IMPERIAL, 30)
    acts(s, ("move",), ("from", "camp"))
    assert args(s, "unit") == {"E", "A"}
    acts(s, ("unit", "A"), ("to", "r8c8"))
    assert units(s, "r8c8") == (0, 1, 0)
