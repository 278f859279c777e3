"""Analysis work outside the web process: post-game analyses, hints and live curves, in worker processes.

The web process never runs an analysis itself (one costs up to ~20 CPU-seconds, a hint up to ~1.5): it
hands a :class:`Task` to a :class:`ComputePool`, which keeps worker processes (started on first use) and
a bounded queue served by priority, and awaits the answer. A worker reports progress while it works; a
task that overruns its time limit gets its worker killed and replaced. Jobs are plain data (the game's
rules, seed, options and actions), so a worker rebuilds the game itself and shares nothing with the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import json
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from muster.ai import make_bot
from muster.core import Action, Game, get_rules
from muster.core.registry import game_module, game_modules

log = logging.getLogger("muster.server.compute")
work_log = logging.getLogger("muster.server.work")
"""One line per analysis or hint list computed: which worker process did it, at what CPU cost. Shown at
INFO level on standard error (the server's other loggers show warnings only)."""
if not work_log.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    work_log.addHandler(_handler)
    work_log.setLevel(logging.INFO)
    work_log.propagate = False


class PoolBusyError(Exception):
    """The pool's queue is full: the caller should refuse the request (503) rather than wait."""


class TaskFailedError(Exception):
    """The worker failed, died or overran its time limit on a task."""


@dataclass(frozen=True)
class Task:
    """One piece of analysis work: ``kind`` is ``analysis``, ``curve`` or ``hints``."""

    kind: str
    game: str
    seed: int
    options: dict[str, str]
    actions: list[Any]
    seat: str | None = None
    """For hints: the seat asking (the hints are computed from its view only)."""


@dataclass(frozen=True)
class Answer:
    """What a worker computed, and what it cost there."""

    result: Any
    cpu_seconds: float
    pid: int


def _rebuild(task: Task) -> Any:
    """The game of a task, replayed from its seed, options and actions."""
    game = Game(get_rules(task.game), task.seed, task.options)
    for raw in task.actions:
        game.apply(Action.from_json(raw))
    return game


def run_task(task: Task, progress: Callable[[float], None]) -> Any:
    """Compute one task (in a worker process): JSON-ready data."""
    game = _rebuild(task)
    analysis = game_module(task.game).part("analysis")
    if analysis is None:
        raise ValueError(f"the game {task.game!r} has no analysis")
    if task.kind == "analysis":
        return analysis.analyze(game, progress=progress, search=make_bot)
    if task.kind == "curve":
        data = analysis.curve(game)
        return {"start_probability": data["start_probability"], "win_probability": data["win_probability"],
                "rounds": [c["round"] for c in data["cards"]], "steps": [c["step"] for c in data["cards"]],
                "finished": data["winner"] is not None or data["reason"] is not None}
    if task.kind == "hints":
        seat = task.seat
        if seat is None or game.active_seat != seat:
            return []
        return [a.to_json() for a in analysis.hints(game.view(seat), game.legal_actions(), seat, rules=game.rules,
                                                  search=make_bot)]
    raise ValueError(f"unknown task kind {task.kind!r}")


def _worker_main(conn: Connection) -> None:
    """A worker process: answer tasks one by one, telling progress while working."""
    # every game's analysis loaded before saying ready: the first task is not slowed by the imports
    for module in game_modules().values():
        module.part("analysis")

    conn.send(("ready", os.getpid()))
    while True:
        try:
            task: Task | None = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        started = time.process_time()
        try:
            result = run_task(task, lambda share: conn.send(("progress", share)))
            conn.send(("ok", json.dumps(result, ensure_ascii=False), time.process_time() - started))
        except Exception as exc:  # reported to the server, which logs it
            conn.send(("error", f"{type(exc).__name__}: {exc}", time.process_time() - started))


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, name: str) -> None:
        parent, child = context.Pipe()
        self.conn: Connection = parent
        self.process = context.Process(target=_worker_main, args=(child,), name=name, daemon=True)
        self.process.start()
        child.close()
        self.ready = False

    def run(self, task: Task, time_limit: float, progress: Callable[[float], None]) -> tuple[str, Any, float]:
        """Send a task and wait for its answer, passing progress on; ("timeout"/"dead", None, 0) if it overran
        or died. Runs in a thread of the web process (it only waits on the pipe)."""
        try:
            if not self.ready:  # a fresh process imports the analysis first (not counted in the time limit)
                if not self.conn.poll(120):
                    return "dead", None, 0.0
                self.conn.recv()
                self.ready = True
            self.conn.send(task)
            deadline = time.monotonic() + time_limit
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not self.conn.poll(left):
                    return "timeout", None, 0.0
                message = self.conn.recv()
                if message[0] == "progress":
                    progress(float(message[1]))
                    continue
                status, body, cpu = message
                return str(status), body, float(cpu)
        except (EOFError, OSError, BrokenPipeError):
            return "dead", None, 0.0

    def kill(self) -> None:
        """Stop the process at once."""
        self.process.kill()
        self.process.join(5)
        self.conn.close()


@dataclass(order=True)
class _Queued:
    priority: int
    seq: int
    task: Task = field(compare=False)
    future: asyncio.Future[Answer] = field(compare=False)
    progress: Callable[[float], None] = field(compare=False)


