"""What a host watches: liveness and readiness, and Prometheus metrics (docs/hosting.md, "Monitoring").

* ``GET /healthz``: the process answers (liveness: restart it if this fails).
* ``GET /readyz`` (also ``/health``): the database answers, its schema is at the newest migration, and the bot
  workers are alive; 503 with the failing check otherwise (readiness: send no players to it until it passes).
* ``GET /metrics``: Prometheus' text format, for a scraper holding ``MUSTER_METRICS_TOKEN`` (sent as a bearer
  token); without that setting the path answers 404, and ``muster serve --metrics-port`` serves the same
  metrics on a separate address instead (keep that one off the public network).

With several server processes (``--workers``) every process writes its counters to files in
``PROMETHEUS_MULTIPROC_DIR`` (``muster serve`` makes one) and a scrape of any process adds them up:
prometheus-client's multi-process mode.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import os
import time
from collections.abc import Callable
from typing import Any

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from anyio import to_thread
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import multiprocess as prom_multiprocess
from sqlalchemy import text
from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from muster.server.settings import settings

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

ACTIONS = Counter("muster_actions_total", "Actions applied and stored, by game and by who acted.",
                  ["game", "by"])
ACTION_SECONDS = Histogram("muster_action_seconds", "Server time from reading an action to its acknowledgement.",
                           buckets=_LATENCY_BUCKETS)
COMMIT_SECONDS = Histogram("muster_commit_seconds", "Time of one group commit to the database.",
                           buckets=_LATENCY_BUCKETS)
REJECTED = Counter("muster_rejected_total", "Requests and messages refused, by reason (the error code).",
                   ["reason"])
GAMES_CREATED = Counter("muster_games_created_total", "Games created, by game.", ["game"])
BOT_FALLBACKS = Counter("muster_bot_fallbacks_total", "Bot choices replaced by a random legal move.")
NOTIFICATIONS = Counter("muster_notifications_total", "Notifications sent or failed, by channel and result.",
                        ["channel", "result"])
OPEN_SOCKETS = Gauge("muster_open_sockets", "Websockets open now.", multiprocess_mode="livesum")
LIVE_GAMES = Gauge("muster_live_games", "Games held in memory now.", multiprocess_mode="livesum")
BOT_QUEUE = Gauge("muster_bot_queue_depth", "Bot choices waiting for a worker now.", multiprocess_mode="livesum")


def rejected(reason: str) -> None:
    """Count one refusal (``reason``: the machine code sent with it, e.g. ``stale``, ``rate_limited``)."""
    REJECTED.labels(reason=reason[:40]).inc()


def registry() -> CollectorRegistry:
    """The registry a scrape reads: this process's, or every process's when several share the counters."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        combined = CollectorRegistry()
        prom_multiprocess.MultiProcessCollector(combined)
        return combined
    from prometheus_client import REGISTRY

    return REGISTRY


def metrics_text() -> bytes:
    """Every metric in Prometheus' text format."""
    return generate_latest(registry())


async def metrics(request: Request) -> Response:
    """``/metrics`` for a scraper holding the token; 404 for everyone else (the path does not exist for them)."""
    wanted = settings().metrics_token
    sent = request.headers.get("authorization", "")
    if not wanted or not hmac.compare_digest(sent.encode(), f"Bearer {wanted}".encode()):
        return JSONResponse({"type": "error", "code": "not_found", "error": "not found"}, status_code=404)
    return Response(metrics_text(), media_type=CONTENT_TYPE_LATEST)


def schema_is_current(engine: Engine, script_location: str) -> bool:
    """Whether the database's Alembic revision is the newest one shipped (blocking: run in a thread)."""
    head = ScriptDirectory(script_location).get_current_head()
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))
        return MigrationContext.configure(conn).get_current_revision() == head


async def healthz(request: Request) -> Response:
    """Liveness: the process and its event loop answer."""
    return PlainTextResponse("ok", headers={"Cache-Control": "no-store"})


def readiness_route(checks: Callable[[Request], Any]) -> Route:
    """``/readyz``: run ``checks`` (an async function giving ``{name: (ok, detail)}``) and answer 200 if all
    pass, else 503, listing each check."""
    async def readyz(request: Request) -> Response:
        """Readiness: database, schema and bot workers."""
        results: dict[str, tuple[bool, str]] = await checks(request)
        ok = all(passed for passed, _ in results.values())
        body = {"status": "ok" if ok else "unavailable",
                "checks": {name: {"ok": passed, "detail": detail} for name, (passed, detail) in results.items()}}
        return JSONResponse(body, status_code=200 if ok else 503, headers={"Cache-Control": "no-store"})
    return Route("/readyz", readyz)


async def check_database(engine: Engine, script_location: str, timeout_s: float = 3.0) -> dict[str, tuple[bool, str]]:
    """The database and schema checks, bounded in time (a stopped database must not hang the probe)."""
    try:
        with anyio_timeout(timeout_s):
            current = await to_thread.run_sync(schema_is_current, engine, script_location, abandon_on_cancel=True)
    except TimeoutError:
        return {"database": (False, f"no answer within {timeout_s:g} s"), "schema": (False, "unknown")}
    except Exception as exc:  # any driver error: the database is not usable
        return {"database": (False, str(exc).splitlines()[0][:200]), "schema": (False, "unknown")}
    return {"database": (True, "answers"),
            "schema": (current, "at the newest migration" if current else "migrations pending")}


def anyio_timeout(seconds: float) -> Any:
    """A cancel scope that raises TimeoutError after ``seconds``."""
    import anyio

    return anyio.fail_after(seconds)


class Sampler:
    """Copies the hub's live numbers into the gauges every ``period`` seconds (and the bot pool's fallback
    count into its counter), so the gauges stay correct when several processes' values are added up."""

    def __init__(self, hub: Any, period: float = 2.0) -> None:
        self.hub = hub
        self.period = period
        self._fallbacks_seen = 0
        self._task: asyncio.Task[None] | None = None

    def sample(self) -> None:
        """Set the gauges from the hub now."""
        hub = self.hub
        LIVE_GAMES.set(len(hub.games))
        OPEN_SOCKETS.set(sum(len(live.conns) for live in hub.games.values()))
        BOT_QUEUE.set(getattr(hub.bots, "waiting", 0))
        fallbacks = int(getattr(hub.bots, "fallbacks", 0))
        if fallbacks > self._fallbacks_seen:
            BOT_FALLBACKS.inc(fallbacks - self._fallbacks_seen)
        self._fallbacks_seen = fallbacks

    async def _run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(self.period)

    def start(self) -> None:
        """Start sampling in the background."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop sampling (and take a last sample)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.sample()


def observe_action(game: str, by: str, started: float | None = None) -> None:
    """Count one stored action (``by``: the seat's kind, "human" or "bot"); ``started``: when it was read
    (``time.perf_counter``)."""
    ACTIONS.labels(game=game, by=by).inc()
    if started is not None:
        ACTION_SECONDS.observe(time.perf_counter() - started)
