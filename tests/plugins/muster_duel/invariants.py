"""What no reachable state of Duel may break; the contract suite checks it after every step of its random games."""

from __future__ import annotations

from typing import Any

from muster_duel.rules import LEFT_OVER, RULES, SEATS, other


def violations(state: dict[str, Any]) -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    broken = []
    size = state["hand_size"]
    shown = [card for _, card in state["played"]]
    held = state["hands"]["north"] + state["hands"]["south"] + ([state["picked"]] if state["picked"] else [])
    if sorted(held + shown + state["down"]) != list(range(1, 2 * size + LEFT_OVER + 1)):
        broken.append("a card is missing or counted twice")
    if len(state["down"]) != LEFT_OVER:
        broken.append("the face-down cards changed")
    if sum(state["tricks"].values()) * 2 + len(state["table"]) != len(shown):
        broken.append("tricks and cards played do not add up")
    if len(state["table"]) > 1:
        broken.append("a finished trick is still on the table")
    active = state["active"]
    if active is not None:
        mine = len(state["hands"][active]) + (state["picked"] is not None)
        theirs = len(state["hands"][other(active)])
        if mine - theirs != (0 if not state["table"] else 1) or mine == 0:
            broken.append("the hands are out of step with the trick")
    elif any(state["hands"][s] for s in SEATS) or state["table"]:
        broken.append("the game ended with cards still to play")
    for seat in SEATS:
        view = RULES.view(state, seat)
        if view["hands"][other(seat)] != {"count": len(state["hands"][other(seat)]) + (
                state["picked"] is not None and active == other(seat))}:
            broken.append(f"{seat}'s view shows the other hand")
        if seat != active and view["picked"] is not None:
            broken.append(f"{seat}'s view shows the other seat's picked card")
    return broken
