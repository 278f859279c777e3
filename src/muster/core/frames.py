"""The frame machine every game's rules run on: a stack of frames, each naming a prompt and its legal actions.

Modelled on Rally the Troops' rules modules. A game's state (a :class:`MachineState`) holds a stack of
*frames*, small JSON-ready dicts whose ``kind`` names a step of the rules. The top frame is either

* an *automatic* step, registered with :meth:`FrameMachine.auto` and run at once by
  :meth:`FrameMachine.advance`, which may push further frames; or
* a *decision*, a :class:`Decision` subclass registered by its ``kind``, which lists one seat's legal
  actions and applies the one chosen.

Each game makes one :class:`FrameMachine` and one ``Decision`` base class bound to it; the machine runs
the stack, validates and applies actions, caches each decision's legal list and keeps the turn
bookkeeping undo needs. Actions are interned (:data:`ACTIONS`, :func:`act`): legal lists are rebuilt
at every decision, and looking a shared action up is cheaper than constructing one.

This module is compiled with mypyc with the games' rules (see :mod:`muster._native`), so it keeps to
what mypyc makes fast: concrete classes, no protocols on the hot path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, NotRequired, TypedDict, TypeVar

from muster.core.interface import Action, IllegalActionError

if TYPE_CHECKING:  # a type qualifier only: nothing of it is needed at run time
    from typing_extensions import ReadOnly


class Frame(TypedDict):
    """One step of the rules on the decision stack: ``{"kind": …, …}`` with the fields that step needs
    (JSON-ready, as they are saved with the state).

    This is what the machine itself reads of every frame; each game declares its own frame type listing
    every field its frames use (its ``kind`` a ``Literal`` of its frame kinds), and the machine is generic
    over it (:data:`F`). At run time a frame is a plain dict. The two fields are read-only here so that a
    game's frame type may narrow them (a game's rules still write them)."""

    kind: ReadOnly[str]
    """The step of the rules: the automatic step or decision registered for it runs the frame."""
    seat: ReadOnly[NotRequired[str]]
    """The deciding seat (every decision has one; an automatic step may not)."""


class CountedFrame(Frame):
    """A frame repeated a number of times (:func:`count_down`)."""

    left: NotRequired[int]
    """The repetitions still to do."""


F = TypeVar("F", bound=Frame)
"""A game's frame type."""
T = TypeVar("T")

GAME_OVER: Final = "The game is over."
"""The prompt once the game has ended."""


class MachineState(Generic[F]):
    """The part of a game's state the frame machine reads and writes; each game's ``State`` extends it
    (``MachineState[TheGamesFrame]``).

    A subclass sets every one of these in its ``__init__`` (through ``super().__init__()``) and in its
    ``clone``, and saves them with the rest of its state."""

    __slots__ = ("_legal", "_legal_by", "_legal_step", "result", "stack", "step", "tainted", "turn_seat", "turn_start")

    def __init__(self) -> None:
        self.stack: list[F] = []
        """The decision stack; the top (last) frame is the current step."""
        self.result: dict[str, Any] | None = None
        """How the game ended (``winner``, ``reason``, ``detail``), or None while it goes on."""
        self.step = 0
        """Actions applied since setup."""
        self.turn_seat: str | None = None
        """The seat whose run of consecutive decisions is the current turn (for undo)."""
        self.turn_start = 0
        """The action count at which the current turn began."""
        self.tainted = False
        """True once dice were rolled or cards drawn during the current turn (undo is then refused)."""
        self._legal: list[Action] | None = None
        """The legal list of the decision on top, kept with the step it was made at (``_legal_step``) and the
        decision that made it (``_legal_by``); None: nothing kept. Legal lists are never changed once made, so
        copies of the state may share them (a copy takes all three). Three fields rather than one object: nothing
        is allocated for them at a decision."""
        self._legal_step = -1
        """The step at which ``_legal`` was made."""
        self._legal_by: Decision[Any, F] | None = None
        """The decision that made ``_legal``."""


S = TypeVar("S", bound=MachineState[Any])
"""A game's state type."""
AutoStep = Callable[[S, F], None]
"""An automatic step: called with the state and its frame, already popped off the stack."""


class _Interned(dict[tuple[str, Any], Action]):
    """One shared :class:`Action` per (verb, arg), built on first use. Actions are immutable, so sharing them
    is safe; the table is bounded by the games' action spaces."""

    def __missing__(self, key: tuple[str, Any]) -> Action:
        action = self[key] = Action(*key)
        return action


ACTIONS: Final = _Interned()
"""``ACTIONS[verb, arg]`` is ``Action(verb, arg)``, built once."""


class _InternedArgs(dict[Any, Action]):
    """The shared actions of one verb by argument (``ACTIONS[verb, arg]`` without building the key tuple)."""

    def __init__(self, verb: str) -> None:
        super().__init__()
        self.verb = verb

    def __missing__(self, arg: Any) -> Action:
        action = self[arg] = ACTIONS[self.verb, arg]
        return action


