"""A PettingZoo AEC environment for any muster game with an action space (``pip install 'muster[rl]'``).

>>> from muster.rl.pettingzoo import env
>>> e = env()  # the default game; env(game=name) for any other
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> int(obs["action_mask"].sum()) > 0
True

Agents are the game's seats. Each observation is a dict: ``observation`` (the seat's observation
vector, built only from what the seat may know) and ``action_mask`` (``int8``, 1 for the legal
actions; all 0 for an agent that is not to act). Rewards come at the end of the game: +1 to the
winner, −1 to the loser, 0 each for a draw.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from muster.core import get_rules
from muster.core.quiet import quiet_options
from muster.core.registry import default_game
from muster.core.spaces import learning_rules

OBSERVATION_BOUND = 255.0
"""Every entry of an observation vector lies in [-OBSERVATION_BOUND, OBSERVATION_BOUND] (counts and track
values; a track can dip below 0)."""


class MusterAECEnv(AECEnv):
    """A muster game as a PettingZoo AEC environment (turns alternate as the rules say, not strictly)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "muster_v0", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, game: str | None = None, options: dict[str, str] | None = None,
                 render_mode: str | None = None, max_steps: int | None = None) -> None:
        super().__init__()
        game = game or default_game()
        self.rules = learning_rules(get_rules(game))
        self.game = game
        self.options = {**quiet_options(self.rules), **(options or {})}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": f"muster_{game}_v0"}  # type: ignore[misc]
        self.possible_agents = list(self.rules.info.seats)
        n = self.rules.action_space.size
        obs = spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND, self.rules.observation_shape(), np.float32)
        self.observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": spaces.Box(0, 1, (n,), np.int8)})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state: Any = None
        self.seed_used: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of an agent (a Dict of ``observation`` and ``action_mask``)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(n)`` over the game's action space."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes the deal and the dice (None: a fresh random seed)."""
        self.seed_used = random.SystemRandom().randrange(2**31) if seed is None else int(seed)
        for space in (*self.action_spaces.values(), *self.observation_spaces.values()):
            space.seed(self.seed_used)
        self.state = self.rules.setup(self.seed_used, self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        active = self.rules.active_seat(self.state)
        assert active is not None
        self.agent_selection = active

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation vector and action mask."""
        mask = np.zeros(self.rules.action_space.size, dtype=np.int8)
        if agent == self.rules.active_seat(self.state) and not self.truncations.get(agent, False):
            mask = self.rules.action_space.mask(self.rules.legal_actions(self.state))
        return {"observation": self.rules.observation(self.state, agent), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an index into the action space; must be legal)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must act (None is only for finished agents)")
        act = self.rules.action_from_index(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rules.apply(self.state, act)
        self.steps += 1
        outcome = self.rules.outcome(self.state)
        self.rewards = {a: 0.0 for a in self.agents}
        if outcome is not None:
            for a in self.agents:
                self.rewards[a] = 0.0 if outcome.winner is None else (1.0 if a == outcome.winner else -1.0)
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome.to_json()}
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        if outcome is None and not self.truncations[agent]:
            active = self.rules.active_seat(self.state)
            assert active is not None
            self.agent_selection = active
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The current decision in words: the prompt and the legal actions' labels."""
        if self.render_mode is None:
            return None
        if self.rules.outcome(self.state) is not None:
            return f"Game over: {self.rules.outcome(self.state)}"
        labels = [f"  [{self.rules.action_index(a)}] {self.rules.label(self.state, a)}"
                  for a in self.rules.legal_actions(self.state)]
        return "\n".join([f"{self.agent_selection}: {self.rules.prompt(self.state)}", *labels])

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str | None = None, **kwargs: Any) -> MusterAECEnv:
    """The environment of ``game`` (default: the default game) without PettingZoo's checking wrappers."""
    return MusterAECEnv(game=game, **kwargs)


def env(game: str | None = None, **kwargs: Any) -> AECEnv:
    """The environment of ``game`` (default: the default game) wrapped in PettingZoo's standard checks
    (out-of-bounds and order)."""
    e: AECEnv = raw_env(game, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
