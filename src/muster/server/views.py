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
from functools import lru_cache, partial
from typing import Any

from muster.ai.levels import level_name
from muster.core import Action, Game
from muster.i18n import Translator, message_of, translator
from muster.server import fallbacks
from muster.server.games import adapter, in_language
from muster.server.names import cached_names
from muster.server.store import SeatInfo

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
    """Board facts (by kind, see :data:`Facts`) before each of the last few steps where the acting seat
    changed (a span of marked moves always starts at such a step), so the trail stays small."""
    last_took: dict[str | None, int] = field(default_factory=dict)
    """Per seat, the last step it took: where a seat's span of marked moves starts, without a search back."""
    cards: list[tuple[int, int]] = field(default_factory=list)
    """``(step, card)`` of the recent steps that played a card (ascending): the span's card, without a search."""
    shown: list[dict[str, Any]] = field(default_factory=list)
    """``shown[k - shown_from]``: step k as another seat sees it in the marks, ``{"seat": actor, "action":
    public form}``, made once (the same for every seat and every later position; messages only read it).
    Only the steps of spans that can still be shown are kept."""
    shown_from: int = 0

    def took(self, step: int, actor: str | None, action: Action, card_played: Callable[[Action], int | None]) -> None:
        """Note that ``actor`` took ``step`` with ``action``."""
        self.last_took[actor] = step
        card = card_played(action)
        if card is not None:
            if len(self.cards) >= 16:  # older ones lie beyond any span's reach (RECENT_STEPS) soon enough
                del self.cards[:8]
            self.cards.append((step, card))


_TRAILS: OrderedDict[str, _Trail] = OrderedDict()
_TRAILS_LOCK = threading.Lock()
_TRAILS_KEEP = 4096


Facts = dict[str, dict[str, int]]
"""Public board facts by kind: ``{kind: {space: n}}`` (the adapters' ``board_facts`` turned around: a kind
that did not change compares equal as a whole, in C, so a position's changes cost little)."""


def facts_by_kind(ad: Any, view: dict[str, Any]) -> Facts:
    """The board facts of a view by kind: the adapter's own ``facts_by_kind`` when it has one (a view that
    holds them so already), else its ``board_facts`` turned around."""
    fast = getattr(ad, "facts_by_kind", None)
    if fast is not None:
        made: Facts = fast(view)
        return made
    out: Facts = {}
    for sid, kinds in ad.board_facts(view).items():
        for kind, n in kinds.items():
            out.setdefault(kind, {})[sid] = n
    return out


def _replayed(game: Game) -> _Trail:
    """A trail built by replaying the game's actions (up to, not including, its current position)."""
    trail = _Trail()
    ad = adapter(game.rules.info.name)
    replay = Game(game.rules, game.seed, game.options)
    n = len(game.actions)
    for k, action in enumerate(game.actions):
        actor = replay.active_seat
        if n - k <= RECENT_STEPS and (k == 0 or actor != trail.actors[k - 1]):
            trail.before.append((k, facts_by_kind(ad, replay.view(None))))
        trail.actors.append(actor)
        trail.took(k, actor, action, ad.card_played)
        replay.apply(action)
    return trail


def _trail(game_id: str, game: Game, facts_now: Callable[[], Facts]) -> _Trail:
    """The game's trail brought up to its current position (``facts_now``: that position's board facts)."""
    actions = game.actions
    n = len(actions)
    with _TRAILS_LOCK:
        trail = _TRAILS.pop(game_id, None)
    seen = len(trail.actions) if trail is not None else -1
    if trail is not None and seen == n - 1:
        # the game must still start with the trail's actions: compared with the newest one taken on
        # (lists compare in C; no copy of the game's list is made for it)
        trail.actions.append(actions[-1])
        if trail.actions == actions:
            trail.took(n - 1, trail.actors[n - 1], actions[-1], adapter(game.rules.info.name).card_played)
        else:
            trail = None
    elif trail is not None and (seen != n or trail.actions != actions):
        trail = None
    if trail is None:
        trail = _replayed(game)  # it missed a position (or the game went back): replay once
        trail.actions = list(actions)
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


