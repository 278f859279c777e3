"""Bot-vs-bot games recorded position by position, to fit and test the win-probability estimate."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from muster.core import get_rules
from muster.games.freedom.bots import own_bot
from muster.games.freedom.bots.features import features, is_card_point
from muster.games.freedom.constants import IMPERIAL, INSURGENT


def play_recorded(seed: int, imperial: str = "heuristic", insurgent: str = "heuristic") -> dict[str, Any]:
    """Play one game and return its winner, its actions and, at every card point, the round and the features.

    The features are read from a determinization of the Imperial seat's view (public parts only). The
    actions let a refit recompute other features by replaying the game, without playing the bots again.
    """
    rules = get_rules("freedom")
    state = rules.setup(seed, {"quiet": "1"})
    bots = {IMPERIAL: own_bot(imperial, seed=seed * 2 + 1, rules=rules),
            INSURGENT: own_bot(insurgent, seed=seed * 2 + 2, rules=rules)}
    positions: list[dict[str, Any]] = []
    actions: list[Any] = []
    while rules.outcome(state) is None:
        seat = rules.active_seat(state)
        assert seat is not None
        legal = rules.legal_actions(state)
        view = rules.view(state, seat)
        if is_card_point(view):
            sample = rules.determinize(rules.view(state, IMPERIAL), IMPERIAL, seed)
            positions.append({"round": state.round, "step": rules.action_count(state), "x": features(sample)})
        action = legal[0] if len(legal) == 1 else bots[seat].choose(view, legal, seat)
        rules.apply(state, action)
        actions.append(action.to_json())
    outcome = rules.outcome(state)
    assert outcome is not None
    return {"seed": seed, "imperial": imperial, "insurgent": insurgent, "winner": outcome.winner,
            "reason": outcome.reason, "round": state.round, "rules_version": rules.info.version,
            "positions": positions, "actions": actions}


def load_games(path: Path) -> Iterator[dict[str, Any]]:
    """The recorded games of a JSON-lines file."""
    with path.open() as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def replay_positions(game: dict[str, Any]) -> list[dict[str, Any]]:
    """Recompute a recorded game's positions with this build's features by replaying its actions."""
    from muster.core.interface import Action

    rules = get_rules("freedom")
    state = rules.setup(int(game["seed"]), {"quiet": "1"})
    positions: list[dict[str, Any]] = []
    for raw in game["actions"]:
        seat = rules.active_seat(state)
        assert seat is not None
        if is_card_point(rules.view(state, seat)):
            sample = rules.determinize(rules.view(state, IMPERIAL), IMPERIAL, int(game["seed"]))
            positions.append({"round": state.round, "step": rules.action_count(state), "x": features(sample)})
        rules.apply(state, Action.from_json(raw))
    return positions
