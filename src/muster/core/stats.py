"""A binomial confidence interval, for every layer that reports win rates (the lab, a game's own training tools)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(rate, low, high): the Wilson score interval of a win rate (95% by default)."""
    if n <= 0:
        return 0.0, 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
