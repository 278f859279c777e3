"""Battle odds a player may look up before engaging: estimated from what a seat's view shows (the hidden
defenders drawn by ``determinize``), for the terminal's and the web's hints."""

from __future__ import annotations

from typing import Any

from muster.games.hellenes.game import HellenesRules
from muster.games.hellenes.odds import SideOdds, _fighter, battle_odds
from muster.games.hellenes.rules.common import field, other


def engage_estimate(view: dict[str, Any], seat: str, attackers: list[str], area: str, samples: int = 6) -> SideOdds:
    """The odds of ``attackers`` (the seat's block ids) engaging the enemy in ``area``, estimated from public
    information only: the hidden defenders are drawn ``samples`` times by ``determinize`` and the exact odds
    averaged (digest 3.4). The defenders' chance to Fortify is not counted."""
    rules = HellenesRules()
    total = [0.0] * 5
    for k in range(samples):
        s = rules.determinize(view, seat, 7919 * k + 1)
        f = {"area": area, "militia": 0}
        mine = sorted({*attackers, *field(s, area, seat)})
        att = [_fighter(s, f, b) for b in mine if s.units[b].area is not None]
        dfn = [_fighter(s, f, b) for b in field(s, area, other(seat))]
        r = battle_odds(att, dfn)
        for i, x in enumerate((r.att_win, r.def_win, r.draw, r.att_loss, r.def_loss)):
            total[i] += x / samples
    return SideOdds(*total)
