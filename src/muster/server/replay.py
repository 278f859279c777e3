"""Stepping through a game: rebuild it up to any step (cached, so stepping forward is cheap)."""

from __future__ import annotations

import threading
from typing import Any

from muster.core import Action, Game
from muster.server.hub import ApiError, LiveGame
from muster.server.views import phase_of


class Replays:
    """Keeps, per game, the last replayed position so the next step only applies one action."""

    def __init__(self, keep: int = 64) -> None:
        self._cache: dict[str, Game] = {}
        self._keep = keep
        self._lock = threading.Lock()

    def _game_at(self, live: LiveGame, actions: list[Action], step: int) -> Game:
        with self._lock:
            game = self._cache.pop(live.id, None)
        if game is None or len(game.actions) > step or game.actions != actions[:len(game.actions)]:
            game = Game(live.game.rules, live.game.seed, live.game.options)
        for act in actions[len(game.actions):step]:
            game.apply(act)
        with self._lock:
            self._cache[live.id] = game
            while len(self._cache) > self._keep:
                self._cache.pop(next(iter(self._cache)))
        return game

    def frame(self, live: LiveGame, actions: list[Action], step: int, seat: str | None) -> dict[str, Any]:
        """The position after ``step`` actions as ``seat`` saw it, with the action that led there."""
        if not 0 <= step <= len(actions):
            raise ApiError(400, "malformed", f"step must be between 0 and {len(actions)}")
        game = self._game_at(live, actions, step)
        view = game.view(seat)
        lines = view.pop("log", [])
        last = actions[step - 1].to_json() if step > 0 else None
        return {"game": game.rules.info.name, "step": step, "total": len(actions), "seat": seat, "view": view,
                "log": lines,
                "active_seat": game.active_seat, "phase": phase_of(view, game.rules.info.name),
                "round": view.get("round"), "last_action": last,
                "outcome": game.outcome.to_json() if game.outcome else None}
