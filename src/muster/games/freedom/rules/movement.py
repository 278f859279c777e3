"""Rule 4.3.2 Normal and Slow Movement of Imperial units, and the unit limits of rule 4.2.

Forward/backward is read from each space's depth (board data): a step to a deeper space
is backwards (towards the Camp) and never allowed; equal depth is sideways.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from muster.games.freedom.board import board
from muster.games.freedom.rules.common import imperial_holds, ruleset
from muster.games.freedom.state import Frame, State


def normal_step(s: State, a: int, b: int) -> bool:
    """One step of Normal Movement from a to b, ignoring where the move ends (pass-through rules)."""
    return s.ins[b] == 0 and b in _STEPS[a]


@cache
def _static_steps() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per space, in adjacency order: the neighbours a Normal Movement step may enter whatever the
    pieces (mainland, not slow, not backwards), and those one space forward (the Opening's steps)."""
    bd = board()
    steps, forward = [], []
    for a in range(len(bd.ids)):
        ok = [b for b in bd.adj[a] if not bd.slow[b] and bd.kind[b] == "mainland"
              and (a == bd.camp or bd.depth[b] <= bd.depth[a])]
        steps.append(tuple(ok))
        forward.append(tuple(b for b in ok if a == bd.camp or bd.depth[b] < bd.depth[a]))
    return tuple(steps), tuple(forward)


_STEPS: Final = _static_steps()[0]
_FORWARD: Final = _static_steps()[1]
_B: Final = board()
_LIMIT: Final = board().limit
_CAMP: Final = board().camp


def normal_steps() -> tuple[tuple[int, ...], ...]:
    """Per space, the neighbours a Normal Movement step may enter whatever the pieces (board data)."""
    return _STEPS


def _room(s: State, b: int, kind: str) -> bool:
    """:func:`muster.games.freedom.rules.common.imperial_room` for a mainland space (the City Center is never
    a step), inlined for speed."""
    exp, ally = s.exp, s.ally
    if s.ins[b] or exp[b] + ally[b] >= _LIMIT[b]:
        return False
    return b == _CAMP or (ally[b] == 0 if kind == "E" else exp[b] == 0)


def normal_destinations(s: State, a: int, kind: str) -> list[int]:
    """Where one unit may end a Normal Movement: one step, or two steps through passable spaces.

    A unit may pass through a full space of its own side or (Period B) one of the other kind
    of Imperial unit, but never through an Insurgent or slow space (rules 4.2 and 5).
    """
    ins = s.ins
    out: set[int] = set()
    for m in _STEPS[a]:
        if ins[m]:
            continue
        if _room(s, m, kind):
            out.add(m)
        for b in _STEPS[m]:
            if b != a and b not in out and not ins[b] and _room(s, b, kind):
                out.add(b)
    return sorted(out)


def can_move_normally(s: State, a: int, kind: str) -> bool:
    """True if one unit in ``a`` has any Normal Movement destination (an early-exit test)."""
    ins = s.ins
    for m in _STEPS[a]:
        if ins[m]:
            continue
        if _room(s, m, kind):
            return True
        for b in _STEPS[m]:
            if b != a and not ins[b] and _room(s, b, kind):
                return True
    return False


def single_step_destinations(s: State, a: int, kind: str) -> list[int]:
    """Where one unit may end a one-space Normal Movement."""
    return [b for b in _STEPS[a] if _room(s, b, kind)]


def slow_destinations(s: State, a: int, kind: str, lagoon_only: bool = False) -> list[int]:
    """Where one unit may go with Slow Movement: the Wall, Rows 1–2 and the Lagoon (rule 4.3.2).

    The Wall is entered from the mainland only where destroyed (1st edition: damaged or
    destroyed); along the Wall any section without Insurgent units may be entered. Thick
    Lagoon spaces need an Imperial unit on their island.
    """
    candidates = _SLOW_STEPS[a]
    if not candidates:
        return []
    bd = _B
    min_damage = ruleset(s)["wall_entry_min_damage"]
    from_wall = bd.kind[a] == "wall"
    out = []
    for b in candidates:
        if not _room(s, b, kind) or (lagoon_only and not bd.lagoon[b]):
            continue
        if not from_wall and bd.kind[b] == "wall" and s.damage[b] < min_damage:
            continue
        thick = bd.thick[b]
        if thick >= 0 and not imperial_holds(s, thick):
            continue
        out.append(b)
    return out


_SLOW_STEPS: Final = tuple(tuple(b for b in board().adj[a] if board().slow[b] and board().depth[b] <= board().depth[a]
                          and board().kind[b] != "city") for a in range(len(board().ids)))
"""Per space, the slow neighbours a unit may step into whatever the pieces (never backwards)."""


def forward_steps() -> tuple[tuple[int, ...], ...]:
    """Per space, the neighbours one space forward a unit may step into whatever the pieces (from the Camp:
    every mainland neighbour): where :func:`opening_destinations` looks."""
    return _FORWARD


def slow_steps() -> tuple[tuple[int, ...], ...]:
    """Per space, the slow neighbours a unit may step into whatever the pieces (never backwards): where
    :func:`slow_destinations` looks."""
    return _SLOW_STEPS


def opening_destinations(s: State, a: int, kind: str) -> list[int]:
    """Rule 4.2: one space forward (from the Camp: to any adjacent space), no slow movement."""
    return [b for b in _FORWARD[a] if _room(s, b, kind)]


def can_advance(s: State, a: int, kind: str) -> bool:
    """True if :func:`opening_destinations` is not empty (an early-exit test)."""
    return any(_room(s, b, kind) for b in _FORWARD[a])


def kinds_at(s: State, i: int) -> list[str]:
    """The Imperial unit kinds present in space ``i`` (E, A)."""
    if s.ally[i] > 0:
        return ["E", "A"] if s.exp[i] > 0 else ["A"]
    return ["E"] if s.exp[i] > 0 else []


def used_counts(f: Frame | None, space: str, units: int) -> list[int]:
    """Attacks made this card by each unit in a space (fresh units count 0), highest first."""
    spent = list(f["spent"].get(space, [])) if f else []
    return sorted(spent + [0] * (units - len(spent)), reverse=True)


def move_unit(s: State, a: int, b: int, kind: str, used: int = 0, ap: Frame | None = None) -> None:
    """Move one Imperial unit, carrying its attack count along (for the once-per-card limit)."""
    arr = s.exp if kind == "E" else s.ally
    arr[a] -= 1
    arr[b] += 1
    if ap is not None and used > 0:
        ids = board().ids
        spent = ap["spent"]
        src = list(spent.get(ids[a], []))
        src.remove(used)
        if src:
            spent[ids[a]] = src
        else:
            spent.pop(ids[a], None)
        spent[ids[b]] = [*spent.get(ids[b], []), used]
