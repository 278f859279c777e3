"""A learned evaluation of Freedom! and a learned model of how a side picks its cards, both without torch.

**The value.** A small network (one hidden layer beside a linear part) reads public facts of a position —
the bots' evaluation terms and the public counts of
:data:`muster.games.freedom.bots.features.FEATURES`, the round and which side is to play — and gives the
chance that the Imperial side wins. Its linear part starts as the hand-written evaluation squashed to a chance,
and training corrects it and adds the hidden layer. It was trained on the results of self-play games
(:mod:`muster.games.freedom.analysis.train`); here it runs in plain numpy. It never reads a hand or a draw pile, so in
a determinization it gives the same answer whatever hidden cards were dealt.

**The play model.** One number per card and side: how keen that side is to play the card when it holds it
(a conditional logit fitted on the Heuristic's card choices). The chance of playing card ``c`` from hand ``H``
is ``exp(θ_c) / Σ_{h∈H} exp(θ_h)``. :mod:`muster.games.freedom.bots.belief` weighs the opponent's possible hands
by how likely its plays so far were under it.

Both live in one file under ``games/freedom/data/`` whose name carries the rules version and the action space
version (:func:`weights_name`); a build whose rules or action space differ refuses to load it (it looks for
its own name, and checks the versions written inside), because a value fitted on other rules would mislead.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from muster.games.freedom.bots.evaluation import WIN_POINTS
from muster.games.freedom.bots.features import FEATURES, features
from muster.games.freedom.constants import IMPERIAL, INSURGENT
from muster.games.freedom.datafiles import design
from muster.games.freedom.state import State

FORMAT = 1
"""The weights file's format (bump when its fields or the inputs change)."""
POINTS_PER_LOGIT = 8.0
"""Evaluation points per logit of the chance: the hand-written evaluation squashed by this is where the value's
linear part starts, and :meth:`LearnedModel.points` reads a chance back as points on that scale."""
POINTS_CAP = 96.0
"""The most an unfinished position is worth in :meth:`LearnedModel.points`: less than a finished game
(:data:`muster.games.freedom.bots.evaluation.WIN_POINTS`), so a sure-looking position never outranks a won game."""
ROUNDS = int(design()["rounds"])
INPUTS: tuple[str, ...] = (*FEATURES, *(f"round_{r}" for r in range(1, ROUNDS + 1)), "imperial_to_play")
"""The network's inputs, in order: the public features, the round (one-hot) and 1 when the Imperial is to play."""


class WeightsMismatchError(ValueError):
    """The shipped weights were trained on other rules, another action space or other inputs."""


def versions() -> tuple[str, str]:
    """(rules version, action space version) of this build."""
    from muster.core import get_rules  # the registered rules: the bots sit below the game's own module
    from muster.games.freedom.action_space import action_space

    return get_rules("freedom").info.version, action_space().version


def weights_name(rules: str | None = None, actions: str | None = None) -> str:
    """The file name of the weights for these versions (default: this build's)."""
    if rules is None or actions is None:
        rules, actions = versions()
    return f"learned-{rules}-{actions}.json"


def inputs(s: State) -> list[float]:
    """The network's input vector for ``s`` (public parts only: see :data:`INPUTS`)."""
    x = features(s)
    rnd = max(1, min(ROUNDS, s.round))
    x.extend(1.0 if r == rnd else 0.0 for r in range(1, ROUNDS + 1))
    mover = _mover(s)
    x.append(1.0 if mover == IMPERIAL else 0.0)
    return x


def _mover(s: State) -> str | None:
    for f in reversed(s.stack):
        seat = f.get("seat")
        if seat in (IMPERIAL, INSURGENT):
            return str(seat)
    return None


