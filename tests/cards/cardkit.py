"""Helpers for card-event tests: a standard position, playing an event, and the exact state change.

A position starts from ``RULES.setup(seed)`` and is edited through the pools (so piece counts
stay right). :func:`play_event` puts the card in the acting seat's hand on a ``card_turn``
decision, applies ``Action("event", n)`` through ``RULES.apply`` and answers each sub-decision.
:func:`changes` lists every number that moved (tracks, pools, units, cannons, damage, areas).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from muster.core import rng
from muster.core.interface import Action
from muster.games.freedom import RULES, engine
from muster.games.freedom.board import board
from muster.games.freedom.datafiles import areas_file
from muster.games.freedom.engine import frame
from muster.games.freedom.state import State

Step = tuple[str, Any] | tuple[str]


def position(deck: str = "A", seed: int = 1) -> State:
    """The standard test position: the setup, plus fighting at the Wall and (deck B) Allied units.

    Added to the setup: 2 Expeditionary units in Row 4 column 3 facing Wall section 3 (damaged),
    1 in Row 5 column 5, 1 in Klisova's north reach. Deck B: round 4, 2 Allied units in Row 4
    column 7 and 2 in the Camp.
    """
    s = RULES.setup(seed)
    put(s, "r4c3", exp=2)
    put(s, "r5c5", exp=1)
    put(s, "kli1", exp=1)
    damage(s, "w3", 1)
    if deck == "B":
        s.round = 4
        put(s, "r4c7", ally=2)
        put(s, "camp", ally=2)
    return s


def idx(space: str) -> int:
    """The board index of a space id."""
    return board().index[space]


def put(s: State, space: str, exp: int = 0, ally: int = 0, ins: int = 0) -> None:
    """Add units from their pools to a space."""
    i = idx(space)
    for arr, pool, n in ((s.exp, "expeditionary", exp), (s.ally, "allied", ally), (s.ins, "insurgent", ins)):
        arr[i] += n
        s.pools[pool] -= n
    s._legal = None


def damage(s: State, space: str, level: int) -> None:
    """Set a Wall section's damage, keeping the marker pool right."""
    i = idx(space)
    s.pools["damage_markers"] += (s.damage[i] > 0) - (level > 0)
    s.damage[i] = level


@cache
def _dice_state(rolls: tuple[tuple[int, int], ...]) -> int:
    """A generator state whose next rolls are exactly ``rolls`` ((sides, value) pairs, in order)."""
    return rng.state_for_rolls(rolls, multiplier=0x9E3779B97F4A7C15)


def force_dice(s: State, rolls: tuple[tuple[int, int], ...]) -> None:
    """Make the next die rolls exactly ``rolls``."""
    if rolls:
        s.rng = _dice_state(rolls)


def snapshot(s: State) -> dict[str, Any]:
    """Every countable part of the state, flattened to ``name: value``."""
    b = board()
    out: dict[str, Any] = {"civilians": s.civilians, "camp_cannons": s.camp_cannons}
    for side, tracks in s.tracks.items():
        out.update({f"{side}.{k}": v for k, v in tracks.items()})
    out.update({f"pool.{k}": v for k, v in s.pools.items()})
    for arr in ("exp", "ally", "ins", "cannon", "damage"):
        out.update({f"{arr}.{b.ids[i]}": v for i, v in enumerate(getattr(s, arr))})
    for i, a in enumerate(areas_file().areas):
        out[f"area.{a.id}"] = f"{s.area_side[i]}:{s.area_markers[i]}"
    return out


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed: numeric deltas, or the new value for area tiles ("side:markers")."""
    out: dict[str, Any] = {}
    for key, new in after.items():
        old = before[key]
        if old != new:
            out[key] = new if isinstance(new, str) else new - old
    return out


def play_event(s: State, seat: str, number: int, answers: list[Step]) -> None:
    """``seat`` plays card ``number`` as its event and answers the sub-decisions in order."""
    for piles in (s.decks, s.hands, s.discards):
        for pile in piles.values():
            if number in pile:
                pile.remove(number)
    s.hands[seat].append(number)
    s.trigger = None
    s.stack = []
    engine.push(s, frame("card_turn", seat=seat))
    s._legal = None
    engine.advance(s)
    RULES.apply(s, Action("event", number))
    for step in answers:
        _words_for_every_choice(s)
        RULES.apply(s, Action(step[0], step[1] if len(step) > 1 else None))


def _words_for_every_choice(s: State) -> None:
    """Every decision of an event has a prompt and a label for each of its legal actions."""
    assert RULES.prompt(s)
    for action in RULES.legal_actions(s):
        assert RULES.label(s, action)


def event_done(s: State, seat: str) -> bool:
    """True once the event is over: the next player's card turn is up (or the game ended)."""
    return s.result is not None or (bool(s.stack) and s.stack[-1]["kind"] == "card_turn")


