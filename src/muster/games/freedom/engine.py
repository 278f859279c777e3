"""Freedom!'s rules machine: its decisions and automatic steps on the frame machine of :mod:`muster.core.frames`.

The top frame of ``state.stack`` is either an *automatic* step (registered with :func:`auto`), run at once
by :func:`advance`, which may push further frames; or a *decision* (a :class:`Decision` subclass), which
lists the legal actions for one seat and applies the one chosen.

Compound choices (move a unit from a space to a space) go through the generic
:class:`Op` / ``select`` frame, so every decision point has a short finite list.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Unpack, cast

from muster.core import frames
from muster.core.frames import ACTIONS as ACTIONS
from muster.core.frames import VERB_ACTIONS as VERB_ACTIONS
from muster.core.frames import FrameMachine
from muster.core.frames import count_down as count_down
from muster.core.frames import known as known
from muster.core.frames import push as push
from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.state import Frame, FrameFields, FrameKind, State
from muster.games.freedom.texts import names as english_names
from muster.i18n import Said, entry

OPS: Final[dict[str, Op]] = {}
DONE: Final = ACTIONS["done", None]
"""The shared ``done`` action (a module constant: no key tuple built to look it up)."""
_UNIT: Final = VERB_ACTIONS["unit"]
_AREAS: Final[dict[str, int]] = {area.id: i for i, area in enumerate(areas_file().areas)}
"""Area ids (a Support target) by their index, the argument a label names an area by."""


def said(msgid: str, plural: str | None = None, /, **args: Any) -> str:
    """A prompt or a choice's label: its English words, keeping its message (id and typed arguments, as for the
    log), from which every front end renders it in its reader's language."""
    return Said(entry(msgid, plural, **args), english_names("en"))


def default_label(a: Action) -> str:
    """Label an action from its verb and argument (a space or an area by its id), as words keeping their message:
    every front end renders them in its reader's language."""
    b = board()
    arg = a.arg
    if isinstance(arg, str) and arg in b.index:
        i = b.index[arg]
        if a.verb == "from":
            return said("from {space}", space=i)
        if a.verb == "to":
            return said("to {space}", space=i)
        return said("{verb} {space}", verb=a.verb, space=i)
    if isinstance(arg, str) and arg in _AREAS:
        if a.verb == "to":
            return said("to {area}", area=_AREAS[arg])
        return said("{verb} {area}", verb=a.verb, area=_AREAS[arg])
    if a.verb == "done":
        return said("done")
    # No decision leaves any other action to this default: one that did would show its verb untranslated (a
    # message still, so the words stay whole; the test of every label rejects these catch-all ids).
    if arg is None:
        return said("{verb}", verb=a.verb.replace("_", " "))
    return said("{verb} {arg}", verb=a.verb.replace("_", " "), arg=str(arg))


def _state_label(s: State, a: Action) -> str:
    return default_label(a)


MACHINE: Final = FrameMachine[State, Frame](_state_label)
"""Freedom!'s automatic steps and decisions (the rules modules register theirs on import)."""

auto: Final = MACHINE.auto
"""Register an automatic step run when a frame of this kind reaches the top of the stack."""


class Decision(frames.Decision[State, Frame]):
    """A prompt for one seat. Subclasses implement ``legal`` and ``apply`` (and usually ``prompt``)."""

    machine = MACHINE

    def seat(self, s: State, f: Frame) -> str:
        """The seat deciding (every Freedom! decision's frame names it)."""
        return f["seat"]

    def label(self, s: State, f: Frame, a: Action) -> str:
        """A human-readable label for a legal action."""
        return default_label(a)


