"""The Hellenes rules state machine: a stack of frames, each naming a prompt and its legal actions.

The same pattern as Freedom!'s engine: the top frame is either an *automatic* step (``AUTO``), run at
once, or a *decision* (``DECISIONS``) listing one seat's legal actions. Every decision point has a
short finite list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

from muster.core.interface import Action, IllegalActionError
from muster.games.hellenes.datafiles import game_map
from muster.games.hellenes.state import Frame, State

AutoStep = Callable[[State, Frame], None]
AUTO: Final[dict[str, AutoStep]] = {}
DECISIONS: Final[dict[str, Decision]] = {}


def auto(kind: str) -> Callable[[AutoStep], AutoStep]:
    """Register an automatic step run when a frame of this kind reaches the top of the stack."""

    def register(fn: AutoStep) -> AutoStep:
        AUTO[kind] = fn
        return fn

    return register


def push(s: State, *frames: Frame) -> None:
    """Push frames so that the first one given runs first."""
    s.stack.extend(reversed(frames))


def frame(kind: str, **fields: Any) -> Frame:
    """A new frame."""
    return {"kind": kind, **fields}


_ACTIONS: Final[dict[tuple[str, Any], Action]] = {}


def act(verb: str, arg: Any = None) -> Action:
    """The shared Action object for (verb, arg): the hot legal lists reuse them instead of building new ones
    (Actions are immutable tuples, so sharing is safe; the table is bounded by the action space)."""
    key = (verb, arg)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = Action(verb, arg)
    return found


class Decision:
    """A prompt for one seat. Subclasses implement ``legal`` and ``apply`` (and usually ``prompt``)."""

    kind: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            DECISIONS[cls.kind] = cls()

    def seat(self, s: State, f: Frame) -> str:
        """The seat deciding."""
        return str(f["seat"])

    def prompt(self, s: State, f: Frame) -> str:
        """What is being decided, in words."""
        return f["kind"].replace("_", " ")

    def legal(self, s: State, f: Frame) -> list[Action]:
        """The legal actions (empty: the frame lapses)."""
        raise NotImplementedError

    def apply(self, s: State, f: Frame, a: Action) -> None:
        """Apply a legal action. ``f`` is ``s.stack[-1]``; pop it when the decision is complete."""
        raise NotImplementedError

    def label(self, s: State, f: Frame, a: Action) -> str:
        """A human-readable label for a legal action."""
        return default_label(s, a)


def default_label(s: State, a: Action) -> str:
    """Label an action from its verb and argument, naming areas and blocks in words."""
    from muster.games.hellenes.datafiles import blocks

    g = game_map()
    verb = a.verb.replace("_", " ")
    if isinstance(a.arg, str) and a.arg in g.names:
        return f"{verb} {g.names[a.arg]}"
    if isinstance(a.arg, str) and a.arg in blocks():
        b, u = blocks()[a.arg], s.units[a.arg]
        return f"{verb} {b.name} {b.letter}{b.fire} ({u['cv']}/{b.max_cv})"
    if a.arg is None:
        return verb
    return f"{verb} {a.arg}"


def advance(s: State) -> None:
    """Run automatic steps until a decision with at least one legal action is on top (or the game ends)."""
    while s.result is None and s.stack:
        f = s.stack[-1]
        step = AUTO.get(f["kind"])
        if step is not None:
            s.stack.pop()
            step(s, f)
            continue
        acts = DECISIONS[f["kind"]].legal(s, f)
        if acts:
            s._legal = (s.step, acts)
            return
        s.stack.pop()
    if s.result is not None:
        s.stack.clear()


def legal_actions(s: State) -> list[Action]:
    """The legal actions at the top decision (cached per step)."""
    if s.result is not None or not s.stack:
        return []
    cached = s._legal
    if cached is not None and cached[0] == s.step:
        return cached[1]
    f = s.stack[-1]
    acts = DECISIONS[f["kind"]].legal(s, f)
    s._legal = (s.step, acts)
    return acts


def active_seat(s: State) -> str | None:
    """Whose decision it is."""
    if s.result is not None or not s.stack:
        return None
    f = s.stack[-1]
    return DECISIONS[f["kind"]].seat(s, f)


def apply_action(s: State, a: Action) -> None:
    """Validate and apply an action in place. Illegal actions raise before anything changes."""
    if a not in legal_actions(s):
        raise IllegalActionError(f"illegal action {list(a)}")
    seat = active_seat(s)
    if seat != s.turn_seat:
        s.turn_seat, s.turn_start, s.tainted = seat, s.step, False
    f = s.stack[-1]
    DECISIONS[f["kind"]].apply(s, f, a)
    s.step += 1
    s._legal = None
    advance(s)


def prompt(s: State) -> str:
    """The current prompt in words."""
    if s.result is not None or not s.stack:
        return "The game is over."
    f = s.stack[-1]
    return DECISIONS[f["kind"]].prompt(s, f)


def label(s: State, a: Action) -> str:
    """The label of an action at the current decision."""
    if not s.stack or s.result is not None:
        return default_label(s, a)
    f = s.stack[-1]
    return DECISIONS[f["kind"]].label(s, f, a)
