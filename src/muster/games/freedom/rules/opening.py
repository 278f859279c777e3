"""Rule 4.2 Opening: the Imperial advance (up to 5 units one space forward), then the free
Insurgent Regroup. 1st edition: the advancing units all come from one row or the Camp."""

from __future__ import annotations

from typing import Final

from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.datafiles import design
from muster.games.freedom.engine import Op, auto, push, select
from muster.games.freedom.rules.common import imperial_units, log, ruleset, said
from muster.games.freedom.rules.movement import forward_steps, kinds_at, move_unit, opening_destinations
from muster.games.freedom.state import Frame, State


@auto("opening")
def opening(s: State, f: Frame) -> None:
    """Start the Opening phase."""
    log(s, "Opening of round {n}.", n=s.round)
    push(
        s,
        select("advance", IMPERIAL, left=design()["opening"]["imperial_units"], arrived={}, row=None),
        select("opening_regroup", INSURGENT, paid=False),
    )


def _free_units(s: State, f: Frame, i: int) -> int:
    """Units in a space that have not already advanced this Opening."""
    return imperial_units(s, i) - int(f["arrived"].get(board().ids[i], 0))


def _row_key(i: int) -> str:
    b = board()
    return "camp" if i == b.camp else str(b.row[i])


_ADVANCE_SOURCES: Final = (board().camp, *board().mainland)
"""Where an Advance may start: the Camp, then the mainland in board order."""
_IDS: Final = board().ids
_LIMIT: Final = board().limit
_CAMP: Final = board().camp
_FORWARD: Final = forward_steps()


class AdvanceOp(Op):
    """One unit of the Imperial advance."""

    name = "advance"
    optional = True

    def prompt(self, s: State, f: Frame) -> str:
        return said("Opening: advance a unit one space forward ({n} left), or be done.", n=f["left"])

    def sources(self, s: State, f: Frame) -> list[str]:
        # a list built in one pass (the Opening asks it at each of its choices), with can_advance() inlined
        ids, exp, ally, ins, arrived = _IDS, s.exp, s.ally, s.ins, f["arrived"]
        row = f.get("row")
        one_row = row is not None and ruleset(s)["opening_single_row"]
        out: list[str] = []
        for i in _ADVANCE_SOURCES:
            e, al = exp[i], ally[i]
            if not e and not al:
                continue
            if (one_row and _row_key(i) != row) or e + al <= arrived.get(ids[i], 0):
                continue
            for j in _FORWARD[i]:
                # movement._room() for each kind present (the room and the enemy do not depend on the kind)
                if ins[j] or exp[j] + ally[j] >= _LIMIT[j]:
                    continue
                if j == _CAMP or (e and ally[j] == 0) or (al and exp[j] == 0):
                    out.append(ids[i])
                    break
        return out

    def classes(self, s: State, f: Frame, src: str) -> list[str]:
        kinds = kinds_at(s, board().index[src])
        return kinds if len(kinds) > 1 else []

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        b = board()
        i = b.index[str(src)]
        kind = f.get("cls") or kinds_at(s, i)[0]
        return [b.ids[j] for j in opening_destinations(s, i, kind)]

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        b = board()
        i, j = b.index[str(src)], b.index[dst]
        kind = f.get("cls") or kinds_at(s, i)[0]
        move_unit(s, i, j, kind)
        if not s.quiet:
            log(s, "Imperial unit advances from {src} to {dst}.", src=i, dst=j)
        arrived = dict(f["arrived"])
        arrived[dst] = arrived.get(dst, 0) + 1
        if f["left"] > 1:
            push(s, select("advance", IMPERIAL, left=f["left"] - 1, arrived=arrived, row=_row_key(i)))

    def decline(self, s: State, f: Frame) -> None:
        log(s, "The Imperial advance ends.")
