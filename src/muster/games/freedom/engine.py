"""The rules state machine: a stack of frames, each naming a prompt and its legal actions.

Modelled on Rally the Troops' rules modules. The top frame of ``state.stack`` is either

* an *automatic* step (``AUTO[kind]``), run at once by :func:`advance`, which may push
  further frames; or
* a *decision* (``DECISIONS[kind]``), which lists the legal actions for one seat and
  applies the one chosen.

Compound choices (move a unit from a space to a space) go through the generic
:class:`Op` / ``select`` frame, so every decision point has a short finite list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Final

from muster.core.interface import Action, IllegalActionError
from muster.games.freedom.board import board
from muster.games.freedom.state import Frame, State

AutoStep = Callable[[State, Frame], None]
AUTO: Final[dict[str, AutoStep]] = {}
DECISIONS: Final[dict[str, Decision]] = {}
OPS: Final[dict[str, Op]] = {}


def auto(kind: str) -> Callable[[AutoStep], AutoStep]:
    """Register an automatic step run when a frame of this kind reaches the top of the stack."""

    def register(fn: AutoStep) -> AutoStep:
        AUTO[kind] = fn
        return fn

    return register


def push(s: State, *frames: Frame) -> None:
    """Push frames so that the first one given runs first."""
    stack = s.stack
    if len(frames) == 1:  # the usual case, without building a reversed iterator
        stack.append(frames[0])
        return
    for i in range(len(frames) - 1, -1, -1):
        stack.append(frames[i])


def frame(kind: str, **fields: Any) -> Frame:
    """A new frame."""
    f: Frame = {"kind": kind}
    f.update(fields)
    return f


class _Interned(dict[tuple[str, Any], Action]):
    """One shared :class:`Action` per (verb, arg): legal lists are rebuilt at every decision, and looking an
    action up is cheaper than constructing it. Actions are immutable, so sharing them is safe."""

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


def count_down(s: State, f: Frame) -> None:
    """One of the frame's ``left`` repetitions is done; the frame ends after the last."""
    f["left"] -= 1
    if f["left"] <= 0:
        s.stack.pop()


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
        return default_label(a)


def default_label(a: Action) -> str:
    """Label an action from its verb and argument, naming spaces by their board names."""
    b = board()
    if isinstance(a.arg, str) and a.arg in b.index:
        where = b.names[b.index[a.arg]]
        return {"from": f"from {where}", "to": f"to {where}"}.get(a.verb, f"{a.verb} {where}")
    if a.arg is None:
        return a.verb.replace("_", " ")
    return f"{a.verb.replace('_', ' ')} {a.arg}"


class Op:
    """A choice of a source (optional), a unit class (when it matters) and a target.

    Used through ``select`` frames: ``frame("select", op=NAME, seat=…, src=None, cls=None, …)``.
    Sources and targets are ids (space or area ids).
    """

    name: ClassVar[str] = ""
    single = False
    """True when only a target is chosen (no source)."""
    optional = False
    """True when the player may decline (a ``done`` action at the first step)."""
    verb_from = "from"
    verb_to = "to"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            OPS[cls.name] = cls()

    def prompt(self, s: State, f: Frame) -> str:
        """The prompt while choosing."""
        return self.name

    def iter_sources(self, s: State, f: Frame) -> Iterator[str]:
        """Where the acting piece may come from (only sources with at least one target), lazily."""
        return iter(())

    def sources(self, s: State, f: Frame) -> list[str]:
        """All sources, in board order."""
        return list(self.iter_sources(s, f))

    def classes(self, s: State, f: Frame, src: str) -> list[str]:
        """Distinct kinds of unit at ``src`` that the player must choose between (empty: no choice)."""
        return []

    def targets(self, s: State, f: Frame, src: str | None) -> list[str]:
        """Where it may go or what it may hit."""
        raise NotImplementedError

    def resolve(self, s: State, f: Frame, src: str | None, dst: str) -> None:
        """Carry the choice out. The select frame has already been popped."""
        raise NotImplementedError

    def decline(self, s: State, f: Frame) -> None:
        """Called when an optional op is declined (the frame has already been popped)."""

    def available(self, s: State, f: Frame) -> bool:
        """True if at least one complete choice exists."""
        if self.single:
            return bool(self.targets(s, f, None))
        return next(self.iter_sources(s, f), None) is not None


class Select(Decision):
    """The generic source → (unit class) → target decision driven by an :class:`Op`."""

    kind = "select"

    def prompt(self, s: State, f: Frame) -> str:
        return OPS[f["op"]].prompt(s, f)

    def legal(self, s: State, f: Frame) -> list[Action]:
        op = OPS[f["op"]]
        src = f.get("src")
        if op.single or src is not None:
            if src is not None and f.get("cls") is None:
                classes = op.classes(s, f, src)
                if classes:
                    return [ACTIONS["unit", c] for c in classes]
            to = VERB_ACTIONS[op.verb_to]
            return [to[t] for t in op.targets(s, f, src)]
        from_ = VERB_ACTIONS[op.verb_from]
        acts = [from_[x] for x in op.sources(s, f)]
        if op.optional:
            acts.append(ACTIONS["done", None])
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        op = OPS[f["op"]]
        verb = a.verb
        if verb == "done":
            s.stack.pop()
            op.decline(s, f)
        elif verb == op.verb_from and not op.single and f.get("src") is None:
            f["src"] = a.arg
        elif verb == "unit":
            f["cls"] = a.arg
        else:
            s.stack.pop()
            op.resolve(s, f, f.get("src"), str(a.arg))

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "unit":
            return unit_class_label(str(a.arg))
        if a.verb == "done":
            return "done"
        return default_label(a)


def unit_class_label(cls: str) -> str:
    """Words for a unit class: ``E``/``A`` (kind) or a digit (attacks already made this card)."""
    if cls == "E":
        return "an Expeditionary unit"
    if cls == "A":
        return "an Allied unit"
    used = int(cls)
    return "a unit that has not attacked yet" if used == 0 else f"a unit that has attacked {used} time(s)"


def select(op: str, seat: str, **fields: Any) -> Frame:
    """A select frame for an op."""
    f: Frame = {"kind": "select", "op": op, "seat": seat, "src": None, "cls": None}
    if fields:
        f.update(fields)
    return f


# --- running the machine ---------------------------------------------------------------


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
        s.stack.pop()  # nothing can be chosen: the decision lapses (e.g. no unit left to remove)
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
    acts = legal_actions(s)
    for known in acts:  # by identity first: the actions offered are shared objects (ACTIONS)
        if known is a:
            break
    else:
        if a not in acts:
            raise IllegalActionError(f"illegal action {list(a)}")
    f = s.stack[-1]
    decision = DECISIONS[f["kind"]]
    seat = decision.seat(s, f)
    if seat != s.turn_seat:
        s.turn_seat, s.turn_start, s.tainted = seat, s.step, False
    decision.apply(s, f, a)
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
    if not s.stack:
        return default_label(a)
    f = s.stack[-1]
    return DECISIONS[f["kind"]].label(s, f, a)
