"""Small primitives every phase and card uses: dice, tracks, morale, units, support, the log."""

from __future__ import annotations

from typing import Any, Final

from muster.core import rng
from muster.games.freedom.board import board
from muster.games.freedom.constants import (
    BOMBARD,
    IMPERIAL,
    IMPERIAL_CANNON,
    INSURGENT,
    INSURGENT_CANNON,
    other,
)
from muster.games.freedom.datafiles import areas_file, design
from muster.games.freedom.engine import frame, push
from muster.games.freedom.engine import said as said
from muster.games.freedom.state import State
from muster.i18n import entry

SIDE_NAME: Final = {IMPERIAL: "Imperial", INSURGENT: "Insurgent"}
TRACK_NAME: Final = {
    "morale": "Morale",
    "money": "Money",
    "supplies": "Supplies",
    "plea": "Plea track",
    "preparation": "Preparation",
    "pressure": "Pressure track",
    "population": "Population",
}
TRACK_RANGE_KEY: Final = {"plea": "imperial_plea"}


_RULESETS: Final[dict[str, dict[str, Any]]] = design()["rulesets"]
_TRACK_RANGES: Final[dict[str, tuple[int, int]]] = {
    name: (int(low), int(high)) for name, (low, high) in design()["tracks"].items()
}


def ruleset(s: State) -> dict[str, Any]:
    """The edition switches of this game (design.json ``rulesets``)."""
    return _RULESETS[s.ruleset]


def log(s: State, msgid: str, plural: str | None = None, /, **args: Any) -> None:
    """Append a public line to the game log: a message id and its arguments, rendered in the reader's language.

    ``plural``: the plural message id, chosen by ``args["n"]``. Argument kinds follow their names
    (``muster.i18n.ARG_KINDS``): ``space``/``src``/``dst`` are space indexes, ``side`` a seat, ``card`` a number.
    """
    if not s.quiet:
        s.log.append(entry(msgid, plural, **args))


def name(i: int) -> str:
    """The board name of space ``i``."""
    return board().names[i]


def roll(s: State, sides: int) -> int:
    """Roll one die with the state's generator. Rolling ends the chance to undo this turn."""
    s.rng, value = rng.below(s.rng, sides)
    s.tainted = True
    return value + 1


def roll_dice(s: State, count: int, sides: int) -> list[int]:
    """Roll several dice."""
    return [roll(s, sides) for _ in range(count)]


# --- tracks ------------------------------------------------------------------------------


def track_range(track: str) -> tuple[int, int]:
    """The (low, high) range of a track."""
    return _TRACK_RANGES[TRACK_RANGE_KEY.get(track, track)]


def adjust(s: State, side: str, track: str, delta: int) -> int:
    """Move a track by ``delta`` within its range; return the change actually made.

    Morale reaching 0 ends the game at once (rules 3.1 and 3.2).
    """
    if delta == 0:
        return 0
    t = s.tracks[side]
    low, high = track_range(track)
    old = t[track]
    if old < 0:  # a removed marker (the Insurgent Pressure track after the Government answered)
        return 0
    new = max(low, min(high, old + delta))
    t[track] = new
    if new != old and not s.quiet:  # (the check first: quiet simulations skip building the arguments)
        log(s, "{side} {track} {old} → {new}.", side=side, track=TRACK_NAME[track], old=old, new=new)
    if track == "morale" and new == 0:
        loser = side
        winner = other(side)
        reason = "insurgent_morale" if loser == INSURGENT else "imperial_morale"
        end_game(
            s,
            winner,
            reason,
            f"{SIDE_NAME[loser]} Morale fell to 0.",
            entry("{side.gen} Morale fell to 0.", side=loser),
        )
    return new - old


def pay(s: State, side: str, track: str, amount: int) -> int:
    """Pay ``amount`` from a track; return how much was missing."""
    have = s.tracks[side][track]
    paid = min(have, amount)
    adjust(s, side, track, -paid)
    return amount - paid


def end_game(s: State, winner: str, reason: str, detail: str, why: dict[str, Any] | None = None) -> None:
    """Record the result; the engine stops at once. ``why``: ``detail`` as a log entry, for every language."""
    if s.result is None:
        s.result = {"winner": winner, "reason": reason, "detail": detail}
        log(s, "Game over: {winner.gen} victory. {detail}", winner=winner, detail=why or detail)


def morale_choice(s: State, side: str) -> None:
    """Offer the acting side its choice: own Morale +1 or the opponent's Morale −1."""
    push(s, frame("morale_choice", seat=side))


# --- units -------------------------------------------------------------------------------


def imperial_units(s: State, i: int) -> int:
    """Imperial units (both kinds) in space ``i``."""
    return s.exp[i] + s.ally[i]


def imperial_holds(s: State, i: int) -> bool:
    """True if an Imperial unit stands in space ``i`` (control of an island)."""
    return s.exp[i] + s.ally[i] > 0


def period_b(s: State) -> bool:
    """True from round 4 on."""
    first: int = design()["period_b_from_round"]
    return s.round >= first


def kind_fits(s: State, i: int, kind: str) -> bool:
    """Period B: Expeditionary and Allied units never share a space, the Camp excepted (rule 5)."""
    if i == board().camp:
        return True
    return s.ally[i] == 0 if kind == "E" else s.exp[i] == 0


def imperial_room(s: State, i: int, kind: str) -> bool:
    """Can an Imperial unit of ``kind`` end its move in space ``i``? (limits, enemies, kinds)."""
    b = board()
    return s.ins[i] == 0 and b.kind[i] != "city" and imperial_units(s, i) < b.limit[i] and kind_fits(s, i, kind)


