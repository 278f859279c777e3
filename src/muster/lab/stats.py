"""Statistics for the lab: Bradley–Terry ratings on the Elo scale (win-rate intervals: :mod:`muster.core.stats`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from muster.core.stats import Z95


@dataclass(frozen=True)
class Rating:
    """A Bradley–Terry strength on the Elo scale (mean 0) with a 95% interval."""

    name: str
    elo: float
    low: float
    high: float
    games: int
    wins: float


Result = tuple[str, str, float]
"""(player a, player b, a's score: 1 win, 0.5 draw, 0 loss)."""


def bradley_terry(results: Sequence[Result], names: Sequence[str], iterations: int = 200) -> dict[str, float]:
    """Maximum-likelihood Bradley–Terry strengths (Hunter's MM algorithm), as Elo points, mean 0.

    A tiny prior (half a draw against an average opponent) keeps unbeaten players finite.
    """
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.5] * k
    pair_games: dict[tuple[int, int], float] = {}
    for a, b, score in results:
        i, j = index[a], index[b]
        wins[i] += score
        wins[j] += 1 - score
        key = (min(i, j), max(i, j))
        pair_games[key] = pair_games.get(key, 0.0) + 1
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = 1.0 / (strength[i] + 1.0)  # the prior's game against a strength-1 opponent
            for (x, y), n in pair_games.items():
                if i in (x, y):
                    other = y if i == x else x
                    denom += n / (strength[i] + strength[other])
            new.append(wins[i] / denom)
        mean_log = sum(math.log(s) for s in new) / k
        strength = [s / math.exp(mean_log) for s in new]
    return {n: 400 * math.log10(strength[index[n]]) for n in names}


ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of natural-log strength."""


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def rating_errors(results: Sequence[Result], names: Sequence[str], elo: dict[str, float]) -> dict[str, float]:
    """Standard errors (Elo points) of mean-centred ratings, from the curvature of the log-likelihood.

    The information matrix sums p(1-p) over games (p: the fitted chance of the first player winning)
    plus the prior's half-draw against an average opponent, which keeps it invertible when a
    player won or lost every game. Unlike a bootstrap over games, this gives an unbeaten player an
    interval of honest width instead of a single point (every resample of 8/8 is 8/8 again).
    """
    import numpy as np  # here, not at the top: every command line loads this module, few ask for errors

    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    theta = np.array([elo[n] / ELO_PER_NAT for n in names])
    info = np.zeros((k, k))
    for i in range(k):
        q = _logistic(float(theta[i]))
        info[i, i] += q * (1 - q)
    for a, b, _score in results:
        i, j = index[a], index[b]
        p = _logistic(float(theta[i] - theta[j]))
        w = p * (1 - p)
        info[i, i] += w
        info[j, j] += w
        info[i, j] -= w
        info[j, i] -= w
    centre = np.eye(k) - np.full((k, k), 1.0 / k)  # the ratings are reported with mean 0
    cov = centre @ np.linalg.inv(info) @ centre.T
    return {n: ELO_PER_NAT * math.sqrt(max(float(cov[index[n], index[n]]), 0.0)) for n in names}


def ratings(results: Sequence[Result], names: Sequence[str], z: float = Z95) -> list[Rating]:
    """Ratings with 95% intervals (normal approximation at the fitted strengths), best first."""
    point = bradley_terry(results, names)
    errors = rating_errors(results, names, point)
    out = []
    for n in names:
        games = sum(1 for a, b, _ in results if n in (a, b))
        won = sum(s if a == n else 1 - s for a, b, s in results if n in (a, b))
        out.append(Rating(n, point[n], point[n] - z * errors[n], point[n] + z * errors[n], games, won))
    return sorted(out, key=lambda r: -r.elo)
