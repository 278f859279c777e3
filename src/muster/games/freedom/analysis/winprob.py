"""The win-probability estimate: one logistic calibration per round of public facts about the position.

In round ``r``, ``P(Imperial wins) = 1 / (1 + exp(-(b_r + Σ c_r,i · (x_i - mean_r,i) / std_r,i)))``
where ``x`` are the :data:`~muster.games.freedom.bots.features.FEATURES` of the position (the bots' evaluation
terms and public counts). The coefficients are fitted on self-play games (the Heuristic that clears landings) by
``scripts/fit_win_probability.py`` (round r's on the positions of rounds r - 1 to r + 1, each round with
its own intercept) and stored, versioned, in ``data/win_probability.json``;
``docs/analysis.md`` reports how well it predicts games it never saw.

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

from muster.core import get_rules
from muster.core.interface import Rules
from muster.games.freedom.bots.features import FEATURES, features
from muster.games.freedom.constants import IMPERIAL
from muster.games.freedom.state import State

DATA_FILE = "win_probability.json"
FORMAT_VERSION = 2
"""The data file's format: 2 = one model per round over :data:`FEATURES` (1 was one model with round
indicators over the evaluation terms only)."""
DETERMINIZATION_SEED = 0
"""The seed of the determinization the estimate reads (any seed gives the same estimate)."""


@dataclass(frozen=True)
class RoundModel:
    """One round's standardisation and logistic coefficients."""

    mean: tuple[float, ...]
    std: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundModel:
        """Parse one entry of the data file's ``rounds``."""
        model = cls(tuple(map(float, data["mean"])), tuple(map(float, data["std"])), tuple(map(float, data["coef"])),
                    float(data["intercept"]))
        if not len(model.mean) == len(model.std) == len(model.coef) == len(FEATURES):
            raise ValueError(f"{DATA_FILE}: a round's coefficients do not match the features")
        return model

    def probability(self, x: list[float]) -> float:
        """The Imperial side's chance for a feature vector."""
        z = self.intercept + sum(c * (v - m) / s for c, v, m, s in zip(self.coef, x, self.mean, self.std, strict=True))
        z = max(-40.0, min(40.0, z))
        return 1.0 / (1.0 + math.exp(-z))


@dataclass(frozen=True)
class Calibration:
    """Fitted coefficients, one :class:`RoundModel` per round (see the module docstring)."""

    version: int
    features: tuple[str, ...]
    rounds: tuple[RoundModel, ...]
    fitted_on: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        """Parse the data file's content (ValueError if its format or features do not match this build's)."""
        if data.get("version") != FORMAT_VERSION or tuple(data.get("features", ())) != FEATURES:
            raise ValueError(f"{DATA_FILE} was fitted in another format or on other features: refit it "
                             "(scripts/fit_win_probability.py fit)")
        rounds = tuple(RoundModel.from_json(r) for r in data["rounds"])
        if not rounds:
            raise ValueError(f"{DATA_FILE} holds no round")
        return cls(int(data["version"]), tuple(data["features"]), rounds, dict(data.get("fitted_on", {})))

    def probability(self, x: list[float], round_: int) -> float:
        """The Imperial side's chance for a feature vector in round ``round_`` (the last fitted round
        stands for any later one)."""
        return self.rounds[max(0, min(round_, len(self.rounds)) - 1)].probability(x)


@lru_cache(maxsize=1)
def calibration() -> Calibration:
    """The coefficients shipped with this build."""
    text = resources.files(__package__).joinpath("data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return Calibration.from_json(json.loads(text))


def state_probability(state: State, calib: Calibration | None = None) -> float:
    """The Imperial side's chance in a full state (1 or 0 once the game is won, 0.5 for a draw).

    Only the public parts are read; callers holding a real state should still prefer :func:`imperial_chance`
    on a view, which makes that guarantee by construction.
    """
    if state.result is not None:
        winner = state.result.get("winner")
        return 1.0 if winner == IMPERIAL else 0.5 if winner is None else 0.0
    return (calib or calibration()).probability(features(state), state.round)


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
