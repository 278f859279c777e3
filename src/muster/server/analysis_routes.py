"""Web routes of the game analysis: the post-game page, its data, and the live curve of bot games.

Kept apart from app.py (which only adds :func:`routes`). Nothing here computes in the web process:

* A finished game's analysis is worked out once, by the analysis worker pool
  (:mod:`muster.server.compute`), and stored in the ``analyses`` table; every later request, also after
  a restart, is served from there. While it is computed the API answers 202 with its progress. Starting
  one is bounded: at most ``per_address`` analyses under way per client address
  (429), and the pool's queue (503).
* The live curve (cheap, ~0.1 CPU-s) is computed by the advice pool, once per game version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections import OrderedDict
from typing import Any

from anyio import to_thread
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from muster.error_texts import refusal
from muster.server.compute import Answer, ComputePool, PoolBusyError, Task, TaskFailedError, work_log
from muster.server.db import AnalysisRow
from muster.server.endpoints import error_response, hub_of
from muster.server.games import analysis_of
from muster.server.hub import ApiError, LiveGame
from muster.server.lang import request_lang

log = logging.getLogger("muster.server.analysis")

METHOD = "postgame-2"
"""Names the analysis stored: change it when the analysis changes, and stored ones are worked out again."""
CACHE_SIZE = 64
"""Live curves kept in memory."""
_BACKGROUND: set[asyncio.Task[Any]] = set()


def client_address(request: Request) -> str:
    """The peer address a per-address limit counts against."""
    return request.client.host if request.client else "?"


# --- storage (blocking: called in threads) ---------------------------------------------------------------
def load_row(engine: Engine, game_id: str) -> tuple[str, str, int, str | None, int] | None:
    """(method, status, progress, body, updated_at) of a game's stored analysis, or None."""
    with engine.connect() as conn:
        row = conn.execute(select(AnalysisRow.method, AnalysisRow.status, AnalysisRow.progress, AnalysisRow.body,
                                  AnalysisRow.updated_at).where(AnalysisRow.game_id == game_id)).first()
    return None if row is None else (str(row[0]), str(row[1]), int(row[2]), row[3], int(row[4]))


def claim(engine: Engine, game_id: str, stale_before: int) -> bool:
    """Mark a game's analysis as being computed by us: True if no other process is computing it (none
    stored, a stale or failed attempt, or one by another method)."""
    now = int(time.time())
    try:
        with engine.begin() as conn:
            conn.execute(insert(AnalysisRow).values(game_id=game_id, method=METHOD, status="pending", progress=0,
                                                    body=None, updated_at=now))
        return True
    except IntegrityError:
        pass
    with engine.begin() as conn:
        done = conn.execute(update(AnalysisRow).where(
            AnalysisRow.game_id == game_id,
            (AnalysisRow.method != METHOD) | ((AnalysisRow.status != "done") & (AnalysisRow.updated_at < stale_before)),
        ).values(method=METHOD, status="pending", progress=0, body=None, updated_at=now))
        return bool(done.rowcount)


def release(engine: Engine, game_id: str) -> None:
    """Give up an analysis not finished (the server is stopping): the next request starts it again."""
    with engine.begin() as conn:
        conn.execute(delete(AnalysisRow).where(AnalysisRow.game_id == game_id, AnalysisRow.status != "done"))


def save(engine: Engine, game_id: str, status: str, progress: int, body: str | None = None) -> None:
    """Record the analysis's progress (``status`` pending) or its end (done or failed). Progress is written
    only while the analysis is pending: a late progress report never overwrites its end."""
    with engine.begin() as conn:
        where = [AnalysisRow.game_id == game_id, AnalysisRow.method == METHOD]
        if status == "pending":
            conn.execute(update(AnalysisRow).where(*where, AnalysisRow.status == "pending")
                         .values(progress=progress, updated_at=int(time.time())))
        else:
            conn.execute(update(AnalysisRow).where(*where)
                         .values(status=status, progress=progress, body=body, updated_at=int(time.time())))


