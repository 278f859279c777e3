"""CPU budgets for searching bots: what a playout costs on this install, and how a search shrinks to fit.

A bot level promises how long it thinks (a CPU budget a decision) and keeps an iteration count as its cap. Only
bots use this module; the rules never see a clock. CPU time, never wall clock: a budget counts the work a bot
does, so a busy machine does not make it weaker, and a fast install (where the cap fits the budget) plays
exactly as the cap alone, reproducibly.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque
from collections.abc import Callable

OVERRUN = 1.5
"""A search stops starting new determinizations and rounds once a decision has spent this many times its budget.
The plan aims at the budget itself from what playouts typically cost; the stop only cuts the rare decision whose
playouts ran far slower than typical, so it does not change a fast install's ordinary play."""


def cpu_now() -> float:
    """CPU seconds this thread has used: a bot's budget counts the work it does, not what else the machine is
    busy with (a wall clock would make a loaded machine's bot weaker), and never time spent waiting."""
    return time.thread_time()


class PlayoutCost:
    """What one playout of a search costs on this install, in CPU seconds: the median of the last ``keep``
    measured (a median, so one slow playout does not change the plan of the next decisions)."""

    def __init__(self, keep: int = 48) -> None:
        self._seen: deque[float] = deque(maxlen=keep)

    def record(self, seconds: float, playouts: int) -> None:
        """Count ``playouts`` playouts that took ``seconds`` of CPU together."""
        if playouts > 0:
            self._seen.append(seconds / playouts)

    def estimate(self) -> float | None:
        """The typical CPU seconds of one playout, or None before any was measured."""
        return statistics.median(self._seen) if self._seen else None


_COSTS: dict[tuple[object, ...], PlayoutCost] = {}


def playout_cost(key: tuple[object, ...]) -> PlayoutCost:
    """The shared record of playout costs of bots configured alike (``key``): every bot of a process learns
    from the others, so a bot built for one choice (as the web server does) plans with what earlier ones
    measured."""
    found = _COSTS.get(key)
    if found is None:
        found = _COSTS[key] = PlayoutCost()
    return found


def round_sizes(width: int, iterations: int, per: int | None = None) -> list[tuple[int, int]]:
    """``(candidates, determinizations)`` of each round of sequential halving over ``width`` candidates: with
    ``per`` None, the iteration cap's own split (``iterations // (candidates × rounds)`` a round, at least
    one), otherwise ``per`` determinizations every round."""
    rounds = max(1, math.ceil(math.log2(width))) if width > 1 else 1
    out, alive = [], width
    for _ in range(rounds):
        out.append((alive, per if per is not None else max(1, iterations // (alive * rounds))))
        alive = math.ceil(alive / 2)
    return out


def halving_playouts(width: int, iterations: int, per: int | None = None) -> int:
    """Playouts that sequential halving plays (see :func:`round_sizes`)."""
    return sum(alive * dets for alive, dets in round_sizes(width, iterations, per))


def budget_plan(width: int, iterations: int, affordable: float | None) -> tuple[int, int | None]:
    """``(candidates, determinizations per round)`` for sequential halving capped at ``iterations`` playouts
    when only ``affordable`` playouts fit the CPU budget (None: no budget, or no cost measured yet).

    While the cap fits, the plan is the cap's own (per None: :func:`round_sizes`), so a fast install plays
    exactly as without a budget. Otherwise it degrades in steps that keep the search fair: fewer
    determinizations a round first, then fewer candidates (the quick policy's best ones), down to two
    candidates on one determinization; ``(1, 0)`` when not even that fits (the quick policy's choice stands)."""
    if affordable is None or width < 2 or halving_playouts(width, iterations) <= affordable:
        return width, None
    most = max(dets for _alive, dets in round_sizes(width, iterations))
    for fewer in range(most - 1, 0, -1):
        if halving_playouts(width, iterations, fewer) <= affordable:
            return width, fewer
    for narrower in range(width - 1, 1, -1):
        if halving_playouts(narrower, iterations, 1) <= affordable:
            return narrower, 1
    return 1, 0


def overrun(budget: float, spent: Callable[[], float]) -> bool:
    """True once a decision with a CPU ``budget`` (0: none) has spent :data:`OVERRUN` times it."""
    return budget > 0 and spent() >= budget * OVERRUN
