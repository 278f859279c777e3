"""Rule 4.3.2 Attack and Raid, and the Morale choice when a space's last unit falls.

"If the unit removed was last in its space" the acting side either raises its own Morale
by 1 or lowers the opponent's by 1. It applies to attacks, raids and cannon shots (and, 2nd
edition, a Wall section destroyed by a shot), not to units removed by events or upkeep.
"""

from __future__ import annotations

from typing import Final

from muster.core.interface import Action
from muster.games.freedom.board import board
from muster.games.freedom.constants import IMPERIAL, INSURGENT, other
from muster.games.freedom.datafiles import design
from muster.games.freedom.engine import ACTIONS, Decision
from muster.games.freedom.rules.common import (
    adjust,
    imperial_units,
    log,
    morale_choice,
    remove_imperial,
    remove_insurgent,
    roll,
    roll_dice,
    said,
)
from muster.games.freedom.state import Frame, State

_MORALE_OWN: Final = ACTIONS["morale", "own"]
_MORALE_ENEMY: Final = ACTIONS["morale", "enemy"]
"""The two shared actions of a Morale choice."""


class MoraleChoice(Decision):
    """Own Morale +1, or the opponent's Morale −1."""

    kind = "morale_choice"

    def prompt(self, s: State, f: Frame) -> str:
        return said("The last enemy unit in a space fell: raise your Morale by 1 or lower your opponent's by 1.")

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [_MORALE_OWN, _MORALE_ENEMY]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f["seat"]
        s.stack.pop()
        if a.arg == "own":
            adjust(s, seat, "morale", +1)
        else:
            adjust(s, other(seat), "morale", -1)

    def label(self, s: State, f: Frame, a: Action) -> str:
        return said("raise my Morale by 1") if a.arg == "own" else said("lower the opponent's Morale by 1")


def imperial_attack_roll(s: State, src: int, dst: int, bonus: int) -> tuple[int, int]:
    """(roll needed, modifier) of an Imperial attack from ``src`` on ``dst``.

    From a Wall section on an adjacent section, or Row 2 on Row 2: 5+, unmodified by damage
    or forts (Reward still counts). Otherwise 8+, −1 against a fort, + the damage level when
    attacking the Wall from Row 4, + Reward.
    """
    b = board()
    c = design()["combat"]
    close = (b.kind[src] == b.kind[dst] == "wall") or (b.kind[src] == b.kind[dst] == "beach")
    if close:
        return c["close_quarters_hit"], bonus
    mod = bonus
    if b.fort[dst]:
        mod += c["fort_modifier"]
    if b.kind[dst] == "wall" and b.kind[src] == "mainland" and b.row[src] == 4:
        mod += s.damage[dst] * c["damage_modifier_per_level"]
    return c["imperial_hit"], mod


def imperial_attack(s: State, src: int, dst: int, bonus: int) -> bool:
    """Roll an Imperial attack (2d8, either die); on success remove one Insurgent unit."""
    c = design()["combat"]
    need, mod = imperial_attack_roll(s, src, dst, bonus)
    dice = roll_dice(s, c["imperial_dice"], c["imperial_die"])
    hit = max(dice) + mod >= need
    sign = f" {mod:+d}" if mod else ""
    log(
        s,
        "Imperial attack from {src} on {dst}: rolls {dice}, best {best}{mod}, needs {need}: {result}.",
        src=src, dst=dst, dice=dice, best=max(dice), mod=sign, need=need, result="hit" if hit else "miss",
    )
    if hit:
        insurgent_loses_unit(s, dst, IMPERIAL)
    return hit


def insurgent_hit_needed(dst: int) -> int:
    """1d8: 6+, or 5+ against Imperial units on the Wall or in Row 2."""
    c = design()["combat"]
    need: int = c["insurgent_hit_wall_or_beach"] if board().kind[dst] in ("wall", "beach") else c["insurgent_hit"]
    return need


def insurgent_attack(s: State, src: int, dst: int) -> bool:
    """Roll an Insurgent attack; on success remove one Imperial unit."""
    need = insurgent_hit_needed(dst)
    die = roll(s, design()["combat"]["insurgent_die"])
    hit = die >= need
    log(
        s,
        "Insurgent attack from {src} on {dst}: rolls {die}{mod}, needs {need}: {result}.",
        src=src,
        dst=dst,
        die=die,
        mod="",
        need=need,
        result="hit" if hit else "miss",
    )
    if hit:
        imperial_loses_unit(s, dst, INSURGENT)
    return hit


def raid(s: State, src: int, dst: int) -> bool:
    """Roll a Raid (1d8, 5+); on success remove one Imperial unit."""
    need: int = design()["combat"]["raid_hit"]
    die = roll(s, design()["combat"]["insurgent_die"])
    hit = die >= need
    log(
        s,
        "Insurgent raid from {src} on {dst}: rolls {die}{mod}, needs {need}: {result}.",
        src=src,
        dst=dst,
        die=die,
        mod="",
        need=need,
        result="hit" if hit else "miss",
    )
    if hit:
        imperial_loses_unit(s, dst, INSURGENT)
    return hit


def insurgent_loses_unit(s: State, i: int, actor: str) -> None:
    """Remove an Insurgent unit by attack or shot; the Morale choice if it was the last."""
    if remove_insurgent(s, i):
        _after_loss(s, i, "Insurgent", s.ins[i], actor)


def imperial_loses_unit(s: State, i: int, actor: str) -> None:
    """Remove an Imperial unit by attack, raid or shot; the Morale choice if it was the last."""
    if remove_imperial(s, i):
        _after_loss(s, i, "Imperial", imperial_units(s, i), actor)


def _after_loss(s: State, i: int, who: str, left: int, actor: str) -> None:
    if left == 0:
        log(s, "The last {side} unit in {space} falls.", side=who, space=i)
        morale_choice(s, actor)
    else:
        log(s, "An {side} unit in {space} falls ({n} left).", side=who, space=i, n=left)
