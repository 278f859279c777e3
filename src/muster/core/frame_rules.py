"""The :class:`~muster.core.interface.Rules` methods every game on the frame machine answers the same way.

A game whose state is a :class:`~muster.core.frames.MachineState` driven by a
:class:`~muster.core.frames.FrameMachine` derives its rules class from :class:`FrameRules`, names its
machine and state class, and writes only what is its own: setup, views, the log, determinizing, hidden
facts, and the learning surface.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from muster.core.frames import FrameMachine, MachineState
from muster.core.interface import Action, CorruptStateError, IllegalActionError, Outcome
from muster.core.spaces import NumberedActions


class SavedState(Protocol):
    """What :class:`FrameRules` needs of a game's state class besides :class:`MachineState`."""

    def clone(self) -> Any:
        """An independent copy."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        ...


class StateClass(Protocol):
    """A game's state class: it rebuilds a state from its JSON form."""

    def from_json(self, data: Any) -> Any:
        """Rebuild a state; raises CorruptStateError when the data is not a valid state."""
        ...


class FrameRules(NumberedActions):
    """The game-independent half of a rules class for games on :mod:`muster.core.frames`.

    Subclasses set :attr:`machine` and :attr:`state_class` (and the rest of
    :class:`~muster.core.interface.Rules`)."""

    machine: ClassVar[FrameMachine[Any, Any]]
    """The game's frame machine."""
    state_class: ClassVar[StateClass]
    """The game's state class (a :class:`MachineState` with ``clone``, ``to_json`` and ``from_json``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        machine = cls.__dict__.get("machine")
        if machine is not None:
            # The playout fast path is called once per decision of every simulated game: the rules' own
            # methods are the machine's, bound once, so a call costs no extra Python frame (the machine is
            # compiled with the rules; this class is not).
            cls.legal_count = staticmethod(machine.legal_count)  # type: ignore[method-assign]
            cls.apply_nth = staticmethod(machine.apply_nth)  # type: ignore[method-assign]

    def legal_count(self, state: MachineState[Any]) -> int:
        """How many legal actions there are now (0: the game is over).

        With :meth:`apply_nth`, the fast path for playouts (random games, a bot's simulations): one call per
        decision, no legal list copied. ``legal_actions(state)[i]`` is the action :meth:`apply_nth` applies
        for ``i``, so a player choosing an index from ``range(legal_count(state))`` plays the same game as one
        choosing from the list."""
        return self.machine.legal_count(state)

    def apply_nth(self, state: MachineState[Any], index: int) -> int:
        """Apply ``legal_actions(state)[index]`` in place and return the next :meth:`legal_count` (0: the game
        is over). An index out of range raises IllegalActionError, state untouched."""
        return self.machine.apply_nth(state, index)

    def active_seat(self, state: MachineState[Any]) -> str | None:
        """Whose decision it is (None: the game is over)."""
        return self.machine.active_seat(state)

    def legal_actions(self, state: MachineState[Any]) -> list[Action]:
        """The legal actions now (a fresh list the caller may keep)."""
        return list(self.machine.legal_actions(state))

    def apply(self, state: MachineState[Any], action: Action) -> None:
        """Apply a legal action in place (illegal: IllegalActionError, state untouched)."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an Action: {action!r}")
        self.machine.apply_action(state, action)

    def label(self, state: MachineState[Any], action: Action) -> str:
        """A human-readable label."""
        return self.machine.label(state, action)

    def prompt(self, state: MachineState[Any]) -> str:
        """What is being decided."""
        return self.machine.prompt(state)

    def outcome(self, state: MachineState[Any]) -> Outcome | None:
        """How the game ended."""
        r = state.result
        return Outcome(r["winner"], r["reason"], r["detail"]) if r else None

    def clone(self, state: SavedState) -> Any:
        """An independent copy."""
        return state.clone()

    def to_json(self, state: SavedState) -> dict[str, Any]:
        """The full state."""
        return state.to_json()

    def from_json(self, data: Any) -> Any:
        """Rebuild a state (CorruptStateError if invalid, including a decision stack the rules cannot read)."""
        s = self.state_class.from_json(data)
        try:
            acts = self.machine.legal_actions(s)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise CorruptStateError(f"state's decision stack is broken: {exc!r}") from exc
        if s.result is None and not acts:
            raise CorruptStateError("state has no decision to make")
        return s

    def undo_start(self, state: MachineState[Any]) -> int | None:
        """Where the current turn began, if undo is allowed (no dice rolled, no cards drawn since)."""
        if state.tainted or state.result is not None or state.turn_seat != self.machine.active_seat(state):
            return None
        return state.turn_start

    def action_count(self, state: MachineState[Any]) -> int:
        """Actions applied so far."""
        return state.step
