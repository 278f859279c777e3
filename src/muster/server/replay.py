"""Stepping through a game: any step is rebuilt from a snapshot at most :data:`SNAPSHOT_EVERY` actions back.

A replay used to rebuild the game from its setup whenever a client stepped backwards, so clients
alternating the first and the last step made every request a full rebuild (docs/security.md, point 9).
Now each game keeps a snapshot of its position every :data:`SNAPSHOT_EVERY` actions (built once, as far
as anyone has asked), finished frames are kept ready as JSON, and one thread at a time builds frames.
With the per-client rate limit of :class:`muster.server.guard.Guard`, replays cannot crowd out play.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from muster.core import Action, Game
from muster.error_texts import refusal
from muster.server.games import adapter
from muster.server.hub import ApiError, LiveGame
from muster.server.views import outcome_in, phase_of, wire_log

SNAPSHOT_EVERY = 32
"""Actions between two snapshots: a frame costs at most this many actions to rebuild."""


class _Snapshots:
    """One game's positions after 0, K, 2K, … actions, for the action list they were built from."""

    def __init__(self) -> None:
        self.actions: list[Action] = []
        self.states: list[Any] = []

    def keep_prefix(self, actions: list[Action]) -> None:
        """Drop the snapshots an undo has invalidated (those past where ``actions`` differs)."""
        same = 0
        limit = min(len(self.actions), len(actions))
        if self.actions[:limit] == actions[:limit]:
            same = limit
        else:
            while same < limit and self.actions[same] == actions[same]:
                same += 1
        del self.states[same // SNAPSHOT_EVERY + 1:]
        self.actions = self.actions[:same]


class Replays:
    """Snapshots of up to ``keep`` games (least recently used dropped; about 300 KB for a whole game) and the
    last ``frames`` frames asked for, ready as JSON (about 40 KB each)."""

    def __init__(self, keep: int = 32, frames: int = 128) -> None:
        self._games: OrderedDict[str, _Snapshots] = OrderedDict()
        self._frames: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._keep, self._keep_frames = keep, frames
        self._lock = threading.Lock()

    def _game_at(self, live: LiveGame, actions: list[Action], step: int) -> Game:
        rules = live.game.rules
        with self._lock:
            snaps = self._games.pop(live.id, None) or _Snapshots()
            self._games[live.id] = snaps
            while len(self._games) > self._keep:
                self._games.popitem(last=False)
            snaps.keep_prefix(actions)
            if not snaps.states:
                snaps.states.append(rules.setup(live.game.seed, live.game.options))
            base = min(step // SNAPSHOT_EVERY, len(snaps.states) - 1)
            state = rules.clone(snaps.states[base])
        at = base * SNAPSHOT_EVERY
        new: list[tuple[int, Any]] = []
        for act in actions[at:step]:
            rules.apply(state, act)
            at += 1
            if at % SNAPSHOT_EVERY == 0:
                new.append((at // SNAPSHOT_EVERY, rules.clone(state)))
        with self._lock:
            if snaps.actions[:len(actions)] != actions[:len(snaps.actions)]:
                return Game.at_position(rules, live.game.seed, live.game.options, state, actions[:step])
            if len(snaps.actions) < len(actions):
                snaps.actions = list(actions)
            for index, snapshot in new:
                if index == len(snaps.states):
                    snaps.states.append(snapshot)
        return Game.at_position(rules, live.game.seed, live.game.options, state, actions[:step])

    def frame(self, live: LiveGame, actions: list[Action], step: int, seat: str | None,
              lang: str = "en") -> dict[str, Any]:
        """The position after ``step`` actions as ``seat`` saw it, with the action that led there, in ``lang``."""
        if not 0 <= step <= len(actions):
            raise ApiError(400, "malformed", refusal("step must be between 0 and {n}", n=len(actions)))
        game = self._game_at(live, actions, step)
        view = game.view(seat)
        view.pop("log", None)
        lines = wire_log(game, lang)
        last = actions[step - 1].to_json() if step > 0 else None
        if last is not None and live.game.outcome is None:  # while the game runs, hidden choices stay hidden
            last = adapter(game.rules.info.name).public_action(actions[step - 1])
        return {"game": game.rules.info.name, "step": step, "total": len(actions), "seat": seat, "view": view,
                "log": lines,
                "active_seat": game.active_seat, "phase": phase_of(view, game.rules.info.name, lang),
                "round": view.get("round"), "last_action": last,
                "outcome": outcome_in(game, lang)}

    def frame_json(self, live: LiveGame, version: int, actions: list[Action], step: int,
                   seat: str | None, lang: str = "en") -> bytes:
        """:meth:`frame` as JSON bytes, kept ready for the next asker of the same game version, step and seat."""
        key = (live.id, version, len(actions), step, seat, lang)
        with self._lock:
            ready = self._frames.get(key)
            if ready is not None:
                self._frames.move_to_end(key)
                return ready
        body = json.dumps(self.frame(live, actions, step, seat, lang), ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8")
        with self._lock:
            self._frames[key] = body
            while len(self._frames) > self._keep_frames:
                self._frames.popitem(last=False)
        return body