# --- the service ---------------------------------------------------------------------------------------
class AnalysisService:
    """Starts, follows and serves the analyses of finished games (one per app)."""

    def __init__(self, engine: Engine, pool: ComputePool, advice: ComputePool, per_address: int = 2,
                 stale_after: float | None = None) -> None:
        self.engine = engine
        self.pool = pool
        self.advice = advice
        self.per_address = per_address
        self.stale_after = stale_after if stale_after is not None else pool.time_limit + 60
        """A pending analysis not advanced for this long is taken as abandoned (its process died)."""
        self.under_way: dict[str, str] = {}
        """Game id -> the address that started its analysis, while this process computes it."""
        self.progress: dict[str, float] = {}
        self.curves: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self.curving: dict[tuple[str, int], asyncio.Future[Answer]] = {}

    @classmethod
    def from_env(cls, engine: Engine, pool: ComputePool, advice: ComputePool) -> AnalysisService:
        """Limits from ``MUSTER_ANALYSIS_PER_ADDRESS`` (analyses under way per client address, default 2)."""
        per_address = int(os.environ.get("MUSTER_ANALYSIS_PER_ADDRESS", "2"))
        if not 1 <= per_address <= 1000:
            raise ValueError("MUSTER_ANALYSIS_PER_ADDRESS must be from 1 to 1000")
        return cls(engine, pool, advice, per_address)

    def _in_progress(self, progress: float) -> Response:
        queued = max(0, self.pool.pending - self.pool.size)
        return JSONResponse({"status": "in_progress", "progress": round(progress, 2), "queued": queued},
                            status_code=202, headers={"Retry-After": "2", "Cache-Control": "no-store"})

    async def answer(self, live: LiveGame, address: str) -> Response | bytes:
        """The stored analysis (bytes), or a 202 saying how far it has got (starting it if nobody has)."""
        game_id = live.id
        if game_id in self.under_way:
            return self._in_progress(self.progress.get(game_id, 0.0))
        row = await to_thread.run_sync(load_row, self.engine, game_id)
        stale_before = int(time.time() - self.stale_after)
        if row is not None and row[0] == METHOD:
            _method, status, progress, body, updated = row
            if status == "done" and body is not None:
                return body.encode()
            if updated >= stale_before:
                if status == "pending":  # another server process is computing it
                    return self._in_progress(progress / 100)
                raise ApiError(500, "failed", "the analysis of this game could not be worked out; try again later")
        mine = sum(1 for who in self.under_way.values() if who == address)
        if mine >= self.per_address:
            raise ApiError(429, "rate_limited", refusal(
                "{n} analyses asked from your address are still being worked out: wait for them", n=mine))
        if self.pool.pending >= self.pool.max_waiting + self.pool.size:
            raise ApiError(503, "busy", "the analysis queue is full: try again in a minute")
        if not await to_thread.run_sync(claim, self.engine, game_id, stale_before):
            return self._in_progress(0.0)  # another process claimed it a moment ago
        async with live.lock:
            game = live.game
            task = Task("analysis", game.rules.info.name, game.seed, dict(game.options),
                        [a.to_json() for a in game.actions])
        try:
            future = self.pool.submit(task, progress=lambda share: self._advanced(game_id, share))
        except PoolBusyError as exc:
            await to_thread.run_sync(save, self.engine, game_id, "failed", 0)
            raise ApiError(503, "busy", "the analysis queue is full: try again in a minute") from exc
        self.under_way[game_id] = address
        self.progress[game_id] = 0.0
        job = asyncio.get_running_loop().create_task(self._finish(game_id, future))
        _BACKGROUND.add(job)
        job.add_done_callback(_BACKGROUND.discard)
        return self._in_progress(0.0)

    def _advanced(self, game_id: str, share: float) -> None:
        self.progress[game_id] = share
        # stored too, so another server process (or a page asking it) shows the same progress
        job = asyncio.get_running_loop().create_task(
            to_thread.run_sync(save, self.engine, game_id, "pending", int(share * 100)))
        _BACKGROUND.add(job)
        job.add_done_callback(_BACKGROUND.discard)

    async def _finish(self, game_id: str, future: asyncio.Future[Answer]) -> None:
        try:
            answer = await future
            body = json.dumps({**answer.result, "status": "done"}, ensure_ascii=False)
            await to_thread.run_sync(save, self.engine, game_id, "done", 100, body)
            work_log.info("analysis of game %s computed by process %d in %.2f CPU-s", game_id, answer.pid,
                     answer.cpu_seconds)
        except TaskFailedError as exc:
            log.warning("analysis of game %s failed: %s", game_id, exc)
            await to_thread.run_sync(save, self.engine, game_id, "failed", 0)
        except asyncio.CancelledError:  # the server is stopping: not a failure of the analysis
            with contextlib.suppress(Exception):
                release(self.engine, game_id)
            raise
        except Exception:
            log.exception("analysis of game %s could not be stored", game_id)
        finally:
            self.under_way.pop(game_id, None)
            self.progress.pop(game_id, None)

    async def curve(self, live: LiveGame) -> bytes:
        """The live curve at the game's current version, computed once by the advice pool."""
        async with live.lock:
            game, version = live.game, live.version
            key = (live.id, version)
            found = self.curves.get(key)
            if found is not None:
                self.curves.move_to_end(key)
                return found
            future = self.curving.get(key)
            if future is None:
                try:
                    future = self.advice.submit(Task("curve", game.rules.info.name, game.seed, dict(game.options),
                                                     [a.to_json() for a in game.actions]))
                except PoolBusyError as exc:
                    raise ApiError(503, "busy", "the server is busy working out analyses: try again in a minute") \
                        from exc
                self.curving[key] = future
        try:
            answer = await asyncio.shield(future)
        except TaskFailedError as exc:
            raise ApiError(500, "failed", "the curve could not be worked out; try again later") from exc
        finally:
            self.curving.pop(key, None)
        body = json.dumps(answer.result).encode()
        self.curves[key] = body
        while len(self.curves) > CACHE_SIZE:
            self.curves.popitem(last=False)
        return body


