"""Rules that hold at every moment of every game (rules 2, 4.2, 4.3.2, 5), checked along random games."""

from __future__ import annotations

import random

import pytest

from muster.games.freedom import RULES
from muster.games.freedom.board import board
from muster.games.freedom.constants import BOMBARD, IMPERIAL, IMPERIAL_CANNON, INSURGENT, INSURGENT_CANNON
from muster.games.freedom.datafiles import areas_file, design
from muster.games.freedom.rules.common import track_range
from muster.games.freedom.rules.victory import capture
from muster.games.freedom.state import State


def _pieces_conserved(s: State) -> None:
    # rule 2 / digest §1: the piece counts are hard limits; every piece is on the map or in its pool
    pools = design()["pools"]
    assert sum(s.exp) + s.pools["expeditionary"] == pools["expeditionary"]
    assert sum(s.ally) + s.pools["allied"] == pools["allied"]
    assert sum(s.ins) + s.pools["insurgent"] == pools["insurgent"]
    assert s.civilians + s.pools["civilians"] == pools["civilians"]
    ordinary = sum(1 for c in s.cannon if c in (IMPERIAL_CANNON, INSURGENT_CANNON))
    assert ordinary + s.camp_cannons + s.pools["cannons"] == pools["cannons"]
    assert sum(1 for c in s.cannon if c == BOMBARD) + s.pools["bombard"] == pools["bombard"]
    assert sum(s.area_markers) + s.pools["support_markers"] == pools["support_markers"]
    assert sum(1 for d in s.damage if d) + s.pools["damage_markers"] == pools["damage_markers"]
    assert all(v >= 0 for v in s.pools.values())


def _spaces_legal(s: State) -> None:
    # rule 4.2 unit limits; rule 4.3.2 never both sides in a space; rule 5 the two Imperial kinds apart
    b = board()
    for i in range(len(b.ids)):
        imp = s.exp[i] + s.ally[i]
        assert not (imp and s.ins[i]), b.ids[i]
        if i == b.city:
            assert imp == 0 and s.ins[i] == 0 and s.cannon[i] == 0
            continue
        if s.ins[i]:
            assert i in b.insurgent_spaces and s.ins[i] <= b.limit[i], b.ids[i]
        if i != b.camp:
            assert imp <= b.limit[i], b.ids[i]
            assert not (s.exp[i] and s.ally[i]), b.ids[i]
        assert 0 <= s.damage[i] <= (2 if b.kind[i] == "wall" else 0)


def _tracks_in_range(s: State) -> None:
    # digest §1: every track stays on its printed range (the Pressure marker may be removed: -1)
    for side in (IMPERIAL, INSURGENT):
        for name, value in s.tracks[side].items():
            low, high = track_range(name)
            if name == "pressure" and value == -1:
                continue
            assert low <= value <= high, (side, name, value)
    assert all(0 <= m <= areas_file().support_limit for m in s.area_markers)
    assert all(len(h) <= design()["hand_size"] for h in s.hands.values())


def _phase_rules(s: State) -> None:
    # rule 4.3: at most 7 cards a player per Action phase; rule 3.1 (2nd edition): once the Cannons phase runs,
    # no Imperial unit stands in a fort or in Row 2 (that would have ended the game)
    assert all(n <= design()["cards_per_action_phase"] for n in s.played.values())
    if s.ruleset == "2nd" and s.stack and s.stack[-1]["kind"] == "cannons":
        assert capture(s) is None


@pytest.mark.parametrize("ruleset", ["2nd", "1st"])
@pytest.mark.parametrize("seed", range(20))
def test_random_games_keep_the_rules(ruleset: str, seed: int) -> None:
    # rules 2, 4.2, 4.3.2 and 5 hold after every action; the game ends by rule 3 within 6 rounds
    s = RULES.setup(seed, {"ruleset": ruleset, "quiet": "1"})
    chooser = random.Random(seed)
    while RULES.active_seat(s) is not None:
        RULES.apply(s, chooser.choice(RULES.legal_actions(s)))
        _pieces_conserved(s)
        _spaces_legal(s)
        _tracks_in_range(s)
        _phase_rules(s)
    outcome = RULES.outcome(s)
    assert outcome is not None and 1 <= s.round <= 6
    assert outcome.reason in ("fort", "beach", "insurgent_morale", "imperial_morale", "survival")
    if outcome.reason == "survival":
        assert s.round == 6