def _id_actions(verb: str) -> dict[str, Action]:
    """The shared action ``verb`` of every space and area, by id."""
    return {x: ACTIONS[verb, x] for x in (*board().ids, *_AREAS)}


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
    from_actions: dict[str, Action]
    """The shared ``verb_from`` action of every space and area id (set on each registered op, the instance in
    :data:`OPS`; a plain dict, the fastest to look up: any other argument is found in :data:`ACTIONS`)."""
    to_actions: dict[str, Action]
    """The same for ``verb_to``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            op = OPS[cls.name] = cls()
            # the select lists' shared actions by argument, found once (not by verb at every choice)
            op.from_actions = _id_actions(op.verb_from)
            op.to_actions = _id_actions(op.verb_to)

    def prompt(self, s: State, f: Frame) -> str:
        """The prompt while choosing."""
        return self.name

    def sources(self, s: State, f: Frame) -> list[str]:
        """Where the acting piece may come from (only sources with at least one target), in board order."""
        return []

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
        return bool(self.sources(s, f))


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
                    unit = _UNIT
                    return [unit[c] for c in classes]
            to, verb = op.to_actions, op.verb_to
            return [to.get(t) or ACTIONS[verb, t] for t in op.targets(s, f, src)]
        from_, verb = op.from_actions, op.verb_from
        acts = [from_.get(x) or ACTIONS[verb, x] for x in op.sources(s, f)]
        if op.optional:
            acts.append(DONE)
        return acts

    def apply(self, s: State, f: Frame, a: Action) -> None:
        op = OPS[f["op"]]
        verb = a.verb
        if verb == "done":
            s.stack.pop()
            op.decline(s, f)
        elif verb == op.verb_from and not op.single and f.get("src") is None:
            f["src"] = str(a.arg)
        elif verb == "unit":
            f["cls"] = str(a.arg)
        else:
            s.stack.pop()
            op.resolve(s, f, f.get("src"), str(a.arg))

    def label(self, s: State, f: Frame, a: Action) -> str:
        if a.verb == "unit":
            return unit_class_label(str(a.arg))
        return default_label(a)


def unit_class_label(cls: str) -> str:
    """Words for a unit class: ``E``/``A`` (kind) or a digit (attacks already made this card)."""
    if cls == "E":
        return said("an Expeditionary unit")
    if cls == "A":
        return said("an Allied unit")
    used = int(cls)
    if used == 0:
        return said("a unit that has not attacked yet")
    return said("a unit that has attacked {n} time", "a unit that has attacked {n} times", n=used)


def frame(kind: FrameKind, **fields: Unpack[FrameFields]) -> Frame:
    """A new frame."""
    return {"kind": kind, **fields}


def select(op: str, seat: str, /, **fields: Unpack[FrameFields]) -> Frame:
    """A select frame for an op."""
    # a copy of a template (the keys table copied whole) costs a fraction of building the dict key by key
    f = _SELECT.copy()
    f["op"], f["seat"] = op, seat
    if fields:
        f.update(cast(Frame, fields))  # the same keys: FrameFields is Frame without its kind
    return f


_SELECT: Final[Frame] = {"kind": "select", "op": "", "seat": "", "src": None, "cls": None}


def space_actions(verb: str, suffix: str = "") -> tuple[Action, ...]:
    """The shared action ``verb`` of every space (its id, followed by ``suffix``: ``":E"`` names the
    Expeditionary units there), by space number. A legal list built from space numbers takes its actions from such
    a table: an index instead of a lookup by (verb, id) at every action."""
    return tuple(ACTIONS[verb, sid + suffix] for sid in board().ids)


# --- running the machine (see muster.core.frames) ----------------------------------------


def advance(s: State) -> None:
    """Run automatic steps until a decision with at least one legal action is on top (or the game ends)."""
    MACHINE.advance(s)


def legal_actions(s: State) -> list[Action]:
    """The legal actions at the top decision (cached per step)."""
    return MACHINE.legal_actions(s)


def active_seat(s: State) -> str | None:
    """Whose decision it is."""
    return MACHINE.active_seat(s)


def apply_action(s: State, a: Action) -> None:
    """Validate and apply an action in place. Illegal actions raise before anything changes."""
    MACHINE.apply_action(s, a)


def prompt(s: State) -> str:
    """The current prompt in words."""
    return MACHINE.prompt(s)


def label(s: State, a: Action) -> str:
    """The label of an action at the current decision."""
    return MACHINE.label(s, a)
