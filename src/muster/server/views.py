"""What the server sends about a game: built only from ``Game.view(seat)`` and public data."""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cache
from typing import Any

from muster.core import Game
from muster.games.freedom.rules.action_phase import card
from muster.games.freedom.svg import render_svg
from muster.server.store import SeatInfo

SEAT_NAME = {"imperial": "Imperial", "insurgent": "Insurgent"}

# Frame kinds that name the phase of the round (rule 3: Opening, Actions, Cannons, Replenishment).
PHASES = {
    "opening": "Opening", "action_phase": "Action phase", "card_turn": "Action phase", "ap": "Action phase",
    "after_turn": "Action phase", "action_phase_end": "Action phase", "final_trigger": "Action phase",
    "cannons_phase": "Cannons phase", "cannons": "Cannons phase", "replenishment": "Replenishment phase",
    "imperial_money": "Replenishment phase", "imperial_supplies": "Replenishment phase",
    "imperial_desertion": "Replenishment phase", "imperial_rewards": "Replenishment phase",
    "insurgent_upkeep": "Replenishment phase", "insurgent_rewards": "Replenishment phase",
    "insurgent_population": "Replenishment phase", "government": "Replenishment phase",
    "administration": "Administration", "administration_draw": "Administration", "round_end": "End of round",
    "period_change": "End of round", "period_change_rest": "End of round", "round_over": "End of round",
}


@cache
def card_info(number: int) -> dict[str, Any]:
    """The public printed facts of a card (every card's face is public; only who holds it is hidden)."""
    c = card(number)
    return {"number": c.number, "deck": c.deck, "name": c.name, "ap": c.ap, "side": c.side, "text": c.text,
            "event": c.effect is not None}


_SVG_CACHE: OrderedDict[tuple[Any, ...], str] = OrderedDict()
_SVG_LOCK = threading.Lock()


def board_svg(state: Any) -> str:
    """The board drawing of a state, cached by everything it shows (most decisions change nothing drawn).

    The same string object comes back for an unchanged board, so senders can skip resending it.
    """
    tracks = state.tracks
    key = (tuple(state.exp), tuple(state.ally), tuple(state.ins), tuple(state.cannon), tuple(state.damage),
           state.camp_cannons, state.civilians, state.round, tuple(state.area_side), tuple(state.area_markers),
           tuple(sorted(tracks["imperial"].items())), tuple(sorted(tracks["insurgent"].items())))
    with _SVG_LOCK:
        if key in _SVG_CACHE:
            _SVG_CACHE.move_to_end(key)
            return _SVG_CACHE[key]
    svg = render_svg(state)
    with _SVG_LOCK:
        svg = _SVG_CACHE.setdefault(key, svg)
        while len(_SVG_CACHE) > 2048:
            _SVG_CACHE.popitem(last=False)
    return svg


@cache
def card_title(number: int) -> dict[str, Any]:
    """A card's number, deck and name."""
    c = card(number)
    return {"number": c.number, "deck": c.deck, "name": c.name}


def phase_of(view: dict[str, Any]) -> str:
    """The phase of the round, from the decision stack (top first)."""
    for frame in reversed(view.get("stack") or []):
        kind = str(frame.get("kind", ""))
        if kind == "select" and str(frame.get("op", "")).startswith(("opening", "advance")):
            return "Opening"
        if kind in PHASES:
            return PHASES[kind]
    return "Game over" if view.get("result") else "Setup"


def seat_payload(game: Game, game_id: str, version: int, seat: str | None,
                 seats: dict[str, SeatInfo], drawing: bool = True) -> dict[str, Any]:
    """The full state message for ``seat`` (None: spectator); its ``log`` holds every line.

    ``drawing=False``: no board drawing (``svg`` null), for clients that draw the board themselves."""
    view = game.view(seat)
    lines: list[str] = list(view.pop("log", []))
    active = game.active_seat
    mine = seat is not None and active == seat and seats[seat].kind == "human"
    outcome = game.outcome
    hand = view["hands"][seat] if seat else []
    if outcome:
        winner = f"{SEAT_NAME.get(outcome.winner, outcome.winner)} wins" if outcome.winner else "A draw"
        prompt = f"Game over. {winner}: {outcome.detail or outcome.reason}"
    elif mine:
        prompt = game.prompt
    else:
        prompt = f"Waiting for the {SEAT_NAME.get(active or '', active)} player."
    return {
        "type": "state",
        "game_id": game_id,
        "seat": seat,
        "version": version,
        "step": len(game.actions),
        "active_seat": active,
        "round": view.get("round"),
        "phase": phase_of(view),
        "prompt": prompt,
        "legal": [{"action": a.to_json(), "label": label} for a, label in game.labelled_actions()] if mine else [],
        "can_undo": bool(mine and game.can_undo(seat)),
        "view": view,
        "hand": [card_info(n) for n in hand],
        # discards by name only: they are long lists, and every card's full face is at /api/cards
        "discards": {deck: [card_title(n) for n in cards] for deck, cards in view["discards"].items()},
        "hand_counts": {s: (len(h) if isinstance(h, list) else h["count"]) for s, h in view["hands"].items()},
        "svg": board_svg(game.state) if drawing else None,
        "outcome": outcome.to_json() if outcome else None,
        "seats": {s: {"kind": info.kind, "bot": info.bot_spec} for s, info in seats.items()},
        "log_from": 0,
        "log": lines,
    }