def insurgent_room(s: State, i: int) -> bool:
    """Can an Insurgent unit end in space ``i``? (Row 3, Row 2 or an island; limits; no Imperial unit)."""
    b = board()
    return b.kind[i] in ("wall", "beach", "island") and s.ins[i] < b.limit[i] and imperial_units(s, i) == 0


def split_unit_arg(arg: object) -> tuple[int, str]:
    """Parse an action argument ``"SPACE"`` or ``"SPACE:KIND"`` into (space index, kind or "")."""
    sid, _, kind = str(arg).partition(":")
    return board().index[sid], kind


def unit_kind_at(s: State, i: int) -> str:
    """The kind of Imperial unit to take from a space (Expeditionary unless only Allied are there)."""
    return "E" if s.exp[i] > 0 else "A"


def add_imperial(s: State, i: int, kind: str, count: int = 1) -> int:
    """Place up to ``count`` Imperial units of ``kind`` from the pool into space ``i``; return how many."""
    pool = "expeditionary" if kind == "E" else "allied"
    n = min(count, s.pools[pool])
    if n <= 0:
        return 0
    s.pools[pool] -= n
    arr = s.exp if kind == "E" else s.ally
    arr[i] += n
    return n


def remove_imperial(s: State, i: int, kind: str | None = None) -> str | None:
    """Remove one Imperial unit from space ``i`` to its pool; return the kind removed."""
    kind = kind or unit_kind_at(s, i)
    arr = s.exp if kind == "E" else s.ally
    if arr[i] <= 0:
        return None
    arr[i] -= 1
    s.pools["expeditionary" if kind == "E" else "allied"] += 1
    return kind


def add_insurgent(s: State, i: int) -> bool:
    """Place one Insurgent unit from the pool into space ``i``."""
    if s.pools["insurgent"] <= 0:
        return False
    s.pools["insurgent"] -= 1
    s.ins[i] += 1
    return True


def remove_insurgent(s: State, i: int) -> bool:
    """Remove one Insurgent unit from space ``i`` to the pool."""
    if s.ins[i] <= 0:
        return False
    s.ins[i] -= 1
    s.pools["insurgent"] += 1
    return True


def remove_cannon(s: State, i: int) -> None:
    """Return the cannon in space ``i`` to its pool."""
    code = s.cannon[i]
    if code == BOMBARD:
        s.pools["bombard"] += 1
    elif code in (IMPERIAL_CANNON, INSURGENT_CANNON):
        s.pools["cannons"] += 1
    s.cannon[i] = 0


def place_cannon(s: State, i: int, code: int) -> bool:
    """Place a cannon from the pool into an empty cannon slot."""
    if s.cannon[i] or s.pools["cannons"] <= 0:
        return False
    s.pools["cannons"] -= 1
    s.cannon[i] = code
    return True


def camp_cannon_from_pool(s: State) -> bool:
    """Put a cannon from the pool into the Camp (Imperial rewards, Yusuf Pasha)."""
    if s.pools["cannons"] <= 0:
        return False
    s.pools["cannons"] -= 1
    s.camp_cannons += 1
    return True


def set_damage(s: State, i: int, level: int) -> None:
    """Set a Wall section's damage (0 intact, 1 damaged, 2 destroyed), using the marker pool."""
    if s.damage[i] == 0 and level > 0:
        s.pools["damage_markers"] -= 1
    elif s.damage[i] > 0 and level == 0:
        s.pools["damage_markers"] += 1
    s.damage[i] = level


def total_insurgent_units(s: State) -> int:
    """Insurgent units on the map."""
    return sum(s.ins)


def total_imperial_units(s: State) -> int:
    """Imperial units on the map (the Camp included)."""
    return sum(s.exp) + sum(s.ally)


# --- areas -------------------------------------------------------------------------------


def area_index(area_id: str) -> int:
    """The index of an area tile by id."""
    for i, a in enumerate(areas_file().areas):
        if a.id == area_id:
            return i
    raise KeyError(area_id)


def area_name(i: int) -> str:
    """The name of area ``i``."""
    return areas_file().areas[i].name


def support_effect(s: State, side: str, i: int) -> str | None:
    """What a Support action by ``side`` in area ``i`` would do: "add", "remove", "flip" or None."""
    if s.area_side[i] == side:
        if s.area_markers[i] >= areas_file().support_limit or s.pools["support_markers"] <= 0:
            return None
        return "add"
    return "remove" if s.area_markers[i] > 0 else "flip"


def support(s: State, side: str, i: int) -> None:
    """One Support action (rule 4.3.2 Support Area): add a marker, remove one, or flip the tile."""
    effect = support_effect(s, side, i)
    if effect == "add":
        s.area_markers[i] += 1
        s.pools["support_markers"] -= 1
        log(s, "{side} Support in {area}: a marker is added (now {n}).", side=side, area=i, n=s.area_markers[i])
    elif effect == "remove":
        s.area_markers[i] -= 1
        s.pools["support_markers"] += 1
        log(
            s,
            "{side} Support in {area}: an enemy marker is removed ({n} left).",
            side=side,
            area=i,
            n=s.area_markers[i],
        )
    elif effect == "flip":
        s.area_side[i] = side
        log(s, "{side} Support in {area}: the tile turns to the {side} side.", side=side, area=i)
    else:
        log(s, "{side} Support in {area} has no effect (at the limit).", side=side, area=i)


def areas_of(s: State, side: str) -> list[int]:
    """Areas controlled by ``side``."""
    return [i for i, owner in enumerate(s.area_side) if owner == side]
