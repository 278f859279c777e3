"""Fixed numberings of actions and fixed-size observations, for learning agents and search libraries.

Reinforcement-learning tools (PettingZoo, Gymnasium, OpenSpiel) want every action as an integer
in ``range(n)`` that means the same thing in every state and every release of the same rules,
and every observation as a tensor of one shape. A game offers that through
:class:`LearningRules`, a :class:`~muster.core.interface.Rules` with an :class:`ActionSpace` and an
observation builder. Games that do not (yet) provide them still work everywhere else.
"""

from __future__ import annotations

import hashlib
import json
import operator
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from muster.core.interface import Action, IllegalActionError, Rules

if TYPE_CHECKING:  # numpy is imported where a tensor is made: loading a game to play it does not need it
    import numpy as np


class ActionSpace:
    """Every action a game can ever offer, each with a fixed index.

    The list is built from the game's data (its spaces, cards, verbs), never from games played,
    so no legal action is ever missing. ``version`` names the numbering: it changes whenever an
    index would mean something else, so a network trained on one numbering is never silently fed
    another. ``fingerprint`` is a hash of the list itself, for checking.
    """

    def __init__(self, game: str, version: int, actions: Iterable[Action]) -> None:
        self.game = game
        self.actions: tuple[Action, ...] = tuple(actions)
        self._index: dict[Action, int] = {}
        for i, a in enumerate(self.actions):
            if a in self._index:
                raise ValueError(f"action {list(a)} is listed twice in the {game} action space")
            self._index[a] = i
        digest = hashlib.sha256(json.dumps([a.to_json() for a in self.actions]).encode()).hexdigest()
        self.fingerprint = digest[:12]
        """The first 12 hex digits of the SHA-256 of the action list as JSON."""
        self.version = f"{game}-actions-{version}-{self.fingerprint}"
        """A name for this numbering: the game, the numbering's revision and the fingerprint."""

    def __len__(self) -> int:
        return len(self.actions)

    def __contains__(self, action: object) -> bool:
        return action in self._index

    def __repr__(self) -> str:
        return f"<ActionSpace {self.version}: {len(self.actions)} actions>"

    @property
    def size(self) -> int:
        """How many actions there are (the indexes are ``0 … size - 1``)."""
        return len(self.actions)

    def index(self, action: Action) -> int:
        """The fixed index of an action. Raises :class:`IllegalActionError` for one the game never offers."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise IllegalActionError(f"{action!r} is not in the {self.version} action space") from None

    def action(self, index: int) -> Action:
        """The action with this index. Raises :class:`IllegalActionError` when out of range."""
        try:  # any integer type (numpy's too, as learning libraries hand them over), never a bool
            number = -1 if isinstance(index, bool) else operator.index(index)
        except TypeError:
            number = -1
        if not 0 <= number < len(self.actions):
            raise IllegalActionError(f"action index {index!r} is outside 0…{len(self.actions) - 1}")
        return self.actions[number]

    def indices(self, legal: Sequence[Action]) -> list[int]:
        """The indexes of a list of actions, in the same order."""
        return [self.index(a) for a in legal]

    def mask(self, legal: Sequence[Action]) -> np.ndarray:
        """A 0/1 ``int8`` vector of length ``size``: 1 where the action is legal."""
        import numpy as np

        out = np.zeros(len(self.actions), dtype=np.int8)
        out[self.indices(legal)] = 1
        return out


class NumberedActions:
    """The action numbering half of :class:`LearningRules` for a game with a fixed :class:`ActionSpace`
    (a game's rules class inherits it and sets ``action_space``)."""

    action_space: ActionSpace

    def action_index(self, action: Action) -> int:
        """The fixed index of an action (IllegalActionError for one the game never offers)."""
        return self.action_space.index(action)

    def action_from_index(self, index: int) -> Action:
        """The action with a fixed index."""
        return self.action_space.action(index)


@runtime_checkable
class LearningRules(Rules, Protocol):
    """A :class:`Rules` that also numbers its actions and draws observations as tensors."""

    action_space: ActionSpace

    def action_index(self, action: Action) -> int:
        """The fixed index of ``action`` in :attr:`action_space`."""
        ...

    def action_from_index(self, index: int) -> Action:
        """The action with that index."""
        ...

    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation` (the same for every state and seat)."""
        ...

    def observation(self, state: Any, seat: str) -> np.ndarray:
        """What ``seat`` may know, as a ``float32`` tensor built only from ``view(state, seat)``."""
        ...

    def information_state(self, state: Any, seat: str) -> str:
        """What ``seat`` may know, as a string: equal for states ``seat`` cannot tell apart."""
        ...


def learning_rules(rules: Rules) -> LearningRules:
    """``rules`` as :class:`LearningRules`, or a clear error when the game provides no action space."""
    if not isinstance(rules, LearningRules):
        raise TypeError(f"game {rules.info.name!r} provides no action space or observation tensor yet")
    return rules