class ComputePool:
    """Worker processes computing :class:`Task` s, at most ``max_waiting`` tasks queued (beyond that
    :meth:`submit` raises :class:`PoolBusyError`), lower ``priority`` numbers first, each task bounded by
    ``time_limit`` seconds."""

    def __init__(self, name: str, workers: int = 1, time_limit: float = 300.0, max_waiting: int = 16) -> None:
        self.name = name
        self.size = max(1, workers)
        self.time_limit = time_limit
        self.max_waiting = max_waiting
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server process
        self._queue: list[_Queued] = []
        self._wake: asyncio.Event | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._workers: list[_Worker | None] = []
        self._current: list[_Queued | None] = []
        self._seq = itertools.count()
        self.pending = 0
        """Tasks submitted and not answered yet (queued or running)."""

    def submit(self, task: Task, priority: int = 0,
               progress: Callable[[float], None] | None = None) -> asyncio.Future[Answer]:
        """Queue a task (never waits); its answer comes in the returned future (TaskFailedError if it fails).
        Raises PoolBusyError if every worker is busy and ``max_waiting`` tasks are queued already."""
        if self.pending >= self.max_waiting + self.size:
            raise PoolBusyError(f"{self.name}: {self.pending} tasks are waiting or running")
        loop = asyncio.get_running_loop()
        if not self._runners:
            self._wake = asyncio.Event()
            self._workers = [None] * self.size
            self._current = [None] * self.size
            self._runners = [loop.create_task(self._serve(k)) for k in range(self.size)]
        future: asyncio.Future[Answer] = loop.create_future()
        self.pending += 1
        future.add_done_callback(self._answered)
        heapq.heappush(self._queue, _Queued(priority, next(self._seq), task, future, progress or (lambda _s: None)))
        assert self._wake is not None
        self._wake.set()
        return future

    def _answered(self, _future: asyncio.Future[Answer]) -> None:
        self.pending -= 1

    async def _serve(self, k: int) -> None:
        """One worker's loop: take the most urgent task, run it in the worker process, answer."""
        loop = asyncio.get_running_loop()
        assert self._wake is not None
        while True:
            while not self._queue:
                self._wake.clear()
                await self._wake.wait()
            item = heapq.heappop(self._queue)
            if item.future.cancelled():
                continue
            self._current[k] = item
            worker = self._workers[k]
            if worker is None:  # started on first use: a server that never analyses never pays for it
                worker = await asyncio.to_thread(_Worker, self._context, f"muster-{self.name}")
                self._workers[k] = worker

            def told(share: float, item: _Queued = item) -> None:
                loop.call_soon_threadsafe(item.progress, share)

            try:
                status, body, cpu = await asyncio.to_thread(worker.run, item.task, self.time_limit, told)
            finally:
                self._current[k] = None
            pid = worker.process.pid or 0
            if status in ("timeout", "dead"):
                await asyncio.to_thread(worker.kill)
                self._workers[k] = None
                how = "overran its" if status == "timeout" else "died within its"
                error = TaskFailedError(f"the {self.name} worker {how} {self.time_limit:g} s")
                if not item.future.done():
                    item.future.set_exception(error)
                continue
            if status != "ok":
                if not item.future.done():
                    item.future.set_exception(TaskFailedError(str(body)))
                continue
            if not item.future.done():
                item.future.set_result(Answer(json.loads(body), cpu, pid))

    async def close(self) -> None:
        """Stop the runners and the worker processes."""
        running = [item for item in self._current if item is not None]
        for runner in self._runners:
            runner.cancel()
        await asyncio.gather(*self._runners, return_exceptions=True)
        for item in [*running, *self._queue]:  # whoever awaits them hears the pool is gone
            if not item.future.done():
                item.future.cancel()
        for _ in range(3):  # let them handle it before the database goes away
            await asyncio.sleep(0)
        for worker in self._workers:
            if worker is not None:
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
                await asyncio.to_thread(worker.process.join, 2)
                if worker.process.is_alive():
                    await asyncio.to_thread(worker.kill)
        self._runners, self._workers, self._queue, self._current = [], [], [], []


def _env_number(name: str, default: float, low: float, high: float) -> float:
    value = float(os.environ.get(name, default))
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low:g} to {high:g}")
    return value


def analysis_pool_from_env() -> ComputePool:
    """The pool of post-game analyses: ``MUSTER_ANALYSIS_WORKERS`` processes (default 1), each analysis
    bounded by ``MUSTER_ANALYSIS_TIME_LIMIT`` seconds (default 300), at most ``MUSTER_ANALYSIS_QUEUE``
    waiting (default 8)."""
    return ComputePool("analysis", int(_env_number("MUSTER_ANALYSIS_WORKERS", 1, 1, 16)),
                       _env_number("MUSTER_ANALYSIS_TIME_LIMIT", 300, 1, 3600),
                       int(_env_number("MUSTER_ANALYSIS_QUEUE", 8, 0, 10_000)))


def advice_pool_from_env() -> ComputePool:
    """The pool of hints and live curves: ``MUSTER_ADVICE_WORKERS`` processes (default 1), each task
    bounded by ``MUSTER_ADVICE_TIME_LIMIT`` seconds (default 30), at most ``MUSTER_ADVICE_QUEUE`` waiting
    (default 32)."""
    return ComputePool("advice", int(_env_number("MUSTER_ADVICE_WORKERS", 1, 1, 16)),
                       _env_number("MUSTER_ADVICE_TIME_LIMIT", 30, 1, 600),
                       int(_env_number("MUSTER_ADVICE_QUEUE", 32, 0, 10_000)))