@dataclass(frozen=True)
class LearnedModel:
    """The value network and the play model (see the module docstring)."""

    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float
    play: dict[str, dict[int, float]]
    """Per side, per card number, the play model's logit."""
    meta: dict[str, Any]
    linear: np.ndarray
    """Weights of a linear part on the standardised inputs, added to the hidden layer's logit."""

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: str | None = None, actions: str | None = None) -> LearnedModel:
        """Parse a weights file; :class:`WeightsMismatchError` if it was made for other versions or inputs."""
        if rules is None or actions is None:
            rules, actions = versions()
        if data.get("format") != FORMAT or tuple(data.get("inputs", ())) != INPUTS:
            raise WeightsMismatchError("the learned weights were made for other inputs: retrain them "
                                  "(python -m muster.games.freedom.analysis.train)")
        if data.get("rules_version") != rules or data.get("action_space") != actions:
            raise WeightsMismatchError(f"the learned weights are for rules {data.get('rules_version')} and "
                                  f"{data.get('action_space')}, not {rules} and {actions}: retrain them")
        net = data["value"]
        w1 = np.asarray(net["w1"], dtype=np.float64)
        model = cls(np.asarray(net["mean"], dtype=np.float64), np.asarray(net["std"], dtype=np.float64), w1,
                    np.asarray(net["b1"], dtype=np.float64), np.asarray(net["w2"], dtype=np.float64),
                    float(net["b2"]),
                    {side: {int(k): float(v) for k, v in logits.items()} for side, logits in data["play"].items()},
                    dict(data.get("meta", {})), np.asarray(net["linear"], dtype=np.float64))
        if w1.shape != (len(INPUTS), model.b1.shape[0]) or model.w2.shape != model.b1.shape \
                or model.linear.shape != (len(INPUTS),):
            raise WeightsMismatchError("the learned weights' shapes do not match their inputs")
        return model

    def to_json(self, rules: str, actions: str) -> dict[str, Any]:
        """The weights file's content (rounded: a few significant digits are all a small network needs)."""
        def r(a: np.ndarray) -> Any:
            return np.round(a, 6).tolist()

        return {"format": FORMAT, "rules_version": rules, "action_space": actions, "inputs": list(INPUTS),
                "value": {"mean": r(self.mean), "std": r(self.std), "w1": r(self.w1), "b1": r(self.b1),
                          "w2": r(self.w2), "b2": round(self.b2, 6), "linear": r(self.linear)},
                "play": {side: {str(k): round(v, 4) for k, v in sorted(logits.items())}
                         for side, logits in self.play.items()},
                "meta": self.meta}

    def logit_x(self, x: np.ndarray) -> np.ndarray:
        """The network's logits for a batch of raw input rows (``n × len(INPUTS)``)."""
        z = (x - self.mean) / self.std
        h = np.maximum(0.0, z @ self.w1 + self.b1)
        out: np.ndarray = h @ self.w2 + self.b2 + z @ self.linear
        return out

    def imperial_win(self, s: State) -> float:
        """The chance that the Imperial side wins from ``s`` (1, 0 or ½ once the game is over)."""
        if s.result is not None:
            winner = s.result.get("winner")
            return 1.0 if winner == IMPERIAL else 0.0 if winner == INSURGENT else 0.5
        z = float(self.logit_x(np.asarray(inputs(s), dtype=np.float64)))
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def points(self, s: State, seat: str) -> float:
        """The learned chance for ``seat`` read as evaluation points (its logit times :data:`POINTS_PER_LOGIT`,
        within ±:data:`POINTS_CAP`; a finished game ±``WIN_POINTS``, a draw 0), so that bots written in points
        (the heuristic's AP prices and card biases) can rank positions by the learned value."""
        if s.result is not None:
            winner = s.result.get("winner")
            return WIN_POINTS if winner == seat else 0.0 if winner is None else -WIN_POINTS
        z = float(self.logit_x(np.asarray(inputs(s), dtype=np.float64)))
        own = POINTS_PER_LOGIT * (z if seat == IMPERIAL else -z)
        return max(-POINTS_CAP, min(POINTS_CAP, own))

    def win(self, s: State, seat: str) -> float:
        """The chance that ``seat`` wins from ``s``."""
        p = self.imperial_win(s)
        return p if seat == IMPERIAL else 1.0 - p

    def play_logit(self, side: str, card: int) -> float:
        """The play model's keenness for ``side`` to play ``card`` (0 for a card it never saw in training)."""
        return self.play.get(side, {}).get(card, 0.0)


@lru_cache(maxsize=1)
def load() -> LearnedModel:
    """The shipped weights for this build (:class:`WeightsMismatchError` if there are none for its versions)."""
    rules, actions = versions()
    name = weights_name(rules, actions)
    path = resources.files("muster.games.freedom").joinpath("data", name)
    if not path.is_file():
        raise WeightsMismatchError(f"no learned weights for this build ({name}): the rules or the action space "
                                   "changed since they were trained; retrain them "
                                   "(python -m muster.games.freedom.analysis.train)")
    return LearnedModel.from_json(json.loads(path.read_text()), rules, actions)
