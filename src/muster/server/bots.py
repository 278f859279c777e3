"""Bots for the web server: specs checked against server limits, choices made in worker processes.

The web process never runs a bot's search itself. A :class:`BotPool` keeps a few worker
processes; each bot choice goes to an idle one with a hard time limit. A worker that overruns
is killed and replaced; a bot that fails, overruns, answers with an illegal action, or finds the
queue full is replaced for that one choice by a uniformly random legal action, and the event is
logged (and, by the hub, announced in the game's log and counted). So a bot can slow only its own
game, never a person's action, and never stall a game. Bots playing people are served first.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import math
import multiprocessing
import os
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from muster.ai import Bot, BotSpecError, bot_names, make_bot
from muster.core import Action, game_names
from muster.core.bots import parse_spec

log = logging.getLogger("muster.server.bots")

# Upper bounds of the numeric bot options the server accepts (the web lobby offers named levels only;
# these hold whatever spec reaches the server: an API call, or a game stored before the limits).
NUMERIC_LIMITS: dict[str, tuple[float, float]] = {
    "seconds": (0.0, 10.0), "cpu": (0.0, 10.0), "iterations": (0, 20_000), "per_action": (0, 2_000), "width": (1, 16),
    "horizon": (0, 4), "samples": (1, 32), "nodes": (10, 20_000), "beam": (1, 32), "branch": (1, 16),
    "completions": (1, 32), "c": (0.0, 100.0), "scale": (0.0, 1_000.0), "card_ap": (-100.0, 100.0),
    "beach_threat": (-1_000.0, 1_000.0), "reach_threat": (-1_000.0, 1_000.0), "trigger_penalty": (-1_000.0, 1_000.0),
    "money_ahead": (-1_000.0, 1_000.0), "supplies_ahead": (-1_000.0, 1_000.0), "counter": (-100.0, 100.0),
    "reach_spread": (-100.0, 100.0), "workers": (0, 4),
}
MAX_SPEC_LENGTH = 200


def check_spec(spec: str, game: str, max_seconds: float = 10.0) -> None:
    """Refuse a bot spec the server will not run: unknown bot, a bot that does not play ``game``, or a
    numeric option that is not a finite number within :data:`NUMERIC_LIMITS` (``inf``, ``nan``,
    ``1e20``…), or a time budget (``seconds``) beyond ``max_seconds``. A CPU budget (``cpu``) is only held to
    its range: it is what a level promises to think, and the server's own bound still falls back past
    ``max_seconds``, so a server with a tight bound keeps offering every level. Raises :class:`BotSpecError`."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC_LENGTH:
        raise BotSpecError(f"a bot spec is a name with options, at most {MAX_SPEC_LENGTH} characters")
    name, options = parse_spec(spec)
    if name not in bot_names():
        raise BotSpecError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")
    for key, text in options.items():
        if key not in NUMERIC_LIMITS:
            continue  # word options (tree=cards, plan=all…) are checked by the bot itself
        low, high = NUMERIC_LIMITS[key]
        if key == "seconds":  # a wall-clock budget past the server's bound could only end in a fallback move
            high = min(high, max_seconds)
        try:
            value = float(text)
        except ValueError:
            raise BotSpecError(f"bot option {key}={text!r} is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise BotSpecError(f"bot option {key}={text!r} is out of range: give a number from {low:g} to {high:g}")
    make_bot(spec, seed=0, game=game)  # the bot's own checks (unknown options, bad words, other games)


@dataclass(frozen=True)
class Job:
    """One bot choice: which bot (by spec and a cache key), and what it sees."""

    key: str
    spec: str
    seed: int
    seat: str
    view: dict[str, Any]
    legal: list[Any]
    game: str
    """The registered name of the game the bot plays."""


def _worker_main(conn: Connection) -> None:
    """A worker process: answer jobs one by one; bots are kept per game (least recently used dropped)."""
    bots: OrderedDict[str, Bot] = OrderedDict()
    for game in game_names():  # import every bot before saying ready: the first choice is not slowed
        for name in bot_names(game):
            make_bot(name, seed=0, game=game)
    conn.send(("ready", None))
    while True:
        try:
            job: Job | None = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            bot = bots.pop(job.key, None) or make_bot(job.spec, seed=job.seed, game=job.game)
            bots[job.key] = bot
            while len(bots) > 512:
                bots.popitem(last=False)
            action = bot.choose(job.view, [Action.from_json(a) for a in job.legal], job.seat)
            conn.send(("ok", Action.from_json(action).to_json()))
        except Exception as exc:  # reported to the server, which logs it and falls back
            bots.pop(job.key, None)
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any) -> None:
        self._context = context
        parent, child = context.Pipe()
        self.conn: Connection = parent
        self.process = context.Process(target=_worker_main, args=(child,), name="muster-bot", daemon=True)
        self.process.start()
        child.close()
        self.ready = False

    def ask(self, job: Job, time_limit: float) -> tuple[str, Any]:
        """Send a job and wait at most ``time_limit`` seconds ("timeout" if it overran, "dead" if it died)."""
        try:
            if not self.ready:  # a fresh process imports the bots first (not counted in the time limit)
                if not self.conn.poll(120):
                    return "dead", None
                self.conn.recv()
                self.ready = True
            self.conn.send(job)
            if not self.conn.poll(time_limit):
                return "timeout", None
            answer: tuple[str, Any] = self.conn.recv()
            return answer
        except (EOFError, OSError, BrokenPipeError):
            return "dead", None

    def kill(self) -> None:
        """Stop the process at once (it is replaced by a fresh one)."""
        self.process.kill()
        self.process.join(5)
        self.conn.close()