class _ByVerb(dict[str, _InternedArgs]):
    def __missing__(self, verb: str) -> _InternedArgs:
        by_arg = self[verb] = _InternedArgs(verb)
        return by_arg


VERB_ACTIONS: Final = _ByVerb()
"""``VERB_ACTIONS[verb][arg]`` is ``ACTIONS[verb, arg]``: for lists of one verb with many arguments."""


def act(verb: str, arg: Any = None) -> Action:
    """The shared :class:`Action` for (verb, arg) (``ACTIONS[verb, arg]``)."""
    return ACTIONS[verb, arg]


def push(s: MachineState[F], *frames: F) -> None:
    """Push frames so that the first one given runs first."""
    stack = s.stack
    if len(frames) == 1:  # the usual case, without building a reversed iterator
        stack.append(frames[0])
        return
    for i in range(len(frames) - 1, -1, -1):
        stack.append(frames[i])


def known(value: T | None) -> T:
    """A frame field that an earlier step has set (a choice made, a result waiting) and that the step running
    now needs: the rules reach that step only once it is set, which the field's type cannot say. Unset (a broken
    saved state): TypeError, as using None would raise, which loading a state reports as a corrupt state."""
    if value is None:
        raise TypeError("a frame field is used before it was set")
    return value


def copy_frames(frames: list[F]) -> list[F]:
    """A copy of a decision stack for a state's ``clone``: each frame a new dict, and every list or dict in it
    (at any depth) new too, so that changing a copy's frames never changes the original's. The other values
    (strings, numbers, None, tuples) are immutable and shared. Frames hold plain JSON-ready data, which is all
    this copies; it runs at every clone, so it looks at each value's type once and never calls ``deepcopy``."""
    copies: list[Any] = []
    for frame in frames:
        out: dict[str, Any] = dict(frame)
        for key, value in frame.items():
            kind = type(value)
            if kind is list or kind is dict:
                out[key] = _copy_data(value)
        copies.append(out)
    return copies


def _copy_data(value: Any) -> Any:
    """A new copy of a list or dict of plain data, its nested lists and dicts copied too."""
    if type(value) is list:
        return [_copy_data(v) if type(v) is list or type(v) is dict else v for v in value]
    return {k: _copy_data(v) if type(v) is list or type(v) is dict else v for k, v in value.items()}


def count_down(s: MachineState[Any], f: CountedFrame) -> None:
    """One of the frame's ``left`` repetitions is done; the frame ends after the last."""
    f["left"] -= 1
    if f["left"] <= 0:
        s.stack.pop()


