"""Hellenes' action space: every action the rules can ever offer, numbered from the data files.

Reading every decision of the engine (``rules/*.py``: the Action menu, Group Move, Muster, free moves,
recruits, battles, Sieges, Pillage, events, the card commitments) gives these shapes. Each shape is listed
over everything its argument can range over in the data — all 36 areas (land and sea), all 53 blocks,
all 30 cards — so no legal action is ever missing, whatever the state:

=================================  ==========================================================
shape                              where it is offered
=================================  ==========================================================
``verb`` alone                     ``done``, ``end``, ``fight``, ``retreat``, ``fortify``,
                                   ``recruit``, ``stay``, ``wasted``
``card`` + card number             a card committed (3.3) or played in the New Year
``as`` + use                       ``actions``, ``event`` or ``sacrifice``
``move|muster|garrison|pillage``   an area: a Group Move from it, a Muster into it, a garrison
``city|to|forced|assault``         or Pillage there, an event's City, a destination (by land,
``attrition|skip`` + area          sea or forced march), a Siege choice;
``battle|force|sortie`` + area     the battle fought first among equal ones (6.0), the Force
                                   that fights first, named by the area it came from (5.4.1),
                                   a Sortie from a besieged City (8.3)
``build|supply|block|board``       a block: built up, supplied in Winter, chosen to move or
+ block id                         Muster, or the fleet boarded
``hit|rout|lose|inside``           a block chosen by its owner: to take a hit or a rout among
+ block id                         equal blocks (6.3.2/6.3.3), a Siege Attrition loss (8.2), or
                                   to go inside a fortified City (7.1)
``place`` + ``block@area``         a recruit placed: each block at its home, the Aeolian and
                                   Macedonian rebels at the places design.json lists
``board_reduce`` + fleet id        a land block reduced below the fleet's CV to board it
                                   (5.2.1); listed after the shapes above, so their numbers
                                   keep their meaning
``hold`` + area                    no Sortie from a besieged City until its Siege changes (8.3),
                                   chosen on Fortifying or at a Sortie question; listed last
=================================  ==========================================================

The list is built once; its order is part of the numbering, so changing it (or the data it is built
from) changes :data:`REVISION` or the fingerprint, and with them the version string.
"""

from __future__ import annotations

from functools import cache

from muster.core.interface import Action
from muster.core.spaces import ActionSpace
from muster.games.hellenes.datafiles import blocks, cards_file, design, game_map

REVISION = 5
"""Bump when the numbering's shapes change (data changes show in the fingerprint anyway)."""

PLAIN_VERBS = ("done", "end", "fight", "retreat", "fortify", "recruit", "stay", "wasted")
"""Verbs that take no argument."""
CARD_USES = ("actions", "event", "sacrifice")
AREA_VERBS = ("move", "muster", "garrison", "pillage", "city", "to", "forced", "assault", "attrition", "skip",
              "battle", "force", "sortie")
BLOCK_VERBS = ("build", "supply", "block", "board", "hit", "rout", "lose", "inside")


def placements(bid: str) -> list[str]:
    """Every area a recruit may ever be placed in (4.2.2): its home, or the rebels' places."""
    d = blocks()[bid]
    if d.rebel == "aeolian":
        return list(design()["aeolian_places"])
    if d.rebel == "macedonian":
        return list(design()["macedonian_places"])
    return [d.home]


def all_actions() -> list[Action]:
    """Every action, in numbering order."""
    areas = list(game_map().names)
    ids = list(blocks())
    cards = sorted(c.number for c in cards_file().cards)
    out = [Action(v) for v in PLAIN_VERBS]
    out += [Action("card", n) for n in cards]
    out += [Action("as", use) for use in CARD_USES]
    out += [Action(v, a) for v in AREA_VERBS for a in areas]
    out += [Action(v, b) for v in BLOCK_VERBS for b in ids]
    out += [Action("place", f"{b}@{a}") for b in ids for a in placements(b)]
    out += [Action("board_reduce", b) for b in ids if blocks()[b].kind == "fleet"]
    out += [Action("hold", a) for a in areas]
    return out


@cache
def action_space() -> ActionSpace:
    """Hellenes' numbering (built once per process)."""
    return ActionSpace("hellenes", REVISION, all_actions())
