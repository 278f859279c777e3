"""Hellenes' rules machine: its decisions and automatic steps on the frame machine of :mod:`muster.core.frames`.

The top frame of ``state.stack`` is either an *automatic* step (registered with :func:`auto`), run at once,
or a *decision* (a :class:`Decision` subclass) listing one seat's legal actions. Every decision point has a
short finite list.
"""

from __future__ import annotations

from typing import Any, Final, Unpack

from muster.core import frames
from muster.core.frames import FrameMachine
from muster.core.frames import act as act
from muster.core.frames import known as known
from muster.core.frames import push as push
from muster.core.interface import Action
from muster.games.hellenes.datafiles import blocks, game_map
from muster.games.hellenes.state import Frame, FrameFields, FrameKind, State
from muster.games.hellenes.texts import names as english_names
from muster.i18n import Said, entry


def said(msgid: str, plural: str | None = None, /, **args: Any) -> str:
    """A prompt or a choice's label: its English words, keeping its message (id and typed arguments: ``side``,
    ``area``, ``city``, ``block``, ``unit``, ``card``, ``season``, numbers), from which every front end renders it
    in its reader's language (:func:`muster.games.hellenes.texts.said_in`)."""
    return Said(entry(msgid, plural, **args), english_names())


def unit(s: State, bid: str) -> list[Any]:
    """A block as a label names it, with its CV now (``{unit}``: 'Athenian hoplites C2 (3/4)')."""
    return [bid, s.units[bid].cv]


def default_label(s: State, a: Action) -> str:
    """Label an action from its verb and argument, naming areas and blocks in words."""
    g = game_map()
    if a.verb == "block" and isinstance(a.arg, str) and a.arg in blocks():
        return said("block {unit}", unit=unit(s, a.arg))
    if a.verb == "city" and isinstance(a.arg, str) and a.arg in g.names:
        return said("the City of {city} ({area})", city=a.arg, area=a.arg)
    if a.verb == "to" and isinstance(a.arg, str) and a.arg in g.names:
        return said("to {area}", area=a.arg)
    if a.verb in ("done", "stay") and a.arg is None:
        return said("done") if a.verb == "done" else said("stay")
    verb = a.verb.replace("_", " ")  # a decision that words no label of its own: English only
    if isinstance(a.arg, str) and a.arg in g.names:
        return f"{verb} {g.names[a.arg]}"
    if isinstance(a.arg, str) and a.arg in blocks():
        b, u = blocks()[a.arg], s.units[a.arg]
        return f"{verb} {b.name} {b.letter}{b.fire} ({u.cv}/{b.max_cv})"
    if a.arg is None:
        return verb
    return f"{verb} {a.arg}"


MACHINE: Final = FrameMachine[State, Frame](default_label)
"""Hellenes' automatic steps and decisions (the rules modules register theirs on import)."""

auto: Final = MACHINE.auto
"""Register an automatic step run when a frame of this kind reaches the top of the stack."""


def frame(kind: FrameKind, **fields: Unpack[FrameFields]) -> Frame:
    """A new frame."""
    return {"kind": kind, **fields}


class Decision(frames.Decision[State, Frame]):
    """A prompt for one seat. Subclasses implement ``legal`` and ``apply`` (and usually ``prompt``)."""

    machine = MACHINE

    def label(self, s: State, f: Frame, a: Action) -> str:
        """A human-readable label for a legal action."""
        return default_label(s, a)


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
