"""The win-probability estimate: a logistic calibration of the bots' evaluation terms.

``P(Imperial wins) = 1 / (1 + exp(-(b + Σ c_i · (x_i - mean_i) / std_i)))`` where ``x`` are the
:data:`~muster.analysis.features.FEATURES` of the position. The coefficients are fitted on
Heuristic-vs-Heuristic games by ``scripts/fit_win_probability.py`` and stored, versioned, in
``data/win_probability.json``; ``docs/analysis.md`` reports how well it predicts games it never saw.

The estimate only ever reads a seat's view: it builds a state with ``rules.determinize`` and reads
its public parts, so the hidden cards (and how the determinization dealt them) cannot change it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from muster.analysis.features import FEATURES, features
from muster.core import get_rules
from muster.core.interface import Rules
from muster.games.freedom.constants import IMPERIAL
from muster.games.freedom.state import State

DATA_FILE = "win_probability.json"
DETERMINIZATION_SEED = 0
"""The seed of the determinization the estimate reads (any seed gives the same estimate)."""


@dataclass(frozen=True)
class Calibration:
    """Fitted coefficients (see the module docstring)."""

    version: int
    features: tuple[str, ...]
    mean: tuple[float, ...]
    std: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    fitted_on: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        """Parse the data file's content (ValueError if it does not match :data:`FEATURES`)."""
        if tuple(data["features"]) != FEATURES:
            raise ValueError(f"{DATA_FILE} was fitted on other features: refit it "
                             "(scripts/fit_win_probability.py fit)")
        return cls(int(data["version"]), tuple(data["features"]), tuple(map(float, data["mean"])),
                   tuple(map(float, data["std"])), tuple(map(float, data["coef"])), float(data["intercept"]),
                   dict(data.get("fitted_on", {})))

    def probability(self, x: list[float]) -> float:
        """The Imperial side's chance for a feature vector."""
        z = self.intercept + sum(c * (v - m) / s for c, v, m, s in zip(self.coef, x, self.mean, self.std, strict=True))
        z = max(-40.0, min(40.0, z))
        return 1.0 / (1.0 + math.exp(-z))


@lru_cache(maxsize=1)
def calibration() -> Calibration:
    """The coefficients shipped with this build."""
    text = resources.files("muster.analysis").joinpath("data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return Calibration.from_json(json.loads(text))


def state_probability(state: State, calib: Calibration | None = None) -> float:
    """The Imperial side's chance in a full state (1 or 0 once the game is won, 0.5 for a draw).

    Only the public parts are read; callers holding a real state should still prefer :func:`imperial_chance`
    on a view, which makes that guarantee by construction.
    """
    if state.result is not None:
        winner = state.result.get("winner")
        return 1.0 if winner == IMPERIAL else 0.5 if winner is None else 0.0
    return (calib or calibration()).probability(features(state))


def imperial_chance(view: dict[str, Any], seat: str, rules: Rules | None = None,
                    calib: Calibration | None = None) -> float:
    """The Imperial side's chance of winning, estimated from ``seat``'s view only (``calib``: other
    coefficients than the shipped ones)."""
    rules = rules or get_rules("freedom")
    return state_probability(rules.determinize(view, seat, DETERMINIZATION_SEED), calib)


def seat_chance(view: dict[str, Any], seat: str, rules: Rules | None = None) -> float:
    """``seat``'s own chance of winning, estimated from its view."""
    p = imperial_chance(view, seat, rules)
    return p if seat == IMPERIAL else 1.0 - p
