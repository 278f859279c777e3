"""Rule 4.3.2 movement and placement rules as properties over random positions (Hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rulekit import act, args, clear_board, idx, new_state, place, play_ap, verbs

from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.state import State

B = board()
LAND = [B.ids[i] for i in (*B.mainland, B.camp)]
CITY = [B.ids[i] for i in B.insurgent_spaces]

positions = st.tuples(
    st.dictionaries(st.sampled_from(LAND), st.integers(1, 3), min_size=1, max_size=12),
    st.dictionaries(st.sampled_from(CITY), st.integers(1, 2), min_size=1, max_size=8),
    st.dictionaries(st.sampled_from([B.ids[w] for w in B.walls]), st.integers(0, 2), max_size=9),
)


def _position(data: tuple[dict[str, int], dict[str, int], dict[str, int]]) -> State:
    imp, ins, damage = data
    s = clear_board(new_state())
    for sid, n in imp.items():
        place(s, sid, exp=n)
    for sid, n in ins.items():
        if s.exp[idx(sid)] == 0:
            place(s, sid, ins=min(n, B.limit[idx(sid)]))
    for sid, d in damage.items():
        place(s, sid, damage=d)
    return s


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(positions, st.data())
def test_any_position_normal_movement(
    data: tuple[dict[str, int], dict[str, int], dict[str, int]], draw: st.DataObject
) -> None:
    # rule 4.3.2 Normal Movement: within 2 steps, onto the mainland, never deeper (backwards) than the start
    # (the Camp excepted), never into an Insurgent space or a full one (rule 4.2)
    s = _position(data)
    play_ap(s, IMPERIAL, 30)
    if "move" not in verbs(s):
        return
    act(s, "move")
    src = draw.draw(st.sampled_from(sorted(args(s, "from"))))
    act(s, "from", src)
    i = idx(src)
    for dst in args(s, "to"):
        j = idx(dst)
        assert B.kind[j] == "mainland"
        assert i == B.camp or B.depth[j] <= B.depth[i]
        assert s.ins[j] == 0 and s.exp[j] + s.ally[j] < B.limit[j]
        near = {k for m in B.adj[i] for k in (m, *B.adj[m])}
        assert j in near


@SETTINGS
@given(positions, st.data())
def test_any_position_slow_movement(
    data: tuple[dict[str, int], dict[str, int], dict[str, int]], draw: st.DataObject
) -> None:
    # rule 4.3.2 Slow Movement: one step into a slow space; the Wall from the mainland only where destroyed;
    # never into an Insurgent or full space
    s = _position(data)
    play_ap(s, IMPERIAL, 30)
    if "slow" not in verbs(s):
        return
    act(s, "slow")
    src = draw.draw(st.sampled_from(sorted(args(s, "from"))))
    act(s, "from", src)
    i = idx(src)
    for dst in args(s, "to"):
        j = idx(dst)
        assert j in B.adj[i] and B.slow[j]
        assert s.ins[j] == 0 and s.exp[j] + s.ally[j] < B.limit[j]
        if B.kind[j] == "wall" and B.kind[i] != "wall":
            assert s.damage[j] == 2


@SETTINGS
@given(positions, st.data())
def test_any_position_regroup(data: tuple[dict[str, int], dict[str, int], dict[str, int]], draw: st.DataObject) -> None:
    # rule 4.3.2 Regroup: only Row 3, Row 2 or islands, with room, without Imperial units
    s = _position(data)
    if not any(s.ins):
        return
    play_ap(s, INSURGENT, 30)
    if "regroup" not in verbs(s):
        return
    act(s, "regroup")
    src = draw.draw(st.sampled_from(sorted(args(s, "from"))))
    act(s, "from", src)
    for dst in args(s, "to"):
        j = idx(dst)
        assert j in B.insurgent_spaces and dst != src
        assert s.ins[j] < B.limit[j] and s.exp[j] + s.ally[j] == 0


@SETTINGS
@given(positions)
def test_any_position_raid(data: tuple[dict[str, int], dict[str, int], dict[str, int]]) -> None:
    # rule 4.3.2 Raid (2nd edition): from a Wall section to any mainland space with Imperial units, Row 5 or
    # beyond, along a path through mainland spaces holding no Imperial unit, for as many AP as the path is long;
    # the card's 4 AP pay paths of up to 4 steps. Checked against every walk of up to 4 steps.
    s = _position(data)
    play_ap(s, INSURGENT, 30)
    if "raid" not in verbs(s):
        return
    act(s, "raid")
    for src in args(s, "from"):
        act(s, "from", src)
        i = idx(src)
        assert B.kind[i] == "wall"
        assert args(s, "to") == _walk_targets(s, i, 4)
        return


def _walk_targets(s: State, src: int, steps: int) -> set[str]:
    """Raid targets by brute force: every walk from ``src`` of at most ``steps`` mainland spaces."""
    found: set[str] = set()

    def walk(at: int, left: int) -> None:
        for j in B.adj[at]:
            if B.kind[j] != "mainland":
                continue
            if s.exp[j] + s.ally[j]:
                if B.row[j] >= 5:
                    found.add(B.ids[j])
            elif left > 1:
                walk(j, left - 1)

    walk(src, steps)
    return found
    act(s, "raid")
    for src in args(s, "from"):
        act(s, "from", src)
        i = idx(src)
        for dst in args(s, "to"):
            j = idx(dst)
            assert B.kind[i] == "wall" and B.col[j] == B.col[i] and 5 <= B.row[j] <= 7
            assert all(s.exp[idx(f"r{r}c{B.col[i]}")] == 0 for r in range(4, B.row[j]))
        return
