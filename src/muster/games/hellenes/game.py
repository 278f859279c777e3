"""Hellenes behind the game-agnostic :class:`muster.core.Rules` interface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from muster.core.frame_rules import FrameRules
from muster.core.interface import GameInfo
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

if TYPE_CHECKING:  # an observation's type only: numpy is loaded where one is made
    import numpy as np

check_events()

RULES_REVISION = 5
"""Bump it when a change to the rules code alters how a recorded action list replays."""


def rules_version() -> str:
    """This build's rules version: the code revision and each data file's version."""
    return (f"r{RULES_REVISION}-map{map_file().version}-blocks{blocks_file().version}"
            f"-cards{cards_file().version}-scenario{scenario().version}-design{design()['version']}")


class HellenesRules(FrameRules):
    """Hellenes: Campaigns of the Peloponnesian War: seats ``athens`` and ``sparta``.

    Options: ``years`` (``"3"`` by default, ``"2"`` or ``"1"``); ``quiet`` (``"1"`` skips the log).
    """

    machine = engine.MACHINE
    state_class = State

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

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """What a seat may see."""
        if seat is not None and seat not in SEATS:
            raise ValueError(f"unknown seat {seat!r}")
        # the Rules interface hands views on as JSON data, which mypy does not see a TypedDict as
        return cast(dict[str, Any], view(state, seat))

    def log(self, state: State, lang: str | None = None) -> list[str]:
        """The game so far, in words of ``lang`` (English by default; an older game's English lines as they are)."""
        return log_lines(state.log, lang or "en")

    def log_entries(self, state: State, start: int = 0) -> list[Any]:
        """The log's message entries from the ``start``-th on (what :meth:`log` renders), for front ends
        that classify lines by message id and read their arguments."""
        return state.log[start:]

    def log_from(self, state: State, start: int, lang: str | None = None) -> list[str]:
        """The log's lines from the ``start``-th on (a server pushing new lines renders only those)."""
        return log_lines(state.log[start:], lang or "en")

    def private_info(self, state: State) -> dict[str, frozenset[Any]]:
        """Per seat, what only it knows: the cards in its hand and which of its blocks on the map stand
        unrevealed (identity and strength). A card played or a block revealed in battle leaves the set, so
        undo cannot go back before the action that showed it to the opponent."""
        info: dict[str, set[Any]] = {seat: {("card", c) for c in state.hands[seat]} for seat in SEATS}
        sides = {bid: data.side for bid, data in blocks().items()}
        for bid, unit in state.units.items():
            if unit.area is not None and not unit.known:
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

    def render_svg(self, state: State) -> str:
        """The map with every block shown: what notebooks show for a ``Game``
        (:func:`muster.games.hellenes.svg.render_state`)."""
        from muster.games.hellenes.svg import render_state

        return render_state(state)
