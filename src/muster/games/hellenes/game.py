"""Hellenes behind the game-agnostic :class:`muster.core.Rules` interface."""

from __future__ import annotations

from typing import Any

import numpy as np

from muster.core.interface import Action, CorruptStateError, GameInfo, IllegalActionError, Outcome
from muster.core.spaces import NumberedActions
from muster.games.hellenes import engine
from muster.games.hellenes import rules as _rules  # noqa: F401 - registers the rule handlers
from muster.games.hellenes.action_space import action_space
from muster.games.hellenes.datafiles import blocks, blocks_file, cards_file, design, map_file, scenario
from muster.games.hellenes.observation import information_state_from_view, observation_from_view, observation_size
from muster.games.hellenes.rules.common import SEATS
from muster.games.hellenes.rules.events import check_events
from muster.games.hellenes.rules.setup import setup
from muster.games.hellenes.state import State
from muster.games.hellenes.texts import log_lines
from muster.games.hellenes.view import determinize, view

check_events()

RULES_REVISION = 4
"""Bump it when a change to the rules code alters how a recorded action list replays."""


def rules_version() -> str:
    """This build's rules version: the code revision and each data file's version."""
    return (f"r{RULES_REVISION}-map{map_file().version}-blocks{blocks_file().version}"
            f"-cards{cards_file().version}-scenario{scenario().version}-design{design()['version']}")


class HellenesRules(NumberedActions):
    """Hellenes: Campaigns of the Peloponnesian War: seats ``athens`` and ``sparta``.

    Options: ``years`` (``"3"`` by default, ``"2"`` or ``"1"``); ``quiet`` (``"1"`` skips the log).
    """

    info = GameInfo(
        name="hellenes",
        title="Hellenes: Campaigns of the Peloponnesian War",
        seats=SEATS,
        options={"scenario": ("431",), "years": ("3", "2", "1"), "quiet": ("0", "1")},
        version=rules_version(),
    )

    def setup(self, seed: int, options: dict[str, str] | None = None) -> State:
        """A new game."""
        opts = dict(options or {})
        unknown = set(opts) - set(self.info.options)
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)}")
        for key, value in opts.items():
            if value not in self.info.options[key]:
                raise ValueError(f"option {key}={value!r}: use one of {self.info.options[key]}")
        return setup(seed, int(opts.get("years", "3")), quiet=opts.get("quiet", "0") == "1")

    def active_seat(self, state: State) -> str | None:
        """Whose decision it is."""
        return engine.active_seat(state)

    def legal_actions(self, state: State) -> list[Action]:
        """The legal actions now (a fresh list the caller may keep)."""
        return list(engine.legal_actions(state))

    def apply(self, state: State, action: Action) -> None:
        """Apply a legal action in place (illegal: IllegalActionError, state untouched)."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an Action: {action!r}")
        engine.apply_action(state, action)

    def label(self, state: State, action: Action) -> str:
        """A human-readable label."""
        return engine.label(state, action)

    def prompt(self, state: State) -> str:
        """What is being decided."""
        return engine.prompt(state)

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended."""
        r = state.result
        return Outcome(r["winner"], r["reason"], r["detail"]) if r else None

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """What a seat may see."""
        if seat is not None and seat not in SEATS:
            raise ValueError(f"unknown seat {seat!r}")
        return view(state, seat)

    def log(self, state: State, lang: str | None = None) -> list[str]:
        """The game so far, in words of ``lang`` (English by default; an older game's English lines as they are)."""
        return log_lines(state.log, lang or "en")

    def log_from(self, state: State, start: int, lang: str | None = None) -> list[str]:
        """The log's lines from the ``start``-th on (a server pushing new lines renders only those)."""
        return log_lines(state.log[start:], lang or "en")

    def clone(self, state: State) -> State:
        """An independent copy."""
        return state.clone()

    def to_json(self, state: State) -> dict[str, Any]:
        """The full state."""
        return state.to_json()

    def from_json(self, data: Any) -> State:
        """Rebuild a state (CorruptStateError if invalid)."""
        s = State.from_json(data)
        try:
            acts = engine.legal_actions(s)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CorruptStateError(f"state's decision stack is broken: {exc!r}") from exc
        if s.result is None and not acts:
            raise CorruptStateError("state has no decision to make")
        return s

    def undo_start(self, state: State) -> int | None:
        """Where the current turn began, if undo is allowed (no dice rolled, no cards drawn since)."""
        if state.tainted or state.result is not None or state.turn_seat != engine.active_seat(state):
            return None
        return state.turn_start

    def action_count(self, state: State) -> int:
        """Actions applied so far."""
        return state.step

    def private_info(self, state: State) -> dict[str, frozenset[Any]]:
        """Per seat, what only it knows: the cards in its hand and which of its blocks on the map stand
        unrevealed (identity and strength). A card played or a block revealed in battle leaves the set, so
        undo cannot go back before the action that showed it to the opponent."""
        info: dict[str, set[Any]] = {seat: {("card", c) for c in state.hands[seat]} for seat in SEATS}
        sides = {bid: data.side for bid, data in blocks().items()}
        for bid, unit in state.units.items():
            if unit["area"] is not None and not unit["known"]:
                info[sides[bid]].add(("block", bid))
        return {seat: frozenset(facts) for seat, facts in info.items()}

    def determinize(self, view_data: dict[str, Any], seat: str, seed: int) -> State:
        """A full state consistent with a seat's view (hidden parts at random)."""
        return determinize(view_data, seat, seed)

    # --- for learning agents (muster.core.spaces.LearningRules) ----------------------------
    action_space = action_space()
    """Every action the rules can offer, numbered (see :mod:`muster.games.hellenes.action_space`)."""

    def observation_shape(self) -> tuple[int, ...]:
        """The observation vector's shape (see :mod:`muster.games.hellenes.observation`)."""
        return (observation_size(),)

    def observation(self, state: State, seat: str) -> np.ndarray:
        """What ``seat`` may know as a ``float32`` vector, built only from its view."""
        return observation_from_view(self.view(state, seat))

    def information_state(self, state: State, seat: str) -> str:
        """What ``seat`` may know as a string (its view as canonical JSON, without the log)."""
        return information_state_from_view(self.view(state, seat))