def _facts_now(game: Game, ad: Any, shared: dict[str, Any]) -> Facts:
    """The board facts of the position in ``shared``, computed once for all its payloads."""
    if "facts" not in shared:
        shared["facts"] = facts_by_kind(ad, _view(game, None, shared))
    facts: Facts = shared["facts"]
    return facts


def last_moves(game_id: str, game: Game, seat: str | None,
               shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """What others did since ``seat`` last acted: their actions in order, the card played, and the
    per-space changes of public board facts (units, cannons, Wall damage) over that span.

    For a spectator: the last card's turn (the actions since the acting seat last changed hands).
    ``shared``: a dict kept over the payloads of one position (the board facts now are computed once).
    """
    shared = {} if shared is None else shared
    common = shared.get("position")
    ad = adapter(game.rules.info.name) if common is None else common["adapter"]
    if "trail" not in shared:  # brought up to date once per position, not once per seat
        shared["trail"] = _trail(game_id, game, partial(_facts_now, game, ad, shared))
    trail: _Trail = shared["trail"]
    n = len(game.actions)
    if seat is not None:  # just after the seat's last step, reaching back at most RECENT_STEPS
        start = max(trail.last_took.get(seat, -1) + 1, n - RECENT_STEPS, 0)
    else:  # a spectator: the steps since the acting seat last changed hands
        start = n
        while start > 0 and n - start < RECENT_STEPS:
            if start < n and trail.actors[start - 1] != trail.actors[n - 1]:
                break
            start -= 1
    if start == n:
        return {"from_step": n, "actions": [], "changes": {}, "card": None}
    key = f"changes:{start}"
    if key not in shared:
        before = None
        for step, facts in trail.before:
            if step == start:
                before = facts
                break
        shared[key] = _changes(before, partial(_facts_now, game, ad, shared))
    changes: dict[str, dict[str, int]] = shared[key]
    shown = trail.shown
    # No span, now or later, starts before every seat's last step (a spectator's starts after the other
    # seats' last steps too) nor more than RECENT_STEPS back: the steps before are forgotten, so a game
    # keeps only its current spans in this form.
    low = max(min(trail.last_took.get(s, -1) for s in game.rules.info.seats) + 1, n - RECENT_STEPS, 0)
    if not shown:
        trail.shown_from = low
    elif low - trail.shown_from >= 16:  # forgotten a few at a time
        del shown[:low - trail.shown_from]
        trail.shown_from = low
    base = trail.shown_from
    for k in range(base + len(shown), n):
        shown.append({"seat": trail.actors[k], "action": ad.public_action(game.actions[k])})
    if seat is not None and seat in trail.actors[start:n]:  # the seat's own steps in full
        acts = [{"seat": seat, "action": game.actions[k].to_json()} if trail.actors[k] == seat
                else shown[k - base] for k in range(start, n)]
    else:
        acts = shown[start - base:n - base]
    card = next((played for k, played in reversed(trail.cards) if k >= start), None)
    return {"from_step": start, "actions": acts, "changes": changes, "card": card}


def _changes(before: Facts | None, facts_now: Callable[[], Facts]) -> dict[str, dict[str, int]]:
    """Per space, how each board fact changed from ``before`` to now, ``{space: {kind: change}}`` (nothing if
    ``before`` is unknown). ``before`` and now are by kind (:func:`facts_by_kind`)."""
    changes: dict[str, dict[str, int]] = {}
    if before is None:
        return changes
    now = facts_now()
    for kind in before.keys() | now.keys():
        old, new = before.get(kind, {}), now.get(kind, {})
        if old == new:  # most kinds did not change: one comparison in C
            continue
        for sid in old.keys() | new.keys():
            delta = new.get(sid, 0) - old.get(sid, 0)
            if delta:
                changes.setdefault(sid, {})[kind] = delta
    return changes


def players(seats: dict[str, SeatInfo], names: dict[str, str] | None, game: str) -> dict[str, dict[str, Any]]:
    """Who plays each seat: a person (with the name they gave) or a bot named by its level.

    For a person, ``taken`` says whether the seat is held yet (False while its invitation waits), and
    ``together`` whether one browser holds every seat played by a person (a game played at one screen, or
    an invitation the creator took up itself): both players see who holds each seat."""
    holders = [info.holder for info in seats.values() if info.kind == "human"]
    together = len(holders) > 1 and holders[0] is not None and len(set(holders)) == 1
    key = tuple((seat, info.kind, info.bot_spec, (names or {}).get(seat), info.taken) for seat, info in seats.items())
    return _players(key, game, together)


@lru_cache(maxsize=4096)
def _players(key: tuple[tuple[str, str, str | None, str | None, bool], ...], game: str,
             together: bool) -> dict[str, dict[str, Any]]:
    """:func:`players` of one game's seats and names, made once (every push carries it; it is only read)."""
    out: dict[str, dict[str, Any]] = {}
    for seat, kind, spec, name, taken in key:
        out[seat] = {"kind": kind, "bot": spec, "level": level_name(spec, game), "name": name}
        if kind == "human":
            out[seat] |= {"taken": taken, "together": together}
    return out


def seat_name(tr: Translator, seat: str | None, english: dict[str, str] | None = None) -> str:
    """A seat's name in the translator's language (the English name from ``english``, the game's seat names,
    for a seat the catalog does not know; else the seat's id)."""
    key = f"side:{seat}"
    text = tr.gettext(key)
    if text != key:
        return text
    return (english or {}).get(seat or "", seat or "")


def wire_log(game: Game, lang: str, start: int = 0) -> list[dict[str, Any]]:
    """The log's entries from ``start`` as the front ends get them: each its message id ``m``, its arguments
    ``a`` as the rules gave them (numbers, dice, sides, spaces and cards by their ids; ``p``: the plural id)
    and ``t``, the line in ``lang``. A front end reads what a line is from ``m`` and ``a`` and shows ``t``:
    nothing is read back out of the words. An older game's English line, or a line of rules that keep their
    log only in words, is ``{"t": line}``."""
    lines = game.log(lang, start=start)
    entries = game.log_entries(start)
    if entries is None or len(entries) != len(lines):
        return [{"t": line} for line in lines]
    out: list[dict[str, Any]] = []
    for e, line in zip(entries, lines, strict=True):
        if isinstance(e, dict) and "m" in e:
            item = {"m": e["m"], "a": e.get("a") or {}, "t": line}
            if "p" in e:
                item["p"] = e["p"]
            out.append(item)
        else:
            out.append({"t": line})
    return out


def _log_lines(game: Game, lang: str, start: int, shared: dict[str, Any]) -> list[dict[str, Any]]:
    """The log's entries from ``start`` in ``lang`` (:func:`wire_log`), made once per position for all the
    seats shown it."""
    key = f"log:{lang}:{start}"
    if key not in shared:
        shared[key] = wire_log(game, lang, start)
    lines: list[dict[str, Any]] = shared[key]
    return lines


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


@lru_cache(maxsize=16)
def _seat_names(game: str) -> dict[str, str]:
    """A game's seats by their English names (static: made once per game, only read)."""
    return {seat: data["name"] for seat, data in adapter(game).static_data()["seats"].items()}


def _position(game: Game, game_id: str, seats: dict[str, SeatInfo], shared: dict[str, Any]) -> dict[str, Any]:
    """What every payload of the position in ``shared`` has in common, whatever its seat and language:
    made once per position."""
    common: dict[str, Any] | None = shared.get("position")
    if common is None:
        name = game.rules.info.name
        ad = adapter(name)
        if "seat_names" not in shared:
            shared["seat_names"] = _seat_names(name)
            shared["players"] = players(seats, cached_names(game_id), name)
        common = shared["position"] = {"name": name, "adapter": ad, "active": game.active_seat,
                                       "outcome": game.outcome, "step": len(game.actions)}
    return common


def seat_payload(game: Game, game_id: str, version: int, seat: str | None,
                 seats: dict[str, SeatInfo], lang: str = "en", log_from: int = 0,
                 shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state message for ``seat`` (None: spectator) in ``lang``; its ``log`` holds the lines from
    the ``log_from``-th on (only those are rendered: a live game's pushes carry only new lines).

    ``shared``: a dict kept over the payloads built for one position (its seats and languages), so
    what they have in common is computed once."""
    shared = {} if shared is None else shared
    common = _position(game, game_id, seats, shared)
    ad = common["adapter"]
    view = dict(_view(game, seat, shared))  # a copy of the top level: the views share the rest (read-only)
    view.pop("log", None)
    lines = _log_lines(game, lang, log_from, shared)
    if "facts" not in shared and getattr(ad, "public_facts", False):
        shared["facts"] = facts_by_kind(ad, view)  # the same in every seat's view: no spectator's view needed
    seat_names: dict[str, str] = shared["seat_names"]
    active: str | None = common["active"]
    mine = seat is not None and active == seat and seats[seat].kind == "human"
    outcome = common["outcome"]
    prompt_message = None
    if outcome:
        winner = f"{seat_names.get(outcome.winner, outcome.winner)} wins" if outcome.winner else "A draw"
        prompt = f"Game over. {winner}: {outcome.detail or outcome.reason}"
        last_line = [e["t"] for e in lines] or (game.log(lang, start=log_from - 1) if log_from else [])
        if outcome.reason in ENDED_OUTSIDE:  # ended outside the rules: the log does not say so
            prompt = resigned_text(game, lang)
        elif lang != "en" and last_line:  # the log's last line says who won and why, in the reader's language
            prompt = last_line[-1]
    elif mine:
        prompt = game.prompt
        prompt_message = message_of(prompt)  # the rules' message, when they keep one: its id and typed arguments
        if lang != "en" and hasattr(ad, "prompt_for"):
            prompt = ad.prompt_for(view, seat, prompt, lang)
    else:  # the same for every waiting seat and spectator of this language
        key = f"waiting:{lang}"
        if key not in shared:
            tr = translator(lang)
            shared[key] = tr.fmt("Waiting for the {side} player.", side=seat_name(tr, active, seat_names))
        prompt = shared[key]
    legal: list[dict[str, Any]] = []
    if mine:
        labelled = game.labelled_actions()
        actions = [action for action, _ in labelled]
        english = lang == "en"  # the adapter's methods called directly: in_language costs a call per choice
        chance_of = getattr(ad, "chance", None)
        for action, label in labelled:
            said = message_of(label)  # the rules' message, when they keep one: its id and typed arguments
            if not english and hasattr(ad, "label_for"):
                label = ad.label_for(view, action, seat, label, lang)
            item: dict[str, Any] = {"action": action.to_json(), "label": label,
                                    "hint": ad.hint(view, action, seat) if english
                                    else in_language(ad.hint, lang, view, action, seat)}
            warning = (ad.warning(view, action, seat, actions) if english
                       else in_language(ad.warning, lang, view, action, seat, actions))
            if warning:
                item["confirm"] = warning
            chance = chance_of(view, action, seat) if chance_of is not None else None
            if chance is not None:  # a number for the board to draw, beside the hint's words
                item["chance"] = round(chance, 3)
            if said is not None:
                item["message"] = said
            legal.append(item)
        if getattr(ad, "confirm_commits", False) and seat is not None:
            _confirm_commits(game, seat, legal, lang)
        if hasattr(ad, "effects_now"):  # what an event would do at once, said before the click
            for k, note in ad.effects_now(_view(game, seat, shared), seat, actions, lang).items():
                legal[k]["effect"] = note
    hand = view["hands"][seat] if seat else []
    by_lang = shared.get(f"lang:{lang}")  # what the payloads of one language share: the phase, the outcome
    if by_lang is None:
        tr = translator(lang)
        by_lang = shared[f"lang:{lang}"] = (in_language(ad.phase, lang, view), outcome_in(game, lang),
                                            fallbacks.payload(game_id, tr, partial(seat_name, tr,
                                                                                   english=seat_names)))
    return {
        "type": "state",
        "lang": lang,
        "game": common["name"],
        "game_id": game_id,
        "seat": seat,
        "version": version,
        "step": common["step"],
        "active_seat": active,
        "round": view.get("round"),
        "phase": by_lang[0],
        "prompt": prompt,
        "prompt_message": prompt_message,
        "help": in_language(ad.decision_help, lang, view) if mine else "",
        "legal": legal,
        "can_undo": bool(mine and game.can_undo(seat)),
        "view": view,
        "hand": list(hand),
        "hand_counts": {s: (len(h) if isinstance(h, list) else h["count"]) for s, h in view["hands"].items()},
        "last": last_moves(game_id, game, seat, shared),
        "outcome": by_lang[1],
        "seats": shared["players"],
        "fallbacks": by_lang[2],
        "log_from": log_from,
        "log": lines,
    }


EXPLICIT_ENDINGS = frozenset({"end", "done", "pass"})
"""Verbs whose very name says the turn ends: they need no second question."""


def _confirm_commits(game: Game, seat: str, legal: list[dict[str, Any]], lang: str) -> None:
    """Ask once more before a click that cannot be undone although nothing on it says so: one that hands the
    turn over (the destination of a free Regroup that ends the Opening) or rolls dice or draws cards (the
    target of an attack). Each choice is tried on a copy of the position; only whether the turn passes or can
    still be undone is read from it, which the rules make public, never what the dice or cards would be."""
    rules = game.rules
    ad = adapter(rules.info.name)
    tr = None
    for item in legal:
        action = Action.from_json(item["action"])
        if "confirm" in item or action.verb in EXPLICIT_ENDINGS or ad.card_played(action) is not None:
            continue  # a card's menu is itself the second step: choosing a use there is deliberate
        after = rules.clone(game.state)
        rules.apply(after, action)
        if rules.outcome(after) is not None:
            continue  # the game ends: the game-over screen says so
        passes = rules.active_seat(after) != seat
        if passes or rules.undo_start(after) is None:
            tr = tr or translator(lang)
            item["confirm"] = (tr.gettext("This ends your turn, and it cannot be undone. Go on?") if passes else
                               tr.gettext("This rolls dice or shows a card, and it cannot be undone. Go on?"))


def outcome_in(game: Game, lang: str) -> dict[str, Any] | None:
    """The game's result as JSON, its ``detail`` (why it ended) in ``lang`` where the game words it."""
    outcome = game.outcome
    if outcome is None:
        return None
    data = outcome.to_json()
    if outcome.reason in ENDED_OUTSIDE:
        data["detail"] = resigned_text(game, lang)
        return data
    detail_in = getattr(adapter(game.rules.info.name), "outcome_detail_in", None) if lang != "en" else None
    if detail_in is not None:  # a game that words why it ended in other languages
        data["detail"] = detail_in(game.state.log, lang) or data["detail"]
    return data


ENDED_OUTSIDE = ("resigned", "timeout")
"""Reasons a game ends outside its rules (:meth:`muster.core.Game.resign`): a player gave up, or ran out of time."""


def resigned_text(game: Game, lang: str) -> str:
    """"Game over: <side> resigned." (or "… ran out of time.") in ``lang``, for a game a player gave up or lost
    on time."""
    tr = translator(lang)
    quitter = next((s for s in game.rules.info.seats if s != (game.outcome and game.outcome.winner)), "")
    english = {s: d["name"] for s, d in adapter(game.rules.info.name).static_data()["seats"].items()}
    side = seat_name(tr, quitter, english)
    if game.outcome is not None and game.outcome.reason == "timeout":
        return tr.gettext("Game over: {side} ran out of time.").format(side=side)
    return tr.gettext("Game over: {side} resigned.").format(side=side)


def phase_of(view: dict[str, Any], game: str, lang: str = "en") -> str:
    """The phase of the round of a view, in words (kept for the replay module); in ``lang`` when the game words
    it itself, else an English id the browser translates."""
    return str(in_language(adapter(game).phase, lang, view))


def card_info(number: int, game: str) -> dict[str, Any]:
    """A card's printed face (every face is public; only who holds a card is hidden)."""
    return next(c for c in adapter(game).static_data()["cards"] if c["number"] == number)


__all__ = ["card_info", "last_moves", "phase_of", "players", "seat_payload", "wire_log"]