@dataclass(frozen=True)
class Choice:
    """A bot's move, and why it was played at random instead of chosen (None: the bot chose it)."""

    action: Action
    fallback: str | None = None


class BotPool:
    """Worker processes choosing bot moves, each choice bounded by ``time_limit`` seconds.

    Choices wait for a free worker in order of urgency: a bot playing a person (``urgent``) is served
    before any bot of a game between bots, so bot-only games can never starve a person's opponent. An
    urgent choice waits for a worker up to ``urgent_wait`` seconds (default four times ``time_limit``, at
    least 30 s: being first in line, it waits for one running choice, which ends or is stopped within
    ``time_limit``, and maybe for its worker to be replaced; a move the bot thinks about late is better
    than a random one); a bot-only game's choice waits up to ``idle_wait`` seconds (nobody is waiting on
    it). ``max_waiting`` bounds the queue: beyond it a choice falls back at once rather than wait.
    """

    def __init__(self, workers: int = 1, time_limit: float = 5.0, max_waiting: int = 200,
                 idle_wait: float | None = None, urgent_wait: float | None = None) -> None:
        self.size = max(1, workers)
        self.time_limit = time_limit
        self.max_waiting = max_waiting
        self.idle_wait = idle_wait if idle_wait is not None else max(60.0, 10 * time_limit)
        self.urgent_wait = urgent_wait if urgent_wait is not None else max(30.0, 4 * time_limit)
        self.waiting = 0
        self.fallbacks = 0
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server process
        self._idle: list[Worker] | None = None
        self._waiters: list[tuple[int, int, asyncio.Future[Worker]]] = []
        self._seq = itertools.count()
        self._all: list[Worker] = []
        self._start_lock = threading.Lock()

    async def _ensure(self) -> list[Worker]:
        if self._idle is None:
            self._idle = []
            for _ in range(self.size):  # starting a process takes a while: not in the event loop
                worker = await asyncio.to_thread(Worker, self._context)
                self._all.append(worker)
                self._release(worker)
        return self._idle

    def _release(self, worker: Worker) -> None:
        """A worker is free: hand it to the most urgent waiting choice, or keep it idle."""
        while self._waiters:
            _urgency, _seq, future = heapq.heappop(self._waiters)
            if not future.done():
                future.set_result(worker)
                return
        assert self._idle is not None
        self._idle.append(worker)

    async def _acquire(self, urgent: bool) -> Worker:
        """A free worker, waiting in order of urgency (TimeoutError past the wait allowed)."""
        idle = await self._ensure()
        if idle:
            return idle.pop()
        future: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (0 if urgent else 1, next(self._seq), future))
        try:
            return await asyncio.wait_for(asyncio.shield(future), self._wait_limit(urgent))
        except (TimeoutError, asyncio.CancelledError):
            if future.done() and not future.cancelled():  # handed a worker just as we gave up: pass it on
                self._release(future.result())
            else:
                future.cancel()
            raise

    def _wait_limit(self, urgent: bool) -> float:
        return self.urgent_wait if urgent else self.idle_wait

    async def choose(self, job: Job, where: str, urgent: bool = True) -> Action:
        """The bot's choice for ``job``, or a random legal action if it fails, overruns or must wait too long."""
        return (await self.choose_noted(job, where, urgent)).action

    async def choose_noted(self, job: Job, where: str, urgent: bool = True) -> Choice:
        """As :meth:`choose`, saying whether (and why) the move was played at random. ``urgent``: the bot
        plays a person, so its choice is served first."""
        legal = [Action.from_json(a) for a in job.legal]
        await self._ensure()
        if self.waiting >= self.max_waiting:
            return self._fallback(legal, where, "the bot queue is full")
        self.waiting += 1
        try:
            worker = await self._acquire(urgent)
        except TimeoutError:
            return self._fallback(legal, where, f"no bot worker free within {self._wait_limit(urgent):g} s")
        finally:
            self.waiting -= 1
        try:
            status, answer = await asyncio.to_thread(worker.ask, job, self.time_limit)
            if status in ("timeout", "dead"):
                worker = await asyncio.to_thread(self._replace, worker)
                why = f"the bot overran its {self.time_limit:g} s" if status == "timeout" else "the bot process died"
                return self._fallback(legal, where, why)
            if status != "ok":
                return self._fallback(legal, where, f"the bot failed: {answer}")
            action = Action.from_json(answer)
            if action not in legal:
                return self._fallback(legal, where, f"the bot chose an illegal action {answer!r}")
            return Choice(action)
        finally:
            self._release(worker)

    def _replace(self, worker: Worker) -> Worker:
        worker.kill()
        fresh = Worker(self._context)
        self._all = [fresh if w is worker else w for w in self._all]
        return fresh

    def _fallback(self, legal: list[Action], where: str, why: str) -> Choice:
        self.fallbacks += 1
        log.warning("%s: %s; playing a random legal action instead", where, why)
        return Choice(random.SystemRandom().choice(legal), why)

    def close(self) -> None:
        """Stop the worker processes."""
        for worker in self._all:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in self._all:
            worker.process.join(2)
            if worker.process.is_alive():
                worker.kill()
        self._all = []
        self._idle = None
        for _urgency, _seq, future in self._waiters:
            future.cancel()
        self._waiters = []


def pool_from_env() -> BotPool:
    """A pool sized by ``MUSTER_BOT_WORKERS`` (default 1) with ``MUSTER_BOT_TIME_LIMIT`` seconds per choice
    (default 5), at most ``MUSTER_BOT_QUEUE`` choices waiting for a worker (default 200; beyond it a
    choice is played at random at once)."""
    workers = int(os.environ.get("MUSTER_BOT_WORKERS", "1"))
    limit = float(os.environ.get("MUSTER_BOT_TIME_LIMIT", "5"))
    queue = int(os.environ.get("MUSTER_BOT_QUEUE", "200"))
    if not math.isfinite(limit) or not 0.05 <= limit <= 120:
        raise ValueError("MUSTER_BOT_TIME_LIMIT must be a number of seconds from 0.05 to 120")
    if not 1 <= workers <= 64:
        raise ValueError("MUSTER_BOT_WORKERS must be from 1 to 64")
    if not 0 <= queue <= 100_000:
        raise ValueError("MUSTER_BOT_QUEUE must be from 0 to 100000")
    return BotPool(workers, limit, queue)
