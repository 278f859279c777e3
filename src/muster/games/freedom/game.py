"""Freedom! behind the game-agnostic :class:`muster.core.Rules` interface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from muster.core.frame_rules import FrameRules
from muster.core.interface import GameInfo
from muster.games.freedom import engine
from muster.games.freedom import rules as _rules  # noqa: F401 - registers the rule handlers
from muster.games.freedom.action_space import action_space
from muster.games.freedom.board import board
from muster.games.freedom.cards import effects as _effects
from muster.games.freedom.cards import primitives as _primitives  # noqa: F401 - registers event frames
from muster.games.freedom.constants import SEATS
from muster.games.freedom.datafiles import areas_file, cards_file, design
from muster.games.freedom.observation import information_state_from_view, observation_from_view, observation_size
from muster.games.freedom.rules.setup import RULESETS, setup
from muster.games.freedom.state import State
from muster.games.freedom.view import determinize, view, views

if TYPE_CHECKING:  # an observation's type only: numpy is loaded where one is made
    import numpy as np

_effects.check_effects()

RULES_REVISION = 2
"""Bump it when a change to the rules code alters how a recorded action list replays (the data files
carry their own versions)."""


def rules_version() -> str:
    """This build's rules version: the code revision and each data file's version."""
    return (f"r{RULES_REVISION}-board{board().version}-areas{areas_file().version}"
            f"-cards{cards_file().version}-design{design()['version']}")


_LOG_WORDS: list[Any] = []
"""``[names, render_all]`` once imported: the words are imported on first use (rules without a log to read,
such as a simulation's, never load the translations), and only once (a server renders new lines at every
action; an ``import`` statement per call cost more than a remembered line)."""


def _render_log(entries: list[Any], lang: str | None) -> list[str]:
    """Log entries in words of ``lang`` (English by default)."""
    if not _LOG_WORDS:
        from muster.games.freedom.texts import names
        from muster.i18n import render_all

        _LOG_WORDS[:] = [names, render_all]
    names, render_all = _LOG_WORDS
    lines: list[str] = render_all(entries, names(lang))
    return lines


class FreedomRules(FrameRules):
    """Freedom! Messolonghi 1825–1826: seats ``imperial`` and ``insurgent``.

    Options: ``ruleset`` (``"2nd"``, the default, or ``"1st"``); ``quiet`` (``"1"`` skips the
    log, for fast simulations).
    """

    machine = engine.MACHINE
    state_class = State

    info = GameInfo(
        name="freedom",
        title="Freedom! Messolonghi 1825–1826",
        seats=SEATS,
        options={"ruleset": RULESETS, "quiet": ("0", "1")},
        version=rules_version(),
    )

    def setup(self, seed: int, options: dict[str, str] | None = None) -> State:
        """A new game."""
        opts = dict(options or {})
        unknown = set(opts) - set(self.info.options)
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)}")
        return setup(seed, opts.get("ruleset", "2nd"), quiet=opts.get("quiet", "0") == "1")

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """What a seat may see (a :class:`~muster.games.freedom.view.FreedomView`)."""
        if seat is not None and seat not in SEATS:
            raise ValueError(f"unknown seat {seat!r}")
        # the Rules interface hands views on as JSON data, which mypy does not see a TypedDict as
        return cast(dict[str, Any], view(state, seat))

    def views(self, state: State, seats: list[str | None]) -> dict[str | None, dict[str, Any]]:
        """Several seats' views at once, the state serialised once (see :func:`muster.games.freedom.view.views`)."""
        for seat in seats:
            if seat is not None and seat not in SEATS:
                raise ValueError(f"unknown seat {seat!r}")
        return cast(dict[str | None, dict[str, Any]], views(state, seats))  # as JSON data, as view() says

    def log(self, state: State, lang: str | None = None) -> list[str]:
        """The game so far, in words of ``lang`` (English by default)."""
        return _render_log(state.log, lang)

    def log_entries(self, state: State, start: int = 0) -> list[Any]:
        """The log's message entries from the ``start``-th on (what :meth:`log` renders), for front ends
        that classify lines by message id and read their arguments."""
        return state.log[start:]

    def log_from(self, state: State, start: int, lang: str | None = None) -> list[str]:
        """The log's lines from the ``start``-th on (a server pushing new lines renders only those)."""
        return _render_log(state.log[start:], lang)

    def private_info(self, state: State) -> dict[str, frozenset[Any]]:
        """Per seat, the cards in its hand (what only that seat knows)."""
        return {seat: frozenset(cards) for seat, cards in state.hands.items()}

    def determinize(self, view_data: dict[str, Any], seat: str, seed: int) -> State:
        """A full state consistent with a seat's view (hidden parts at random)."""
        return determinize(view_data, seat, seed)

    # --- for learning agents (muster.core.spaces.LearningRules) ----------------------------
    action_space = action_space()
    """Every action the rules can offer, numbered (see :mod:`muster.games.freedom.action_space`)."""

    def observation_shape(self) -> tuple[int, ...]:
        """The observation vector's shape (see :mod:`muster.games.freedom.observation`)."""
        return (observation_size(),)

    def observation(self, state: State, seat: str) -> np.ndarray:
        """What ``seat`` may know as a ``float32`` vector, built only from its view."""
        return observation_from_view(self.view(state, seat))

    def information_state(self, state: State, seat: str) -> str:
        """What ``seat`` may know as a string (its view as canonical JSON, without the log)."""
        return information_state_from_view(self.view(state, seat))

    def render_svg(self, state: State) -> str:
        """The board with the game's pieces as an SVG document (what notebooks show for a ``Game``)."""
        from muster.games.freedom.svg import render_svg

        return render_svg(state)
