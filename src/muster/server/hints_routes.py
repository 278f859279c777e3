"""Hints on the web: the per-game consent (table ``hint_consent``, migration 0005) and the hint route.

A game is created with hints proposed by the creator's seat (``"hints": seat`` in the creation body).
Against a bot that is enough; between two people the invited seat must accept (``POST
/api/seat/{token}/hints/accept``) before either may ask, and then the game is hinted for both. Hints
are computed from the asking seat's view only, by the advice worker pool (:mod:`muster.server.compute`,
never in the web process), once per position: they are cached by the game's actions, so an undo and the
same move again find them. Computing them is rate-limited per seat and per client address
(:class:`HintLimits`); an answer from the cache costs nothing and is not counted.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson
from anyio import to_thread
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from muster.analysis.consent import HintConsent, HintsRefusedError
from muster.error_texts import refusal, words_of
from muster.server.compute import Answer, ComputePool, PoolBusyError, Task, TaskFailedError, work_log
from muster.server.db import HintConsentRow
from muster.server.endpoints import error_response, hub_of
from muster.server.games import analysis_of
from muster.server.guard import TokenBuckets
from muster.server.holders import holder_of
from muster.server.hub import ApiError, LiveGame
from muster.server.lang import request_lang

log = logging.getLogger("muster.server.hints")
CACHE_SIZE = 256
"""Positions whose hints are kept in memory."""


@dataclass(frozen=True)
class HintLimits:
    """How many hints may be computed (answers from the cache are free) per minute, per seat and per client
    address; 0 turns a limit off."""

    per_seat_per_minute: float = 12.0
    per_address_per_minute: float = 60.0

    @classmethod
    def from_env(cls) -> HintLimits:
        """Defaults, overridden by ``MUSTER_HINTS_SEAT_PER_MINUTE`` and ``MUSTER_HINTS_ADDRESS_PER_MINUTE``."""
        base = cls()
        return cls(float(os.environ.get("MUSTER_HINTS_SEAT_PER_MINUTE", base.per_seat_per_minute)),
                   float(os.environ.get("MUSTER_HINTS_ADDRESS_PER_MINUTE", base.per_address_per_minute)))


class HintService:
    """The hints cache (by position), the computations under way, and the rate limits (one per app)."""

    def __init__(self, pool: ComputePool, limits: HintLimits | None = None) -> None:
        self.pool = pool
        self.limits = limits or HintLimits.from_env()
        lim = self.limits
        # a bucket holds a minute's allowance: a person may ask for several hints in a row, then waits
        self.seats = TokenBuckets(lim.per_seat_per_minute / 60, lim.per_seat_per_minute) \
            if lim.per_seat_per_minute else None
        self.addresses = TokenBuckets(lim.per_address_per_minute / 60, lim.per_address_per_minute) \
            if lim.per_address_per_minute else None
        self.cache: OrderedDict[tuple[str, str, str], list[dict[str, Any]]] = OrderedDict()
        self.computing: dict[tuple[str, str, str], asyncio.Future[Answer]] = {}
        self.computed = 0
        """How many hint lists the workers computed (the rest came from the cache)."""

    def _take(self, seat_key: str, address: str) -> None:
        for buckets, who, what in ((self.seats, seat_key, "too many hints asked from this seat: try again in {n} s"),
                                   (self.addresses, address,
                                    "too many hints asked from your address: try again in {n} s")):
            if buckets is None:
                continue
            wait = buckets.take(who)
            if wait > 0:
                raise ApiError(429, "rate_limited", refusal(what, n=round(wait)))

    async def hints(self, live: LiveGame, seat: str, address: str) -> tuple[int, list[dict[str, Any]]]:
        """(version, hints) for ``seat``'s current decision: from the cache, or computed by the pool."""
        async with live.lock:
            game, version = live.game, live.version
            if game.active_seat != seat:  # nothing to compute: hints are for the seat's own decisions
                return live.sight(seat)[1], []  # (and the other's turn still held shows no newer version)
            actions = [a.to_json() for a in game.actions]
            key = (live.id, seat, hashlib.blake2b(orjson.dumps(actions), digest_size=16).hexdigest())
            found = self.cache.get(key)
            if found is not None:
                self.cache.move_to_end(key)
                return version, found
            future = self.computing.get(key)
            if future is None:
                self._take(f"{live.id}:{seat}", address)
                try:
                    future = self.pool.submit(Task("hints", game.rules.info.name, game.seed, dict(game.options),
                                                   actions, seat), priority=0)
                except PoolBusyError as exc:
                    raise ApiError(503, "busy", "the server is busy working out hints: try again in a minute") \
                        from exc
                self.computing[key] = future
                future.add_done_callback(lambda _f: self.computing.pop(key, None))
        try:
            answer = await asyncio.shield(future)
        except TaskFailedError as exc:
            raise ApiError(500, "failed", "the hints could not be worked out; try again later") from exc
        if key not in self.cache:
            self.computed += 1
            work_log.info("hints for game %s (%s) computed by process %d in %.2f CPU-s", live.id, seat, answer.pid,
                     answer.cpu_seconds)
        found = list(answer.result)
        self.cache[key] = found
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)
        return version, found


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
    if analysis_of(live.game.rules.info.name) is None:
        raise ApiError(400, "malformed", "this game has no hints")
    await to_thread.run_sync(add_agreement, engine, live.id, seat)


