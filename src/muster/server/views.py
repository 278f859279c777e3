"""What the server sends about a game: built only from ``Game.view(seat)`` and public data.

No drawing is sent: the browser draws the board from the view (``static/games/<game>/board.js``),
so pushes stay small. Game-specific words (hints, phases, bastion names) come from the game's web
adapter (:mod:`muster.server.games`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from muster.ai.levels import level_name
from muster.core import Action, Game
from muster.i18n import Translator, translator
from muster.server.games import adapter, in_language
from muster.server.store import SeatInfo

SEAT_NAME = {"imperial": "Imperial", "insurgent": "Insurgent"}

RECENT_STEPS = 120
"""How many steps back the last-move marks may reach (an opponent's whole card is far fewer)."""


@dataclass
class _Trail:
    """Per game: who made each action and the public board facts before each recent one.

    Kept up to date by watching the positions the server shows (each change is shown once, so the
    facts of the position it reaches are at hand); only a trail that missed positions (a restart,
    an undo, a rebuild) is replayed from the start."""

    actions: list[Action] = field(default_factory=list)
    """The actions of the position last seen (a shallow copy: the game must still start with them)."""
    actors: list[str | None] = field(default_factory=list)
    """``actors[k]``: the seat to act at position k, i.e. who took step k (one more than ``actions``)."""
    before: deque[tuple[int, dict[str, dict[str, int]]]] = field(default_factory=lambda: deque(maxlen=8))
    """Board facts before each of the last few steps where the acting seat changed (a span of
    marked moves always starts at such a step), so the trail stays small."""


_TRAILS: OrderedDict[str, _Trail] = OrderedDict()
_TRAILS_LOCK = threading.Lock()
_TRAILS_KEEP = 4096


Facts = dict[str, dict[str, int]]


def _replayed(game: Game) -> _Trail:
    """A trail built by replaying the game's actions (up to, not including, its current position)."""
    trail = _Trail()
    facts = adapter(game.rules.info.name).board_facts
    replay = Game(game.rules, game.seed, game.options)
    n = len(game.actions)
    for k, action in enumerate(game.actions):
        actor = replay.active_seat
        if n - k <= RECENT_STEPS and (k == 0 or actor != trail.actors[k - 1]):
            trail.before.append((k, facts(replay.view(None))))
        trail.actors.append(actor)
        replay.apply(action)
    return trail


def _trail(game_id: str, game: Game, facts_now: Callable[[], Facts]) -> _Trail:
    """The game's trail brought up to its current position (``facts_now``: that position's board facts)."""
    actions = game.actions
    n = len(actions)
    with _TRAILS_LOCK:
        trail = _TRAILS.pop(game_id, None)
    seen = len(trail.actions) if trail is not None else -1
    if trail is None or not (n - 1 <= seen <= n) or actions[:seen] != trail.actions:
        trail = _replayed(game)  # it missed a position (or the game went back): replay once
        trail.actions = list(actions)
    elif seen == n - 1:
        trail.actions.append(actions[-1])
    if len(trail.actors) == n:  # the position is new: note who acts in it, and the facts before a change of hands
        actor = game.active_seat
        if n == 0 or actor != trail.actors[n - 1]:
            trail.before.append((n, facts_now()))
        trail.actors.append(actor)
    with _TRAILS_LOCK:
        _TRAILS[game_id] = trail
        while len(_TRAILS) > _TRAILS_KEEP:
            _TRAILS.popitem(last=False)
    return trail


def last_moves(game_id: str, game: Game, seat: str | None,
               shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """What others did since ``seat`` last acted: their actions in order, the card played, and the
    per-space changes of public board facts (units, cannons, Wall damage) over that span.

    For a spectator: the last card's turn (the actions since the acting seat last changed hands).
    ``shared``: a dict kept over the payloads of one position (the board facts now are computed once).
    """
    ad = adapter(game.rules.info.name)
    shared = {} if shared is None else shared

    def facts_now() -> Facts:
        if "facts" not in shared:
            shared["facts"] = ad.board_facts(_view(game, None, shared))
        facts: Facts = shared["facts"]
        return facts

    trail = _trail(game_id, game, facts_now)
    n = len(game.actions)
    start = n
    while start > 0 and n - start < RECENT_STEPS:
        actor = trail.actors[start - 1]
        if (seat is not None and actor == seat) or (seat is None and start < n and actor != trail.actors[n - 1]):
            break
        start -= 1
    if start == n:
        return {"from_step": n, "actions": [], "changes": {}, "card": None}
    key = f"changes:{start}"
    if key not in shared:
        shared[key] = _changes(next((facts for k, facts in trail.before if k == start), None), facts_now)
    changes: dict[str, dict[str, int]] = shared[key]
    acts = [{"seat": trail.actors[k],
             "action": game.actions[k].to_json() if seat is not None and trail.actors[k] == seat
             else ad.public_action(game.actions[k])} for k in range(start, n)]
    card = next((ad.card_played(game.actions[k]) for k in range(n - 1, start - 1, -1)
                 if ad.card_played(game.actions[k]) is not None), None)
    return {"from_step": start, "actions": acts, "changes": changes, "card": card}


def _changes(before: Facts | None, facts_now: Callable[[], Facts]) -> dict[str, dict[str, int]]:
    """Per space, how each board fact changed from ``before`` to now (nothing if ``before`` is unknown)."""
    changes: dict[str, dict[str, int]] = {}
    if before is None:
        return changes
    now = facts_now()
    for sid in before.keys() | now.keys():
        old, new = before.get(sid, {}), now.get(sid, {})
        if old == new:  # most spaces did not change: one comparison in C
            continue
        delta = {k: new.get(k, 0) - old.get(k, 0) for k in old.keys() | new.keys() if new.get(k, 0) != old.get(k, 0)}
        if delta:
            changes[sid] = delta
    return changes


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


def _log_lines(game: Game, lang: str, start: int, shared: dict[str, Any]) -> list[str]:
    """The log's lines from ``start`` in ``lang``, rendered once per position for all the seats shown it."""
    key = f"log:{lang}:{start}"
    if key not in shared:
        shared[key] = game.log(lang, start=start)
    lines: list[str] = shared[key]
    return lines


def _shared(shared: dict[str, Any], key: str, make: Callable[[], Any]) -> Any:
    """``shared[key]``, made on first use (what every seat's payload of a position has in common)."""
    if key not in shared:
        shared[key] = make()
    return shared[key]


def _view(game: Game, seat: str | None, shared: dict[str, Any]) -> dict[str, Any]:
    """``seat``'s view of the position, built with the other seats' views when the rules can build them
    together (one serialisation of the state per position, not one per seat)."""
    views: dict[str | None, dict[str, Any]] = shared.setdefault("views", {})
    if seat not in views:
        if hasattr(game.rules, "views"):
            views.update(game.views([*game.rules.info.seats, None]))
        else:
            views[seat] = game.view(seat)
    return views[seat]


def seat_payload(game: Game, game_id: str, version: int, seat: str | None,
                 seats: dict[str, SeatInfo], lang: str = "en", log_from: int = 0,
                 shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state message for ``seat`` (None: spectator) in ``lang``; its ``log`` holds the lines from
    the ``log_from``-th on (only those are rendered: a live game's pushes carry only new lines).

    ``shared``: a dict kept over the payloads built for one position (its seats and languages), so
    what they have in common is computed once."""
    from muster.server.names import cached_names

    shared = {} if shared is None else shared
    tr = translator(lang)
    view = dict(_view(game, seat, shared))  # a copy of the top level: the views share the rest (read-only)
    view.pop("log", None)
    lines = _log_lines(game, lang, log_from, shared)
    ad = adapter(game.rules.info.name)
    if getattr(ad, "public_facts", False) and "facts" not in shared:
        shared["facts"] = ad.board_facts(view)  # the same in every seat's view: no spectator's view needed
    if "seat_names" not in shared:
        shared["seat_names"] = {s: d["name"] for s, d in ad.static_data()["seats"].items()}
        shared["players"] = players(seats, cached_names(game_id), game.rules.info.name)
    seat_names: dict[str, str] = shared["seat_names"]
    active = game.active_seat
    mine = seat is not None and active == seat and seats[seat].kind == "human"
    outcome = game.outcome
    if outcome:
        winner = f"{seat_names.get(outcome.winner, outcome.winner)} wins" if outcome.winner else "A draw"
        prompt = f"Game over. {winner}: {outcome.detail or outcome.reason}"
        last_line = lines or (game.log(lang, start=log_from - 1) if log_from else [])
        if lang != "en" and last_line:  # the log's last line says who won and why, in the reader's language
            prompt = last_line[-1]
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
        "phase": _shared(shared, f"phase:{lang}", lambda: in_language(ad.phase, lang, view)),
        "prompt": prompt,
        "help": in_language(ad.decision_help, lang, view) if mine else "",
        "legal": legal,
        "can_undo": bool(mine and game.can_undo(seat)),
        "view": view,
        "hand": list(hand),
        "hand_counts": {s: (len(h) if isinstance(h, list) else h["count"]) for s, h in view["hands"].items()},
        "last": last_moves(game_id, game, seat, shared),
        "outcome": outcome_in(game, lang),
        "seats": shared["players"],
        "log_from": log_from,
        "log": lines,
        # a translated log keeps the English lines beside it: the board module reads its structure from them
        **({"log_en": _log_lines(game, "en", log_from, shared)} if lang != "en" else {}),
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


def phase_of(view: dict[str, Any], game: str = "freedom", lang: str = "en") -> str:
    """The phase of the round of a view, in words (kept for the replay module); in ``lang`` when the game words
    it itself (Hellenes), else an English id the browser translates."""
    return str(in_language(adapter(game).phase, lang, view))


def card_info(number: int, game: str = "freedom") -> dict[str, Any]:
    """A card's printed face (every face is public; only who holds a card is hidden)."""
    return next(c for c in adapter(game).static_data()["cards"] if c["number"] == number)


__all__ = ["card_info", "last_moves", "phase_of", "players", "seat_payload"]