def service(request: Request) -> AnalysisService:
    """The app's analysis service."""
    found: AnalysisService = request.app.state.analysis
    return found


def _labels_in(body: bytes, game: str, lang: str) -> bytes:
    """The analysis with its choices' labels in ``lang``, rendered from the messages stored beside them (the stored
    analysis stays English)."""
    analysis = analysis_of(game)
    data = json.loads(body)
    for card in data.get("cards", []):
        card["label"] = analysis.label_in(card, lang)
    for tp in data.get("turning_points", []):
        played = data["cards"][tp["card"] - 1]
        tp["played"] = played["label"]
        best = tp["strongest"]
        best["label"] = analysis.label_in(best, lang)
    return json.dumps(data).encode()


def require_analysis(live: LiveGame) -> None:
    """Refuse (404) the analysis of a game that has none."""
    if analysis_of(live.game.rules.info.name) is None:
        raise ApiError(404, "not_found", "this game has no analysis")


async def game_analysis(request: Request) -> Response:
    """The curve and the turning points of a finished game (open to anyone, like its replay): 200 with the
    stored analysis, or 202 with its progress while it is worked out."""
    try:
        live = await hub_of(request).get(request.path_params["game_id"])
        require_analysis(live)
        if live.game.outcome is None:
            raise ApiError(403, "forbidden", "the analysis opens when the game is over")
        found = await service(request).answer(live, client_address(request))
        if isinstance(found, Response):
            return found
        lang = request_lang(request)
        if lang != "en":
            found = _labels_in(found, live.game.rules.info.name, lang)
        return Response(found, media_type="application/json", headers={"Vary": "Accept-Language, Cookie"})
    except ApiError as exc:
        response = error_response(exc, request)
        if exc.status in (429, 503):
            response.headers["Retry-After"] = "30"
        return response


async def live_curve(request: Request) -> Response:
    """The win-probability curve so far: for spectators of a game between bots, or of a finished game.

    A game with a person in it shows no curve while it runs (it would be a hint nobody agreed to).
    """
    try:
        live = await hub_of(request).get(request.path_params["game_id"])
        require_analysis(live)
        people = [s for s, info in live.seats.items() if not info.bot_spec]
        if live.game.outcome is None and people:
            raise ApiError(403, "forbidden", "the live curve is shown only for games between bots")
        body = await service(request).curve(live)
        return Response(body, media_type="application/json", headers={"Vary": "Accept-Language, Cookie"})
    except ApiError as exc:
        return error_response(exc, request)


def routes(page: Any) -> list[BaseRoute]:
    """The analysis routes; ``page`` makes a static-page endpoint (app.py's)."""
    return [
        Route("/analysis/{game_id}", page("analysis.html")),
        Route("/api/games/{game_id}/analysis", game_analysis),
        Route("/api/games/{game_id}/win-probability", live_curve),
    ]