# --- named variations of the standard position (for the "otherwise" branches of events) -----------


def _to_pool(s: State, space: str) -> None:
    i = idx(space)
    s.pools["expeditionary"] += s.exp[i]
    s.pools["allied"] += s.ally[i]
    s.pools["insurgent"] += s.ins[i]
    s.exp[i] = s.ally[i] = s.ins[i] = 0


def quiet_front(s: State) -> None:
    """No unit of either side stands next to an enemy, and no Imperial unit is in Rows 4–5."""
    for space in ("r4c3", "r5c5", "kli1", "r4c7"):
        _to_pool(s, space)


def no_raids(s: State) -> None:
    """No Insurgent unit on the Wall and nobody in Klisova's waters: no Raid is possible."""
    for space in (*(f"w{k}" for k in range(1, 10)), "kli1"):
        _to_pool(s, space)


def intact_wall(s: State) -> None:
    """Every Wall section intact."""
    damage(s, "w3", 0)


def insurgent_ahead(s: State) -> None:
    """Insurgent Morale 16, above the Imperial 15."""
    s.tracks["insurgent"]["morale"] = 16


def insurgent_prepared(s: State) -> None:
    """3 AP stored on the Insurgent Preparation track."""
    s.tracks["insurgent"]["preparation"] = 3


def klisova_lost(s: State) -> None:
    """No Insurgent unit on Klisova."""
    _to_pool(s, "klisova")


def government_answered(s: State) -> None:
    """The Government has answered: the Pressure track is gone."""
    s.tracks["insurgent"]["pressure"] = -1


def pressure_at_top(s: State) -> None:
    """The Pressure track at its top (12)."""
    s.tracks["insurgent"]["pressure"] = 12


def no_allied(s: State) -> None:
    """Every Allied unit back in the pool."""
    for space in ("r4c7", "camp"):
        i = idx(space)
        s.pools["allied"] += s.ally[i]
        s.ally[i] = 0


def no_imperial_cannons(s: State) -> None:
    """The two Imperial cannons of Row 6 back in the pool."""
    for space in ("r6c4", "r6c6"):
        s.cannon[idx(space)] = 0
        s.pools["cannons"] += 1


def allied_row5(s: State) -> None:
    """2 Allied units in Row 5 column 3, behind the Row 4 units facing Wall section 3."""
    put(s, "r5c3", ally=2)


def islands_lost(s: State) -> None:
    """No Insurgent unit on any island."""
    for space in ("marmarou", "vasiladi", "klisova"):
        _to_pool(s, space)


TWEAKS = {
    fn.__name__: fn
    for fn in (
        quiet_front,
        no_raids,
        intact_wall,
        insurgent_ahead,
        insurgent_prepared,
        klisova_lost,
        government_answered,
        pressure_at_top,
        no_allied,
        no_imperial_cannons,
        allied_row5,
        islands_lost,
    )
}
"""Position variations by name."""