class Decision(Generic[S, F]):
    """A prompt for one seat. Subclasses set ``kind`` and implement ``legal`` and ``apply`` (and usually
    ``prompt``); defining one registers it with its game's machine.

    A game derives one base class from this with ``machine`` set to its :class:`FrameMachine`, and its
    decisions derive from that base."""

    kind: ClassVar[str] = ""
    """The frame kind this decision handles ("" for a base class, which is not registered)."""
    machine: ClassVar[FrameMachine[Any, Any]]
    """The machine the decisions of this class's game register with."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            cls.machine.register(cls.kind, cls())

    def seat(self, s: S, f: F) -> str:
        """The seat deciding."""
        return str(f["seat"])

    def prompt(self, s: S, f: F) -> str:
        """What is being decided, in words."""
        return str(f["kind"]).replace("_", " ")

    def legal(self, s: S, f: F) -> list[Action]:
        """The legal actions (empty: the frame lapses)."""
        raise NotImplementedError

    def apply(self, s: S, f: F, a: Action) -> None:
        """Apply a legal action. ``f`` is ``s.stack[-1]``; pop it when the decision is complete."""
        raise NotImplementedError

    def label(self, s: S, f: F, a: Action) -> str:
        """A human-readable label for a legal action (the game's default label unless overridden)."""
        return self.machine.default_label(s, a)


def plain_label(s: Any, a: Action) -> str:
    """An action's verb and argument in words (``"end turn"``, ``"move 3"``)."""
    verb = a.verb.replace("_", " ")
    return verb if a.arg is None else f"{verb} {a.arg}"


class FrameMachine(Generic[S, F]):
    """One game's registered automatic steps and decisions, and the loop that runs its decision stack
    (``FrameMachine[TheGamesState, TheGamesFrame]``)."""

    def __init__(self, default_label: Callable[[S, Action], str] = plain_label) -> None:
        self.auto_steps: dict[str, AutoStep[S, F]] = {}
        """Frame kind → automatic step."""
        self.decisions: dict[str, Decision[S, F]] = {}
        """Frame kind → decision (one instance per kind)."""
        self.default_label = default_label
        """How an action is labelled when its decision does not say (and when no decision is open)."""
        self._kinds: dict[str, Decision[S, F] | AutoStep[S, F]] = {}
        """Frame kind → its decision or automatic step: the one lookup :meth:`advance` makes a frame."""

    def auto(self, kind: str) -> Callable[[AutoStep[S, F]], AutoStep[S, F]]:
        """Register an automatic step run when a frame of this kind reaches the top of the stack."""

        def register(fn: AutoStep[S, F]) -> AutoStep[S, F]:
            self.auto_steps[kind] = self._kinds[kind] = fn
            return fn

        return register

    def register(self, kind: str, decision: Decision[S, F]) -> None:
        """Register the decision that handles frames of this kind (done by defining a :class:`Decision`)."""
        self.decisions[kind] = self._kinds[kind] = decision

    def advance(self, s: S) -> None:
        """Run automatic steps until a decision with at least one legal action is on top (or the game ends)."""
        stack = s.stack
        kinds = self._kinds
        while s.result is None and stack:
            f = stack[-1]
            handler = kinds[f["kind"]]
            if not isinstance(handler, Decision):
                stack.pop()
                handler(s, f)
                continue
            acts = handler.legal(s, f)
            if acts:
                s._legal, s._legal_step, s._legal_by = acts, s.step, handler
                return
            stack.pop()  # nothing can be chosen: the decision lapses (e.g. no unit left to remove)
        if s.result is not None:
            stack.clear()

    def legal_actions(self, s: S) -> list[Action]:
        """The legal actions at the top decision (cached per step; the list is shared: do not change it)."""
        if s.result is not None or not s.stack:
            return []
        acts = s._legal
        if acts is not None and s._legal_step == s.step:
            return acts
        return self._list(s)

    def _list(self, s: S) -> list[Action]:
        """List the legal actions of the decision on top and keep them (the game is not over)."""
        f = s.stack[-1]
        decision = self.decisions[f["kind"]]
        acts = s._legal = decision.legal(s, f)
        s._legal_step, s._legal_by = s.step, decision
        return acts

    def active_seat(self, s: S) -> str | None:
        """Whose decision it is (None: the game is over)."""
        if s.result is not None or not s.stack:
            return None
        f = s.stack[-1]
        return self.decisions[f["kind"]].seat(s, f)

    def apply_action(self, s: S, a: Action) -> None:
        """Validate and apply an action in place, then run the automatic steps that follow.

        An illegal action raises :class:`IllegalActionError` before anything changes. A change of the
        deciding seat starts a new turn (undo goes back at most to its start)."""
        acts = self.legal_actions(s)
        for known in acts:  # by identity first: the actions offered are usually shared objects (ACTIONS)
            if known is a:
                break
        else:
            if a not in acts:
                raise IllegalActionError(f"illegal action {list(a)}")
        decision = s._legal_by
        assert decision is not None  # kept with the list just found
        self._apply_legal(s, a, decision)

    def legal_count(self, s: S) -> int:
        """How many legal actions there are now (0: the game is over); the playout fast path's first half."""
        return len(self.legal_actions(s))

    def apply_nth(self, s: S, index: int) -> int:
        """Apply the legal action at ``index`` of :meth:`legal_actions` (``0 <= index < legal_count``) and
        return the next decision's :meth:`legal_count`.

        The same as ``apply_action(s, legal_actions(s)[index])``, without looking the action up again in the
        list it came from: a playout (a random game, a bot's simulation) then costs one call per decision
        and never copies a legal list. An index out of range raises :class:`IllegalActionError`."""
        acts = s._legal  # the usual case (the list advance() kept) without a call
        if acts is None or s._legal_step != s.step:
            acts = self.legal_actions(s)
        if index < 0 or index >= len(acts):
            raise IllegalActionError(f"no legal action number {index} (there are {len(acts)})")
        decision = s._legal_by
        assert decision is not None  # kept with the list
        self._apply_legal(s, acts[index], decision)
        # advance() has just kept the next decision's list (never empty); nothing kept: the game is over
        acts = s._legal
        return len(acts) if acts is not None else len(self.legal_actions(s))

    def _apply_legal(self, s: S, a: Action, decision: Decision[S, F]) -> None:
        """Apply an action known to be legal at ``decision`` (the one on top), then run the automatic steps that
        follow."""
        f = s.stack[-1]
        seat = decision.seat(s, f)
        if seat != s.turn_seat:
            s.turn_seat, s.turn_start, s.tainted = seat, s.step, False
        decision.apply(s, f, a)
        s.step += 1
        s._legal = None
        self.advance(s)

    def prompt(self, s: S) -> str:
        """The current prompt in words."""
        if s.result is not None or not s.stack:
            return GAME_OVER
        f = s.stack[-1]
        return self.decisions[f["kind"]].prompt(s, f)

    def label(self, s: S, a: Action) -> str:
        """The label of an action at the current decision."""
        if s.result is not None or not s.stack:
            return self.default_label(s, a)
        f = s.stack[-1]
        return self.decisions[f["kind"]].label(s, f, a)