def _hint_in(hint: dict[str, Any], seat: str, game: str, lang: str) -> dict[str, Any]:
    """One hint with its label (rendered from the message the worker sent with it) and reason in ``lang`` (the
    cached hint stays English)."""
    analysis = analysis_of(game)
    return {**hint, "reason": analysis.reason_in(str(hint["reason"]), lang),
            "label": analysis.label_in(hint, lang)}


def require_hints(live: LiveGame) -> None:
    """Refuse (404) hints in a game that has no analysis to give them."""
    if analysis_of(live.game.rules.info.name) is None:
        raise ApiError(404, "not_found", "this game has no hints")


async def hint_status(request: Request) -> Response:
    """This seat's view of the hint option: proposed, who agreed, hinted for both."""
    try:
        hub = hub_of(request)
        live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
        consent = await consent_of(hub.store.engine, live)
        return JSONResponse({**consent.to_json(), "seat": seat, "proposed": bool(consent.agreed)})
    except ApiError as exc:
        return error_response(exc, request)


async def hint_accept(request: Request) -> Response:
    """The invited seat accepts the hints the creator proposed."""
    try:
        hub = hub_of(request)
        live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
        consent = await consent_of(hub.store.engine, live)
        try:
            consent.accept(seat)
        except ValueError as exc:
            raise ApiError(409, "conflict", words_of(exc)) from exc
        await to_thread.run_sync(add_agreement, hub.store.engine, live.id, seat)
        return JSONResponse({**consent.to_json(), "seat": seat, "proposed": True})
    except ApiError as exc:
        return error_response(exc, request)


async def hint_get(request: Request) -> Response:
    """The strongest bot's top three choices for this seat's current decision (403 unless agreed)."""
    try:
        hub = hub_of(request)
        live, seat = await hub.by_token(request.path_params["token"], holder_of(request))
        require_hints(live)
        consent = await consent_of(hub.store.engine, live)
        try:
            consent.check(seat)
        except HintsRefusedError as exc:
            raise ApiError(403, "forbidden", words_of(exc)) from exc
        hints_of: HintService = request.app.state.hints
        address = request.client.host if request.client else "?"
        version, found = await hints_of.hints(live, seat, address)
        lang = request_lang(request)
        shown = found if lang == "en" else [_hint_in(h, seat, live.game.rules.info.name, lang) for h in found]
        return JSONResponse({"version": version, "hints": shown, "hinted": True})
    except ApiError as exc:
        response = error_response(exc, request)
        if exc.status in (429, 503):
            response.headers["Retry-After"] = "30"
        return response


def routes() -> list[BaseRoute]:
    """The hint routes."""
    return [
        Route("/api/seat/{token}/hints", hint_get),
        Route("/api/seat/{token}/hints/status", hint_status),
        Route("/api/seat/{token}/hints/accept", hint_accept, methods=["POST"]),
    ]
