"""The one small interface through which servers, terminals, bots and simulations talk to games.

It follows the shape of Rally the Troops' rules modules (setup / view / action) and
OpenSpiel's ``State``: a game is a :class:`Rules` object whose functions take and return
plain, JSON-serialisable states. Nothing here knows about any particular game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable

JSON = Any
"""A value made of dicts, lists, strings, numbers, booleans and None."""


class Action(NamedTuple):
    """One legal choice at a decision point: a verb and an optional argument.

    Actions are small, hashable and stable across copies of a state, so bots can
    key statistics on them and clients can send them back as ``[verb, arg]``.
    """

    verb: str
    arg: str | int | None = None

    def to_json(self) -> list[JSON]:
        """Serialise as ``[verb, arg]``."""
        return [self.verb, self.arg]

    @classmethod
    def from_json(cls, value: JSON) -> Action:
        """Parse ``[verb, arg]``, ``[verb]``, ``{"verb":…, "arg":…}`` or ``"verb"``.

        Raises :class:`MalformedActionError` for anything else.
        """
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, dict) and set(value) <= {"verb", "arg"} and "verb" in value:
            value = [value["verb"], value.get("arg")]
        if isinstance(value, (list, tuple)) and 1 <= len(value) <= 2:
            verb = value[0]
            arg = value[1] if len(value) == 2 else None
            if isinstance(verb, str) and (arg is None or isinstance(arg, (str, int))) and not isinstance(arg, bool):
                return cls(verb, arg)
        raise MalformedActionError(f"not an action: {value!r}")


class GameError(Exception):
    """Base class of every error a game raises for bad input."""


class MalformedActionError(GameError):
    """The value sent is not shaped like an action at all."""


class IllegalActionError(GameError):
    """The action is well formed but not legal in the current state (or not for this seat)."""


class CorruptStateError(GameError):
    """A saved state or record could not be loaded: wrong shape, unknown game, or failed checks."""


class UndoError(GameError):
    """Undo is not allowed here (nothing to undo, or dice/cards were revealed since the turn began)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: str | None
    """The winning seat, or None for a draw."""
    reason: str
    """A short machine-readable cause, e.g. ``"fort"`` or ``"survival"``."""
    detail: str = ""
    """The same in words."""

    def to_json(self) -> dict[str, JSON]:
        """Serialise as a dict."""
        return {"winner": self.winner, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game: its name, seats and the options it accepts."""

    name: str
    title: str
    seats: tuple[str, ...]
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)
    version: str = "1"
    """The rules' version. It changes whenever a change of code or data could make a recorded action
    list replay differently, so a stored game is only ever rebuilt by the rules that recorded it."""


@runtime_checkable
class Rules(Protocol):
    """What every game module provides. States are opaque to callers; treat them as values.

    All functions are pure and deterministic: the random generator lives in the state.
    ``apply`` mutates the state it is given (for speed); copy it first with ``clone``
    when the old state must survive. :class:`muster.core.game.Game` does that for you.
    """

    info: GameInfo

    def setup(self, seed: int, options: dict[str, str] | None = None) -> Any:
        """Return the initial state for a seed and options (e.g. ``{"ruleset": "1st"}``)."""
        ...

    def active_seat(self, state: Any) -> str | None:
        """The seat whose decision it is, or None when the game is over."""
        ...

    def legal_actions(self, state: Any) -> list[Action]:
        """Every legal action for the active seat; never empty unless the game is over."""
        ...

    def apply(self, state: Any, action: Action) -> None:
        """Apply a legal action in place. Raises IllegalActionError (state untouched) otherwise."""
        ...

    def label(self, state: Any, action: Action) -> str:
        """A short human-readable description of a legal action."""
        ...

    def prompt(self, state: Any) -> str:
        """What is being decided now, in words."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def view(self, state: Any, seat: str | None) -> dict[str, JSON]:
        """What ``seat`` may know (None: a spectator). Never contains hidden information."""
        ...

    def log(self, state: Any, lang: str | None = None) -> list[str]:
        """The game so far in words of ``lang`` (None: English; public: nothing hidden is logged)."""
        ...

    def clone(self, state: Any) -> Any:
        """An independent copy, cheap enough for tree search."""
        ...

    def to_json(self, state: Any) -> dict[str, JSON]:
        """The complete state, JSON-serialisable."""
        ...

    def from_json(self, data: JSON) -> Any:
        """Rebuild a state from ``to_json`` output; raises CorruptStateError if it is not valid."""
        ...

    def undo_start(self, state: Any) -> int | None:
        """The action count at which the current turn began, if undo back to it is allowed."""
        ...

    def private_info(self, state: Any) -> dict[str, frozenset[Any]]:
        """Per seat, the hidden facts only that seat knows (e.g. the cards in its hand).

        When an action takes a fact out of a seat's set (a card played from the hand, so every seat now
        knows it), undo can no longer go back before that action: undoing would leave the other seats
        knowing something the rules hide from them (see docs/rules-decisions.md, "Undo")."""
        ...

    def action_count(self, state: Any) -> int:
        """How many actions have been applied since setup."""
        ...

    def determinize(self, view: dict[str, JSON], seat: str, seed: int) -> Any:
        """A full state consistent with ``view`` (as returned for ``seat``); the hidden parts
        (opponent's hand, deck order, random generator) drawn at random using ``seed``."""
        ...
