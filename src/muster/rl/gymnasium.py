"""A single-agent Gymnasium environment: one seat of a muster game against a muster bot.

>>> import gymnasium
>>> from muster.core.registry import default_game
>>> from muster.rl.gymnasium import env_id  # importing it registers the environments
>>> e = gymnasium.make(env_id(default_game()), opponent="random")  # muster/<Game>-v0, the first seat
>>> obs, info = e.reset(seed=3)
>>> obs.shape == e.observation_space.shape and int(info["action_mask"].sum()) > 0
True

The agent plays ``seat``; every decision of the other seat is taken by the ``opponent`` bot (any
muster bot spec, e.g. ``random``, ``heuristic``, ``ismcts:iterations=8``), which sees only its own
view. Observations are the seat's observation vector; ``info["action_mask"]`` marks the legal
actions. The reward is +1 for a win, −1 for a loss, 0 for a draw, given when the game ends.
An action outside the mask ends the episode as a loss (−1, ``info["illegal_action"]``) by default,
so unmasked agents and Gymnasium's checker can step freely; ``illegal_action="raise"`` raises
:class:`~muster.core.IllegalActionError` instead and leaves the game unchanged.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from muster.ai import make_bot
from muster.core import game_names, get_rules
from muster.core.quiet import quiet_options
from muster.core.registry import default_game
from muster.core.spaces import learning_rules
from muster.rl.pettingzoo import OBSERVATION_BOUND


def env_id(game: str) -> str:
    """The Gymnasium id of a muster game: ``muster/<Name>-v0`` for a game named ``<name>``."""
    return f"muster/{game.capitalize()}-v0"


class MusterEnv(gymnasium.Env):
    """One seat of a muster game (``game``: default the default game; ``seat``: default its first seat); the
    opponent bot plays the other seats between the agent's turns."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(self, game: str | None = None, opponent: str = "heuristic", seat: str | None = None,
                 options: dict[str, str] | None = None, render_mode: str | None = None,
                 illegal_action: str = "lose") -> None:
        if illegal_action not in ("lose", "raise"):
            raise ValueError("illegal_action must be 'lose' or 'raise'")
        self.illegal_action = illegal_action
        self.rules = learning_rules(get_rules(game or default_game()))
        seats = self.rules.info.seats
        self.seat = seat or seats[0]
        if self.seat not in seats:
            raise ValueError(f"seat must be one of {seats}")
        self.opponent_spec = opponent
        make_bot(opponent, rules=self.rules)  # a bad spec fails now, not at the first reset
        self.options = {**quiet_options(self.rules), **(options or {})}
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND, self.rules.observation_shape(),
                                            np.float32)
        self.action_space = spaces.Discrete(self.rules.action_space.size)
        self.state: Any = None

    def _opponent_moves(self) -> None:
        while self.rules.outcome(self.state) is None and self.rules.active_seat(self.state) != self.seat:
            seat = self.rules.active_seat(self.state)
            assert seat is not None
            legal = self.rules.legal_actions(self.state)
            action = legal[0] if len(legal) == 1 else self.opponent.choose(self.rules.view(self.state, seat), legal,
                                                                            seat)
            self.rules.apply(self.state, action)

    def _info(self) -> dict[str, Any]:
        done = self.rules.outcome(self.state) is not None
        legal = [] if done else self.rules.legal_actions(self.state)
        info: dict[str, Any] = {"action_mask": self.rules.action_space.mask(legal)}
        if done:
            info["outcome"] = self.rules.outcome(self.state).to_json()  # type: ignore[union-attr]
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """A new game (``seed`` fixes the deal, the dice and the opponent's choices)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.state = self.rules.setup(game_seed, self.options)
        self.opponent = make_bot(self.opponent_spec, seed=game_seed + 1, rules=self.rules)
        self._opponent_moves()
        return self.rules.observation(self.state, self.seat), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play the agent's action (an index; must be legal), then the opponent's until the agent's turn."""
        act = self.rules.action_from_index(int(action))
        if self.illegal_action == "lose" and act not in self.rules.legal_actions(self.state):
            info = {"action_mask": np.zeros(self.rules.action_space.size, dtype=np.int8), "illegal_action": True}
            return self.rules.observation(self.state, self.seat), -1.0, True, False, info
        self.rules.apply(self.state, act)
        self._opponent_moves()
        outcome = self.rules.outcome(self.state)
        reward = 0.0
        if outcome is not None and outcome.winner is not None:
            reward = 1.0 if outcome.winner == self.seat else -1.0
        return self.rules.observation(self.state, self.seat), reward, outcome is not None, False, self._info()

    def render(self) -> str | None:
        """The current decision in words."""
        if self.render_mode != "ansi":
            return None
        labels = [f"  [{self.rules.action_index(a)}] {self.rules.label(self.state, a)}"
                  for a in self.rules.legal_actions(self.state)]
        return "\n".join([self.rules.prompt(self.state), *labels])


def register() -> None:
    """Register an id (:func:`env_id`) for every installed game with Gymnasium; safe to call twice.

    A game without an action space is registered too; making it says so clearly.
    """
    for game in game_names():
        if env_id(game) not in gymnasium.registry:
            gymnasium.register(id=env_id(game), entry_point="muster.rl.gymnasium:MusterEnv", kwargs={"game": game})


register()
