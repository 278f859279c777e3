"""Web routes of the game analysis: the post-game page, its data, and the live curve of bot games.

Kept apart from app.py (which only adds :func:`routes`): the analysis is computed in a worker thread
of its own, one game at a time, from a copy of the game's actions, and cached per game version.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from anyio import CapacityLimiter, to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from muster.analysis.postgame import analyze, curve
from muster.core import Game
from muster.server.hub import ApiError, LiveGame
from muster.server.lang import request_lang

CACHE_SIZE = 64
"""Analyses kept in memory (a finished game's analysis never changes)."""


class AnalysisCache:
    """The last :data:`CACHE_SIZE` results, keyed by (kind, game id, version)."""

    def __init__(self) -> None:
        self.items: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()
        self.threads = CapacityLimiter(1)

    def get(self, key: tuple[str, str, int]) -> bytes | None:
        """A cached body, marked as recently used."""
        body = self.items.get(key)
        if body is not None:
            self.items.move_to_end(key)
        return body

    def put(self, key: tuple[str, str, int], body: bytes) -> None:
        """Remember a body, forgetting the least recently used beyond the cap."""
        self.items[key] = body
        while len(self.items) > CACHE_SIZE:
            self.items.popitem(last=False)


def _rebuild(live_game: Game, actions: list[Any]) -> Game:
    game = Game(live_game.rules, live_game.seed, live_game.options)
    for action in actions:
        game.apply(action)
    return game


def _full(game: Game) -> bytes:
    return json.dumps(analyze(game), ensure_ascii=False).encode()


def _curve(game: Game) -> bytes:
    data = curve(game)
    return json.dumps({"start_probability": data["start_probability"], "win_probability": data["win_probability"],
                       "rounds": [c["round"] for c in data["cards"]], "steps": [c["step"] for c in data["cards"]],
                       "finished": data["winner"] is not None or data["reason"] is not None}).encode()


def _cache(request: Request) -> AnalysisCache:
    state = request.app.state
    if not hasattr(state, "analysis_cache"):
        state.analysis_cache = AnalysisCache()
    cache: AnalysisCache = state.analysis_cache
    return cache


async def _compute(request: Request, live: LiveGame, kind: str) -> Response:
    cache = _cache(request)
    async with live.lock:
        actions, version = list(live.game.actions), live.version
    key = (kind, live.id, version)
    body = cache.get(key)
    if body is None:
        work = _full if kind == "full" else _curve
        body = await to_thread.run_sync(lambda: work(_rebuild(live.game, actions)), limiter=cache.threads)
        cache.put(key, body)
    lang = request_lang(request)
    if lang != "en" and kind == "full" and live.game.rules.info.name == "freedom":
        body = _labels_in(body, lang)
    return Response(body, media_type="application/json", headers={"Vary": "Accept-Language, Cookie"})


def _labels_in(body: bytes, lang: str) -> bytes:
    """The analysis with its choices' labels in ``lang`` (the cached analysis stays English)."""
    from muster.core import Action
    from muster.games.freedom.texts import label_in

    data = json.loads(body)
    for card in data.get("cards", []):
        card["label"] = label_in(Action.from_json(card["action"]), card.get("seat"), card["label"], lang)
    for tp in data.get("turning_points", []):
        played = data["cards"][tp["card"] - 1]
        tp["played"] = played["label"]
        best = tp["strongest"]
        best["label"] = label_in(Action.from_json(best["action"]), tp.get("seat"), best["label"], lang)
    return json.dumps(data).encode()


async def game_analysis(request: Request) -> Response:
    """The curve and the turning points of a finished game (open to anyone, like its replay)."""
    from muster.server.app import error_response, hub_of

    try:
        live = await hub_of(request).get(request.path_params["game_id"])
        if live.game.outcome is None:
            raise ApiError(403, "forbidden", "the analysis opens when the game is over")
        return await _compute(request, live, "full")
    except ApiError as exc:
        return error_response(exc, request)


async def live_curve(request: Request) -> Response:
    """The win-probability curve so far: for spectators of a game between bots, or of a finished game.

    A game with a person in it shows no curve while it runs (it would be a hint nobody agreed to).
    """
    from muster.server.app import error_response, hub_of

    try:
        live = await hub_of(request).get(request.path_params["game_id"])
        people = [s for s, info in live.seats.items() if not info.bot_spec]
        if live.game.outcome is None and people:
            raise ApiError(403, "forbidden", "the live curve is shown only for games between bots")
        return await _compute(request, live, "curve")
    except ApiError as exc:
        return error_response(exc, request)


def routes(page: Any) -> list[BaseRoute]:
    """The analysis routes; ``page`` makes a static-page endpoint (app.py's)."""
    return [
        Route("/analysis/{game_id}", page("analysis.html")),
        Route("/api/games/{game_id}/analysis", game_analysis),
        Route("/api/games/{game_id}/win-probability", live_curve),
    ]
