"""Freedom!'s action space: every action the rules can ever offer, numbered from the data files.

The engine names every choice with an ``Action(verb, arg)``. Reading every decision of the rules
(``engine.py``, ``rules/``, ``cards/primitives.py``) gives these shapes, and the numbering lists
each shape over everything its argument can range over in the data — all 78 board spaces (not just
the ones a rule allows today: Raids, for one, may strike off the raider's column), all 100 cards
and all 8 areas — so no legal action is ever missing, whatever the state:

=============================  ============================================================
shape                          where it is offered
=============================  ============================================================
``verb`` alone                 ``done``, ``end``, ``pass``, ``alone``, ``camp`` and the AP
                               actions' names (``move``, ``attack``, ``raid``, …)
``event|ap|trigger`` + card    a card (its number) played for its event, for AP, or
                               discarded to take the opponent's event (rule 4.3)
``area|to`` + area id          Support in an area (an event's or the AP action's)
``cannon|target`` + space      a cannon to fire or move, and what it fires at or raids
``from|to|pick|remove|unit``   a unit's space; with ``:E`` or ``:A`` where the kind of
+ space [``:E``/``:A``]        Imperial unit matters (``pick mar4:A``, ``remove r5c3:E``)
``unit`` + class               which unit moves: ``E``/``A`` (kind) or ``0``–``9`` (attacks
                               it has made this card; the rules allow at most 2)
``with`` + ``E``/``A``         a unit goes forward with a cannon (Night Works)
``morale`` + ``own|enemy``     which side's Morale a combat result changes
=============================  ============================================================

The list is built once; its order is part of the numbering, so changing it (or the data it is
built from) changes :data:`REVISION` or the fingerprint, and with them the version string.
"""

from __future__ import annotations

from functools import cache

from muster.core.interface import Action
from muster.core.spaces import ActionSpace
from muster.games.freedom.board import board
from muster.games.freedom.datafiles import areas_file, cards_file

REVISION = 1
"""Bump when the numbering's shapes change (data changes show in the fingerprint anyway)."""

PLAIN_VERBS = (
    "done", "end", "pass", "alone", "camp",
    # the AP actions of both sides (rule 4.3.2), by name
    "move", "slow", "attack", "reward", "prepare", "support", "plea", "build",
    "regroup", "raid", "pressure", "repair", "train",
)
"""Verbs that take no argument."""

CARD_VERBS = ("event", "ap", "trigger")
AREA_VERBS = ("area", "to")
SPACE_VERBS = ("cannon", "target")
"""Verbs whose argument is a space id only."""
UNIT_SPACE_VERBS = ("from", "to", "pick", "remove", "unit")
"""Verbs whose argument is a space id, or ``id:E`` / ``id:A`` when the kind of Imperial unit matters."""
UNIT_KINDS = ("E", "A")
ATTACK_COUNTS = tuple(str(n) for n in range(10))
"""Unit classes by attacks made this card: the rules allow 2, the numbering keeps room up to 9."""
MORALE_CHOICES = ("own", "enemy")


def all_actions() -> list[Action]:
    """Every action, in numbering order."""
    ids = board().ids
    cards = sorted(c.number for c in cards_file().cards)
    areas = [a.id for a in areas_file().areas]
    out = [Action(v) for v in PLAIN_VERBS]
    out += [Action(v, n) for v in CARD_VERBS for n in cards]
    out += [Action(v, a) for v in AREA_VERBS for a in areas]
    out += [Action(v, sid) for v in SPACE_VERBS for sid in ids]
    out += [Action(v, arg) for v in UNIT_SPACE_VERBS for sid in ids
            for arg in (sid, *(f"{sid}:{k}" for k in UNIT_KINDS))]
    out += [Action("unit", c) for c in (*UNIT_KINDS, *ATTACK_COUNTS)]
    out += [Action("with", k) for k in UNIT_KINDS]
    out += [Action("morale", m) for m in MORALE_CHOICES]
    return out


@cache
def action_space() -> ActionSpace:
    """Freedom!'s numbering (built once per process)."""
    return ActionSpace("freedom", REVISION, all_actions())
