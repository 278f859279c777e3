"""A learned evaluation of Hellenes: the chance that Sparta wins, read from the terms of the hand-written one.

The hand-written :func:`muster.games.hellenes.bots.evaluate` adds up Prestige, the blocks on the map, enemy-loyal
Cities held, the engagements about to be fought and each capital's danger, with weights fixed by hand and the same
all game long. The learned value keeps those terms (:func:`muster.games.hellenes.bots.value_inputs`, from Sparta's
side) and fits how much each is
worth *at this point of the game* — a block is worth much early and nearly nothing in the last Winter, when only
Prestige is counted — by a logistic regression on the results of Heuristic games
(:mod:`muster.games.hellenes.train`). It reads a determinized state, so it sees what the search's deal put there;
its weights are a few numbers, evaluated in plain Python (no numpy, no torch).

The weights live in one file under ``games/hellenes/data/`` whose name carries the rules version and the action
space version (:func:`weights_name`); a build whose rules or action space differ refuses to load it
(:class:`WeightsMismatchError`): a value fitted on other rules would mislead.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

FORMAT = 1
"""The weights file's format (bump when its fields change)."""
BASE_TERMS: tuple[str, ...] = ("prestige", "block_worth", "held_cities", "engagements", "sparta_capital_danger",
                               "athens_capital_danger")
"""The hand-written evaluation's terms, from Sparta's side (a lead in blocks' worth is Sparta's minus Athens')."""
INPUTS: tuple[str, ...] = ("bias", *BASE_TERMS, *(f"{t}*progress" for t in BASE_TERMS), "progress",
                           "sparta_to_play", "prestige_squashed", "prestige_squashed*progress")
"""The regression's inputs, in order: a constant, the terms, the terms scaled by how far the game has gone (0 at
the first Season, 1 after the last), that progress itself, 1 when Sparta decides, and the Prestige track squashed
(``tanh(prestige / 3)``: a lead of a few points decides a close game, more adds little) alone and by progress."""
POINTS_PER_LOGIT = 30.0
"""Evaluation points per logit of the chance: :meth:`LearnedValue.points` gives the chance on the scale that the
search's default ``scale`` (30) reads back as that very chance."""


class WeightsMismatchError(ValueError):
    """The shipped weights were fitted for other rules, another action space or other inputs."""


def versions() -> tuple[str, str]:
    """(rules version, action space version) of this build."""
    from muster.core import get_rules
    from muster.games.hellenes.action_space import action_space

    return get_rules("hellenes").info.version, action_space().version


def weights_name(rules: str | None = None, actions: str | None = None) -> str:
    """The file name of the weights for these versions (default: this build's)."""
    if rules is None or actions is None:
        rules, actions = versions()
    return f"learned-{rules}-{actions}.json"


@dataclass(frozen=True)
class LearnedValue:
    """The fitted weights (one per input of :data:`INPUTS`) and what the file says of how they were made."""

    weights: tuple[float, ...]
    meta: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: str | None = None, actions: str | None = None) -> LearnedValue:
        """Parse a weights file; :class:`WeightsMismatchError` if it was made for other versions or inputs."""
        if rules is None or actions is None:
            rules, actions = versions()
        if data.get("format") != FORMAT or tuple(data.get("inputs", ())) != INPUTS:
            raise WeightsMismatchError("the Hellenes learned weights were made for other inputs: refit them "
                                       "(python -m muster.games.hellenes.train)")
        if data.get("rules_version") != rules or data.get("action_space") != actions:
            raise WeightsMismatchError(f"the Hellenes learned weights are for rules {data.get('rules_version')} and "
                                       f"{data.get('action_space')}, not {rules} and {actions}: refit them "
                                       "(python -m muster.games.hellenes.train)")
        weights = tuple(float(w) for w in data["weights"])
        if len(weights) != len(INPUTS) or not all(math.isfinite(w) for w in weights):
            raise WeightsMismatchError("the Hellenes learned weights file is damaged: one finite weight per input")
        return cls(weights, dict(data.get("meta", {})))

    def to_json(self, rules: str | None = None, actions: str | None = None) -> dict[str, Any]:
        """The weights file's content for these versions (default: this build's)."""
        if rules is None or actions is None:
            rules, actions = versions()
        return {"format": FORMAT, "rules_version": rules, "action_space": actions, "inputs": list(INPUTS),
                "weights": [round(w, 6) for w in self.weights], "meta": self.meta}

    def logit(self, x: list[float]) -> float:
        """The log-odds that Sparta wins, from the input vector ``x`` of a position (:data:`INPUTS`)."""
        return sum(w * v for w, v in zip(self.weights, x, strict=True))

    def chance(self, x: list[float]) -> float:
        """The chance that Sparta wins, from the input vector ``x`` of a position."""
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, self.logit(x)))))

    def points(self, x: list[float], seat: str) -> float:
        """The chance that ``seat`` wins, as evaluation points (:data:`POINTS_PER_LOGIT` a logit)."""
        z = self.logit(x)
        return POINTS_PER_LOGIT * (z if seat == "sparta" else -z)


@cache
def shipped() -> LearnedValue:
    """The weights shipped with this build (:class:`WeightsMismatchError` when there are none for its versions)."""
    name = weights_name()
    path = resources.files("muster.games.hellenes") / "data" / name
    if not path.is_file():
        raise WeightsMismatchError(f"no Hellenes learned weights for this build ({name}): fit them "
                                   "(python -m muster.games.hellenes.train)")
    return LearnedValue.from_json(json.loads(path.read_text(encoding="utf-8")))
