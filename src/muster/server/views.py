"""What the server sends about a game: built only from ``Game.view(seat)`` and public data.

No drawing is sent: the browser draws the board from the view (``static/games/<game>/board.js``),
so pushes stay small. Game-specific words (hints, phases, bastion names) come from the game's web
adapter (:mod:`muster.server.games`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from muster.ai.levels import level_name
from muster.core import Game
from muster.i18n import Translator, translator
from muster.server.games import adapter, in_language
from muster.server.store import SeatInfo

SEAT_NAME = {"imperial": "Imperial", "insurgent": "Insurgent"}

RECENT_STEPS = 120
"""How many steps back the last-move marks may reach (an opponent's whole card is far fewer)."""


@dataclass
class _Trail:
    """Per game: who made each action and the public board facts before each recent one."""

    game: Game
    actors: list[str | None] = field(default_factory=list)
    before: deque[tuple[int, dict[str, dict[str, int]]]] = field(default_factory=lambda: deque(maxlen=8))
    """Board facts before each of the last few steps where the acting seat changed (a span of
    marked moves always starts at such a step), so the trail stays small."""


_TRAILS: OrderedDict[str, _Trail] = OrderedDict()
_TRAILS_LOCK = threading.Lock()
_TRAILS_KEEP = 1024


def _trail(game_id: str, game: Game) -> _Trail:
    """The game's trail brought up to date (replayed once after a restart or an undo)."""
    actions = game.actions
    with _TRAILS_LOCK:
        trail = _TRAILS.pop(game_id, None)
    if trail is None or len(trail.actors) > len(actions) or trail.game.actions != actions[:len(trail.actors)]:
        trail = _Trail(Game(game.rules, game.seed, game.options))
    facts = adapter(game.rules.info.name).board_facts
    for k in range(len(trail.actors), len(actions)):
        actor = trail.game.active_seat
        if len(actions) - k <= RECENT_STEPS and (k == 0 or actor != trail.actors[k - 1]):
            trail.before.append((k, facts(trail.game.view(None))))
        trail.actors.append(actor)
        trail.game.apply(actions[k])
    with _TRAILS_LOCK:
        _TRAILS[game_id] = trail
        while len(_TRAILS) > _TRAILS_KEEP:
            _TRAILS.popitem(last=False)
    return trail


def last_moves(game_id: str, game: Game, seat: str | None) -> dict[str, Any]:
    """What others did since ``seat`` last acted: their actions in order, the card played, and the
    per-space changes of public board facts (units, cannons, Wall damage) over that span.

    For a spectator: the last card's turn (the actions since the acting seat last changed hands).
    """
    trail = _trail(game_id, game)
    n = len(game.actions)
    start = n
    while start > 0 and n - start < RECENT_STEPS:
        actor = trail.actors[start - 1]
        if (seat is not None and actor == seat) or (seat is None and start < n and actor != trail.actors[n - 1]):
            break
        start -= 1
    if start == n:
        return {"from_step": n, "actions": [], "changes": {}, "card": None}
    ad = adapter(game.rules.info.name)
    before = next((facts for k, facts in trail.before if k == start), None)
    changes: dict[str, dict[str, int]] = {}
    if before is not None:
        now = ad.board_facts(game.view(None))
        for sid in set(before) | set(now):
            old, new = before.get(sid, {}), now.get(sid, {})
            delta = {k: new.get(k, 0) - old.get(k, 0) for k in set(old) | set(new) if new.get(k, 0) != old.get(k, 0)}
            if delta:
                changes[sid] = delta
    acts = [{"seat": trail.actors[k],
             "action": game.actions[k].to_json() if seat is not None and trail.actors[k] == seat
             else ad.public_action(game.actions[k])} for k in range(start, n)]
    card = next((ad.card_played(game.actions[k]) for k in range(n - 1, start - 1, -1)
                 if ad.card_played(game.actions[k]) is not None), None)
    return {"from_step": start, "actions": acts, "changes": changes, "card": card}


def players(seats: dict[str, SeatInfo], names: dict[str, str] | None = None,
            game: str = "freedom") -> dict[str, dict[str, Any]]:
    """Who plays each seat: a person (with the name they gave) or a bot named by its level."""
    out: dict[str, dict[str, Any]] = {}
    for seat, info in seats.items():
        out[seat] = {"kind": info.kind, "bot": info.bot_spec, "level": level_name(info.bot_spec, game),
                     "name": (names or {}).get(seat)}
    return out


def seat_name(tr: Translator, seat: str | None, english: dict[str, str] | None = None) -> str:
    """A seat's name in the translator's language (the English name, from ``english`` or Freedom's names,
    for a seat the catalog does not know)."""
    key = f"side:{seat}"
    text = tr.gettext(key)
    if text != key:
        return text
    return (english or SEAT_NAME).get(seat or "", seat or "")


def seat_payload(game: Game, game_id: str, version: int, seat: str | None,
                 seats: dict[str, SeatInfo], lang: str = "en") -> dict[str, Any]:
    """The full state message for ``seat`` (None: spectator) in ``lang``; its ``log`` holds every line."""
    from muster.server.names import cached_names

    tr = translator(lang)
    view = game.view(seat)
    view.pop("log", None)
    lines: list[str] = game.log(lang)
    ad = adapter(game.rules.info.name)
    seat_names = {s: d["name"] for s, d in ad.static_data()["seats"].items()}
    active = game.active_seat
    mine = seat is not None and active == seat and seats[seat].kind == "human"
    outcome = game.outcome
    if outcome:
        winner = f"{seat_names.get(outcome.winner, outcome.winner)} wins" if outcome.winner else "A draw"
        prompt = f"Game over. {winner}: {outcome.detail or outcome.reason}"
        if lang != "en" and lines:  # the log's last line says who won and why, in the reader's language
            prompt = lines[-1]
    elif mine:
        prompt = game.prompt
        if lang != "en" and hasattr(ad, "prompt_for"):
            prompt = ad.prompt_for(view, seat, prompt, lang)
    else:
        prompt = tr.fmt("Waiting for the {side} player.", side=seat_name(tr, active, seat_names))
    legal: list[dict[str, Any]] = []
    if mine:
        labelled = game.labelled_actions()
        actions = [action for action, _ in labelled]
        for action, label in labelled:
            if lang != "en" and hasattr(ad, "label_for"):
                label = ad.label_for(view, action, seat, label, lang)
            item: dict[str, Any] = {"action": action.to_json(), "label": label,
                                    "hint": in_language(ad.hint, lang, view, action, seat)}
            warning = in_language(ad.warning, lang, view, action, seat, actions)
            if warning:
                item["confirm"] = warning
            legal.append(item)
    hand = view["hands"][seat] if seat else []
    return {
        "type": "state",
        "lang": lang,
        "game": game.rules.info.name,
        "game_id": game_id,
        "seat": seat,
        "version": version,
        "step": len(game.actions),
        "active_seat": active,
        "round": view.get("round"),
        "phase": ad.phase(view),
        "prompt": prompt,
        "help": in_language(ad.decision_help, lang, view) if mine else "",
        "legal": legal,
        "can_undo": bool(mine and game.can_undo(seat)),
        "view": view,
        "hand": list(hand),
        "hand_counts": {s: (len(h) if isinstance(h, list) else h["count"]) for s, h in view["hands"].items()},
        "last": last_moves(game_id, game, seat),
        "outcome": outcome_in(game, lang),
        "seats": players(seats, cached_names(game_id), game.rules.info.name),
        "log_from": 0,
        "log": lines,
        # a translated log keeps the English lines beside it: the board module reads its structure from them
        **({"log_en": game.log()} if lang != "en" else {}),
    }


def outcome_in(game: Game, lang: str) -> dict[str, Any] | None:
    """The game's result as JSON, its ``detail`` (why it ended) in ``lang`` where the game words it."""
    outcome = game.outcome
    if outcome is None:
        return None
    data = outcome.to_json()
    if lang != "en" and game.rules.info.name == "freedom":
        from muster.games.freedom.texts import outcome_detail_in

        data["detail"] = outcome_detail_in(game.state.log, lang) or data["detail"]
    return data


def phase_of(view: dict[str, Any], game: str = "freedom") -> str:
    """The phase of the round of a view, in words (kept for the replay module)."""
    return adapter(game).phase(view)


def card_info(number: int, game: str = "freedom") -> dict[str, Any]:
    """A card's printed face (every face is public; only who holds a card is hidden)."""
    return next(c for c in adapter(game).static_data()["cards"] if c["number"] == number)


__all__ = ["card_info", "last_moves", "phase_of", "players", "seat_payload"]
