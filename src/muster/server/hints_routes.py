"""Hints on the web: the per-game consent (table ``hint_consent``, migration 0005) and the hint route.

A game is created with hints proposed by the creator's seat (``"hints": seat`` in the creation body).
Against a bot that is enough; between two people the invited seat must accept (``POST
/api/seat/{token}/hints/accept``) before either may ask, and then the game is hinted for both. Hints
are computed from the asking seat's view only, in one worker thread, and cached per game version.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from anyio import CapacityLimiter, to_thread
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from muster.analysis.advice import hints
from muster.analysis.consent import HintConsent, HintsRefusedError
from muster.analysis.texts import reason_in
from muster.core import Action, Game
from muster.games.freedom.texts import label_in
from muster.server.db import HintConsentRow
from muster.server.holders import holder_of
from muster.server.hub import ApiError, LiveGame
from muster.server.lang import request_lang

_threads = CapacityLimiter(1)
_cache: OrderedDict[tuple[str, int, str], list[dict[str, Any]]] = OrderedDict()
CACHE_SIZE = 256


def agreed_seats(engine: Engine, game_id: str) -> set[str]:
    """The seats that agreed to hints (blocking: call from a thread)."""
    with engine.connect() as conn:
        rows = conn.execute(select(HintConsentRow.seat).where(HintConsentRow.game_id == game_id)).all()
    return {str(seat) for (seat,) in rows}


def add_agreement(engine: Engine, game_id: str, seat: str) -> None:
    """Record that ``seat`` agreed (idempotent)."""
    if seat in agreed_seats(engine, game_id):
        return
    with engine.begin() as conn:
        conn.execute(insert(HintConsentRow).values(game_id=game_id, seat=seat))


def _humans(live: LiveGame) -> tuple[str, ...]:
    return tuple(seat for seat, info in live.seats.items() if not info.bot_spec)


async def consent_of(engine: Engine, live: LiveGame) -> HintConsent:
    """The game's consent as stored."""
    agreed = await to_thread.run_sync(agreed_seats, engine, live.id)
    return HintConsent(_humans(live), agreed)


async def propose_at_creation(engine: Engine, live: LiveGame, seat: str) -> None:
    """The creator (playing ``seat``) sets hints on when creating the game (ApiError if not a person's seat)."""
    if seat not in _humans(live):
        raise ApiError(400, "malformed", "hints must be proposed by a seat played by a person")
    await to_thread.run_sync(add_agreement, engine, live.id, seat)


def _compute(game: Game, actions: list[Any], seat: str) -> list[dict[str, Any]]:
    replay = Game(game.rules, game.seed, game.options)
    for action in actions:
        replay.apply(action)
    if replay.active_seat != seat:
        return []
    return [a.to_json() for a in hints(replay.view(seat), replay.legal_actions(), seat, rules=replay.rules)]


def _hint_in(hint: dict[str, Any], seat: str, game: str, lang: str) -> dict[str, Any]:
    """One hint with its label and reason in ``lang`` (the cached hint stays English)."""
    out = {**hint, "reason": reason_in(str(hint["reason"]), lang)}
    if game == "freedom":
        out["label"] = label_in(Action.from_json(hint["action"]), seat, str(hint["label"]), lang)
    return out


async def hint_status(request: Request) -> Response:
    """This seat's view of the hint option: proposed, who agreed, hinted for both."""
    from muster.server.app import error_response, hub_of

    try:
        hub = hub_of(request)
        live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
        consent = await consent_of(hub.store.engine, live)
        return JSONResponse({**consent.to_json(), "seat": seat, "proposed": bool(consent.agreed)})
    except ApiError as exc:
        return error_response(exc, request)


async def hint_accept(request: Request) -> Response:
    """The invited seat accepts the hints the creator proposed."""
    from muster.server.app import error_response, hub_of

    try:
        hub = hub_of(request)
        live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
        consent = await consent_of(hub.store.engine, live)
        try:
            consent.accept(seat)
        except ValueError as exc:
            raise ApiError(409, "conflict", str(exc)) from exc
        await to_thread.run_sync(add_agreement, hub.store.engine, live.id, seat)
        return JSONResponse({**consent.to_json(), "seat": seat, "proposed": True})
    except ApiError as exc:
        return error_response(exc, request)


async def hint_get(request: Request) -> Response:
    """The strongest bot's top three choices for this seat's current decision (403 unless agreed)."""
    from muster.server.app import error_response, hub_of

    try:
        hub = hub_of(request)
        live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
        consent = await consent_of(hub.store.engine, live)
        try:
            consent.check(seat)
        except HintsRefusedError as exc:
            raise ApiError(403, "forbidden", str(exc)) from exc
        async with live.lock:
            actions, version = list(live.game.actions), live.version
        key = (live.id, version, seat)
        found = _cache.get(key)
        if found is None:
            found = await to_thread.run_sync(_compute, live.game, actions, seat, limiter=_threads)
            _cache[key] = found
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
        lang = request_lang(request)
        shown = found if lang == "en" else [_hint_in(h, seat, live.game.rules.info.name, lang) for h in found]
        return JSONResponse({"version": version, "hints": shown, "hinted": True})
    except ApiError as exc:
        return error_response(exc, request)


def routes() -> list[BaseRoute]:
    """The hint routes."""
    return [
        Route("/api/seat/{token}/hints", hint_get),
        Route("/api/seat/{token}/hints/status", hint_status),
        Route("/api/seat/{token}/hints/accept", hint_accept, methods=["POST"]),
    ]
